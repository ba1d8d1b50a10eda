"""A GraphStore on any SPARQL 1.1 server, over HTTP.

Queries go through the SPARQL 1.1 Protocol, per-document graphs are written
with the SPARQL 1.1 Graph Store Protocol (PUT / DELETE ?graph=...). Tested
against `oxigraph serve`; Fuseki, GraphDB, Virtuoso and QLever speak the same
protocols but name their endpoints differently, hence the URL overrides.

The default graph of a query is the union of the named graphs, as with the
embedded store. SPARQL servers disagree on how to ask for that, so `union`
says how:

- "graphs" (default, any server): name every graph as a `default-graph-uri`
  (and as a `named-graph-uri`, so that GRAPH patterns keep seeing them all);
- "param": send Oxigraph's `union-default-graph` parameter;
- "native": the server's default graph already is the union (Virtuoso,
  GraphDB, Fuseki with `unionDefaultGraph`).
"""

from __future__ import annotations

import io
import re
import threading
import time
from pathlib import Path
from typing import IO, Iterator, Sequence
from urllib.parse import urlsplit, urlunsplit

import requests

from kg.errors import QueryError, StoreError
from kg.store import GRAPH_FORMATS, SPARQL_JSON, Answer, rows_of

UNION_MODES = ("graphs", "param", "native")
DATASET_TYPES = {"nq": "application/n-quads", "trig": "application/trig", "ttl": "text/turtle",
                 "nt": "application/n-triples", "jsonld": "application/ld+json"}
_GRAPHS_QUERY = "SELECT DISTINCT ?g WHERE { GRAPH ?g { } } ORDER BY ?g"
_GRAPHS_TTL = 5.0
_CHUNK = 64 * 1024
_BOOLEAN = re.compile(rb'"boolean"\s*:\s*(?:true|false)|<boolean>')


class RemoteTimeout(StoreError):
    """The remote server did not answer within the time limit."""


class RemoteStore:
    """A SPARQL 1.1 server reached over HTTP; thread-safe."""

    def __init__(self, query_url: str, update_url: str | None = None, gsp_url: str | None = None,
                 *, union: str = "graphs", timeout: float = 30.0) -> None:
        if union not in UNION_MODES:
            raise ValueError(f"union must be one of {', '.join(UNION_MODES)}, not {union!r}")
        self.query_url = query_url
        self.update_url = update_url
        self.gsp_url = gsp_url
        self.union = union
        self.timeout = timeout
        self._local = threading.local()
        self._graphs: tuple[float, list[str]] | None = None

    @classmethod
    def from_url(cls, url: str, update_url: str | None = None, gsp_url: str | None = None,
                 **options) -> "RemoteStore":
        """A store from a server's base URL or its query URL, with Oxigraph's
        endpoint names (/query, /update, /store) for whatever is not given
        (RDF4J / GraphDB repository URLs get theirs: /statements, /rdf-graphs/service)."""
        parts = urlsplit(url)
        path = parts.path.rstrip("/")
        if "/repositories/" in path:  # RDF4J / GraphDB: the repository URL is the query endpoint
            return cls(url, update_url or url + "/statements", gsp_url or url + "/rdf-graphs/service", **options)
        if path.endswith("/query") or path.endswith("/sparql"):
            base_path, query_url = path.rsplit("/", 1)[0], url
        else:
            base_path, query_url = path, urlunsplit(parts._replace(path=path + "/query"))
        base = urlunsplit(parts._replace(path=base_path, query="", fragment=""))
        return cls(query_url, update_url or base + "/update", gsp_url or base + "/store", **options)

    # -- reading -----------------------------------------------------------

    def query(self, sparql: str, *, solutions_type: str = SPARQL_JSON, graph_type: str = "text/turtle",
              default_graph_uris: Sequence[str] = (), named_graph_uris: Sequence[str] = ()) -> Answer:
        buffer = io.BytesIO()
        kind, media_type = self.query_into(buffer, sparql, solutions_type=solutions_type, graph_type=graph_type,
                                           default_graph_uris=default_graph_uris,
                                           named_graph_uris=named_graph_uris)
        return Answer(kind, buffer.getvalue(), media_type)

    def query_into(self, output: IO[bytes], sparql: str, *, solutions_type: str = SPARQL_JSON,
                   graph_type: str = "text/turtle", default_graph_uris: Sequence[str] = (),
                   named_graph_uris: Sequence[str] = ()) -> tuple[str, str]:
        """Stream the server's answer into `output`; returns (kind, media type).

        `output.write` may raise to stop early: the connection is then closed."""
        form = self._form(sparql, default_graph_uris, named_graph_uris)
        headers = {"Accept": f"{solutions_type}, {graph_type};q=0.9",
                   "Content-Type": "application/x-www-form-urlencoded"}
        with self._request("POST", self.query_url, data=form, headers=headers, stream=True) as response:
            self._check(response)
            media_type = response.headers.get("Content-Type", "").split(";")[0].strip().lower()
            first = True
            for chunk in self._iter(response):
                if first:
                    kind = _kind(media_type, chunk)
                    first = False
                output.write(chunk)
            if first:
                kind = _kind(media_type, b"")
        return kind, media_type

    def select(self, sparql: str) -> list[dict[str, str]]:
        """Rows of a small SELECT as {variable: lexical value}."""
        return rows_of(self.query(sparql).body)

    def graphs(self) -> list[str]:
        """Names of the server's named graphs (cached for a few seconds)."""
        cached = self._graphs
        if cached is not None and time.monotonic() - cached[0] < _GRAPHS_TTL:
            return cached[1]
        data = {"query": _GRAPHS_QUERY}
        with self._request("POST", self.query_url, data=data, headers={"Accept": SPARQL_JSON}) as response:
            self._check(response)
            names = [row["g"] for row in rows_of(response.content)]
        self._graphs = (time.monotonic(), names)
        return names

    def dump(self, output: IO[bytes] | str | Path, fmt: str, prefixes: dict[str, str] | None = None) -> None:
        """Write the whole dataset as the server gives it (Graph Store Protocol GET)."""
        if isinstance(output, (str, Path)):
            with open(output, "wb") as sink:
                for chunk in self.dump_chunks(fmt):
                    sink.write(chunk)
        else:
            for chunk in self.dump_chunks(fmt):
                output.write(chunk)

    def dump_chunks(self, fmt: str) -> Iterator[bytes]:
        """The whole dataset as it arrives from the server, chunk by chunk."""
        headers = {"Accept": DATASET_TYPES[fmt]}
        with self._request("GET", self._gsp(), headers=headers, stream=True) as response:
            self._check(response)
            yield from self._iter(response)

    def limit_time(self, seconds: float) -> None:
        """Time limit of this thread's next requests (the endpoint's deadline)."""
        self._local.timeout = seconds

    # -- writing -----------------------------------------------------------

    def replace_graph(self, graph: str, ntriples: bytes) -> None:
        """Replace one named graph (Graph Store Protocol PUT)."""
        headers = {"Content-Type": "application/n-triples"}
        with self._request("PUT", self._gsp(), params={"graph": graph}, data=ntriples, headers=headers) as r:
            self._check(r)
        self._graphs = None

    def drop_graph(self, graph: str) -> None:
        """Remove one named graph; a graph that is not there is not an error."""
        with self._request("DELETE", self._gsp(), params={"graph": graph}) as response:
            if response.status_code != 404:
                self._check(response)
        self._graphs = None

    def close(self) -> None:
        session = getattr(self._local, "session", None)
        if session is not None:
            session.close()
            self._local.session = None

    # -- plumbing ----------------------------------------------------------

    def _form(self, sparql: str, default_graph_uris: Sequence[str],
              named_graph_uris: Sequence[str]) -> list[tuple[str, str]]:
        form = [("query", sparql)]
        form += [("default-graph-uri", g) for g in default_graph_uris]
        form += [("named-graph-uri", g) for g in named_graph_uris]
        if default_graph_uris or named_graph_uris:
            return form
        if self.union == "param":
            form.append(("union-default-graph", ""))
        elif self.union == "graphs":
            # A protocol dataset leaves out what it does not name: name every
            # graph as a named graph too, so that GRAPH patterns still see them.
            names = self.graphs()
            form += [("default-graph-uri", g) for g in names] + [("named-graph-uri", g) for g in names]
        return form

    def _gsp(self) -> str:
        if self.gsp_url is None:
            raise StoreError("this remote store has no Graph Store Protocol URL")
        return self.gsp_url

    def _timeout(self) -> float:
        return getattr(self._local, "timeout", None) or self.timeout

    def _session(self) -> requests.Session:
        session = getattr(self._local, "session", None)
        if session is None:
            session = self._local.session = requests.Session()
        return session

    def _request(self, method: str, url: str, **kwargs) -> requests.Response:
        try:
            return self._session().request(method, url, timeout=self._timeout(), **kwargs)
        except requests.Timeout as exc:
            raise RemoteTimeout(f"{url} did not answer within {self._timeout():g} s") from exc
        except requests.RequestException as exc:
            raise StoreError(f"cannot reach {url}: {exc}") from exc

    def _iter(self, response: requests.Response) -> Iterator[bytes]:
        """The body chunk by chunk; a stalled read becomes RemoteTimeout."""
        try:
            yield from response.iter_content(_CHUNK)
        except requests.ConnectionError as exc:
            if "timed out" in str(exc).lower():
                raise RemoteTimeout(f"{response.url} stopped answering within {self._timeout():g} s") from exc
            raise StoreError(f"{response.url}: connection lost: {exc}") from exc

    @staticmethod
    def _check(response: requests.Response) -> None:
        if response.ok:
            return
        detail = response.text.strip()[:2000] or response.reason
        if response.status_code == 400:
            raise QueryError(detail)
        raise StoreError(f"{response.request.method} {response.url}: HTTP {response.status_code}: {detail}")


def _kind(media_type: str, head: bytes) -> str:
    """'graph', 'boolean' or 'solutions', from the media type and the start of the body."""
    if media_type in GRAPH_FORMATS or media_type in ("application/n-quads", "application/trig"):
        return "graph"
    if _BOOLEAN.search(head[:400]) or head.strip() in (b"true", b"false"):
        return "boolean"
    return "solutions"
