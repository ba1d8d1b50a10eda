"""`RemoteStore`: the GraphStore interface (kg.store.protocol) on a SPARQL 1.1 server, over HTTP.

Queries go through the SPARQL 1.1 Protocol, graphs are read and written one
at a time with the Graph Store Protocol (GET / PUT / DELETE ?graph=), each
engine's endpoint names and quirks come from its profile (kg.store.remote.engines),
and only the graphs recorded in the store's manifest (kg.store.remote.owned) are
kg's: they make the union default graph of queries, the exports, and the
only graphs a build may replace or drop.

The union default graph, `union`:
- "graphs" (default, any server): exactly kg's graphs, whatever else the
  server holds: while the store holds nothing but kg's graphs (and the
  manifest's empty marker graphs, its default graph empty), the engine's own
  union (Oxigraph's `union-default-graph`, fast); otherwise each of kg's
  graphs named as a `default-graph-uri` (and as a `named-graph-uri`, so that
  GRAPH patterns see them too), or in query pragmas (Virtuoso);
- "param": Oxigraph's `union-default-graph` (every graph of the server);
- "native": the server's own default graph (every graph on Virtuoso and
  GraphDB, including their system graphs).
"""

from __future__ import annotations

from typing import IO, Sequence

import pyoxigraph as ox
import requests
import urllib3

from kg.errors import QueryError, SettingError, StoreError
from kg.formats import rdf_syntaxes
from kg.model import iris
from kg.store.memo import Memo
from kg.store.protocol import SPARQL_JSON, TURTLE, GraphStore, rows_of
from kg.store.remote.batch import Batch
from kg.store.remote.engines import ENGINES, Engine, engine as find_engine
from kg.store.remote.http import Client, Credentials, RemoteTimeout, check, check_url, media_type, read_error
from kg.store.remote.owned import LIST_GRAPHS, Manifest, manifest_graph, read_query
from kg.store.remote.results import GRAPH_ACCEPT, PARSED_GRAPHS, accept, convert, query_form as form_of

UNION_MODES = ("graphs", "param", "native")
_GRAPHS_TTL = 5.0
_TIMEOUT_STATES = ("S1TAT",)


class RemoteStore(GraphStore):
    """A SPARQL 1.1 server reached over HTTP; thread-safe (one session per thread). Its graphs
    are those built under `base` (None: the base IRI in force), recorded in that base's manifest."""

    def __init__(self, query_url: str, update_url: str | None = None, gsp_url: str | None = None, *,
                 engine: Engine | None = None, union: str = "graphs", timeout: float = 30.0,
                 credentials: Credentials | None = None, base: str | None = None) -> None:
        if union not in UNION_MODES:
            raise SettingError(f"union must be one of {', '.join(UNION_MODES)}, not {union!r}")
        for url in (query_url, update_url, gsp_url):
            if url:
                check_url(url)
        self.query_url = query_url
        self.update_url = update_url
        self.gsp_url = gsp_url
        self.engine = engine or ENGINES["oxigraph"]
        self.union = union
        self.http = Client(credentials if credentials is not None else Credentials(), timeout,
                           rolled_back=self.engine.rolled_back)
        self._memo = Memo()  # the manifest and whether the store holds kg's graphs alone
        self.manifest_graph = manifest_graph(base or iris.current().base)
        self.no_graph = self.manifest_graph + "#nothing"  # names an empty dataset

    @classmethod
    def from_url(cls, url: str, update_url: str | None = None, gsp_url: str | None = None, *,
                 engine: str | Engine | None = None, credentials: Credentials | None = None,
                 **options) -> RemoteStore:
        """A store from a server's base URL or query URL; the update and GSP URLs not given
        follow the engine's names (the engine is guessed from the URL when not named).
        Credentials not given are read from the environment (KG_STORE_USER, ...)."""
        check_url(url)
        profile = engine if isinstance(engine, Engine) else find_engine(engine, url)
        credentials = Credentials.from_environment() if credentials is None else credentials
        query, update, gsp = profile.urls(url, authenticated=bool(credentials))
        return cls(query, update_url or update, gsp_url or gsp, engine=profile, credentials=credentials,
                   **options)

    def __repr__(self) -> str:
        return f"RemoteStore({self.query_url!r}, engine={self.engine.name!r})"

    # -- reading -----------------------------------------------------------

    def query_into(self, output: IO[bytes], sparql: str, *, solutions_type: str = SPARQL_JSON,
                   graph_type: str = TURTLE, default_graph_uris: Sequence[str] = (),
                   named_graph_uris: Sequence[str] = (), prefixes: dict[str, str] | None = None,
                   query_form: str | None = None) -> tuple[str, str]:
        """Write the answer into `output` in the asked format as it arrives; returns (kind, media type).
        `output.write` may raise to stop early: the connection is then closed. `prefixes` are
        declared on the query's first line (a PREFIX of the query's own, coming later, wins).
        `query_form` (SELECT, ASK, CONSTRUCT, DESCRIBE; read from the query when not given)
        decides what the server is asked for."""
        declared = "".join(f"PREFIX {prefix}: <{iri}> " for prefix, iri in (prefixes or {}).items())
        form = self._form(self._pragmas(default_graph_uris, named_graph_uris) + declared + sparql,
                          default_graph_uris, named_graph_uris)
        headers = {"Accept": accept(query_form or form_of(sparql)),
                   "Content-Type": "application/x-www-form-urlencoded"}
        with self.http.request("POST", self.query_url, data=form, headers=headers, stream=True) as response:
            check(response)
            self._check_complete(response)
            try:
                return convert(_Body(response), media_type(response), output, solutions_type=solutions_type,
                               graph_type=graph_type, ask_variable=self.engine.ask_variable)
            except SyntaxError as exc:
                raise StoreError(f"{self.query_url} sent an answer that is not valid "
                                 f"{media_type(response)}: {exc}") from exc

    def select(self, sparql: str) -> list[dict[str, str]]:
        """Rows of a small SELECT as {variable: lexical value}."""
        return rows_of(self.query(sparql, query_form="SELECT").body)

    def manifest(self, *, fresh: bool = False) -> Manifest:
        """kg's graphs in the store and the build they hold (cached for a few seconds)."""
        return self._read_manifest(fresh)[0]

    def holds_only_kg(self) -> bool:
        """Whether the store holds nothing but kg's graphs and its manifest, with an empty
        default graph (known only on engines that record the manifest in graph names; cached
        with the manifest): then the engine's own union is exactly kg's union default graph."""
        return self._read_manifest(False)[1]

    def _read_manifest(self, fresh: bool) -> tuple[Manifest, bool]:
        held = None if fresh else self._memo.get("manifest", "", _GRAPHS_TTL)
        if held is not None:
            return held
        if self.engine.manifest_in_names:
            manifest, alone = self._manifest_from_names()
        else:
            # the manifest graph as a dataset of its own
            answer = self.query(read_query(self.manifest_graph), named_graph_uris=[self.manifest_graph],
                                query_form="SELECT")
            manifest, alone = Manifest.from_rows(rows_of(answer.body)), False
        return self._memo.put("manifest", "", (manifest, alone))

    def _manifest_from_names(self) -> tuple[Manifest, bool]:
        """The manifest from the empty marker graphs (or, left by an earlier kg, a manifest graph)."""
        names = {row["g"] for row in rows_of(self._ask(LIST_GRAPHS)) if row.get("g")}
        manifest = Manifest.from_graph_names(names, self.manifest_graph)
        if not manifest.graphs and self.manifest_graph in names:
            manifest = Manifest.from_rows(rows_of(self._ask(read_query(self.manifest_graph))))
        alone = names <= manifest.graphs | manifest.marker_graphs(self.manifest_graph) and self._default_graph_empty()
        return manifest, alone

    def _ask(self, sparql: str) -> bytes:
        """A SELECT sent as it is (the server's own dataset), answered as SPARQL JSON."""
        headers = {"Accept": SPARQL_JSON}
        with self.http.request("POST", self.query_url, data={"query": sparql}, headers=headers) as response:
            check(response)
            if media_type(response) != SPARQL_JSON:
                raise StoreError(f"{self.query_url} answered {media_type(response) or 'without a Content-Type'} "
                                 f"(expected {SPARQL_JSON})")
            return response.content

    def _default_graph_empty(self) -> bool:
        with self.http.request("GET", self._gsp(), params={"default": ""},
                               headers={"Accept": rdf_syntaxes.NTRIPLES.media_type}, stream=True) as response:
            check(response)
            return not any(chunk.strip() for chunk in self.http.chunks(response))  # stops at the first triple

    def graphs(self) -> list[str]:
        """kg's named graphs in the store (those its manifest lists), sorted."""
        return sorted(self.manifest().graphs)

    def graph_ntriples(self, graph: str) -> tuple[bytes, ox.RdfFormat]:
        """One named graph as the server sends it (Graph Store Protocol GET), with its format."""
        with self.http.request("GET", self._gsp(), params={"graph": graph},
                               headers={"Accept": GRAPH_ACCEPT}) as response:
            check(response)
            served = media_type(response)
            if served not in PARSED_GRAPHS:
                raise StoreError(f"GET {self._gsp()} answered {served or 'without a Content-Type'} "
                                 "(expected N-Triples, Turtle or RDF/XML)")
            return response.content, PARSED_GRAPHS[served]

    def limit_time(self, seconds: float) -> None:
        """Time limit of this thread's next requests (the endpoint's deadline)."""
        self.http.limit_time(seconds)

    # -- writing -----------------------------------------------------------

    def replace_graph(self, graph: str, ntriples: bytes) -> None:
        """Replace one named graph (Graph Store Protocol PUT)."""
        headers = {"Content-Type": rdf_syntaxes.NTRIPLES.media_type}
        self._write("PUT", self._gsp(), params={"graph": graph}, data=ntriples, headers=headers)

    def replace_graphs(self, batch: Batch) -> None:
        """Replace the graphs of one batch (kg.store.remote.batch): one SPARQL Update request
        (sent again if the connection drops: it clears what it fills), or one PUT."""
        if not batch.update:
            self.replace_graph(batch.graphs[0], batch.ntriples)
            return
        if not self.update_url:
            raise StoreError("this remote store has no update URL (set KG_STORE_UPDATE)")
        self._write("POST", self.update_url, data=batch.update, idempotent=True,
                    headers={"Content-Type": "application/sparql-update"})

    def update(self, sparql: str) -> None:
        """Run a SPARQL Update of kg's own (sent again if the connection drops: kg's updates are
        idempotent)."""
        if not self.update_url:
            raise StoreError("this remote store has no update URL (set KG_STORE_UPDATE)")
        self._write("POST", self.update_url, data=sparql.encode(), idempotent=True,
                    headers={"Content-Type": "application/sparql-update"})

    def write_dataset(self, nquads: IO[bytes], params: dict[str, str] | None = None) -> None:
        """Add an N-Quads stream to the store's graphs: one POST to the Graph Store endpoint."""
        self._write("POST", self._gsp(), params=params, data=nquads,
                    headers={"Content-Type": rdf_syntaxes.NQUADS.media_type})

    def drop_graph(self, graph: str) -> None:
        """Remove one named graph; a graph that is not there is not an error."""
        self._write("DELETE", self._gsp(), params={"graph": graph}, allowed=(404,))

    def _write(self, method: str, url: str, *, allowed: tuple[int, ...] = (), **kwargs) -> None:
        """A write request; any refusal is the store's (StoreError), a 400 included: kg sent its own data."""
        with self.http.request(method, url, **kwargs) as response:
            try:
                check(response, allowed=allowed)
            except QueryError as exc:
                raise StoreError(f"{method} {url}: HTTP 400: {exc}") from exc
        self._memo.forget()

    def write_manifest(self, manifest: Manifest) -> None:
        """Record which graphs are kg's and which build they hold."""
        if self.engine.manifest_in_names:
            self._write_marker_graphs(manifest)
            return
        body = manifest.ntriples(self.manifest_graph)
        if body:
            self.replace_graph(self.manifest_graph, body)
        else:
            self.drop_graph(self.manifest_graph)

    def _write_marker_graphs(self, manifest: Manifest) -> None:
        """One SPARQL Update: drop the marker graphs of the manifest held, create the new ones
        (and drop a manifest graph an earlier kg left)."""
        held = self.manifest(fresh=True).marker_graphs(self.manifest_graph)
        wanted = manifest.marker_graphs(self.manifest_graph)
        steps = ([f"DROP SILENT GRAPH <{g}>" for g in sorted(held - wanted)]
                 + [f"CREATE SILENT GRAPH <{g}>" for g in sorted(wanted - held)]
                 + [f"DROP SILENT GRAPH <{self.manifest_graph}>"])
        if not self.update_url:
            raise StoreError("this remote store has no update URL (set KG_STORE_UPDATE)")
        with self.http.request("POST", self.update_url, data={"update": " ;\n".join(steps)}) as response:
            check(response)
        self._memo.forget()

    def close(self) -> None:
        self.http.close()

    # -- plumbing ----------------------------------------------------------

    def _form(self, sparql: str, default_graph_uris: Sequence[str],
              named_graph_uris: Sequence[str]) -> list[tuple[str, str]]:
        form = [("query", sparql)]
        if self.engine.timeout_param:
            form.append((self.engine.timeout_param, str(max(1, int(self.http.current_timeout() * 1000)))))
        form += [("default-graph-uri", g) for g in default_graph_uris]
        form += [("named-graph-uri", g) for g in named_graph_uris]
        if default_graph_uris or named_graph_uris:
            return form
        if self.union == "param":
            form.append((self.engine.union_param or "union-default-graph", ""))
        elif self.union == "graphs" and self.engine.union_param and self.holds_only_kg():
            form.append((self.engine.union_param, ""))
        elif self.union == "graphs" and not self.engine.dataset_pragmas:
            # A protocol dataset leaves out what it does not name: name every graph as a
            # named graph too, so that GRAPH patterns still see them.
            names = self.graphs() or [self.no_graph]  # nothing built yet: an empty dataset, not the whole store
            form += [("default-graph-uri", g) for g in names] + [("named-graph-uri", g) for g in names]
        return form

    def _pragmas(self, default_graph_uris: Sequence[str], named_graph_uris: Sequence[str]) -> str:
        """kg's union default graph as query pragmas, on engines that name it so (Virtuoso), on
        the query's first line so that error positions keep their line."""
        if self.union != "graphs" or not self.engine.dataset_pragmas or default_graph_uris or named_graph_uris:
            return ""
        default, named = self.engine.dataset_pragmas
        names = self.graphs() or [self.no_graph]
        return "".join(default.format(g) for g in names) + "".join(named.format(g) for g in names)

    def _check_complete(self, response: requests.Response) -> None:
        """Some servers cut an answer short and still say 200 (Virtuoso at its time limit)."""
        header = self.engine.partial_header
        state = response.headers.get(header) if header else None
        if not state:
            return
        message = " ".join(response.headers.get("X-SQL-Message", "").split())[:300]
        if state in _TIMEOUT_STATES:
            raise RemoteTimeout(f"{self.query_url} stopped the query at its time limit (incomplete answer)")
        raise StoreError(f"{self.query_url} sent an incomplete answer ({state}: {message})")

    def _gsp(self) -> str:
        if not self.gsp_url:
            raise StoreError("this remote store has no Graph Store Protocol URL (set KG_STORE_GSP)")
        return self.gsp_url


class _Body:
    """A response body as a file for Oxigraph's parsers: never more bytes than asked for,
    and a stalled or broken read becomes RemoteTimeout or StoreError."""

    def __init__(self, response: requests.Response) -> None:
        self.response = response
        self.raw = response.raw
        self.raw.decode_content = True
        self.pending = b""

    def read(self, size: int = -1) -> bytes:
        if not self.pending:
            try:
                self.pending = self.raw.read(size if size and size > 0 else 65536) or b""
            except (urllib3.exceptions.HTTPError, OSError) as exc:
                raise read_error(self.response, exc) from exc
        if size is None or size < 0:
            size = len(self.pending)
        data, self.pending = self.pending[:size], self.pending[size:]
        return data
