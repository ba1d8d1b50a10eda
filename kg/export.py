"""Write the exports of a build: Turtle, TriG, N-Quads and JSON-LD, serialized by Oxigraph.

Every export is a sequence of sections, one per named graph, in a fixed
order (ontology, documents by name, entity records), each serialized by
Oxigraph and grouped by subject. kg.ttl is the union of the graphs: a
section each, with the project's prefixes. Because sections stand alone, an
incremental build copies the bytes of unchanged documents' sections from
the previous build (their offsets are kept in exports.json) and serializes
only what changed. The order inside a section follows Oxigraph's index, so
it does not move when other documents change and diffs stay small.
"""

from __future__ import annotations

import json
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import IO, Callable

import pyoxigraph as ox

from kg import build_dirs
from kg.errors import InputError, StoreError
from kg.iris import ENTITIES_GRAPH, ONTOLOGY_GRAPH, PREFIXES
from kg.store import EmbeddedStore

FORMATS = tuple(build_dirs.EXPORT_FILES)
INDEX_FILE = "exports.json"
MEDIA_TYPES = {
    "ttl": "text/turtle",
    "trig": "application/trig",
    "nq": "application/n-quads",
    "jsonld": "application/ld+json",
}
_PREFIX_LINES = "".join(f"@prefix {p}: <{iri}> .\n" for p, iri in PREFIXES.items()).encode()
HEADERS = {
    "ttl": b"# kg export: the union of the graphs below (one section per named graph).\n",
    "trig": _PREFIX_LINES,
    "nq": b"",
    "jsonld": b"[\n",
}
FOOTERS = {"ttl": b"", "trig": b"", "nq": b"", "jsonld": b"\n]\n"}
Index = dict[str, list[int]]


def ordered_graphs(names: list[str]) -> list[str]:
    """The order of sections: the ontology, the documents by name, the entity records."""
    special = (ONTOLOGY_GRAPH, ENTITIES_GRAPH)
    documents = sorted(g for g in names if g not in special)
    return [g for g in (ONTOLOGY_GRAPH,) if g in names] + documents + [g for g in (ENTITIES_GRAPH,) if g in names]


def write_exports(build_dir: Path, *, written: dict[str, Index] | None = None, previous: Path | None = None,
                  unchanged: frozenset[str] = frozenset()) -> None:
    """Write every export into the build directory, one thread per format (Oxigraph serializes
    without holding the GIL). `written` gives the index of exports already written (the N-Quads
    of a full build); sections of `unchanged` graphs are copied from the `previous` build."""
    indexes = dict(written or {})
    old = _read_index(previous) if previous else {}
    store = EmbeddedStore(build_dirs.store_path(build_dir), read_only=True)
    try:
        graphs = ordered_graphs(store.graphs())
        todo = [f for f in FORMATS if f not in indexes]
        with ThreadPoolExecutor(max_workers=len(todo) or 1) as pool:
            jobs = {fmt: pool.submit(_write_format, store, fmt, graphs, build_dirs.export_path(build_dir, fmt),
                                     _reusable(previous, old, fmt, unchanged)) for fmt in todo}
            indexes.update({fmt: job.result() for fmt, job in jobs.items()})
    finally:
        store.close()
    (build_dir / INDEX_FILE).write_text(json.dumps(indexes, sort_keys=True))


def _read_index(build: Path) -> dict[str, Index]:
    try:
        return json.loads((build / INDEX_FILE).read_text())
    except (OSError, ValueError):
        return {}


def _reusable(previous: Path | None, old: dict[str, Index], fmt: str, unchanged: frozenset[str]):
    if previous is None or fmt not in old:
        return None
    return build_dirs.export_path(previous, fmt), old[fmt], unchanged


def _write_format(store: EmbeddedStore, fmt: str, graphs: list[str], path: Path, reuse) -> Index:
    index: Index = {}
    old_file = open(reuse[0], "rb") if reuse else None
    try:
        with open(path, "wb") as out:
            def write_section(graph: str) -> None:
                start = out.tell()
                if reuse and graph in reuse[2] and graph in reuse[1]:
                    begin, end = reuse[1][graph]
                    old_file.seek(begin)
                    _copy(old_file, out, end - begin)
                else:
                    out.write(section(store, fmt, graph))
                index[graph] = [start, out.tell()]

            _write_sections(out, fmt, graphs, write_section)
    finally:
        if old_file:
            old_file.close()
    return index


def _write_sections(out: IO[bytes], fmt: str, graphs: list[str], write_section: Callable[[str], None]) -> None:
    """The header, each graph's section (by `write_section`, separated as the format needs), the footer."""
    out.write(HEADERS[fmt])
    for i, graph in enumerate(graphs):
        if fmt == "jsonld" and i:
            out.write(b",\n")
        write_section(graph)
    out.write(FOOTERS[fmt])


def _copy(src: IO[bytes], dst: IO[bytes], size: int, chunk: int = 1 << 20) -> None:
    while size > 0:
        data = src.read(min(chunk, size))
        if not data:
            raise StoreError("previous export is shorter than its index says")
        dst.write(data)
        size -= len(data)


def section(store: EmbeddedStore, fmt: str, graph: str) -> bytes:
    """One named graph in one format, ready to be placed between the header and the footer."""
    name = ox.NamedNode(graph)
    if fmt == "nq":
        triples = store.oxigraph.dump(format=ox.RdfFormat.N_TRIPLES, from_graph=name)
        return triples.replace(b" .\n", f" <{graph}> .\n".encode())  # literals escape their line breaks
    if fmt == "jsonld":
        nodes = store.oxigraph.dump(format=ox.RdfFormat.JSON_LD, from_graph=name)
        return b'{"@id": ' + json.dumps(graph).encode() + b', "@graph": ' + nodes + b"}"
    turtle = store.oxigraph.dump(format=ox.RdfFormat.TURTLE, from_graph=name, prefixes=PREFIXES)
    if fmt == "ttl":
        return f"\n# graph <{graph}>\n".encode() + turtle
    body = b"".join(line for line in turtle.splitlines(keepends=True) if not line.startswith(b"@prefix "))
    return f"\n<{graph}> {{\n".encode() + body + b"}\n"


def write_export(store: EmbeddedStore, fmt: str, out: IO[bytes]) -> None:
    """Serialize a whole store in one format to a binary stream."""
    if fmt not in FORMATS:
        raise InputError(f"unknown export format {fmt!r} (expected one of {', '.join(FORMATS)})")
    _write_sections(out, fmt, ordered_graphs(store.graphs()), lambda graph: out.write(section(store, fmt, graph)))


def copy_export(build_dir: Path | None, fmt: str, target: IO[bytes]) -> None:
    """Copy a build's export file to a stream (the CLI's `kg export`)."""
    if build_dir is None:
        raise StoreError("no build yet (expected `kg build` to have run on this data directory)")
    with open(build_dirs.export_path(build_dir, fmt), "rb") as src:
        shutil.copyfileobj(src, target)
