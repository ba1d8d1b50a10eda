"""Write the exports of a build: Turtle, TriG, N-Quads and JSON-LD, serialized by Oxigraph.

kg.ttl is the union of all graphs, one section per named graph (ontology,
entity records, then documents by name), each grouped by subject with the
project's prefixes; the order inside a section follows Oxigraph's index, so
it does not move when other documents change and diffs stay small.
"""

from __future__ import annotations

import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import IO

import pyoxigraph as ox

from kg import layout
from kg.errors import StoreError
from kg.iris import ENTITIES_GRAPH, ONTOLOGY_GRAPH, PREFIXES
from kg.store import EmbeddedStore

FORMATS = tuple(layout.EXPORT_FILES)
MEDIA_TYPES = {
    "ttl": "text/turtle",
    "trig": "application/trig",
    "nq": "application/n-quads",
    "jsonld": "application/ld+json",
}


def write_exports(build_dir: Path, skip: tuple[str, ...] = ()) -> None:
    """Write every export format (but `skip`) into the build directory, one thread each:
    Oxigraph serializes without holding the GIL."""
    store = EmbeddedStore(layout.store_path(build_dir), read_only=True)
    formats = [f for f in FORMATS if f not in skip]
    try:
        with ThreadPoolExecutor(max_workers=len(formats) or 1) as pool:
            for done in [pool.submit(_write_file, store, build_dir, fmt) for fmt in formats]:
                done.result()
    finally:
        store.close()


def _write_file(store: EmbeddedStore, build_dir: Path, fmt: str) -> None:
    with open(layout.export_path(build_dir, fmt), "wb") as out:
        write_export(store, fmt, out)


def write_export(store: EmbeddedStore, fmt: str, out: IO[bytes]) -> None:
    """Serialize the store in one format to a binary stream."""
    if fmt == "ttl":
        _write_turtle(store, out)
    elif fmt == "trig":
        store.oxigraph.dump(out, ox.RdfFormat.TRIG, prefixes=PREFIXES)
    elif fmt == "nq":
        store.oxigraph.dump(out, ox.RdfFormat.N_QUADS)
    elif fmt == "jsonld":
        store.oxigraph.dump(out, ox.RdfFormat.JSON_LD)
    else:
        raise ValueError(f"unknown export format {fmt!r} (expected one of {', '.join(FORMATS)})")


def _write_turtle(store: EmbeddedStore, out: IO[bytes]) -> None:
    names = store.graphs()
    ordered = [g for g in (ONTOLOGY_GRAPH, ENTITIES_GRAPH) if g in names] + [
        g for g in names if g not in (ONTOLOGY_GRAPH, ENTITIES_GRAPH)]
    out.write(b"# kg export: the union of the graphs below (one section per named graph).\n")
    for name in ordered:
        out.write(f"\n# graph <{name}>\n".encode())
        store.oxigraph.dump(out, ox.RdfFormat.TURTLE, from_graph=ox.NamedNode(name), prefixes=PREFIXES)


def copy_export(build_dir: Path | None, fmt: str, target: IO[bytes]) -> None:
    """Copy a build's export file to a stream (the CLI's `kg export`)."""
    if build_dir is None:
        raise StoreError("no build yet (expected `kg build` to have run on this data directory)")
    with open(layout.export_path(build_dir, fmt), "rb") as src:
        shutil.copyfileobj(src, target)
