"""The N-Quads a full build loads, written once and kept as the build's N-Quads export.

Sections are appended one graph at a time (the ontology, each document as
it is read, the entity records last) and their byte ranges noted, so the
file is both kg.nq and what the store holds, with the section index
kg.publish.export uses to copy unchanged sections into a later build's exports.

The store is bulk-loaded while the documents are read: every section also
goes down a named pipe that Oxigraph's bulk loader reads in a thread of its
own (it releases the GIL), so loading overlaps reading instead of following it.
"""

from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path

import pyoxigraph as ox

from kg.model import iris
from kg.model.resources import ONTOLOGY_TTL, read_rdf
from kg.model.schema.corpus_vocabulary import Vocabulary
from kg.publish.export import write_index
from kg.store import build_dirs, checksums
from kg.store.embedded import EmbeddedStore

APPEND_SLICE = 1 << 22  # characters encoded at a time


class LoadFile:
    """The load file of one build directory, open for appending sections; with a `store`, every
    section is also bulk-loaded into it as it is appended."""

    def __init__(self, build_dir: Path, store: EmbeddedStore | None = None) -> None:
        self.build_dir = build_dir
        self.path = build_dir / build_dirs.LOAD_FILE
        self.index: dict[str, list[int]] = {}
        self.quads = 0  # every line is one quad, and no quad is written twice
        self._out = open(self.path, "wb")
        self._digest = hashlib.sha256()  # its checksum once it is kg.nq (kg.store.checksums), summed as written
        self._loader = _PipeLoader(store, build_dir / build_dirs.LOAD_PIPE) if store is not None else None

    def append(self, graph: str, nquads: str) -> None:
        """Append one graph's N-Quads and note where they are (encoded a slice at a time: the entity
        records of 100,000 articles are hundreds of megabytes, not to be held twice)."""
        start = self._out.tell()
        for at in range(0, len(nquads), APPEND_SLICE):
            data = nquads[at:at + APPEND_SLICE].encode()
            self._out.write(data)
            self._digest.update(data)
            if self._loader:
                self._loader.write(data)
        self.index[graph] = [start, self._out.tell()]
        self.quads += nquads.count("\n")

    def close(self) -> None:
        self._out.close()

    def abandon(self) -> None:
        """Close everything after a failed read; what the loader says then no longer matters."""
        self.close()
        try:
            self.finish_loading()
        except Exception:  # noqa: BLE001 - the read's own error is the one raised
            pass

    def finish_loading(self) -> None:
        """Wait until the store holds every section appended; raises what the loader raised."""
        if self._loader:
            loader, self._loader = self._loader, None
            loader.finish()

    def finish_as_export(self) -> None:
        """The complete file (the entity records appended last) becomes kg.nq: the store holds
        exactly its quads, so there is no need to dump them again."""
        target = build_dirs.export_path(self.build_dir, "nq")
        write_index(target, self.index)
        checksums.seal(self.path, self._digest.hexdigest(), kept_as=target)
        os.replace(self.path, target)


class _PipeLoader:
    """Oxigraph's bulk loader reading a named pipe in a thread while the build writes into it."""

    def __init__(self, store: EmbeddedStore, pipe: Path) -> None:
        self.pipe = pipe
        os.mkfifo(pipe)
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._load, args=(store,), name="bulk-load", daemon=True)
        self._thread.start()
        self._out = open(pipe, "wb")  # returns once the loader has opened its end

    def _load(self, store: EmbeddedStore) -> None:
        try:
            _one_core_for_this_thread()
            store.bulk_load_file(self.pipe)
        except BaseException as exc:  # noqa: BLE001 - handed to the build by finish()
            self.error = exc
            os.close(os.open(self.pipe, os.O_RDONLY | os.O_NONBLOCK))  # unblocks a writer still opening

    def write(self, data: bytes) -> None:
        try:
            self._out.write(data)
        except BrokenPipeError:
            self.finish()  # the loader stopped: its own error says why
            raise

    def finish(self) -> None:
        try:
            self._out.close()
        except BrokenPipeError:
            pass
        self._thread.join()
        self.pipe.unlink(missing_ok=True)
        if self.error is not None:
            raise self.error


RDF_TYPE = ox.NamedNode(iris.FIXED_PREFIXES["rdf"] + "type")
RDF_PROPERTY = ox.NamedNode(iris.FIXED_PREFIXES["rdf"] + "Property")
# OWL's kinds of property, each an rdfs:subClassOf rdf:Property in OWL's own vocabulary
OWL_PROPERTIES = frozenset(ox.NamedNode(iris.FIXED_PREFIXES["owl"] + kind)
                           for kind in ("ObjectProperty", "DatatypeProperty", "AnnotationProperty"))


def ontology_nquads(vocab: Vocabulary) -> str:
    """kg's ontology and the corpus vocabulary minted from its annotation schema, as the ontology graph.

    Every OWL property is also typed rdf:Property, as RDFS entails: a client that lists the
    properties of a knowledge base by rdf:Property (INCEpTION's default) and reasons no further
    finds them all."""
    graph = ox.NamedNode(iris.ONTOLOGY_GRAPH)
    triples = {(q.subject, q.predicate, q.object) for q in ox.parse(read_rdf(ONTOLOGY_TTL), format=ox.RdfFormat.TURTLE)}
    triples |= {(q.subject, q.predicate, q.object)
                for q in ox.parse(vocab.nquads(iris.ONTOLOGY_GRAPH), format=ox.RdfFormat.N_QUADS)}
    triples |= {(s, RDF_TYPE, RDF_PROPERTY) for s, p, o in list(triples) if p == RDF_TYPE and o in OWL_PROPERTIES}
    dataset = ox.Dataset(ox.Quad(s, p, o, graph) for s, p, o in triples)
    lines = ox.serialize(dataset, format=ox.RdfFormat.N_QUADS).decode().split("\n")  # line feeds only (U+2028 in a literal)
    return "".join(sorted(line + "\n" for line in lines if line))  # a Dataset iterates in a hash order that changes from run to run


def _one_core_for_this_thread() -> None:
    """Pin the loading thread (and the threads Oxigraph's loader starts from it) to one core.

    Oxigraph sizes its bulk loader by the cores its thread may use: on two it keeps two batches of a
    million quads being encoded while a third is parsed (the floor's 1.9 GiB at 10,000 articles); on
    one, one of each. The readers already keep every core busy while it loads, so the second
    encoding thread bought little time and cost a batch of memory."""
    try:
        cores = sorted(os.sched_getaffinity(0))
        if len(cores) > 1:
            os.sched_setaffinity(0, {cores[-1]})  # 0: this thread alone (Linux)
    except (AttributeError, OSError):  # not Linux: the loader takes the cores it finds
        pass
