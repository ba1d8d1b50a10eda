"""Find the articles of a corpus directory and read them (I/O only).

A corpus directory holds, per article, `<slug>.txt` (the text, UTF-8),
`<slug>.ann` (brat standoff annotations; may be absent for an article not yet
annotated) and `<slug>.json` (metadata; optional), plus `annotation.conf`,
`aliases.toml` and `kg.toml`. Like a brat collection, articles may sit in
sub-directories, each read with the nearest annotation.conf up the tree.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import re
import zipfile
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from kg.errors import CorpusError, InputError, InputErrors, InputWarning
from kg.formats import limits, registry
from kg.formats.brat.conf import CONFIG_FILE, MAPPING_FILE, AnnotationConfig, decode_utf8, find_config, parse_config
from kg.formats.corpus_files import Found, files_listed, walk_files
from kg.formats.positions import json_key_line, line_column
from kg.formats.registry import TYPE_SYSTEM, InputFormat
from kg.model.document_ids import document_id, is_utf8_name, shown_path
from kg.model.iris import RESERVED_GRAPHS

if TYPE_CHECKING:  # the reading modules are imported when a document is read: a scan needs none of them
    from kg.formats.records import BratDocument, Document, Metadata

# Characters XML 1.0 cannot carry: SPARQL XML results and RDF/XML would break on them.
CONTROL_CHARACTERS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
ALIASES_FILE = "aliases.toml"
# Files of the corpus that are not documents but are read (or, for brat's own, accepted) by kg.
CORPUS_FILES = (CONFIG_FILE, ALIASES_FILE, MAPPING_FILE, "tools.conf", "visual.conf", "kb_shortcuts.conf",
                TYPE_SYSTEM, "typesystem.xml")
DOCUMENT_SUFFIXES = (*registry.SUFFIXES, ".ann", ".json")
SUGGESTED_SUFFIX = ".suggested.ann"  # kg suggest's output beside an article: for review, not a document
MAX_TEXT_BYTES = limits.TEXT.bytes  # a news article is far smaller; a larger file is refused, never half-read
MAX_METADATA_CHARS = 64 * 2**10
_LOCAL_ID = re.compile(r"^[A-Z]+\d+$")


@dataclass(frozen=True)
class DocumentFiles:
    """The files of one article; `ann` and `meta` may not exist. `slug` is the article's id, its
    path relative to the corpus without extension as an IRI path (`news/2019/a1` for
    news/2019/a1.txt, `a%20b` for `a b.txt`: kg.model.document_ids.document_id).

    The paths are kept as given (the scan gives strings) and made Path objects only when asked
    for: a build that finds nothing to do never needs them, and at 10,000 articles making
    30,000 of them costs a good part of its time. `scanned` holds what the scan's stat found
    (see stat_key)."""

    slug: str
    txt_file: str | os.PathLike
    ann_file: str | os.PathLike
    meta_file: str | os.PathLike
    config: Path | None = None
    member: str | None = None  # for a document in an INCEpTION export zip: its name there, without .xmi
    scanned: tuple[int, ...] | None = field(default=None, compare=False, repr=False)

    @cached_property
    def txt(self) -> Path:
        return Path(self.txt_file)

    @cached_property
    def ann(self) -> Path:
        return Path(self.ann_file)

    @cached_property
    def meta(self) -> Path:
        return Path(self.meta_file)

    @property
    def format(self) -> InputFormat:
        """The format of its main file (kg.formats.registry)."""
        return registry.BY_SUFFIX[registry.suffix(os.fspath(self.txt_file))]

    @property
    def converted(self) -> bool:
        """Read by a format's reader (INCEpTION XMI, WebAnno TSV...): text and annotations come from
        its main file, and the annotation.conf from the layers it declares."""
        return self.format is not registry.BRAT

    @property
    def source(self) -> str:
        """Where the document's text and annotations are: a file, or a zip and its member."""
        return f"{self.txt}!{self.member}" if self.member else str(self.txt)

    def paths(self) -> list[Path]:
        return [p for p in (self.txt, self.ann, self.meta) if p.exists()]

    def fingerprint(self) -> str:
        """SHA-256 over the article's files, to tell whether it changed since the last build."""
        digest = hashlib.sha256()
        for path in (self.txt, self.ann, self.meta, *self._type_system()):
            digest.update(path.name.encode())
            limits.digest_file(path, digest)
        digest.update((self.config.name if self.config else "").encode())  # which configuration reads it
        return digest.hexdigest()

    def _type_system(self) -> list[Path]:
        return [self.txt.parent / name for name in self.format.companions]

    def stat_key(self) -> list[int]:
        """Sizes, modification and change times: a cheap first check before hashing (those the
        scan found, when the scan made this). The change time is there for an edit that keeps
        the size and sets the modification time back (a copy that preserves times): no user can
        set it, so such a file is hashed again."""
        if self.scanned is not None:
            return list(self.scanned)
        key = []
        for path in (self.txt, self.ann, self.meta, *self._type_system()):
            try:
                key += _stat_of(path.stat())
            except FileNotFoundError:
                key += MISSING_STAT
        return key


@dataclass(frozen=True)
class Listing:
    """What a corpus directory holds: its documents and the files that are not part of any."""

    documents: list[DocumentFiles]
    ignored: list[Path]
    configs: list[Path]


def not_read(paths: list[Path]) -> str:
    """The line that says which files of the corpus are no document's (never skipped silently)."""
    names = ", ".join(str(p) for p in paths[:5]) + (", ..." if len(paths) > 5 else "")
    return (f"{len(paths)} files not read (kg reads documents {registry.read_formats()}, their .ann and .json, "
            f"and the corpus's configuration files): {names}")


def scan_corpus(corpus_dir: Path, listed: bytes | None = None) -> Listing:
    """Walk the corpus (a brat collection: documents in any sub-directory, each read with the
    nearest annotation.conf up the tree). Every file is a document's, a configuration, or
    listed as ignored; files that are not regular readable files are errors. `listed`: what find
    listed when it took the corpus's stamp (kg.formats.corpus_stamp), read instead of a second stat
    of every file when it vouches for the whole tree."""
    corpus_dir = Path(corpus_dir)
    if not corpus_dir.is_dir():
        raise CorpusError("corpus directory not found (expected a directory of .txt/.ann files)", corpus_dir)
    found = files_listed(corpus_dir, listed, _wanted) if listed is not None else None
    found = walk_files(corpus_dir, _wanted) if found is None else found
    errors: list[InputError] = []
    mains = _main_files(found, errors)
    stems = set(mains)
    for name in sorted(found):
        if name.endswith(".ann") and name[:-4] not in stems and not name.endswith(SUGGESTED_SUFFIX):
            errors.append(CorpusError(f"annotation file without its text (expected {Path(name).stem}.txt beside it)",
                                      Path(found[name].path)))
    taken = {document_id(stem): "" for stem in stems}  # document id -> the file that took it
    documents, used = _documents(corpus_dir, found, mains, taken, errors)
    archives = {n: Path(f.path) for n, f in found.items() if (row := registry.format_of(n)) and row.holds}
    documents += _zip_documents(corpus_dir, list(archives.values()), taken, errors)
    if errors:
        raise InputErrors(errors)
    documents.sort(key=lambda d: d.slug)
    read = {d.txt for d in documents if d.member is not None}  # archives holding documents
    used.update(n[:-4] + suffix for n, path in archives.items() if path in read for suffix in (".zip", ".json"))
    configs = sorted(Path(f.path) for n, f in found.items() if f.name in CORPUS_FILES)
    ignored = sorted(Path(f.path) for n, f in found.items() if n not in used and f.name not in CORPUS_FILES)
    return Listing(documents, ignored, configs)


def _wanted(name: str) -> bool:
    """Whether a file of this name is read by kg (so must be a regular readable file)."""
    return name.endswith(DOCUMENT_SUFFIXES) or name in CORPUS_FILES


def _main_files(found: dict[str, Found], errors: list[InputError]) -> dict[str, str]:
    """The main file of each document that is not in an archive, by document id: the files whose
    format the registry knows. Two of one id (a.txt and a.xmi) are an error."""
    mains: dict[str, str] = {}
    for name in sorted(found):
        row = registry.format_of(name, lambda: _head(found[name].path))
        if row is None or row.holds:  # an archive's documents are its members (_zip_documents)
            continue
        slug = name[:-len(row.suffix)]
        if slug in mains:
            other = Path(mains[slug]).name
            errors.append(CorpusError(f"both {other} and {Path(name).name} (expected one form of a document: "
                                      f"{registry.read_formats()})", Path(found[name].path)))
            continue
        mains[slug] = name
    return mains


def _head(path: str) -> bytes:
    """The first bytes of a file, for the registry to tell its format by (b"" if unreadable: the
    file is then not taken for a document of a format that needs them)."""
    try:
        with open(path, "rb") as opened:
            return opened.read(registry.MAGIC_BYTES)
    except OSError:
        return b""


def _documents(corpus_dir: Path, found: dict[str, Found], mains: dict[str, str], taken: dict[str, str],
               errors: list[InputError]) -> tuple[list[DocumentFiles], set[str]]:
    """The documents of the scan that are not in an archive, and the names of the files they use;
    `taken` gets the file of each document id."""
    documents, used = [], set()
    configs: dict[str, Path | None] = {}  # per directory: its documents all read with one configuration
    for stem, text_name in sorted(mains.items()):
        slug, text = document_id(stem), found[text_name].path
        problem = _slug_problem(stem, slug, taken)
        if problem:
            errors.append(CorpusError(problem, Path(text)))
            continue
        taken[slug] = text
        names = (text_name, stem + ".ann", stem + ".json")
        directory = stem.rpartition("/")[0]
        row = registry.BY_SUFFIX[registry.suffix(text_name)]
        names += tuple(f"{directory}/{name}" if directory else name for name in row.companions)
        used.update(names[:3] if row is registry.BRAT else names[:3:2])  # an .ann beside an .xmi is not read
        if directory not in configs:
            configs[directory] = find_config(Path(os.path.dirname(text)), corpus_dir)
        base = text[:-len(text_name) + len(stem)]
        documents.append(DocumentFiles(slug, text, base + ".ann", base + ".json", configs[directory],
                                       scanned=_stat_key(found, names)))
    return documents, used


def _stat_key(found: dict[str, Found], names: tuple[str, ...]) -> tuple[int, ...]:
    """DocumentFiles.stat_key from the scan's stats: size, modification and change time per file,
    -1 for a missing one."""
    key: list[int] = []
    for name in names:
        item = found.get(name)
        key += [item.size, item.mtime_ns, item.ctime_ns] if item else MISSING_STAT
    return tuple(key)


MISSING_STAT = [-1, -1, -1]


def _stat_of(st: os.stat_result) -> list[int]:
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns]


def _zip_documents(corpus_dir: Path, archives: list[Path], taken: dict[str, str],
                   errors: list[InputError]) -> list[DocumentFiles]:
    """The documents of INCEpTION export archives: `a.zip` holding one .xmi is document `a`; one
    holding several gives `a/<name>` for each."""
    documents = []
    for archive in archives:
        stem = archive.relative_to(corpus_dir).as_posix()[:-4]
        size = archive.stat().st_size
        if size > limits.ARCHIVE.bytes:  # before its directory is read: millions of entries fit in a large zip
            errors.append(limits.too_large(size, limits.ARCHIVE, archive, CorpusError, "archive of"))
            continue
        try:
            with zipfile.ZipFile(archive) as opened:
                holds = registry.BY_SUFFIX[registry.suffix(archive.name)].holds
                members = sorted(n[:-len(holds)] for n in opened.namelist() if n.lower().endswith(holds))
        except (OSError, zipfile.BadZipFile) as exc:
            errors.append(CorpusError(f"cannot read the archive ({exc}) (expected a zip file as INCEpTION exports)",
                                      archive))
            continue
        for member in members:
            path = stem if len(members) == 1 else f"{stem}/{member}"
            slug = document_id(path)
            problem = _slug_problem(path, slug, taken)
            if problem:
                errors.append(CorpusError(problem, archive))
                continue
            taken[slug] = f"{archive}!{member}"
            documents.append(DocumentFiles(slug, archive, archive.with_suffix(".ann"), archive.with_suffix(".json"),
                                           None, member))
    return documents


def _slug_problem(path: str, slug: str, taken: dict[str, str]) -> str | None:
    """Why a document path (giving the id `slug`) cannot name a document, or None. `taken` holds
    every id of the corpus, with the file that took it once one has."""
    parts = slug.split("/")
    if not (path.isascii() or is_utf8_name(path)):  # an ASCII name has no byte that was not UTF-8
        return ("file or folder name that is not UTF-8 (expected UTF-8 names, as brat and INCEpTION list them: "
                "rename it, e.g. with convmv)")
    if "" in parts:
        return "empty folder name in the document's path (expected names between its slashes)"
    if path.startswith(".") or "/." in path:
        return ("hidden file name (brat lists no file or folder whose name starts with '.'; expected a name "
                "that does not)")
    if taken.get(slug):
        return (f"document id {slug!r} is taken by {taken[slug]} too (expected names that differ in more than "
                "Unicode normalization, one document of each name)")
    if slug in RESERVED_GRAPHS:
        return (f"a document named {slug!r} would take the name of the build's own graph kgg:{slug} "
                "(expected another name)")
    if len(parts) >= 3 and "/".join(parts[:-2]) in taken and _LOCAL_ID.match(parts[-1]):
        return (f"document id {slug!r} would collide with the IRI of annotation {parts[-1]} of document "
                f"{'/'.join(parts[:-2])!r} (expected another directory or file name)")
    return None


def read_text(path: Path) -> str:
    """Read a UTF-8 file (at most MAX_TEXT_BYTES); bad bytes give the line and column where they are."""
    text = decode_utf8(limits.read_bounded(path, limits.TEXT, CorpusError), path, CorpusError)
    if text.startswith("\ufeff"):
        raise CorpusError("starts with a byte-order mark (expected UTF-8 without BOM, offsets count from the first character)", path, 1, 1)
    bad = CONTROL_CHARACTERS.search(text)
    if bad:
        line, column = line_column(text, bad.start())
        raise CorpusError(f"control character U+{ord(bad.group()):04X} (expected text without control characters "
                          "other than tab and line breaks: RDF/XML and SPARQL XML results cannot carry them)",
                          path, line, column)
    return text


def read_metadata(files: DocumentFiles) -> Metadata:
    """The article's metadata record; without one, the title is the document's file name within the
    corpus, without its extension (dev/1718154_text): its first line may be anything ("The Chairman:"),
    and every citation shows the title."""
    from kg.formats.records import Metadata

    if not files.meta.exists():
        return Metadata(title=shown_path(files.slug))
    raw = read_text(files.meta)
    if len(raw) > MAX_METADATA_CHARS:
        raise CorpusError(f"metadata record of {len(raw):,} characters (expected at most {MAX_METADATA_CHARS:,})",
                          files.meta, 1)
    try:
        data = json.loads(raw, object_pairs_hook=_refuse_repeated_keys)
    except _RepeatedKey as exc:
        raise CorpusError(f"field {exc.key!r} given twice (expected each field once)", files.meta,
                          json_key_line(raw, exc.key, occurrence=2)) from exc
    except json.JSONDecodeError as exc:
        raise CorpusError(f"invalid JSON: {exc.msg} (expected a metadata object)", files.meta, exc.lineno, exc.colno) from exc
    except (RecursionError, ValueError) as exc:  # nesting deeper than Python recurses; a number too long to convert
        raise CorpusError(f"unreadable JSON: {str(exc).splitlines()[0][:120]} (expected a flat metadata object)",
                          files.meta, 1) from exc
    if isinstance(data, dict) and any(isinstance(v, str) and CONTROL_CHARACTERS.search(v) for v in data.values()):
        raise CorpusError("control character in a metadata value (expected text without control characters)",
                          files.meta, 1)
    if not isinstance(data, dict):
        raise CorpusError(f"metadata is {_json_kind(data)} "
                          "(expected an object: {\"title\": ..., \"publisher\": ..., \"date\": ...})", files.meta, 1)
    if not isinstance(data.get("title"), str) or not data["title"].strip():
        raise CorpusError("metadata needs a non-empty \"title\" "
                          "(expected {\"title\": ..., \"publisher\": ..., \"date\": ...})", files.meta, json_key_line(raw, "title"))
    fields = {}
    for name in ("publisher", "author", "date", "date_note", "language"):
        value = data.get(name)
        if value is not None and not isinstance(value, str):
            raise CorpusError(f"metadata field {name!r} is {_json_kind(value)} (expected a string or null)",
                              files.meta, json_key_line(raw, name))
        if value is not None:
            fields[name] = value
    _check_metadata_values(files.meta, raw, fields)
    return Metadata(title=data["title"], **fields)


def _check_metadata_values(path: Path, raw: str, fields: dict) -> None:
    date = fields.get("date")
    if date is not None and not _real_date(date):
        raise CorpusError(f"bad date {date!r} (expected YYYY-MM-DD, YYYY-MM or YYYY)", path,
                          json_key_line(raw, "date"))
    for name in ("publisher", "author"):
        value = fields.get(name)
        if value is not None and not re.fullmatch(r"[a-z]+/[a-z0-9]+(-[a-z0-9]+)*", value):
            raise CorpusError(f"bad {name} {value!r} (expected an alias-table key such as organization/npr)",
                              path, json_key_line(raw, name))


def _real_date(value: str) -> bool:
    """'2019', '2019-02' or '2019-02-23', each part in range ('2019-13' is not a date)."""
    if not re.fullmatch(r"\d{4}(-\d{2}(-\d{2})?)?", value):
        return False
    try:
        datetime.date.fromisoformat(value + "-01-01"[len(value) - 4:])
    except ValueError:
        return False
    return True


def _json_kind(value: object) -> str:
    """What a decoded JSON value is, in JSON's words."""
    kinds = ((bool, "a boolean"), ((int, float), "a number"), (list, "an array"), (dict, "an object"),
             (str, "a string"))
    return next((name for kind, name in kinds if isinstance(value, kind)), "null")


class _RepeatedKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _refuse_repeated_keys(pairs: list[tuple[str, object]]) -> dict:
    """A JSON object whose keys are each given once (json keeps the last of two silently)."""
    seen: dict = {}
    for key, value in pairs:
        if key in seen:
            raise _RepeatedKey(key)
        seen[key] = value
    return seen


def read_document(files: DocumentFiles, config: AnnotationConfig) -> Document:
    """Read and check one article; raises CorpusError or InputErrors. A document of another format
    than brat is converted by its reader (kg.formats.registry) and read with the configuration its
    own layers make (`converted_config`)."""
    from kg.formats.brat.ann import parse_ann
    from kg.formats.records import Annotations, Document

    if files.converted:
        converted = _converted(files)
        annotations = parse_ann(Path(files.source), converted.ann, converted.text,
                                parse_config(converted.conf, files.source))
        left_out = tuple(InputWarning(warning, files.source, line, count=count)
                         for warning, count, line in converted.warnings)
        annotations = replace(annotations, warnings=left_out + annotations.warnings)
        return Document(files.slug, converted.text, read_metadata(files), annotations, files.source)
    text = read_text(files.txt)
    metadata = read_metadata(files)
    annotations = Annotations()
    if files.ann.exists():
        annotations = parse_ann(files.ann, read_text(files.ann), text, config)
    return Document(files.slug, text, metadata, annotations, str(files.ann))


def converted_config(files: DocumentFiles) -> AnnotationConfig:
    """The annotation configuration the layers of a converted document (INCEpTION, WebAnno) declare."""
    converted = _converted(files)
    return replace(parse_config(converted.conf, files.source), labels=dict(converted.labels))


def _converted(files: DocumentFiles) -> BratDocument:
    return files.format.read(files.txt, files.member)
