"""What the Linked Data tests share: constants, readers of answers and pages, the corpora they
are served from (the foreign and the hostile one, built and served for real), and a reverse proxy."""

from __future__ import annotations

import http.client
import shutil
import threading
from html.parser import HTMLParser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import pyoxigraph as ox

from kg.model.iris import BASE, DOCUMENT, ENTITIES_GRAPH, PREFIXES, RESOURCE
from kg.pipeline.builder import build
from kg.store import build_dirs
from kg.testing.servers import Server
from tests.brat_reference import brat_source
from tests.hardening.hostile import SLUG, write_corpus

BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
GUAIDO = RESOURCE + "person/juan-guaido"
NPR = "npr-venezuelan-armed-forces-fled"
FOREIGN = brat_source().parent.parent / "example-data" / "corpora" / "BioNLP-ST_2011" / "BioNLP-ST_2011_GE"
RDF = {"text/turtle": ox.RdfFormat.TURTLE, "application/n-triples": ox.RdfFormat.N_TRIPLES,
       "application/ld+json": ox.RdfFormat.JSON_LD, "application/rdf+xml": ox.RdfFormat.RDF_XML}
VOID = "http://rdfs.org/ns/void#"
SD = "http://www.w3.org/ns/sparql-service-description#"
TIMEOUT = 60


def path_of(iri: str) -> str:
    assert iri.startswith(BASE)
    return "/" + iri[len(BASE):]


def reference(data: Path) -> ox.Store:
    """The build's store, read directly: what the answers must agree with."""
    return ox.Store.read_only(str(build_dirs.store_path(build_dirs.current_build(data))))


def union_triples(store: ox.Store, sparql: str) -> set[ox.Triple]:
    return set(store.query(sparql, use_default_graph_as_union=True))


def parsed(response) -> set[ox.Triple]:
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    return {ox.Triple(q.subject, q.predicate, q.object) for q in ox.parse(response.data, format=RDF[response.mimetype])}


class Page(HTMLParser):
    """An HTML page's text and links, as a browser would read them (entities decoded)."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.hrefs: list[str] = []
        self.citations: list[str] = []
        self.tags: list[str] = []
        self._in_citation = False
        self.feed(html)

    def handle_starttag(self, tag, attrs) -> None:
        self.tags.append(tag)
        attributes = dict(attrs)
        if tag == "a" and attributes.get("href"):
            self.hrefs.append(attributes["href"])
        self._in_citation = self._in_citation or (tag == "p" and attributes.get("class") == "citation")

    def handle_endtag(self, tag) -> None:
        if tag == "code" and self._in_citation:
            self._in_citation = False

    def handle_data(self, data) -> None:
        self.text.append(data)
        if self._in_citation and self.tags[-1] == "code":
            self.citations.append(data)

    @property
    def all_text(self) -> str:
        return "".join(self.text)


def value(store: ox.Store, sparql: str, *, union: bool = False) -> str:
    """The first value of the first row (`union`: over the union of the named graphs, as kg queries)."""
    return next(iter(store.query(sparql, use_default_graph_as_union=union)))[0].value


def most_stated(data: Path) -> str:
    """The canonical thing with the most statements about it."""
    return value(reference(data), f"""SELECT ?x WHERE {{ {{ ?st <{PREFIXES['rdf']}subject> ?x }} UNION
        {{ ?st <{PREFIXES['rdf']}object> ?x }} FILTER(STRSTARTS(STR(?x), "{RESOURCE}")) }}
        GROUP BY ?x ORDER BY DESC(COUNT(?st)) ?x LIMIT 1""", union=True)


def hostile_iris(data: Path) -> list[str]:
    """Every canonical thing and the document of the hostile corpus."""
    store = reference(data)
    things = [r["x"].value for r in store.query(
        f"SELECT DISTINCT ?x WHERE {{ GRAPH <{ENTITIES_GRAPH}> {{ ?x <{PREFIXES['skos']}prefLabel> ?l }} }}")]
    return sorted(things) + [DOCUMENT + SLUG]


def serve_foreign(root: Path) -> tuple[Path, Server]:
    """brat's BioNLP-ST 2011 GE example corpus (its own schema: proteins, gene expression events),
    built under `root` and served."""
    shutil.copytree(FOREIGN, root / "corpus")
    build(root / "corpus", root / "data")
    return root / "data", Server(root / "data", "--workers", "2", "--threads", "6")


def serve_hostile(root: Path) -> tuple[Path, Server]:
    """The hostile corpus of tests/hardening/hostile.py, built under `root` and served."""
    build(write_corpus(root / "corpus"), root / "data")
    return root / "data", Server(root / "data", "--workers", "2", "--threads", "6")


class PrefixProxy:
    """A reverse proxy on 127.0.0.1 (real sockets, a thread per request) that serves the server at
    `/kg/`: /kg/<path> is forwarded to <server>/<path>; anything else is a 404."""

    PREFIX = "/kg/"

    def __init__(self, upstream: str) -> None:
        target = urlsplit(upstream)

        class Handler(BaseHTTPRequestHandler):
            def _forward(self) -> None:
                if not self.path.startswith(PrefixProxy.PREFIX):
                    self.send_error(404)
                    return
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection")}
                connection = http.client.HTTPConnection(target.hostname, target.port, timeout=60)
                connection.request(self.command, "/" + self.path[len(PrefixProxy.PREFIX):], body=body,
                                   headers=headers)
                answer = connection.getresponse()
                content = answer.read()
                self.send_response(answer.status)
                for name, value in answer.getheaders():
                    if name.lower() not in ("transfer-encoding", "connection", "content-length"):
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(content)))
                self.end_headers()
                self.wfile.write(content)
                connection.close()

            do_GET = do_POST = _forward

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}{self.PREFIX}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
