"""The network view's data, kept by each build and patched by the next (build_dirs.VIEW_PARTS_DIR).

The directory holds the view's schema (which classes are nodes, their families and ancestors, the
labels of classes and properties: all of it from the ontology graph, which an incremental build
never changes) and the part of every document graph and every entity record
(kg.model.view_parts), spread over SHARDS files by a hash of the slug or key. A full build writes
it from what it reads; an incremental build replaces the parts of the documents it read again and
of the records it rewrote, and drops those of the documents removed: it reads and writes again
only the files they fall in and hard-links the others to the previous build's. The view (kg.viz) merges the parts: no query
over the whole store at view time.
"""

from __future__ import annotations

import os
import pickle
import zlib
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from kg.model import iris
from kg.model.default_alignment import ENTITY_ROOT
from kg.model.iris import ONTOLOGY, prologue
from kg.model.view_parts import ViewPart, pack, split_by_subject, unpack, view_part
from kg.store import build_dirs
from kg.store.protocol import Select

_FORMAT = "kg-view-parts-3"
SHARDS = 64  # files each kind of part is spread over: an edit rewrites the few holding its parts, links the rest
_HEAD, _DOCUMENTS, _RECORDS = "head.pickle", "d", "r"

# Node families in priority order (a node of two families shows as the first); the last is the
# family of the entities whose type is the corpus's own, aligned to none of kg's classes.
FAMILIES = ("Event", "Person", "Group", "Organization", "Place", "Date", "Figure", "Quote", "Entity")
CORPUS_FAMILY = FAMILIES[-1]



@dataclass
class ViewSchema:
    """`labels` {class or property IRI: label}, `supers` {class: every ancestor}, `classes`
    {class whose instances are nodes: family}."""

    labels: dict[str, str]
    supers: dict[str, set[str]]
    classes: dict[str, str]


def view_schema(select: Select) -> ViewSchema:
    """The schema of the graph `select` answers for (only its ontology graph is read)."""
    supers = superclasses(select)
    return ViewSchema(ontology_labels(select), supers, view_classes(select, supers))


def ontology_labels(select: Select) -> dict[str, str]:
    """rdfs:label of every class and property in the ontology graph (English or plain first)."""
    rows = select(prologue() + f"""
        SELECT ?t ?label (LANG(?label) AS ?lang) WHERE {{
          GRAPH <{iris.ONTOLOGY_GRAPH}> {{ ?t rdfs:label ?label }} }}""")
    labels: dict[str, str] = {}
    for row in sorted(rows, key=lambda r: r.get("lang", "") not in ("", "en")):
        labels.setdefault(row["t"], row["label"])
    return labels


def superclasses(select: Select) -> dict[str, set[str]]:
    """{class: its ancestors} of every class with one."""
    # `?c rdfs:subClassOf+ ?s` as one step then `*`: the same pairs, and Virtuoso refuses a
    # transitive path with neither end bound ("transitive start not given")
    rows = select(prologue() + "SELECT DISTINCT ?c ?s WHERE { ?c rdfs:subClassOf ?d . "
                               "?d rdfs:subClassOf* ?s FILTER(isIRI(?s)) }")
    supers: dict[str, set[str]] = defaultdict(set)
    for row in rows:
        supers[row["c"]].add(row["s"])
    return supers


def view_classes(select: Select, supers: dict[str, set[str]]) -> dict[str, str]:
    """{class IRI: family} of every class whose instances are nodes of the view: kg's family classes
    and their subclasses (in a class of two families, the first), and the classes the corpus minted
    (iris.VOCABULARY) under none of kg's classes but kgo:Entity: the corpus's own entity types."""
    classes: dict[str, str] = {}
    for family in reversed(FAMILIES[:-1]):
        classes[ONTOLOGY + family] = family
        classes.update({c: family for c, ups in supers.items() if ONTOLOGY + family in ups})
    rows = select(prologue() + f"""SELECT DISTINCT ?c WHERE {{ GRAPH <{iris.ONTOLOGY_GRAPH}> {{ ?c a owl:Class }}
        FILTER(STRSTARTS(STR(?c), "{iris.VOCABULARY}")) }}""")
    for row in rows:
        if not any(up.startswith(ONTOLOGY) and up != ONTOLOGY + ENTITY_ROOT for up in supers.get(row["c"], ())):
            classes.setdefault(row["c"], CORPUS_FAMILY)
    return classes


def ontology_schema(ontology_nquads: str) -> ViewSchema:
    """The schema of a build, from its ontology graph (kg.pipeline.load_file.ontology_nquads)."""
    from kg.store.embedded import EmbeddedStore  # pyoxigraph only for a build

    with EmbeddedStore() as store:
        store.load_nquads(ontology_nquads.encode())
        return view_schema(store.select)


@dataclass
class ViewParts:
    """What a build keeps of its view: the schema, the ontology graph's part, and the part of each
    document graph (by slug) and of each entity record (by canonical key), packed
    (kg.model.view_parts.pack)."""

    schema: ViewSchema
    ontology: ViewPart
    documents: dict[str, bytes] = field(default_factory=dict)
    records: dict[str, bytes] = field(default_factory=dict)

    def all_parts(self) -> Iterable[ViewPart]:
        """Every part, unpacked one at a time."""
        yield self.ontology
        yield from map(unpack, self.documents.values())
        yield from map(unpack, self.records.values())


def start_parts(ontology_nquads: str) -> ViewParts:
    """A full build's view data before any document: the schema and the ontology graph's part."""
    schema = ontology_schema(ontology_nquads)
    return ViewParts(schema, view_part(ontology_nquads, schema.classes))


def record_parts(records_nquads: str, classes: Iterable[str]) -> dict[str, bytes]:
    """The part of each entity record in `records_nquads` (kg.model.entity_records), by key, packed."""
    start = len(iris.RESOURCE)
    parts = split_by_subject(view_part(records_nquads, classes),
                             lambda s: s[start:] if s.startswith(iris.RESOURCE) else None)
    return {key: pack(part) for key, part in parts.items()}


def save_parts(build_dir: Path, parts: ViewParts) -> None:
    """Keep `parts` in the build directory: the schema, then the documents' and the records' parts
    spread over SHARDS files each."""
    directory = _directory(build_dir)
    directory.mkdir()
    _dump(directory / _HEAD, (_FORMAT, parts.schema, parts.ontology))
    for kind, table in ((_DOCUMENTS, parts.documents), (_RECORDS, parts.records)):
        shards: list[dict[str, bytes]] = [{} for _ in range(SHARDS)]
        for name, part in table.items():
            shards[_shard(name)][name] = part
        for number, shard in enumerate(shards):
            _dump(directory / _shard_file(kind, number), shard)


def patch_parts(build_dir: Path, previous_dir: Path, documents: dict[str, bytes], dropped: Iterable[str],
                records_nquads: str, touched: Iterable[str]) -> bool:
    """Keep the previous build's view data with the parts of the documents `dropped` (changed or
    removed) and of the records `touched` replaced by `documents` and those of `records_nquads`
    (the records rewritten); only the shards they fall in are read and written again, the others
    are hard links to the previous build's. False (nothing written) when that build kept none."""
    head = load_head(previous_dir)
    if head is None:
        return False
    schema, _ = head
    doc_changes: dict[str, bytes | None] = {slug: None for slug in dropped}
    doc_changes.update(documents)
    record_changes: dict[str, bytes | None] = {key: None for key in touched}
    record_changes.update(record_parts(records_nquads, schema.classes))
    directory, before = _directory(build_dir), _directory(previous_dir)
    directory.mkdir()
    os.link(before / _HEAD, directory / _HEAD)
    for kind, changes in ((_DOCUMENTS, doc_changes), (_RECORDS, record_changes)):
        by_shard: dict[int, dict[str, bytes | None]] = defaultdict(dict)
        for name, part in changes.items():
            by_shard[_shard(name)][name] = part
        for number in range(SHARDS):
            name = _shard_file(kind, number)
            if number not in by_shard:
                os.link(before / name, directory / name)
                continue
            shard = _load(before / name)
            for key, part in by_shard[number].items():
                shard.pop(key, None)
                if part is not None:
                    shard[key] = part
            _dump(directory / name, shard)
    return True


def load_head(build_dir: Path) -> tuple[ViewSchema, ViewPart] | None:
    """The schema and the ontology's part a build kept, or None when it kept none (a build made
    before kg kept them) or they cannot be read."""
    try:
        tag, schema, ontology = _load(_directory(build_dir) / _HEAD)
    except Exception:  # noqa: BLE001 - a cache: whatever is wrong with it, the store is asked instead
        return None
    return (schema, ontology) if tag == _FORMAT and isinstance(schema, ViewSchema) else None


def load_parts(build_dir: Path) -> ViewParts | None:
    """The view data a build kept, or None when it kept none or it cannot be read."""
    head = load_head(build_dir)
    if head is None:
        return None
    directory = _directory(build_dir)
    try:
        tables = [{name: part for number in range(SHARDS) for name, part in _load(directory / _shard_file(kind, number)).items()}
                  for kind in (_DOCUMENTS, _RECORDS)]
    except Exception:  # noqa: BLE001 - as above
        return None
    return ViewParts(*head, *tables)


def _directory(build_dir: Path) -> Path:
    return Path(build_dir) / build_dirs.VIEW_PARTS_DIR


def _shard(name: str) -> int:
    return zlib.crc32(name.encode("utf-8")) % SHARDS


def _shard_file(kind: str, number: int) -> str:
    return f"{kind}{number:02d}.pickle"


def _dump(path: Path, value: object) -> None:
    path.write_bytes(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))


def _load(path: Path):
    return pickle.loads(path.read_bytes())
