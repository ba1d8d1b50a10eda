"""The documents a watcher says changed, read without scanning the corpus.

When `kg serve --watch` names the paths changed since the current build (kg.pipeline.survey.watched), a
build need not walk 300,000 files to find the three that changed: it takes the current build's
manifest for every other document and stats the named paths alone. That holds only where the
named paths cannot change what the scan would make of the rest, so this path is taken for brat
texts, annotations and metadata (`.txt`, `.ann`, `.json`) of documents in directories that were
already there, in a corpus of brat documents alone. Anything else (a configuration, a new or
removed directory, a file the scan would report or list as not read, an INCEpTION document, a
document id that could collide with another) returns None, and the build scans as it always did:
the same plan, found the long way.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from kg.formats import registry
from kg.formats.brat.conf import find_config
from kg.formats.corpus import SUGGESTED_SUFFIX, DocumentFiles
from kg.model.document_ids import document_id, document_path, is_utf8_name
from kg.model.iris import RESERVED_GRAPHS

BRAT_SUFFIXES = (".txt", ".ann", ".json")
MAX_NAMED = 2_000  # past this many changed paths, the scan is as quick and says more


@dataclass
class Changes:
    """What the named paths make of the corpus: documents present (to compare with the manifest)
    and document ids no longer there."""

    present: list[DocumentFiles]
    gone: list[str]


def named_changes(corpus_dir: Path, paths: list[str], previous: dict) -> Changes | None:
    """The documents behind `paths` (relative to the corpus, '/'-separated), or None when the corpus
    must be scanned to know what they change. `previous` is the current build's manifest."""
    if len(paths) > MAX_NAMED:
        return None
    stems: dict[str, None] = {}
    for path in paths:
        stem = _document_stem(path)
        if stem is None:
            return None
        stems[stem] = None
    known = previous.get("documents", {})
    present, gone = [], []
    for stem in stems:
        slug = document_id(stem)
        if document_path(slug) != stem or slug in RESERVED_GRAPHS or not is_utf8_name(stem):
            return None  # an id another spelling may share, the build's own, a name to refuse: the scan says which
        found = _document(corpus_dir, stem, slug)
        if found is False:
            return None
        if found is None:
            if slug in known:
                gone.append(slug)
        elif slug in known or not _may_collide(slug, known):
            present.append(found)
        else:
            return None
    return Changes(present, gone)


def _document_stem(path: str) -> str | None:
    """The document a changed path belongs to (its path without suffix), or None when the change
    is not a brat document's file."""
    parts = path.split("/")
    if not path or path.endswith("/") or any(not p or p.startswith(".") for p in parts):
        return None
    if path.endswith(SUGGESTED_SUFFIX) or not path.endswith(BRAT_SUFFIXES):
        return None
    return path.rpartition(".")[0]


def _document(corpus_dir: Path, stem: str, slug: str) -> DocumentFiles | None | bool:
    """The document of `stem` as the scan would list it; None when it has no file left; False when
    the scan is needed (an annotation or metadata file without its text, a text that is not a
    readable regular file, a directory that is not there)."""
    base = os.path.join(corpus_dir, stem)
    stats = [_stat(base + suffix) for suffix in BRAT_SUFFIXES]
    text = stats[0]
    if text is None:
        return None if stats[1] is None and stats[2] is None else False
    if text is False or any(s is False for s in stats) or registry.format_of(stem + ".txt") is not registry.BRAT:
        return False
    key: list[int] = []
    for item in stats:
        key += [-1, -1, -1] if item is None else [item.st_size, item.st_mtime_ns, item.st_ctime_ns]
    config = find_config(Path(base).parent, Path(corpus_dir))
    if config is None:  # a document no annotation.conf covers makes its own: the inputs change
        return False
    return DocumentFiles(slug, base + ".txt", base + ".ann", base + ".json", config, scanned=tuple(key))


def _stat(path: str) -> os.stat_result | None | bool:
    """A file's stat (links followed); None when it does not exist; False when it is not a regular
    file this process may read, or its directory is gone (the scan reports those)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None if os.path.isdir(os.path.dirname(path)) else False
    except OSError:
        return False
    if not stat.S_ISREG(st.st_mode) or not os.access(path, os.R_OK):
        return False
    return st


def _may_collide(slug: str, known: dict) -> bool:
    """Whether a new document id could take the IRI of another document's annotation (a/b/T1 beside
    document a), which the scan refuses: said only by the scan."""
    parts = slug.split("/")
    if len(parts) >= 3 and parts[-1][:1].isupper():
        return True
    prefix = slug + "/"
    return any(other.startswith(prefix) for other in known)
