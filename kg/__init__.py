"""kg: build, store, export and serve an RDF knowledge graph from a corpus annotated in brat or INCEpTION.

The data flows one way: corpus -> annotations -> resolution -> graph -> store -> exports.
`api` (Flask) and `viz` (network view) build on this package; it never imports them.

The Python API (everything in __all__):

    import kg
    report = kg.build("corpus", "data")          # a BuildReport; raises kg.KgError subclasses
    with kg.open("data") as graph:                # the current build, read-only (store=URL: a server's)
        rows = graph.query("SELECT ?l ?n WHERE { ?e skos:prefLabel ?l ; kgo:mentionCount ?n }")
        rows[0]["n"]                              # Python values: int, Decimal, date, bool, str, URIRef
        rows.to_dataframe()                       # pandas (pip install 'brat-kg[dataframe]')
        graph.query("ASK { ?s ?p ?o }")           # True
        graph.to_rdflib()                         # rdflib.Dataset of every graph
        graph.stats()                             # what `kg stats` prints
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from kg.errors import BuildLockedError, InputError, KgError, QueryError, StoreError, ValidationError

if TYPE_CHECKING:
    from kg.pipeline.builder import BuildReport
    from kg.python_api import KnowledgeGraph, Results

__version__ = "0.1.0"
__all__ = ["BuildLockedError", "BuildReport", "InputError", "KgError", "KnowledgeGraph", "QueryError", "Results",
           "StoreError", "ValidationError", "__version__", "build", "open"]


def build(corpus: Path | str = "corpus", data: Path | str = "data", *, store: str | None = None,
          full: bool = False, validate: bool = True, workers: int | None = None,
          progress: bool = False, base_iri: str | None = None, cluster: str | None = None) -> BuildReport:
    """Build `corpus` into `data` as `kg build` does (unchanged documents are not rebuilt; `full`
    rebuilds them), pushing to the SPARQL 1.1 server `store` if given. Bad input raises InputError
    (every problem, located), a graph that breaks the shapes ValidationError; the previous build
    then stays in place. Every IRI is minted under `base_iri` (None: the base_iri setting). `cluster`
    (tcp://HOST:PORT of a Dask scheduler, or local:N) reads the documents there instead of here."""
    from kg.pipeline.builder import build as run_build

    return run_build(Path(corpus), Path(data), store_url=store, progress=progress, full=full,
                     validate=validate, workers=workers, base_iri=base_iri, cluster=cluster)


def open(data: Path | str = "data", *, store: str | None = None) -> KnowledgeGraph:  # noqa: A001  (kg.open)
    """The current build of `data`, read-only, or with `store` the graph that `kg.build(store=...)`
    pushed to that SPARQL 1.1 server; close it (or use `with`) when done."""
    from kg.python_api import KnowledgeGraph

    return KnowledgeGraph.open(data, store=store)


def __getattr__(name: str):
    """BuildReport, KnowledgeGraph and Results, imported when first asked for (kg stays light to import)."""
    if name == "BuildReport":
        from kg.pipeline.builder import BuildReport

        return BuildReport
    if name in ("KnowledgeGraph", "Results"):
        from kg import python_api

        return getattr(python_api, name)
    raise AttributeError(f"module 'kg' has no attribute {name!r}")

