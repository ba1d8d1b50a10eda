"""The N-Quads a full build loads, written once and kept as the build's N-Quads export.

Sections are appended one graph at a time (the ontology, each document as
it is read, the entity records last) and their byte ranges noted, so the
file is both Oxigraph's bulk-load input and kg.nq, with the section index
kg.export uses to copy unchanged sections into a later build's exports.
"""

from __future__ import annotations

import os
from pathlib import Path

import pyoxigraph as ox

from kg import build_dirs, iris
from kg.export import write_index
from kg.schema import Vocabulary
from kg.resources import ONTOLOGY_TTL, read_rdf

LOAD_FILE = "load.nq"


class LoadFile:
    """The load file of one build directory, open for appending sections."""

    def __init__(self, build_dir: Path) -> None:
        self.build_dir = build_dir
        self.path = build_dir / LOAD_FILE
        self.index: dict[str, list[int]] = {}
        self.quads = 0  # every line is one quad, and no quad is written twice
        self._out = open(self.path, "wb")

    def append(self, graph: str, nquads: str) -> None:
        """Append one graph's N-Quads and note where they are."""
        start = self._out.tell()
        self._out.write(nquads.encode())
        self.index[graph] = [start, self._out.tell()]
        self.quads += nquads.count("\n")

    def close(self) -> None:
        self._out.close()

    def finish_as_export(self, records: str) -> None:
        """Complete the file with the entity records: it becomes kg.nq (the store holds exactly its
        quads, so there is no need to dump them again)."""
        with open(self.path, "ab") as out:
            self._out = out
            self.append(iris.ENTITIES_GRAPH, records)
        target = build_dirs.export_path(self.build_dir, "nq")
        write_index(target, self.index)
        os.replace(self.path, target)


def ontology_nquads(vocab: Vocabulary) -> str:
    """kg's ontology and the corpus vocabulary minted from its annotation schema, as the ontology graph."""
    quads = ox.parse(read_rdf(ONTOLOGY_TTL), format=ox.RdfFormat.TURTLE)
    dataset = ox.Dataset(ox.Quad(q.subject, q.predicate, q.object, ox.NamedNode(iris.ONTOLOGY_GRAPH)) for q in quads)
    lines = ox.serialize(dataset, format=ox.RdfFormat.N_QUADS).decode().splitlines(keepends=True)
    lines += vocab.nquads(iris.ONTOLOGY_GRAPH).splitlines(keepends=True)
    return "".join(sorted(set(lines)))  # a Dataset iterates in a hash order that changes from run to run
