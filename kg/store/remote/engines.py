"""One profile per SPARQL server: its endpoint names and its quirks, in one place.

A profile says where the query, update and Graph Store Protocol (GSP)
endpoints sit relative to the URL the user gives, how the store is asked for
kg's union default graph, and what the server does that the standards do not
say. Oxigraph and Virtuoso are tested against the real servers
(tests/remote/); Fuseki and GraphDB are configured from their documentation.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

from kg.errors import SettingError
from kg.store.remote.batch import Batching

# Virtuoso 7.2.5's bounds for batches: its SPARQL parser runs out of stack near 4,990 triples in
# one GRAPH block (SP030), its compiler refuses requests of ~700 operations (SQ156, SQ200) and
# texts over ~10 MB (SR578); it refuses blank nodes in INSERT DATA and stops at a raw NUL
VIRTUOSO_BATCHING = Batching(max_bytes=2_000_000, max_graphs=100, block_triples=2_000)


@dataclass(frozen=True)
class Engine:
    """Where a server's endpoints are and how it behaves."""

    name: str
    query: str  # path of each endpoint relative to the base URL
    update: str
    gsp: str
    gsp_auth: str = ""  # GSP path when credentials are sent, if the server has a separate one
    update_auth: str = ""
    # the URL's last path segment names the query endpoint (stripped to find the base)
    query_names: tuple[str, ...] = ("query", "sparql")
    # the server answers ASK as a one-row SELECT of this variable (Virtuoso 7)
    ask_variable: str = ""
    # query parameter taking the server-side time limit in milliseconds
    timeout_param: str = ""
    # response header present when the server cut an answer short, e.g. at its own time limit
    partial_header: str = ""
    # kg's union default graph named in these query pragmas rather than as protocol parameters
    # (Virtuoso echoes each protocol graph as a response header, and Python's HTTP client
    # refuses more than 100 headers)
    dataset_pragmas: tuple[str, str] | None = None
    # words of a 500 answer to a graph write meaning the server rolled it back and it may be
    # sent again (Virtuoso: SQL state 40001, a deadlock between concurrent graph writes)
    rolled_back: tuple[str, ...] = ()
    # protocol parameter asking for the server's own union of all its graphs as the default
    # graph: used for kg's union default graph while the store holds nothing but kg's graphs
    # (naming 1,002 graphs one by one makes Oxigraph's joins hundreds of times slower)
    union_param: str = ""
    # the server keeps empty named graphs: the manifest is written as the names of empty
    # graphs (kg.store.remote.owned), so that the server's union never holds its triples
    manifest_in_names: bool = False
    # a push replaces many graphs per SPARQL Update request, within these bounds
    # (kg.store.remote.batch); None: one Graph Store Protocol PUT per graph
    batching: Batching | None = None
    # the engine's bulk loader, for a full push from kg.nq (kg.store.remote.bulk): "post" (the
    # N-Quads POSTed to the GSP endpoint with no_transaction: Oxigraph), "isql" (ld_dir and
    # rdf_loader_run through the SQL port: Virtuoso); "": graph by graph
    bulk: str = ""
    notes: str = ""

    def urls(self, url: str, *, authenticated: bool = False) -> tuple[str, str, str]:
        """(query, update, GSP) URLs from the base URL or the query URL the user gave."""
        parts = urlsplit(url)
        path = parts.path.rstrip("/")
        last = path.rsplit("/", 1)[-1]
        base_path = path.rsplit("/", 1)[0] if last in self.query_names and self.query else path
        base = urlunsplit(parts._replace(path=base_path, query="", fragment=""))
        query = url if base_path != path else _join(base, self.query)
        update = _join(base, self.update_auth if authenticated and self.update_auth else self.update)
        gsp = _join(base, self.gsp_auth if authenticated and self.gsp_auth else self.gsp)
        return query, update, gsp


def _join(base: str, path: str) -> str:
    return base + ("/" + path if path else "")


ENGINES: dict[str, Engine] = {e.name: e for e in (
    Engine("oxigraph", "query", "update", "store", union_param="union-default-graph", manifest_in_names=True,
           bulk="post",
           notes="`oxigraph serve`: /query, /update, /store; its union-default-graph while the store holds "
                 "only kg's graphs; the manifest in the names of empty graphs"),
    Engine("virtuoso", "sparql", "sparql", "sparql-graph-crud", gsp_auth="sparql-graph-crud-auth",
           update_auth="sparql-auth", query_names=("sparql", "sparql-auth"), ask_variable="__ASK_RETVAL",
           timeout_param="timeout", partial_header="X-SQL-State",
           dataset_pragmas=("define input:default-graph-uri <{}> ", "define input:named-graph-uri <{}> "),
           rolled_back=("40001", "deadlock"), bulk="isql",
           # one PUT per graph: batches (VIRTUOSO_BATCHING) cost Virtuoso 7.2.5 more CPU per
           # triple than PUTs do (docs/endpoint.md)
           notes="Virtuoso 7: /sparql; GSP at /sparql-graph-crud (digest-authenticated: -auth); "
                 "ASK answered as a row of __ASK_RETVAL; answers cut at ResultSetMaxRows and at the "
                 "time limit, flagged by X-SQL-State; kg's graphs named in define pragmas; "
                 "a graph write rolled back as a deadlock (40001) sent again"),
    Engine("fuseki", "sparql", "update", "data", query_names=("sparql", "query"),
           notes="Apache Jena Fuseki: /<dataset>/sparql, /update, /data"),
    Engine("graphdb", "", "statements", "rdf-graphs/service", query_names=(),
           notes="GraphDB and RDF4J: the repository URL is the query endpoint; /statements, "
                 "/rdf-graphs/service"),
)}


def guess(url: str) -> Engine:
    """The engine a URL most likely belongs to, from the names servers give their endpoints:
    .../repositories/<id> is GraphDB or RDF4J; a path ending in /sparql directly under the
    host (or port 8890) is Virtuoso; /<dataset>/sparql is Fuseki; anything else Oxigraph."""
    parts = urlsplit(url)
    path = parts.path.rstrip("/")
    if "/repositories/" in path:
        return ENGINES["graphdb"]
    if parts.port == 8890 or path in ("/sparql", "/sparql-auth"):
        return ENGINES["virtuoso"]
    if path.count("/") >= 2 and path.rsplit("/", 1)[-1] in ("sparql", "query", "update", "data"):
        return ENGINES["fuseki"]
    return ENGINES["oxigraph"]


def engine(name: str | None, url: str) -> Engine:
    """The engine called `name`, or the one guessed from the URL when no name is given."""
    if not name or name == "auto":
        return guess(url)
    try:
        return ENGINES[name]
    except KeyError:
        raise SettingError(f"unknown store engine {name!r} (expected auto or one of {', '.join(ENGINES)})") from None
