"""The graph as a Python program sees it: `kg.open(data)` gives a KnowledgeGraph whose
queries answer with Python values (int, Decimal, datetime.date, bool, str; IRIs as
rdflib.URIRef), an rdflib Dataset of every graph, and pandas DataFrames (the optional
extra `brat-kg[dataframe]`).

    import kg
    kg.build("corpus", "data")          # kg.build(..., store=URL) also pushes to a SPARQL server
    with kg.open("data") as graph:      # kg.open(store=URL): the graph on that server
        rows = graph.query("SELECT ?p ?n WHERE { ?p kgo:mentionCount ?n }")
        rows[0]["n"] + 1            # an int
        rows.to_dataframe()         # pandas
        graph.to_rdflib()           # rdflib.Dataset, one graph per article and the entity records
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Sequence

import rdflib

from kg.errors import KgError
from kg.formats import rdf_syntaxes
from kg.model import iris
from kg.pipeline.current import open_graph
from kg.store.protocol import GraphStore
from kg.store.terms import from_sparql_json

if TYPE_CHECKING:
    import pandas

_QUADS = "SELECT ?g ?s ?p ?o WHERE { GRAPH ?g { ?s ?p ?o } }"


@dataclass(frozen=True)
class Results(Sequence[dict[str, Any]]):
    """The rows of a SELECT: one dict per solution, variable -> Python value (unbound: absent)."""

    variables: list[str]
    rows: list[dict[str, Any]]

    def __getitem__(self, index):  # type: ignore[override]
        return self.rows[index]

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return iter(self.rows)

    def to_dataframe(self) -> pandas.DataFrame:
        """The rows as a pandas DataFrame, one column per variable (unbound: None)."""
        try:
            import pandas
        except ImportError:
            raise KgError("to_dataframe needs pandas: pip install 'brat-kg[dataframe]'") from None
        return pandas.DataFrame([[row.get(v) for v in self.variables] for row in self.rows],
                                columns=self.variables)


class KnowledgeGraph:
    """A built graph, read-only: the current build of a data directory, or the graph a build
    pushed to a SPARQL 1.1 server."""

    def __init__(self, store: GraphStore, base_iri: str | None = None) -> None:
        self.store = store
        self.namespaces = iris.namespaces(base_iri) if base_iri else iris.current()  # the build's base

    @classmethod
    def open(cls, data: Path | str = "data", *, store: str | None = None) -> KnowledgeGraph:
        """The current build of `data`, or with `store` (a server's URL) the graph `kg build --store`
        pushed there under the base_iri setting (configured as kg.store.remote.connect says);
        raises StoreError when nothing is built there."""
        with iris.using_base(None):  # open_graph sets the graph's base: only for reading it here
            opened = open_graph(Path(data), store)
            return cls(opened, iris.BASE)

    def query(self, sparql: str) -> Results | bool | rdflib.Graph:
        """Run a query, with the prefixes of the build's base declared (kg.model.iris.PREFIXES): a SELECT
        gives Results, an ASK a bool, a CONSTRUCT or DESCRIBE an rdflib.Graph."""
        prefixes = self.namespaces.prefixes
        answer = self.store.query(sparql, graph_type=rdf_syntaxes.NTRIPLES.media_type, prefixes=prefixes)
        if answer.kind == "graph":
            graph = rdflib.Graph()
            for prefix, namespace in prefixes.items():
                graph.bind(prefix, namespace)
            return graph.parse(data=answer.body.decode("utf-8"), format=rdf_syntaxes.NTRIPLES.rdflib)
        data = json.loads(answer.body)
        if answer.kind == "boolean":
            return bool(data["boolean"])
        rows = [{name: python_value(term) for name, term in binding.items()}
                for binding in data["results"]["bindings"]]
        return Results(list(data["head"]["vars"]), rows)

    def to_rdflib(self) -> rdflib.Dataset:
        """Every quad in an rdflib Dataset: one named graph per article, kgg:entities, kgg:ontology."""
        dataset = rdflib.Dataset()
        for prefix, namespace in self.namespaces.prefixes.items():
            dataset.bind(prefix, namespace)
        body = json.loads(self.store.query(_QUADS).body)
        for row in body["results"]["bindings"]:
            graph = dataset.graph(from_sparql_json(row["g"]))
            graph.add((from_sparql_json(row["s"]), from_sparql_json(row["p"]), from_sparql_json(row["o"])))
        return dataset

    def stats(self) -> dict[str, dict[str, int]]:
        """The statistics `kg stats` prints (kg.publish.stats)."""
        from kg.publish.stats import graph_stats

        with iris.using_base(self.namespaces.base):
            return graph_stats(self.store.select, self.store.graphs())

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> KnowledgeGraph:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def python_value(term: dict[str, str]) -> Any:
    """A term of SPARQL JSON results as a Python value: a literal as its Python type (int, Decimal,
    float, bool, datetime.date, datetime.datetime, str; a language-tagged string as rdflib.Literal,
    which is a str), an IRI as rdflib.URIRef, a blank node as rdflib.BNode."""
    node = from_sparql_json(term)
    return node.toPython() if isinstance(node, rdflib.Literal) else node
