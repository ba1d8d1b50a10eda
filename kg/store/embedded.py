"""`EmbeddedStore`: the GraphStore interface (kg.store.protocol) on an Oxigraph store on disk,
or in memory; the default store of a build.

Queries see the union of all named graphs as their default graph unless the
caller names default graphs. Results are serialized by the engine, never row
by row in Python.
"""

from __future__ import annotations

from pathlib import Path
from typing import IO, Iterable, Iterator, Sequence

import pyoxigraph as ox

from kg.errors import QueryError
from kg.formats import rdf_syntaxes
from kg.store.protocol import SPARQL_JSON, TURTLE, GraphStore


class EmbeddedStore(GraphStore):
    """An Oxigraph store on disk (or in memory when `path` is None)."""

    def __init__(self, path: Path | None = None, *, read_only: bool = False) -> None:
        if path is None:
            self._store = ox.Store()
        elif read_only:
            self._store = ox.Store.read_only(str(path))
        else:
            self._store = ox.Store(str(path))
        self.path = path

    @classmethod
    def in_memory_from(cls, nquads: Path) -> EmbeddedStore:
        """A store in memory holding an N-Quads file (the endpoint's in-memory workers)."""
        store = cls()
        store.bulk_load_file(nquads)
        return store

    def query_into(
        self,
        output: IO[bytes],
        sparql: str,
        *,
        solutions_type: str = SPARQL_JSON,
        graph_type: str = TURTLE,
        default_graph_uris: Sequence[str] = (),
        named_graph_uris: Sequence[str] = (),
        prefixes: dict[str, str] | None = None,
        query_form: str | None = None,
    ) -> tuple[str, str]:
        """See GraphStore.query_into; the endpoint's row cap stops the evaluation early through
        `output.write` (api/backend/execute.py). Oxigraph finds the query's form itself."""
        result = self._run(sparql, default_graph_uris, named_graph_uris, prefixes)
        if isinstance(result, ox.QueryTriples):
            result.serialize(output, format=rdf_syntaxes.rdf_format(graph_type).oxigraph)
            return "graph", graph_type
        result.serialize(output, format=rdf_syntaxes.results_format(solutions_type).oxigraph)
        return ("boolean" if isinstance(result, ox.QueryBoolean) else "solutions"), solutions_type

    def _run(self, sparql: str, default_graph_uris: Sequence[str], named_graph_uris: Sequence[str],
             prefixes: dict[str, str] | None = None):
        options: dict = {"prefixes": prefixes} if prefixes else {}
        if default_graph_uris:
            options["default_graph"] = [ox.NamedNode(u) for u in default_graph_uris]
        else:
            options["use_default_graph_as_union"] = True
        if named_graph_uris:
            options["named_graphs"] = [ox.NamedNode(u) for u in named_graph_uris]
        try:
            return self._store.query(sparql, **options)
        except SyntaxError as exc:
            raise QueryError(str(exc)) from exc

    def replace_graph(self, graph: str, ntriples: bytes) -> None:
        name = ox.NamedNode(graph)
        self.drop_graph(graph)
        self._store.load(ntriples, format=ox.RdfFormat.N_TRIPLES, to_graph=name)

    def drop_graph(self, graph: str) -> None:
        name = ox.NamedNode(graph)
        if self._store.contains_named_graph(name):
            self._store.remove_graph(name)

    def load_nquads(self, nquads: bytes) -> None:
        """Add N-Quads (small or medium amounts, in one transaction)."""
        if nquads:
            self._store.load(nquads, format=ox.RdfFormat.N_QUADS)

    def load_file(self, path: Path, fmt: str) -> None:
        """Add a dataset file in `fmt` (an extension of kg.formats.rdf_syntaxes), in one transaction."""
        self._store.load(path=str(path), format=rdf_syntaxes.by_extension(fmt).oxigraph)

    def bulk_load_file(self, path: Path) -> None:
        """Load a large N-Quads file as fast as Oxigraph can (not transactional: for new stores)."""
        self._store.bulk_load(path=str(path), format=ox.RdfFormat.N_QUADS)

    def drop_subjects(self, graph: str, subjects: Sequence[str]) -> None:
        """Remove every triple of `graph` whose subject is one of `subjects`."""
        name = ox.NamedNode(graph)
        doomed = [q for s in subjects for q in self._store.quads_for_pattern(ox.NamedNode(s), None, None, name)]
        for quad in doomed:
            self._store.remove(quad)

    def load_graph(self, graph: str, data: bytes, fmt: str | ox.RdfFormat) -> None:
        """Add triples to `graph`; `fmt` is an extension of kg.formats.rdf_syntaxes ('nt', 'ttl') or an Oxigraph format.
        Raises SyntaxError when `data` does not parse."""
        rdf_format = rdf_syntaxes.by_extension(fmt).oxigraph if isinstance(fmt, str) else fmt
        self._store.load(data, format=rdf_format, to_graph=ox.NamedNode(graph))

    def serialize_graph(self, graph: str, fmt: str, prefixes: dict[str, str] | None = None) -> bytes:
        """One named graph's triples in `fmt` ('nt', 'ttl' or 'jsonld'), serialized by Oxigraph."""
        options = {"prefixes": prefixes} if prefixes else {}
        return self._store.dump(format=rdf_syntaxes.by_extension(fmt).oxigraph, from_graph=ox.NamedNode(graph), **options)

    def quads_of(self, graph: str) -> Iterator[ox.Quad]:
        """Every quad of one named graph."""
        return self._store.quads_for_pattern(None, None, None, ox.NamedNode(graph))

    def dump_graph(self, graph: str, *, subjects: Sequence[str] | None = None, fmt: str = "nq") -> str:
        """One named graph (or the triples of some of its subjects) as N-Quads or N-Triples text."""
        name = ox.NamedNode(graph)
        if subjects is None:
            quads = self._store.quads_for_pattern(None, None, None, name)
        else:
            quads = [q for s in subjects for q in self._store.quads_for_pattern(ox.NamedNode(s), None, None, name)]
        if fmt == "nt":
            return ox.serialize((q.triple for q in quads), format=ox.RdfFormat.N_TRIPLES).decode()
        return ox.serialize(quads, format=ox.RdfFormat.N_QUADS).decode()

    def backup(self, target: Path) -> None:
        """Copy the store to `target` (hard links where possible): the start of an incremental build."""
        self._store.backup(str(target))

    def flush(self) -> None:
        self._store.flush()

    def compact(self) -> None:
        """Compact the whole store (RocksDB's every level) and flush it: minutes on a large store."""
        self._store.optimize()
        self._store.flush()

    def graphs(self) -> list[str]:
        return sorted(g.value for g in self._store.named_graphs() if isinstance(g, ox.NamedNode))

    def dump(self, output: IO[bytes] | str | Path, fmt: str, prefixes: dict[str, str] | None = None) -> None:
        """Write the whole dataset (or, for triple formats, the union of its graphs)."""
        self._store.dump(str(output) if isinstance(output, Path) else output, rdf_syntaxes.by_extension(fmt).oxigraph,
                         prefixes=prefixes)

    def __len__(self) -> int:
        return len(self._store)

    def close(self) -> None:
        """Release the store; RocksDB files are closed when the last reference goes."""
        self._store = None


def as_iris(values: Iterable[str]) -> list[ox.NamedNode]:
    return [ox.NamedNode(v) for v in values]
