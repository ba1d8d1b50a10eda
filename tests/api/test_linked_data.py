"""Linked Data on `kg serve`: every IRI under the base dereferences (content negotiation, 404s),
the HTML page per resource (names, types, statements with their sentences and citations, links
that resolve), VoID, on the shipped corpus, on a foreign corpus (brat's BioNLP-ST 2011 GE example
data) and on the hostile corpus of tests/hardening/hostile.py; the pages in Chromium."""

from __future__ import annotations

import shutil
from html.parser import HTMLParser
from pathlib import Path
from typing import Iterator
from urllib.parse import parse_qs, urljoin, urlsplit

import pyoxigraph as ox
import pytest
import requests

from api import create_app
from benchmarks.server import Server
from kg import layout
from kg.build import build
from kg.iris import BASE, DOCUMENT, ENTITIES_GRAPH, GRAPH, ONTOLOGY_GRAPH, PREFIXES, RESOURCE
from tests.brat_reference import brat_source
from tests.browser import open_page
from tests.hardening.hostile import ALL_STRINGS, SLUG, write_corpus

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
    return ox.Store.read_only(str(layout.store_path(layout.current_build(data))))


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


# -- the shipped corpus, through the app -------------------------------------------------------

@pytest.mark.parametrize("accept", list(RDF))
def test_an_entity_dereferences_in_every_format(client, shipped_data, accept):
    store = reference(shipped_data)
    answer = parsed(client.get(path_of(GUAIDO), headers={"Accept": accept}))
    own = union_triples(store, f"CONSTRUCT {{ <{GUAIDO}> ?p ?o }} WHERE {{ <{GUAIDO}> ?p ?o }}")
    provenance = union_triples(store, f"""CONSTRUCT {{ ?st ?p ?o }} WHERE {{
        {{ ?st <{PREFIXES['rdf']}subject> <{GUAIDO}> }} UNION {{ ?st <{PREFIXES['rdf']}object> <{GUAIDO}> }}
        ?st ?p ?o }}""")
    everything = union_triples(store, "CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }")
    assert own and provenance
    assert own <= answer and provenance <= answer  # what it has, and the record of every statement about it
    assert answer <= everything  # nothing invented


def test_the_default_format_is_turtle_and_format_parameter_wins(client):
    assert client.get(path_of(GUAIDO)).mimetype == "text/turtle"
    assert client.get(path_of(GUAIDO), headers={"Accept": "*/*"}).mimetype == "text/turtle"
    for value, expected in (("nt", "application/n-triples"), ("jsonld", "application/ld+json"),
                            ("nq", "application/n-quads"), ("trig", "application/trig")):
        response = client.get(path_of(GUAIDO), query_string={"format": value}, headers={"Accept": BROWSER})
        assert response.status_code == 200 and response.mimetype == expected
        assert "Accept" in response.headers["Vary"]
    assert client.get(path_of(GUAIDO), headers={"Accept": "image/png"}).status_code == 406
    assert client.get(path_of(GUAIDO), query_string={"format": "png"}).status_code == 400


def test_a_document_holds_its_sentences_mentions_and_statements(client, shipped_data):
    """doc/<slug>#R3 is a fragment: dereferencing the document answers for it."""
    store = reference(shipped_data)
    document = DOCUMENT + NPR
    answer = parsed(client.get(path_of(document), headers={"Accept": "application/n-triples"}))
    inside = union_triples(store, f"""CONSTRUCT {{ ?s ?p ?o }} WHERE {{ GRAPH <{GRAPH + NPR}> {{ ?s ?p ?o
        FILTER(?s = <{document}> || STRSTARTS(STR(?s), "{document}#")) }} }}""")
    statements = {t.subject for t in inside if t.object == ox.NamedNode(PREFIXES["kgo"] + "Statement")}
    assert statements and inside <= answer
    assert any(str(s.value).startswith(document + "#R") for s in statements)


def test_a_local_thing_a_graph_and_the_ontology_dereference(client, shipped_data):
    store = reference(shipped_data)
    local = next(iter(store.query(f"""SELECT ?q WHERE {{ ?q a <{PREFIXES['kgo']}Quote> }} LIMIT 1""",
                                  use_default_graph_as_union=True)))["q"].value
    assert (ox.NamedNode(local), ox.NamedNode(PREFIXES["rdf"] + "type"), ox.NamedNode(PREFIXES["kgo"] + "Quote")) in {
        (t.subject, t.predicate, t.object) for t in parsed(client.get(path_of(local)))}
    for graph in (GRAPH + NPR, ENTITIES_GRAPH):
        expected = set(store.query(f"CONSTRUCT {{ ?s ?p ?o }} WHERE {{ GRAPH <{graph}> {{ ?s ?p ?o }} }}"))
        assert parsed(client.get(path_of(graph), headers={"Accept": "application/n-triples"})) == expected
    ontology = parsed(client.get("/ontology"))
    assert (ox.NamedNode(BASE + "ontology"), ox.NamedNode(PREFIXES["rdf"] + "type"),
            ox.NamedNode(PREFIXES["owl"] + "Ontology")) in {(t.subject, t.predicate, t.object) for t in ontology}
    assert ontology == set(store.query(f"CONSTRUCT {{ ?s ?p ?o }} WHERE {{ GRAPH <{ONTOLOGY_GRAPH}> {{ ?s ?p ?o }} }}"))


@pytest.mark.parametrize("path", ["/id/person/nobody", "/id/nothing/at/all", "/doc/no-such-article",
                                  f"/doc/{NPR}/quote/T9999", "/graph/no-such-graph", "/id/person/a%20b",
                                  "/id/person/%3Cscript%3E", "/vocab"])
@pytest.mark.parametrize("accept", [None, BROWSER])
def test_unknown_iris_under_the_base_are_404(client, path, accept):
    response = client.get(path, headers={"Accept": accept} if accept else {})
    assert response.status_code == 404
    assert response.mimetype == "application/json" and response.json["error"]["status"] == 404


def test_the_entity_page(client, shipped_data):
    store = reference(shipped_data)
    response = client.get(path_of(GUAIDO), headers={"Accept": BROWSER})
    assert response.status_code == 200 and response.mimetype == "text/html"
    assert response.headers["Content-Security-Policy"] and response.headers["X-Content-Type-Options"] == "nosniff"
    page = Page(response.get_data(as_text=True))
    text = page.all_text
    for name in ("Juan Guaidó", "Guaidó", "Juan Guaido"):
        assert name in text
    rows = list(store.query(f"""SELECT DISTINCT ?st ?sentence ?doc WHERE {{
        {{ ?st <{PREFIXES['rdf']}subject> <{GUAIDO}> }} UNION {{ ?st <{PREFIXES['rdf']}object> <{GUAIDO}> }}
        ?st <{PREFIXES['prov']}wasDerivedFrom> ?doc .
        OPTIONAL {{ ?st <{PREFIXES['kgo']}evidence>/<{PREFIXES['nif']}anchorOf> ?sentence }} }}""",
                            use_default_graph_as_union=True))
    statements = {r["st"].value for r in rows}
    assert len(page.citations) == len(statements) > 10
    for row in rows:
        citation = next(c for c in page.citations if f"<{row['st'].value}>" in c)
        assert f"<{row['doc'].value}>" in citation
        if row["sentence"] is not None:
            assert row["sentence"].value in text
    assert any(h.endswith("graph?focus=person%2Fjuan-guaido") for h in page.hrefs)  # the view, focused on it


def test_every_link_of_an_entity_page_resolves(client):
    """Links are relative to the page (so that the page works under any base) and each one answers."""
    page = Page(client.get(path_of(GUAIDO), headers={"Accept": BROWSER}).get_data(as_text=True))
    url = "http://kg.test" + path_of(GUAIDO)
    local = sorted({h for h in page.hrefs if not urlsplit(h).scheme})
    assert local and not [h for h in local if h.startswith("/")]
    for href in local:
        target = urlsplit(urljoin(url, href))
        if target.path.startswith("/graph") and target.path == "/graph":
            continue  # the network view: tests/viz
        response = client.get(target.path, query_string=target.query, headers={"Accept": BROWSER})
        assert response.status_code == 200, (href, response.get_data(as_text=True)[:200])
        if target.path == "/sparql":
            assert response.mimetype == "text/html"  # the query page, with the query in its editor
            assert GUAIDO in parse_qs(target.query)["query"][0]


def test_the_document_page_anchors_each_statement(client):
    page = client.get(path_of(DOCUMENT + NPR), headers={"Accept": BROWSER}).get_data(as_text=True)
    assert 'id="R1"' in page or 'id="R2"' in page
    assert "1,000 Venezuelan Armed Forces Have Fled Across Border" in Page(page).all_text


def test_graph_and_ontology_pages(client):
    ontology = Page(client.get("/ontology", headers={"Accept": BROWSER}).get_data(as_text=True)).all_text
    assert "kgo:Person" in ontology and "kgo:memberOf" in ontology
    graph = Page(client.get(path_of(GRAPH + NPR), headers={"Accept": BROWSER}).get_data(as_text=True)).all_text
    assert "A named graph of" in graph


# -- VoID ---------------------------------------------------------------------------------------

def void_store(client) -> ox.Store:
    response = client.get("/.well-known/void")
    assert response.status_code == 200 and response.mimetype == "text/turtle"
    store = ox.Store()
    store.load(response.data, format=ox.RdfFormat.TURTLE)
    return store


def value(store: ox.Store, sparql: str, *, union: bool = False) -> str:
    """The first value of the first row (`union`: over the union of the named graphs, as kg queries)."""
    return next(iter(store.query(sparql, use_default_graph_as_union=union)))[0].value


def test_void_counts_agree_with_the_store(client, shipped_data):
    store, void = reference(shipped_data), void_store(client)
    dataset = BASE + ".well-known/void#dataset"
    assert int(value(void, f"SELECT ?n WHERE {{ <{dataset}> <{VOID}triples> ?n }}")) == len(store)
    entities = value(store, f"SELECT (COUNT(DISTINCT ?e) AS ?n) WHERE {{ GRAPH <{ENTITIES_GRAPH}> "
                            f"{{ ?e <{PREFIXES['skos']}prefLabel> ?l }} }}")
    assert value(void, f"SELECT ?n WHERE {{ <{dataset}> <{VOID}entities> ?n }}") == entities
    people = value(store, f"SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE {{ ?x a <{PREFIXES['kgo']}Person> }}", union=True)
    assert value(void, f"""SELECT ?n WHERE {{ <{dataset}> <{VOID}classPartition> ?c .
        ?c <{VOID}class> <{PREFIXES['kgo']}Person> ; <{VOID}entities> ?n }}""") == people
    member_of = len(list(store.quads_for_pattern(None, ox.NamedNode(PREFIXES["kgo"] + "memberOf"), None)))
    assert int(value(void, f"""SELECT ?n WHERE {{ <{dataset}> <{VOID}propertyPartition> ?p .
        ?p <{VOID}property> <{PREFIXES['kgo']}memberOf> ; <{VOID}triples> ?n }}""")) == member_of
    graphs = {r["g"].value for r in void.query(f"SELECT ?g WHERE {{ <{dataset}> <{SD}namedGraph>/<{SD}name> ?g }}")}
    assert graphs == {g.value for g in store.named_graphs()}
    assert value(void, f"SELECT ?e WHERE {{ <{dataset}> <{VOID}sparqlEndpoint> ?e }}") == BASE + "sparql"
    assert value(void, f"SELECT ?r WHERE {{ <{dataset}> <{PREFIXES['dcterms']}rights> ?r }}")


def test_void_licence_and_the_service_description_link(shipped_data):
    app = create_app({"DATA": str(shipped_data), "WORKERS": 1, "LICENSE": "https://creativecommons.org/licenses/by/4.0/"})
    try:
        client = app.test_client()
        void = void_store(client)
        dataset = BASE + ".well-known/void#dataset"
        assert value(void, f"SELECT ?l WHERE {{ <{dataset}> <{PREFIXES['dcterms']}license> ?l }}") == \
            "https://creativecommons.org/licenses/by/4.0/"
        description = ox.Store()
        description.load(client.get("/sparql").data, format=ox.RdfFormat.TURTLE)
        link = value(description, f"""SELECT ?v WHERE {{ ?s <{SD}defaultDataset> ?d .
            ?d a <{VOID}Dataset> ; <{PREFIXES['rdfs']}seeAlso> ?v }}""")
        assert client.get(path_of(link)).status_code == 200  # the link dereferences (relative to the base)
        assert client.get("/.well-known/void", query_string={"format": "jsonld"}).mimetype == "application/ld+json"
    finally:
        app.extensions["kg"].close()


# -- a foreign corpus and the hostile corpus, on real servers ------------------------------------

@pytest.fixture(scope="module")
def foreign(tmp_path_factory) -> Iterator[tuple[Path, Server]]:
    """brat's BioNLP-ST 2011 GE example corpus (its own schema: proteins, gene expression events)."""
    root = tmp_path_factory.mktemp("foreign")
    shutil.copytree(FOREIGN, root / "corpus")
    build(root / "corpus", root / "data")
    server = Server(root / "data", "--workers", "2", "--threads", "6")
    yield root / "data", server
    server.stop()


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> Iterator[tuple[Path, Server]]:
    root = tmp_path_factory.mktemp("hostile-ld")
    build(write_corpus(root / "corpus"), root / "data")
    server = Server(root / "data", "--workers", "2", "--threads", "6")
    yield root / "data", server
    server.stop()


def most_stated(data: Path) -> str:
    """The canonical thing with the most statements about it."""
    return value(reference(data), f"""SELECT ?x WHERE {{ {{ ?st <{PREFIXES['rdf']}subject> ?x }} UNION
        {{ ?st <{PREFIXES['rdf']}object> ?x }} FILTER(STRSTARTS(STR(?x), "{RESOURCE}")) }}
        GROUP BY ?x ORDER BY DESC(COUNT(?st)) ?x LIMIT 1""", union=True)


def test_foreign_corpus_dereferences(foreign):
    data, server = foreign
    entity = most_stated(data)
    turtle = requests.get(server.url + path_of(entity)[1:], timeout=TIMEOUT)
    assert turtle.status_code == 200 and turtle.headers["Content-Type"].startswith("text/turtle")
    assert entity in {t.subject.value for t in ox.parse(turtle.content, format=ox.RdfFormat.TURTLE)}
    page = requests.get(server.url + path_of(entity)[1:], headers={"Accept": BROWSER}, timeout=TIMEOUT)
    parsed_page = Page(page.text)
    assert parsed_page.citations and all(f"<{DOCUMENT}" in c for c in parsed_page.citations)
    vocabulary = requests.get(server.url + "vocab", headers={"Accept": "application/n-triples"}, timeout=TIMEOUT)
    assert vocabulary.status_code == 200  # the corpus's own classes and properties (kgv:)
    assert all(t.subject.value.startswith(BASE + "vocab#")
               for t in ox.parse(vocabulary.content, format=ox.RdfFormat.N_TRIPLES))
    void = ox.Store()
    void.load(requests.get(server.url + ".well-known/void", timeout=TIMEOUT).content, format=ox.RdfFormat.TURTLE)
    classes = {r["c"].value for r in void.query(f"SELECT ?c WHERE {{ ?d <{VOID}classPartition>/<{VOID}class> ?c }}")}
    assert any(c.startswith(BASE + "vocab#") for c in classes)


def hostile_iris(data: Path) -> list[str]:
    """Every canonical thing and the document of the hostile corpus."""
    store = reference(data)
    things = [r["x"].value for r in store.query(
        f"SELECT DISTINCT ?x WHERE {{ GRAPH <{ENTITIES_GRAPH}> {{ ?x <{PREFIXES['skos']}prefLabel> ?l }} }}")]
    return sorted(things) + [DOCUMENT + SLUG]


def test_hostile_text_is_escaped_in_every_page(hostile):
    data, server = hostile
    shown: set[str] = set()
    for iri in hostile_iris(data):
        response = requests.get(server.url + path_of(iri)[1:], headers={"Accept": BROWSER}, timeout=TIMEOUT)
        assert response.status_code == 200, iri
        html = response.text
        for payload in ("<script>window", "<img src=x", "<svg onload", "<b onmouseover", "</textarea><b",
                        "<i>won't</i>"):
            assert payload not in html, (iri, payload)
        page = Page(html)
        assert page.tags.count("script") == 1  # ours, nothing else
        shown |= {s for s in ALL_STRINGS if s in page.all_text}
    assert shown == set(ALL_STRINGS)


@pytest.mark.browser
def test_entity_pages_in_chromium(browser, hostile, foreign, server, shipped_data):
    """Each page: no console error, no script of the corpus run (CSP bypassed, so escaping alone must
    hold), every hostile string shown as text, a citation per statement."""
    data, hostile_server = hostile
    pages = [(hostile_server, iri, True) for iri in hostile_iris(data)]
    pages += [(server, GUAIDO, False), (server, DOCUMENT + NPR, False), (foreign[1], most_stated(foreign[0]), False)]
    shown: set[str] = set()
    for srv, iri, bypass in pages:
        context, watched = open_page(browser, bypass_csp=bypass)
        try:
            page = watched.page
            page.set_extra_http_headers({"Accept": BROWSER})
            response = page.goto(srv.url + path_of(iri)[1:], wait_until="load")
            assert response.status == 200 and "text/html" in response.headers["content-type"]
            text = page.evaluate("document.body.innerText")
            shown |= {s for s in ALL_STRINGS if s in page.evaluate("document.body.textContent")}
            assert page.evaluate("window.__pwned") is None
            assert page.evaluate("document.querySelectorAll('[onerror],[onload],[onmouseover]').length") == 0
            citations = page.locator(".citation code").count()
            assert citations == page.locator("ol.statements > li").count()
            if iri != DOCUMENT + SLUG or citations:
                assert citations > 0, iri
            if citations:
                page.locator("button.copy").first.click()
            assert page.title() and text
            assert watched.errors == [] and watched.dialogs == [] and watched.blocked == [], iri
        finally:
            context.close()
    assert shown == set(ALL_STRINGS)


# -- behind a reverse proxy that maps a base with a path to the server -----------------------------

class PrefixProxy:
    """A reverse proxy on 127.0.0.1 (real sockets, a thread per request) that serves the server at
    `/kg/`: /kg/<path> is forwarded to <server>/<path>; anything else is a 404."""

    PREFIX = "/kg/"

    def __init__(self, upstream: str) -> None:
        import http.client
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

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
        import threading

        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(scope="module")
def proxy(server) -> Iterator[PrefixProxy]:
    proxied = PrefixProxy(server.url)
    yield proxied
    proxied.close()


def test_every_link_resolves_behind_a_reverse_proxy_with_a_path(proxy):
    url = proxy.url + path_of(GUAIDO)[1:]
    page = Page(requests.get(url, headers={"Accept": BROWSER}, timeout=TIMEOUT).text)
    local = sorted({urljoin(url, h) for h in page.hrefs if not urlsplit(h).scheme})
    assert local
    for target in local:
        assert target.startswith(proxy.url), target  # never out of the base
        response = requests.get(target, headers={"Accept": BROWSER}, timeout=TIMEOUT)
        assert response.status_code == 200, target


@pytest.mark.browser
def test_pages_work_in_chromium_behind_a_reverse_proxy_with_a_path(browser, proxy):
    """The resource page and the query page it links to load every asset, and run a query, through the
    proxy; the answer's IRIs link to their pages under the proxied base."""
    context, watched = open_page(browser)
    failed: list[str] = []
    try:
        page = watched.page
        page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
        page.goto(proxy.url + path_of(GUAIDO)[1:], wait_until="load")
        assert page.locator("ol.statements > li").count() > 10
        assert page.evaluate("getComputedStyle(document.querySelector('blockquote')).borderLeftStyle") == "solid"
        page.click(".links a:text-is(\"SPARQL query\")")
        page.wait_for_selector(".yasqe .CodeMirror")
        assert GUAIDO in page.evaluate("kgYasgui.getTab().getYasqe().getValue()")
        page.click(".yasqe_queryButton")
        page.wait_for_function("document.querySelectorAll('.yasr table tbody tr').length > 10")
        hrefs = page.eval_on_selector_all(".yasr table tbody a[href]", "els => els.map(a => a.href)")
        assert hrefs and all(h.startswith(proxy.url) for h in hrefs), hrefs[:5]
        assert all(r.startswith(proxy.url) for r in watched.requests), watched.requests
        assert failed == [] and watched.errors == [] and watched.blocked == []
    finally:
        context.close()
