"""The exports of a build: Turtle, TriG, N-Quads and JSON-LD, serialized by Oxigraph.

Exports are not on a build's critical path: each is written the first time
it is asked for (`kg export`, /export.*) into the build directory and kept
there for the life of the build (a full build writes kg.nq as it loads, at
no cost). Every export is a sequence of sections, one per named graph, in a
fixed order (ontology, documents by name, entity records), each serialized
by Oxigraph and grouped by subject; the sections of Turtle, TriG and JSON-LD
are made from those of kg.nq, not read from the store; kg.ttl is the union of the graphs, a
section each, with the project's prefixes. Because sections stand alone, the
export of an incremental build copies the bytes of every section its build
did not remake from the export of the build it started from, when that one
was written (the byte ranges are kept in `<export>.sections.json`), and
serializes only what changed. The order inside a section follows Oxigraph's
index, so a lazily written export equals one written at build time.

When the build it started from wrote no N-Quads export (builds after builds after an edit, none
exported), an incremental build still copies: each keeps a hard link to the newest kg.nq of the
builds it descends from (build_dirs.BASE_EXPORT) and the graphs remade since, so that its kg.nq,
and the other exports made from it, cost the copy of the unchanged sections and the serialization
of the changed ones, as after a full build, instead of a dump of the whole store.
"""

from __future__ import annotations

import contextvars
import json
import os
import shutil
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING, Callable, Iterator

from kg.errors import StoreError
from kg.formats import rdf_syntaxes
from kg.model import iris
from kg.publish import jsonld
from kg.store import build_dirs, checksums
from kg.store.build_dirs import read_manifest
from kg.store.embedded import EmbeddedStore

if TYPE_CHECKING:
    from kg.store.remote import RemoteStore

FORMATS = rdf_syntaxes.EXPORT_EXTENSIONS
SECTIONS_AHEAD = 64  # sections serialized ahead of the writer, at most


def header(fmt: str) -> bytes:
    """What comes before the first section (the prefixes depend on the base IRI in force)."""
    if fmt == "ttl":
        return b"# kg export: the union of the graphs below (one section per named graph).\n"
    if fmt == "jsonld":
        return jsonld.export_header()
    return {"trig": iris.turtle_prologue().encode(), "nq": b""}[fmt]


FOOTERS = {"ttl": b"", "trig": b"", "nq": b"", "jsonld": jsonld.EXPORT_FOOTER}
Index = dict[str, list[int]]


def ordered_graphs(names: list[str]) -> list[str]:
    """The order of sections: the ontology, the documents by name, the entity records."""
    special = (iris.ONTOLOGY_GRAPH, iris.ENTITIES_GRAPH)
    documents = sorted(g for g in names if g not in special)
    return [g for g in (iris.ONTOLOGY_GRAPH,) if g in names] + documents + [g for g in (iris.ENTITIES_GRAPH,) if g in names]


def remote_export_chunks(store: RemoteStore, fmt: str) -> Iterator[bytes]:
    """The dataset of kg's graphs in a remote store, in one export format, read and written graph
    by graph (no engine has to offer a whole-dataset GET): the same sections as a build writes.
    The store is asked for its graphs now, not once streaming, so an unreachable store fails here."""
    rdf_syntaxes.export_format(fmt)
    return _remote_sections(store, fmt, ordered_graphs(store.graphs()))


def _remote_sections(store: RemoteStore, fmt: str, graphs: list[str]) -> Iterator[bytes]:
    yield header(fmt)
    for i, graph in enumerate(graphs):
        body, rdf_format = store.graph_ntriples(graph)
        scratch = EmbeddedStore()
        try:
            scratch.load_graph(graph, body, rdf_format)
        except SyntaxError as exc:
            raise StoreError(f"graph <{graph}> from {store!r} does not parse: {exc}") from exc
        yield (b",\n" if fmt == "jsonld" and i else b"") + section(scratch, fmt, graph)
    yield FOOTERS[fmt]


def write_exports(build_dir: Path) -> None:
    """Write every export of a build now, one thread per format (Oxigraph serializes without
    holding the GIL): what `kg build --eager` does instead of leaving them to the first request."""
    with ThreadPoolExecutor(max_workers=len(FORMATS)) as pool:
        # each thread runs in a copy of this context: the base IRI in force (kg.model.iris) goes along
        for job in [pool.submit(contextvars.copy_context().run, ensure_export, build_dir, fmt) for fmt in FORMATS]:
            job.result()


def ensure_export(build_dir: Path, fmt: str, deadline: float | None = None) -> Path:
    """The build's export in `fmt`: written on the first call (one writer at a time, across
    threads and processes: an flock per open file), then kept in the build directory. A caller
    with a `deadline` waits for another writer until then (BeingMade after)."""
    rdf_syntaxes.export_format(fmt)
    path = build_dirs.export_path(build_dir, fmt)
    return build_dirs.made_once(path, lambda partial: _write_export_file(build_dir, fmt, path, partial), deadline)


def _write_export_file(build_dir: Path, fmt: str, path: Path, partial: Path) -> None:
    """Serialize the build's graphs into `partial` (renamed to `path` when complete), copying
    the sections the build did not remake from the build it started from."""
    with _graph_source(build_dir, fmt) as (graphs, section_of), build_dirs.under_build_base(build_dir):
        index = _write_format(fmt, ordered_graphs(graphs), partial, _reusable(build_dir, fmt), section_of)
    write_index(path, index)


@contextmanager
def _graph_source(build_dir: Path, fmt: str) -> Iterator[tuple[list[str], Callable[[list[str]], Iterator[bytes]]]]:
    """The build's graphs, and how to serialize a run of them in `fmt`. Every format but N-Quads
    reads the build's kg.nq section by section, each into a store in memory: a large store on
    disk answers a dump term by term from its string table: at 10,000 articles the Turtle export
    took 195.8 s from the store and 66.7 s from kg.nq, side by side in one run (2.9x)."""
    nquads = ensure_export(build_dir, "nq") if fmt != "nq" else None
    index = build_dirs.read_sections(nquads) if nquads else None
    if index is None:
        with build_dirs.build_store(build_dir) as store:
            yield store.graphs(), lambda graphs: (section(store, fmt, graph) for graph in graphs)
        return
    with open(nquads, "rb") as source:
        yield list(index), lambda graphs: _sections_from_nquads(source, index, fmt, graphs)


def _sections_from_nquads(source: IO[bytes], index: Index, fmt: str, graphs: list[str]) -> Iterator[bytes]:
    """The sections of `graphs` in `fmt`, each parsed from its bytes of kg.nq (read here, in order)
    and serialized on two threads (Oxigraph parses and serializes without the GIL)."""
    def serialize(graph: str, nquads: bytes) -> bytes:
        scratch = EmbeddedStore()
        scratch.load_nquads(nquads)
        return section(scratch, fmt, graph)

    with ThreadPoolExecutor(max_workers=2) as pool:
        for start in range(0, len(graphs), SECTIONS_AHEAD):
            jobs = []
            for graph in graphs[start:start + SECTIONS_AHEAD]:
                begin, end = index[graph]
                source.seek(begin)
                jobs.append(pool.submit(contextvars.copy_context().run, serialize, graph, source.read(end - begin)))
            for job in jobs:
                yield job.result()


def write_index(export: Path, index: Index) -> None:
    """Where each graph's section lies in `export` (written and sealed before the export is renamed
    into place)."""
    sections = build_dirs.sections_path(export)
    sections.write_text(json.dumps(index, sort_keys=True))
    checksums.seal(sections)


def _reusable(build_dir: Path, fmt: str) -> tuple[Path, Index, frozenset[str]] | None:
    """(previous export, its index, graphs that must not be copied), when the build started from
    one whose export in `fmt` exists, or, for N-Quads, from the base export it keeps."""
    manifest = read_manifest(build_dir)
    based_on, remade = manifest.get("based_on"), manifest.get("remade_graphs")
    if not based_on or remade is None:
        return None
    old = build_dirs.export_path(build_dir.parent / based_on, fmt)
    index = build_dirs.read_sections(old)
    if index is not None and old.is_file():
        return old, index, frozenset(remade)
    return _base_export(build_dir) if fmt == "nq" else None


def keep_base_export(build_dir: Path, previous_dir: Path, remade: list[str]) -> None:
    """Give an incremental build its base export: the previous build's kg.nq when it was written,
    else the previous build's own base; hard-linked (no copy), with the graphs remade since."""
    written = build_dirs.export_path(previous_dir, "nq")
    if build_dirs.read_sections(written) is not None and written.is_file():
        base, since = written, set(remade)
    else:
        kept = _base_export(previous_dir)
        if kept is None:
            return
        base, since = kept[0], set(kept[2]) | set(remade)
    target = build_dir / build_dirs.BASE_EXPORT
    try:
        os.link(base, target)
        checksums.copy_seal(base, target)
        shutil.copyfile(build_dirs.sections_path(base), build_dirs.sections_path(target))
        checksums.copy_seal(build_dirs.sections_path(base), build_dirs.sections_path(target))
    except OSError:  # pruned meanwhile, or another file system: the export dumps the store instead
        target.unlink(missing_ok=True)
        return
    (build_dir / build_dirs.BASE_REMADE).write_text(json.dumps(sorted(since)))


def _base_export(build_dir: Path) -> tuple[Path, Index, frozenset[str]] | None:
    base = build_dir / build_dirs.BASE_EXPORT
    index = build_dirs.read_sections(base)
    try:
        remade = json.loads((build_dir / build_dirs.BASE_REMADE).read_text())
    except (OSError, ValueError):
        return None
    if index is None or not isinstance(remade, list) or not base.is_file():
        return None
    return base, index, frozenset(remade)


def _write_format(fmt: str, graphs: list[str], path: Path, reuse,
                  sections_of: Callable[[list[str]], Iterator[bytes]]) -> Index:
    """Write the export; the sections of graphs the build did not remake are copied from the previous
    export (`reuse`), the others made by `sections_of`."""
    index: Index = {}
    try:
        old_file = open(reuse[0], "rb") if reuse else None
    except OSError:  # the previous build was pruned meanwhile: serialize everything
        old_file, reuse = None, None
    copied = {g for g in graphs if reuse and g not in reuse[2] and g in reuse[1]}
    made = sections_of([g for g in graphs if g not in copied])
    try:
        with open(path, "wb") as out:
            def write_section(graph: str) -> None:
                start = out.tell()
                if graph in copied:
                    begin, end = reuse[1][graph]
                    old_file.seek(begin)
                    _copy(old_file, out, end - begin)
                else:
                    out.write(next(made))
                index[graph] = [start, out.tell()]

            _write_sections(out, fmt, graphs, write_section)
    finally:
        made.close()  # stops the threads still serializing when writing failed
        if old_file:
            old_file.close()
    return index


def _write_sections(out: IO[bytes], fmt: str, graphs: list[str], write_section: Callable[[str], None]) -> None:
    """The header, each graph's section (by `write_section`, separated as the format needs), the footer."""
    out.write(header(fmt))
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
    if fmt == "nq":
        triples = store.serialize_graph(graph, "nt")
        return triples.replace(b" .\n", f" <{graph}> .\n".encode())  # literals escape their line breaks
    if fmt == "jsonld":
        return jsonld.graph_section(store.quads_of(graph), graph)
    turtle = store.serialize_graph(graph, "ttl", prefixes=iris.PREFIXES)
    if fmt == "ttl":
        return f"\n# graph <{graph}>\n".encode() + turtle
    body = b"".join(line for line in turtle.splitlines(keepends=True) if not line.startswith(b"@prefix "))
    return f"\n<{graph}> {{\n".encode() + body + b"}\n"


def write_export(store: EmbeddedStore, fmt: str, out: IO[bytes]) -> None:
    """Serialize a whole store in one format to a binary stream."""
    rdf_syntaxes.export_format(fmt)
    _write_sections(out, fmt, ordered_graphs(store.graphs()), lambda graph: out.write(section(store, fmt, graph)))


def copy_export(build_dir: Path | None, fmt: str, target: IO[bytes]) -> None:
    """Copy a build's export to a stream (the CLI's `kg export`), writing it first if need be."""
    if build_dir is None:
        raise StoreError("no build yet (expected `kg build` to have run on this data directory)")
    with open(ensure_export(build_dir, fmt), "rb") as src:
        shutil.copyfileobj(src, target)
