"""Linked Data on `kg serve`, the pages: the HTML page of a thing, an article, a graph and the
ontology (names, types, every statement with its sentences and a citation, links that resolve), with
hostile corpus text escaped (and kept as it is in the JSON-LD), in Chromium (no console error, nothing of the corpus run), and behind a
real reverse proxy that serves the server under a path."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator
from urllib.parse import parse_qs, urljoin, urlsplit

import pytest
import requests
from markupsafe import escape

from kg.model.iris import DOCUMENT, GRAPH, PREFIXES, RESOURCE
from kg.testing.servers import Server
from tests.api.linked_support import (
    BROWSER,
    GUAIDO,
    NPR,
    TIMEOUT,
    Page,
    PrefixProxy,
    hostile_iris,
    most_stated,
    path_of,
    reference,
    serve_foreign,
    serve_hostile,
)
from tests.browser import open_page
from tests.hardening.hostile import ALL_STRINGS, SLUG
from tests.jsonld_support import assert_same_as_turtle

MORA = RESOURCE + "person/juan-carlos-mora"


@pytest.fixture(scope="module")
def foreign(tmp_path_factory) -> Iterator[tuple[Path, Server]]:
    data, server = serve_foreign(tmp_path_factory.mktemp("foreign"))
    yield data, server
    server.stop()


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> Iterator[tuple[Path, Server]]:
    data, server = serve_hostile(tmp_path_factory.mktemp("hostile-ld"))
    yield data, server
    server.stop()


# -- the shipped corpus, through the app -------------------------------------------------------

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
    sources: dict[str, set[str]] = {}
    for row in rows:
        sources.setdefault(row["st"].value, {row["doc"].value})
        if row["sentence"] is not None:
            sources[row["st"].value].add(row["sentence"].value)
    # one citation per source (article and sentences), naming every statement that source states
    assert len(page.citations) == len({frozenset(s) for s in sources.values()}) > 10
    for statement, source in sources.items():
        [citation] = [c for c in page.citations if f"<{statement}>" in c]
        assert all(f"<{part}>" in citation or part in citation for part in source)
    for row in rows:
        if row["sentence"] is not None:
            assert row["sentence"].value in text
    assert any(h.endswith("graph?focus=person%2Fjuan-guaido") for h in page.hrefs)  # the view, focused on it


def test_an_entity_page_says_memberships_in_words_and_cites_each_sentence_once(client, shipped_data):
    """Mora's page says of what he is a member, and as what, where his memberships' nodes stand; the
    sentence that states eight facts about him is quoted once, with one citation."""
    store = reference(shipped_data)
    kgo = PREFIXES["kgo"]
    memberships = list(store.query(f"""SELECT ?m ?org ?role WHERE {{ ?m <{kgo}member> <{MORA}> ;
        <{kgo}organization>/<{PREFIXES['skos']}prefLabel> ?org ; <{kgo}role>/<{PREFIXES['skos']}prefLabel> ?role }}""",
                                   use_default_graph_as_union=True))
    html = client.get(path_of(MORA), headers={"Accept": BROWSER}).get_data(as_text=True)
    section = html[html.index('<section id="statements">'):]
    page = Page(section[:section.index("</section>")])
    shown = page.all_text
    for citation in page.citations:
        shown = shown.replace(citation, "")
    assert memberships and "membership" not in shown
    for row in memberships:
        assert f"member of {row['org'].value}, as {row['role'].value}" in shown
    assert "has role" not in shown and "holds" not in shown  # what the memberships say, not said twice
    stated: dict[str, set[str]] = {}
    for st, text in store.query(f"""SELECT ?st ?text WHERE {{
            {{ ?st <{PREFIXES['rdf']}object> <{MORA}> }} UNION {{ ?st <{PREFIXES['rdf']}subject> <{MORA}> }}
            ?st <{kgo}evidence>/<{PREFIXES['nif']}anchorOf> ?text }}""", use_default_graph_as_union=True):
        stated.setdefault(st.value, set()).add(text.value)
    sources = {frozenset(texts) for texts in stated.values()}
    assert len(sources) < len(stated)  # some sentence states several facts
    for sentence in set().union(*sources):  # quoted once per source (one sentence, or the sentences of a quote)
        quoted = html.count(f"<blockquote><bdi>{escape(sentence)}</bdi></blockquote>")
        assert quoted == sum(1 for source in sources if sentence in source)


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


def test_the_document_page_anchors_each_statement(client, shipped_data):
    page = client.get(path_of(DOCUMENT + NPR), headers={"Accept": BROWSER}).get_data(as_text=True)
    statements = [st.value for (st,) in reference(shipped_data).query(f"""SELECT ?st WHERE {{
        ?st a <{PREFIXES['kgo']}Statement> ; <{PREFIXES['prov']}wasDerivedFrom> <{DOCUMENT + NPR}> }}""",
                                                                     use_default_graph_as_union=True)]
    assert len(statements) > 100
    assert [st for st in statements if f'id="{st.rsplit("#", 1)[1]}"' not in page] == []
    assert "1,000 Venezuelan Armed Forces Have Fled Across Border" in Page(page).all_text


def test_graph_and_ontology_pages(client):
    ontology = Page(client.get("/ontology", headers={"Accept": BROWSER}).get_data(as_text=True)).all_text
    assert "kgo:Person" in ontology and "kgo:memberOf" in ontology
    graph = Page(client.get(path_of(GRAPH + NPR), headers={"Accept": BROWSER}).get_data(as_text=True)).all_text
    assert "A named graph of" in graph


# -- the hostile and the foreign corpus, on real servers ---------------------------------------

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


def test_hostile_text_keeps_its_meaning_in_json_ld(hostile):
    """Every hostile string, as the framed JSON-LD of each thing carries it: the same graph as the
    Turtle answer (nothing read as a keyword, an IRI or markup), sent as data, never sniffed."""
    data, server = hostile

    def get(path: str, headers: dict[str, str]) -> bytes:
        response = requests.get(server.url + path.lstrip("/"), headers=headers, timeout=TIMEOUT)
        assert response.status_code == 200 and response.headers["X-Content-Type-Options"] == "nosniff"
        return response.content

    carried: set[str] = set()
    for iri in hostile_iris(data):
        document = assert_same_as_turtle(get, path_of(iri))
        text = "\n".join(strings_of(document))
        carried |= {s for s in ALL_STRINGS if s in text}
    assert carried == set(ALL_STRINGS)


def strings_of(node) -> list[str]:
    """Every string value of a JSON document, as a JSON reader gets it."""
    if isinstance(node, dict):
        return [s for value in node.values() for s in strings_of(value)]
    if isinstance(node, list):
        return [s for value in node for s in strings_of(value)]
    return [node] if isinstance(node, str) else []


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


def test_an_entity_page_in_chromium_says_facts_under_their_sentence(browser, server):
    """What a visitor reads on Mora's page: the membership in words first, the facts of one sentence
    together, that sentence once, and one citation naming the statement behind each fact."""
    context, watched = open_page(browser)
    try:
        page = watched.page
        page.set_extra_http_headers({"Accept": BROWSER})
        page.goto(server.url + path_of(MORA)[1:], wait_until="load")
        first = page.locator("ol.statements > li").first
        facts = first.locator("li.fact").all_inner_texts()
        assert facts[0].startswith("member of Bolivarian National Guard of Venezuela, as lieutenant")
        assert len(facts) > 3 and first.locator("blockquote").count() == 1
        citation = first.locator(".citation code").inner_text()
        named = first.locator("li.fact a.statement").evaluate_all("links => links.map(a => a.title)")
        assert len(named) == len(facts) and all(f"<{iri}>" in citation for iri in named)
        assert watched.errors == [] and watched.blocked == []
    finally:
        context.close()


# -- behind a reverse proxy that maps a base with a path to the server -----------------------------

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
        page.wait_for_selector(".yasr table tbody tr:nth-child(11)")  # more than 10 rows (no wait_for_function: the page's policy forbids eval)
        hrefs = page.eval_on_selector_all(".yasr table tbody a[href]", "els => els.map(a => a.href)")
        assert hrefs and all(h.startswith(proxy.url) for h in hrefs), hrefs[:5]
        assert all(r.startswith(proxy.url) for r in watched.requests), watched.requests
        assert failed == [] and watched.errors == [] and watched.blocked == []
    finally:
        context.close()
