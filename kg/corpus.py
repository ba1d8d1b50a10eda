"""Find the articles of a corpus directory and read them (I/O only).

A corpus directory holds, per article, `<slug>.txt` (the text, UTF-8),
`<slug>.ann` (brat standoff annotations; may be absent for an article not yet
annotated) and `<slug>.json` (metadata; optional), plus `annotation.conf` and
`aliases.toml`.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

from kg.annotations import parse_ann
from kg.conf import AnnotationConfig
from kg.errors import CorpusError
from kg.model import Annotations, Document, Metadata

# Characters XML 1.0 cannot carry: SPARQL XML results and RDF/XML would break on them.
CONTROL_CHARACTERS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_SLUG = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
CONFIG_FILE = "annotation.conf"
ALIASES_FILE = "aliases.toml"


@dataclass(frozen=True)
class DocumentFiles:
    """The files of one article; `ann` and `meta` may not exist."""

    slug: str
    txt: Path
    ann: Path
    meta: Path

    def paths(self) -> list[Path]:
        return [p for p in (self.txt, self.ann, self.meta) if p.exists()]

    def fingerprint(self) -> str:
        """SHA-256 over the article's files, to tell whether it changed since the last build."""
        digest = hashlib.sha256()
        for path in (self.txt, self.ann, self.meta):
            digest.update(path.name.encode())
            digest.update(path.read_bytes() if path.exists() else b"\0missing")
        return digest.hexdigest()

    def stat_key(self) -> list[int]:
        """Sizes and modification times: a cheap first check before hashing."""
        key = []
        for path in (self.txt, self.ann, self.meta):
            try:
                st = path.stat()
                key += [st.st_size, st.st_mtime_ns]
            except FileNotFoundError:
                key += [-1, -1]
        return key


def list_documents(corpus_dir: Path) -> list[DocumentFiles]:
    """Every article of the corpus, sorted by slug; an .ann without its .txt is an error."""
    corpus_dir = Path(corpus_dir)
    if not corpus_dir.is_dir():
        raise CorpusError("corpus directory not found (expected a directory of .txt/.ann files)", corpus_dir)
    texts = {p.stem for p in corpus_dir.glob("*.txt")}
    orphans = sorted(p for p in corpus_dir.glob("*.ann") if p.stem not in texts)
    if orphans:
        raise CorpusError(f"annotation file without its text (expected {orphans[0].stem}.txt beside it)", orphans[0])
    files = []
    for slug in sorted(texts):
        if not _SLUG.match(slug):
            raise CorpusError("file name cannot be used as a document id (expected letters, digits, '.', '_', '-')",
                              corpus_dir / f"{slug}.txt")
        files.append(DocumentFiles(slug, corpus_dir / f"{slug}.txt", corpus_dir / f"{slug}.ann",
                                   corpus_dir / f"{slug}.json"))
    return files


def read_text(path: Path) -> str:
    """Read a UTF-8 file; bad bytes give the line and column where they are."""
    data = Path(path).read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise CorpusError(f"not UTF-8: byte 0x{data[exc.start]:02x} cannot be decoded (expected UTF-8 text)",
                          path, line, column) from exc
    if text.startswith("\ufeff"):
        raise CorpusError("starts with a byte-order mark (expected UTF-8 without BOM, offsets count from the first character)", path, 1, 1)
    bad = CONTROL_CHARACTERS.search(text)
    if bad:
        line = text.count("\n", 0, bad.start()) + 1
        column = bad.start() - (text.rfind("\n", 0, bad.start()) + 1) + 1
        raise CorpusError(f"control character U+{ord(bad.group()):04X} (expected text without control characters "
                          "other than tab and line breaks: RDF/XML and SPARQL XML results cannot carry them)",
                          path, line, column)
    return text


def read_metadata(files: DocumentFiles, text: str) -> Metadata:
    """The article's metadata record; without one, the title is the first line of the text."""
    if not files.meta.exists():
        first = next((line.strip() for line in text.splitlines() if line.strip()), files.slug)
        return Metadata(title=first)
    raw = read_text(files.meta)
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise CorpusError(f"invalid JSON: {exc.msg} (expected a metadata object)", files.meta, exc.lineno, exc.colno) from exc
    if isinstance(data, dict) and any(isinstance(v, str) and CONTROL_CHARACTERS.search(v) for v in data.values()):
        raise CorpusError("control character in a metadata value (expected text without control characters)",
                          files.meta, 1)
    if not isinstance(data, dict) or not isinstance(data.get("title"), str) or not data["title"].strip():
        raise CorpusError("metadata needs a non-empty \"title\" (expected {\"title\": ..., \"publisher\": ..., \"date\": ...})", files.meta, 1)
    fields = {}
    for name in ("publisher", "author", "date", "date_note", "language"):
        value = data.get(name)
        if value is not None and not isinstance(value, str):
            raise CorpusError(f"metadata field {name!r} must be a string or null", files.meta, _line_of(raw, name))
        if value is not None:
            fields[name] = value
    _check_metadata_values(files.meta, raw, fields)
    return Metadata(title=data["title"], **fields)


def _check_metadata_values(path: Path, raw: str, fields: dict) -> None:
    date = fields.get("date")
    if date is not None and not re.fullmatch(r"\d{4}(-\d{2}(-\d{2})?)?", date):
        raise CorpusError(f"bad date {date!r} (expected YYYY-MM-DD, YYYY-MM or YYYY)", path, _line_of(raw, "date"))
    for name in ("publisher", "author"):
        value = fields.get(name)
        if value is not None and not re.fullmatch(r"[a-z]+/[a-z0-9]+(-[a-z0-9]+)*", value):
            raise CorpusError(f"bad {name} {value!r} (expected an alias-table key such as organization/npr)",
                              path, _line_of(raw, name))


def _line_of(raw: str, key: str) -> int:
    for number, line in enumerate(raw.splitlines(), start=1):
        if f'"{key}"' in line:
            return number
    return 1


def read_document(files: DocumentFiles, config: AnnotationConfig) -> Document:
    """Read and check one article; raises CorpusError or InputErrors."""
    text = read_text(files.txt)
    metadata = read_metadata(files, text)
    annotations = Annotations()
    if files.ann.exists():
        annotations = parse_ann(files.ann, read_text(files.ann), text, config)
    return Document(files.slug, text, metadata, annotations)
