"""The network view's index, kept by each build and patched by the next (build_dirs.VIEW_INDEX_DIR).

A page of the view shows a few hundred nodes of graphs of millions; everything else comes on
demand. So a build keeps, beside its store, what those requests read, by node: the rows of the
view (every graph's part, kg.model.view_parts, as rows of its source), each node's family, kind,
mentions, degree and score, the whole graph's rankings (types, kinds of event, relations, dated
events, figures by what they count), and the overview (the nodes the page opens on: the best
score, a few hundred, the `view_nodes` setting). A full build writes them whole (the base); an
incremental build writes only a delta over the previous build's base, from the documents it read
again and the records it rewrote, and hard-links the base, until the delta outgrows a tenth of the
base (then the two are written again as one base). No request reads every row.

    tables.py     the files, their tables and how they are opened
    write.py      the rows of a part into a segment
    state.py      the index's rows as one set in SQL: the base less what the delta replaced, plus the delta
    derive.py     nodes, rankings and overview, in SQL
    edge_delta.py an edit's edges: the kept ones patched by the links of the sources it replaced
    segments.py   writing a base, a delta, a compacted base
    read.py       ViewIndex: what a page, a neighbourhood or a filter shows, and the summaries

Every file is sealed (kg.store.checksums): a damaged one is not read, and the view reads the store
instead, as for a build that kept no index.

May import kg.model, kg.store.build_dirs, kg.store.checksums and kg.publish.view_data.
"""

from __future__ import annotations

import os
import pickle
import sqlite3
from pathlib import Path
from typing import Iterable

from kg.model.view_parts import ViewPart, unpack
from kg.publish.view_data import ViewParts, ViewSchema, record_parts
from kg.publish.view_index import segments, tables
from kg.publish.view_index.read import SENTENCES_SHOWN, Scored, ViewIndex, ViewRows
from kg.settings import setting
from kg.store import build_dirs, checksums

__all__ = ["SENTENCES_SHOWN", "Scored", "ViewIndex", "ViewRows", "load_head", "open_index", "patch_index",
           "write_index"]

_HEAD_FORMAT = "kg-view-index-1"
COMPACT_SHARE = 0.1  # a delta with more sources than this share of the base's is compacted into a new base
COMPACT_MIN = 200  # ... and never one with fewer sources


def write_index(build_dir: Path, parts: ViewParts, overview_size: int | None = None) -> None:
    """Keep a full build's view index: the schema and every part, in a new base."""
    directory = _directory(build_dir)
    directory.mkdir()
    _dump(directory / tables.HEAD_FILE, (_HEAD_FORMAT, parts.schema, parts.ontology))
    segments.write_base(directory / tables.BASE_FILE, parts.schema, _named(parts), _size(overview_size))


def patch_index(build_dir: Path, previous_dir: Path, documents: dict[str, bytes], dropped: Iterable[str],
                records_nquads: str, touched: Iterable[str], overview_size: int | None = None) -> bool:
    """Keep the previous build's view index with the documents `dropped` (changed or removed) and the
    records `touched` replaced by `documents` and the records of `records_nquads` (those rewritten):
    a new delta, the base hard-linked. False (nothing written) when that build kept none."""
    head = load_head(previous_dir)
    before = _directory(previous_dir)
    if head is None or not _intact(before):
        return False
    schema, _ = head
    directory = _directory(build_dir)
    directory.mkdir()
    for name in (tables.HEAD_FILE, tables.BASE_FILE):
        os.link(before / name, directory / name)
        checksums.link_seal(before / name, directory / name)
    previous = before / tables.DELTA_FILE
    previous = previous if previous.is_file() else None
    records = record_parts(records_nquads, schema.classes)
    changed = {f"d:{slug}" for slug in dropped} | {f"d:{slug}" for slug in documents}
    changed |= {f"r:{key}" for key in touched} | {f"r:{key}" for key in records}
    parts = [(f"d:{slug}", unpack(part)) for slug, part in sorted(documents.items())]
    parts += [(f"r:{key}", unpack(part)) for key, part in sorted(records.items())]
    size = _size(overview_size)
    segments.write_delta(directory / tables.DELTA_FILE, directory / tables.BASE_FILE, previous, parts, changed, size)
    if _outgrown(directory):
        segments.compact(directory / tables.BASE_FILE, directory / tables.DELTA_FILE, size)
    return True


def open_index(build_dir: Path) -> ViewIndex | None:
    """The view index a build kept, or None when it kept none (a build made before kg kept it) or
    it cannot be read."""
    head = load_head(build_dir)
    directory = _directory(build_dir)
    if head is None or not _intact(directory):
        return None
    delta = directory / tables.DELTA_FILE
    try:
        return ViewIndex(head[0], directory / tables.BASE_FILE, delta if delta.is_file() else None)
    except (sqlite3.Error, KeyError, ValueError):
        return None


def load_head(build_dir: Path) -> tuple[ViewSchema, ViewPart] | None:
    """The schema and the ontology's part a build kept, or None when it kept none or they cannot be read."""
    path = _directory(build_dir) / tables.HEAD_FILE
    if not checksums.intact(path):
        return None
    try:
        tag, schema, ontology = pickle.loads(path.read_bytes())
    except Exception:  # noqa: BLE001 - a cache: whatever is wrong with it, the store is asked instead
        return None
    return (schema, ontology) if tag == _HEAD_FORMAT and isinstance(schema, ViewSchema) else None


def _named(parts: ViewParts) -> Iterable[tuple[str, ViewPart]]:
    yield "o:", parts.ontology
    for slug, part in parts.documents.items():
        yield f"d:{slug}", unpack(part)
    for key, part in parts.records.items():
        yield f"r:{key}", unpack(part)


def _intact(directory: Path) -> bool:
    """Whether a kept index's segments are there and still give their checksums (kg.store.checksums):
    a damaged one is not read (the view reads the store instead) nor carried into the next build."""
    delta = directory / tables.DELTA_FILE
    return checksums.intact(directory / tables.BASE_FILE) and (not delta.exists() or checksums.intact(delta))


def _outgrown(directory: Path) -> bool:
    """True when the delta holds more sources than COMPACT_SHARE of the base's (and COMPACT_MIN)."""
    counts = []
    for name in (tables.BASE_FILE, tables.DELTA_FILE):
        connection = tables.open_read(directory / name)
        try:
            counts.append(connection.execute("SELECT COUNT(*) FROM sources").fetchone()[0])
        finally:
            connection.close()
    base, delta = counts
    return delta > max(COMPACT_MIN, COMPACT_SHARE * base)


def _size(overview_size: int | None) -> int:
    return int(setting("view_nodes")) if overview_size is None else overview_size


def _directory(build_dir: Path) -> Path:
    return Path(build_dir) / build_dirs.VIEW_INDEX_DIR


def _dump(path: Path, value: object) -> None:
    path.write_bytes(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))
    checksums.seal(path)
