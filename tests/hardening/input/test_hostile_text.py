"""Point 4: hostile names, quotes and titles (tests/hardening/hostile.py) go through the build,
every export, the SPARQL endpoint, the JSON API, the query page and the network view with
exactly their code points, and stay inert: valid in every format, rendered as text.

Exports are read back with rdflib and with Debian's rapper; SPARQL answers with
Oxigraph's result parsers and the standard library's XML and JSON parsers;
pages in Debian's Chromium, where any payload that ran would set window.__pwned.
"""

from __future__ import annotations

import json
import subprocess
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from urllib.parse import quote

import pyoxigraph as ox
import pytest
import rdflib
import requests

from kg.model.iris import PREFIXES, document_iri
from kg.store import build_dirs
from kg.store.embedded import EmbeddedStore
from tests.hardening.hostile import ALL_STRINGS, NAMES, PEOPLE, QUOTE, SLUG, TITLE
from tests.helpers import assert_same_quads, export_file, view_file

TIMEOUT = 30
LITERALS = "SELECT DISTINCT ?o WHERE { ?s ?p ?o FILTER(isLiteral(?o)) }"
SHOWN = """SELECT DISTINCT ?o WHERE {
  ?s <http://www.w3.org/2004/02/skos/core#prefLabel>|<https://kg.example.org/ontology#quoteText>|<http://purl.org/dc/terms/title> ?o
  FILTER(STRSTARTS(STR(?s), "https://kg.example.org/id/") || STRSTARTS(STR(?s), "https://kg.example.org/doc/"))
}"""
INJECTED = "document.querySelectorAll('[onerror],[onload],[onmouseover],svg[onload],img[src=x]').length"


def literal_values(quads) -> set[str]:
    return {str(q[2]) for q in quads if isinstance(q[2], rdflib.Literal)} | {
        q.object.value for q in quads if isinstance(getattr(q, "object", None), ox.Literal)}


def assert_all_present(values: set[str], what: str) -> None:
    missing = [s for s in ALL_STRINGS if s not in values]
    assert not missing, f"{what} lost or altered: {[ascii(s) for s in missing]}"


@pytest.fixture(scope="module")
def store_quads(hostile_data: Path) -> set[ox.Quad]:
    return set(ox.Store.read_only(str(build_dirs.store_path(build_dirs.current_build(hostile_data)))))


# -- build and exports -------------------------------------------------------------------------------

def test_the_store_keeps_every_string_where_it_belongs(hostile_data: Path) -> None:
    store = EmbeddedStore(build_dirs.store_path(build_dirs.current_build(hostile_data)), read_only=True)
    pick = lambda q: {r["v"] for r in store.select(q)}  # noqa: E731
    p = PREFIXES
    anchors = pick(f"SELECT ?v WHERE {{ ?m a <{p['kgo']}Mention> ; <{p['nif']}anchorOf> ?v }}")
    labels = pick(f"SELECT ?v WHERE {{ GRAPH <{p['kgg']}entities> {{ ?e <{p['skos']}prefLabel>|<{p['skos']}altLabel> ?v }} }}")
    quotes = pick(f"SELECT ?v WHERE {{ ?q <{p['kgo']}quoteText> ?v }}")
    titles = pick(f"SELECT ?v WHERE {{ <{document_iri(SLUG)}> <{p['dcterms']}title> ?v }}")
    notes = pick(f"SELECT ?v WHERE {{ ?m a <{p['kgo']}Mention> ; <{p['rdfs']}comment> ?v }}")
    assert set(NAMES) <= anchors and set(NAMES) <= labels
    assert quotes == {QUOTE} and notes == {QUOTE} and titles == {TITLE}


@pytest.mark.parametrize("fmt,parser", [("ttl", "turtle"), ("trig", "trig"), ("nq", "nquads"), ("jsonld", "json-ld")])
def test_every_export_parses_with_rdflib_to_the_store(hostile_data: Path, store_quads, fmt: str, parser: str) -> None:
    path = export_file(hostile_data, fmt)
    if fmt == "ttl":
        triples = set(rdflib.Graph().parse(path, format=parser))
        assert_same_quads(triples, {q.triple for q in store_quads}, "kg.ttl read by rdflib against the store")
        assert_all_present(literal_values(triples), "kg.ttl")
        return
    dataset = rdflib.Dataset()
    dataset.parse(path, format=parser)
    quads = list(dataset.quads((None, None, None, None)))
    assert_same_quads(quads, store_quads, f"kg.{fmt} read by rdflib against the store")
    assert_all_present(literal_values(quads), f"kg.{fmt}")
    if fmt == "jsonld":
        assert_all_present(_json_strings(json.loads(path.read_text(encoding="utf-8"))), "kg.jsonld as JSON")


def _json_strings(value) -> set[str]:
    if isinstance(value, str):
        return {value}
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else []
    return set().union(*(_json_strings(v) for v in items)) if items else set()


@pytest.mark.parametrize("fmt,syntax,out", [("ttl", "turtle", "ntriples"), ("trig", "trig", "nquads"),
                                            ("nq", "nquads", "nquads")])
def test_every_export_parses_with_rapper(hostile_data: Path, store_quads, tmp_path: Path, fmt, syntax, out) -> None:
    """An independent parser (raptor) reads each export without a warning and keeps every string."""
    path = export_file(hostile_data, fmt)
    result = subprocess.run(["rapper", "-i", syntax, "-o", out, str(path), "http://base.invalid/"],
                            capture_output=True, timeout=120)
    assert result.returncode == 0, result.stderr.decode()[-2000:]
    assert b"Warning" not in result.stderr and b"Error" not in result.stderr, result.stderr.decode()
    parsed = list(ox.parse(result.stdout, format=ox.RdfFormat.N_QUADS if out == "nquads" else ox.RdfFormat.N_TRIPLES))
    expected = store_quads if out == "nquads" else {q.triple for q in store_quads}
    assert_same_quads(parsed, expected, f"kg.{fmt} read by rapper against the store")
    assert_all_present(literal_values(parsed), f"kg.{fmt} read by rapper")


# -- the endpoint -----------------------------------------------------------------------------------

def _sparql(server, query: str, accept: str) -> requests.Response:
    response = requests.get(server.url + "sparql", params={"query": query}, headers={"Accept": accept},
                            timeout=TIMEOUT)
    assert response.status_code == 200, response.text[:500]
    return response


@pytest.mark.parametrize("accept,fmt", [
    ("application/sparql-results+json", ox.QueryResultsFormat.JSON),
    ("application/sparql-results+xml", ox.QueryResultsFormat.XML),
    ("text/csv", ox.QueryResultsFormat.CSV),
    ("text/tab-separated-values", ox.QueryResultsFormat.TSV),
])
def test_select_answers_keep_every_string(hostile_server, accept: str, fmt) -> None:
    response = _sparql(hostile_server, LITERALS, accept)
    assert response.headers["Content-Type"].startswith(accept)
    if fmt == ox.QueryResultsFormat.XML:
        ElementTree.fromstring(response.content)  # well-formed XML
    if fmt == ox.QueryResultsFormat.JSON:
        values = {b["o"]["value"] for b in response.json()["results"]["bindings"]}
    elif fmt == ox.QueryResultsFormat.CSV:
        values = _csv_values(response.text)
    else:
        values = {s["o"].value for s in ox.parse_query_results(response.content, fmt)}
    assert_all_present(values, f"SELECT answer as {accept}")


def _csv_values(text: str) -> set[str]:
    import csv
    import io

    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert rows[0] == ["o"]
    return {row[0] for row in rows[1:]}


@pytest.mark.parametrize("accept,fmt", [
    ("text/turtle", ox.RdfFormat.TURTLE), ("application/n-triples", ox.RdfFormat.N_TRIPLES),
    ("application/rdf+xml", ox.RdfFormat.RDF_XML), ("application/ld+json", ox.RdfFormat.JSON_LD),
])
def test_construct_answers_keep_every_string(hostile_server, accept: str, fmt) -> None:
    response = _sparql(hostile_server, "CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o FILTER(isLiteral(?o)) }", accept)
    assert response.headers["Content-Type"].startswith(accept)
    assert_all_present(literal_values(list(ox.parse(response.content, format=fmt))), f"CONSTRUCT as {accept}")
    rdflib_format = {"text/turtle": "turtle", "application/n-triples": "nt", "application/rdf+xml": "xml",
                     "application/ld+json": "json-ld"}[accept]
    assert_all_present(literal_values(rdflib.Graph().parse(data=response.content, format=rdflib_format)),
                       f"CONSTRUCT as {accept}, read by rdflib")


def _json(server, path: str, **params) -> dict:
    response = requests.get(server.url + path, params=params, timeout=TIMEOUT)
    assert response.status_code == 200, response.text[:500]
    assert response.headers["Content-Type"].startswith("application/json")
    return response.json()


def test_json_api_keeps_every_string(hostile_server) -> None:
    listing = _json(hostile_server, "api/entities", limit=500)
    labels = {item["label"] for item in listing["items"]}
    assert set(NAMES) - {PEOPLE[5]} <= labels  # PEOPLE[5] is an alias of PEOPLE[2] in the alias table
    details = [_json(hostile_server, "api/entities/" + item["id"]) for item in listing["items"]]
    everything = set().union(*(_json_strings(d) for d in details))
    assert set(NAMES) | {QUOTE, TITLE} <= everything, [ascii(s) for s in set(ALL_STRINGS) - everything]
    documents = _json(hostile_server, "api/documents")
    assert TITLE in _json_strings(documents)
    for name in NAMES:
        found = _json(hostile_server, "api/search", q=name)
        assert name in _json_strings(found), f"search for {ascii(name)} does not find it"


@pytest.mark.parametrize("payload", ["<script>window.__pwned=7</script>", "\"><img src=x onerror=alert(1)>",
                                     "\u202e<svg onload=alert(1)>"])
def test_errors_that_echo_input_are_never_html(hostile_server, payload: str) -> None:
    """Requests carrying markup are answered, even in error, with a type a browser will not render."""
    responses = [
        requests.get(hostile_server.url + "sparql", params={"query": f"SELECT * WHERE {{ {payload} }}"}, timeout=TIMEOUT),
        requests.get(hostile_server.url + "api/entities/" + quote(payload, safe=""), timeout=TIMEOUT),
        requests.get(hostile_server.url + "api/entities", params={"type": payload}, timeout=TIMEOUT),
        requests.get(hostile_server.url + "api/search", params={"q": payload}, timeout=TIMEOUT),
        requests.get(hostile_server.url + "export." + quote(payload, safe=""), timeout=TIMEOUT),
    ]
    for response in responses:
        assert response.status_code < 500, response.text[:300]
        kind = response.headers.get("Content-Type", "")
        assert "html" not in kind or payload not in response.text, f"{response.url} echoes markup as {kind}"


# -- pages in Chromium -----------------------------------------------------------------------------

@pytest.mark.browser
def test_query_page_shows_every_string_as_text(hostile_server, watched_page) -> None:
    page = watched_page.page
    page.goto(hostile_server.url, wait_until="load")
    page.wait_for_selector(".yasqe .CodeMirror")
    scripts = page.evaluate("document.scripts.length")
    page.evaluate("q => kgYasgui.getTab().getYasqe().setValue(q)", SHOWN)
    page.click(".yasqe_queryButton")
    page.wait_for_function(f"document.querySelectorAll('.yasr table tbody tr').length >= {len(ALL_STRINGS) - 1}")
    cells = set(page.eval_on_selector_all(".yasr table tbody td", "tds => tds.map(td => td.textContent)"))
    shown = {c for c in cells if any(s in c for s in ALL_STRINGS)}
    for text in set(ALL_STRINGS) - {PEOPLE[5]}:  # PEOPLE[5] is an altLabel (an alias of PEOPLE[2])
        assert any(text in cell for cell in shown), f"{ascii(text)} is not shown as text"
    assert page.evaluate("window.__pwned") is None
    assert page.evaluate(INJECTED) == 0
    assert page.evaluate("document.scripts.length") == scripts
    assert watched_page.dialogs == [] and watched_page.errors == [] and watched_page.blocked == []


@pytest.mark.browser
@pytest.mark.parametrize("where", ["served", "file"])
def test_network_view_shows_every_name_as_text(hostile_server, hostile_data: Path, watched_page, where: str) -> None:
    page = watched_page.page
    url = hostile_server.url + "graph" if where == "served" else view_file(build_dirs.current_build(hostile_data)).as_uri()
    page.goto(url, wait_until="load")
    page.wait_for_function("window.kgView && kgView.timings.firstDraw")
    details = page.evaluate("Object.values(kgView.data.nodeDetails).map(d => d.label)")
    assert set(NAMES) - {PEOPLE[5]} <= set(details)
    for name in NAMES:
        if name == PEOPLE[5]:
            continue
        node = page.evaluate("l => Object.entries(kgView.data.nodeDetails).find(([id, d]) => d.label === l)[0]", name)
        page.evaluate("id => kgView.selectNode(id)", node)
        assert page.locator("#panel-body h2").text_content() == name
        page.fill("#search", name[-6:])
        assert name in page.locator("#results").text_content()
    assert page.evaluate("window.__pwned") is None
    assert page.evaluate(INJECTED) == 0
    assert watched_page.dialogs == [] and watched_page.errors == [] and watched_page.blocked == []
