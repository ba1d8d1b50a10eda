"""SPARQL 1.1 Protocol at /sparql through the app's test client: the three
ways to send a query, datasets, content negotiation, service description."""

from __future__ import annotations

import csv
import io
import json

import pyoxigraph as ox
import pytest

from kg.model.iris import ENTITIES_GRAPH, GRAPH, PREFIXES

JSON = "application/sparql-results+json"
COUNT_ALL = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"
NPR = GRAPH + "npr-venezuelan-armed-forces-fled"
HRW = GRAPH + "hrw-defection-turned-into-exile"


def count(response) -> int:
    assert response.status_code == 200, response.get_data(as_text=True)
    return int(json.loads(response.data)["results"]["bindings"][0]["n"]["value"])


def store_count(shipped_data, graphs=None) -> int:
    """The same count straight from the store, as the reference."""
    from kg.store import build_dirs

    store = ox.Store.read_only(str(build_dirs.store_path(build_dirs.current_build(shipped_data))))
    options = {"default_graph": [ox.NamedNode(g) for g in graphs]} if graphs else {"use_default_graph_as_union": True}
    return int(next(iter(store.query(COUNT_ALL, **options)))["n"].value)


def test_get(client, shipped_data):
    assert count(client.get("/sparql", query_string={"query": COUNT_ALL})) == store_count(shipped_data)


def test_post_form(client, shipped_data):
    response = client.post("/sparql", data={"query": COUNT_ALL})
    assert count(response) == store_count(shipped_data)


def test_post_sparql_query(client, shipped_data):
    response = client.post("/sparql", data=COUNT_ALL.encode(), content_type="application/sparql-query")
    assert count(response) == store_count(shipped_data)


def test_post_sparql_query_with_charset(client, shipped_data):
    response = client.post("/sparql", data=COUNT_ALL.encode(), content_type="application/sparql-query; charset=UTF-8")
    assert count(response) == store_count(shipped_data)


def test_default_graph_is_union_of_documents(client, shipped_data):
    union = count(client.get("/sparql", query_string={"query": COUNT_ALL}))
    one = count(client.get("/sparql", query_string={"query": COUNT_ALL, "default-graph-uri": NPR}))
    two = count(client.get("/sparql", query_string=[("query", COUNT_ALL), ("default-graph-uri", NPR),
                                                      ("default-graph-uri", HRW)]))
    assert 0 < one < two < union
    assert one == store_count(shipped_data, [NPR])


def test_each_document_graph_addressable_with_graph(client):
    query = "SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g"
    rows = json.loads(client.get("/sparql", query_string={"query": query}).data)["results"]["bindings"]
    graphs = {r["g"]["value"] for r in rows}
    assert {NPR, HRW, ENTITIES_GRAPH} <= graphs


def test_named_graph_uri_limits_graph_patterns(client):
    query = "SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }"
    response = client.get("/sparql", query_string={"query": query, "named-graph-uri": NPR})
    rows = json.loads(response.data)["results"]["bindings"]
    assert [r["g"]["value"] for r in rows] == [NPR]
    # named graphs only: the default graph is then empty
    response = client.get("/sparql", query_string={"query": COUNT_ALL, "named-graph-uri": NPR})
    assert count(response) == 0


def test_from_clause_honoured(client, shipped_data):
    response = client.get("/sparql", query_string={"query": f"SELECT (COUNT(*) AS ?n) FROM <{NPR}> WHERE {{ ?s ?p ?o }}"})
    assert count(response) == store_count(shipped_data, [NPR])


def test_from_named_clause_honoured(client):
    query = f"SELECT DISTINCT ?g FROM NAMED <{HRW}> WHERE {{ GRAPH ?g {{ ?s ?p ?o }} }}"
    rows = json.loads(client.get("/sparql", query_string={"query": query}).data)["results"]["bindings"]
    assert [r["g"]["value"] for r in rows] == [HRW]


def test_protocol_dataset_overrides_from(client, shipped_data):
    query = f"SELECT (COUNT(*) AS ?n) FROM <{NPR}> WHERE {{ ?s ?p ?o }}"
    response = client.get("/sparql", query_string={"query": query, "default-graph-uri": HRW})
    assert count(response) == store_count(shipped_data, [HRW])


@pytest.mark.parametrize("accept, expected", [
    (None, JSON),
    ("", JSON),
    ("*/*", JSON),
    ("application/sparql-results+xml", "application/sparql-results+xml"),
    ("text/csv", "text/csv"),
    ("text/tab-separated-values", "text/tab-separated-values"),
    ("text/csv;q=0.5, application/sparql-results+xml;q=0.9", "application/sparql-results+xml"),
    ("application/sparql-results+json;q=0.1, text/tab-separated-values", "text/tab-separated-values"),
    ("text/*;q=0.8, text/csv;q=0.1", "text/tab-separated-values"),
    ("application/json", "application/json"),
    ("image/png, */*;q=0.1", JSON),
])
def test_select_negotiation(client, accept, expected):
    headers = {"Accept": accept} if accept is not None else {}
    response = client.get("/sparql", query_string={"query": "SELECT * WHERE { ?s ?p ?o } LIMIT 3"}, headers=headers)
    assert response.status_code == 200
    assert response.mimetype == expected
    assert response.headers["Vary"] == "Accept"
    _check_solutions(response.data, expected, rows=3)


def _check_solutions(body: bytes, media_type: str, rows: int) -> None:
    """Parse the body with a real parser of its format and count rows."""
    if media_type == "text/csv":
        table = list(csv.reader(io.StringIO(body.decode())))
        assert len(table) == rows + 1
        return
    fmt = {"text/tab-separated-values": ox.QueryResultsFormat.TSV,
           "application/sparql-results+xml": ox.QueryResultsFormat.XML}.get(media_type, ox.QueryResultsFormat.JSON)
    assert len(list(ox.parse_query_results(body, fmt))) == rows


@pytest.mark.parametrize("accept, expected, fmt", [
    (None, "text/turtle", ox.RdfFormat.TURTLE),
    ("application/n-triples", "application/n-triples", ox.RdfFormat.N_TRIPLES),
    ("application/ld+json", "application/ld+json", ox.RdfFormat.JSON_LD),
    ("application/rdf+xml", "application/rdf+xml", ox.RdfFormat.RDF_XML),
    ("application/rdf+xml;q=0.2, text/turtle;q=0.1", "application/rdf+xml", ox.RdfFormat.RDF_XML),
    ("application/n-quads", "application/n-quads", ox.RdfFormat.N_QUADS),
    ("application/trig", "application/trig", ox.RdfFormat.TRIG),
    ("text/n3", "text/n3", ox.RdfFormat.N3),
])
def test_construct_negotiation(client, accept, expected, fmt):
    query = "CONSTRUCT WHERE { ?s a ?o } LIMIT 7"
    headers = {"Accept": accept} if accept else {}
    response = client.get("/sparql", query_string={"query": query}, headers=headers)
    assert response.status_code == 200
    assert response.mimetype == expected
    triples = set(ox.parse(response.data, format=fmt))
    assert 1 <= len(triples) <= 7


def test_describe(client):
    query = f"DESCRIBE <{PREFIXES['kgr']}person/juan-guaido>"
    response = client.get("/sparql", query_string={"query": query}, headers={"Accept": "application/n-triples"})
    triples = list(ox.parse(response.data, format=ox.RdfFormat.N_TRIPLES))
    assert any(t.subject.value.endswith("person/juan-guaido") for t in triples)


def test_ask(client):
    yes = client.get("/sparql", query_string={"query": "ASK { ?s ?p ?o }"})
    no = client.get("/sparql", query_string={"query": "ASK { <http://nothing/here> ?p ?o }"})
    assert json.loads(yes.data)["boolean"] is True
    assert json.loads(no.data)["boolean"] is False
    xml = client.get("/sparql", query_string={"query": "ASK {}"}, headers={"Accept": "application/sparql-results+xml"})
    assert bool(ox.parse_query_results(xml.data, ox.QueryResultsFormat.XML)) is True


@pytest.mark.parametrize("query, accept", [
    ("SELECT * WHERE { ?s ?p ?o } LIMIT 1", "text/turtle"),
    ("CONSTRUCT WHERE { ?s ?p ?o } LIMIT 1", "application/sparql-results+json"),
    ("SELECT * WHERE { ?s ?p ?o } LIMIT 1", "application/sparql-results+json;q=0, image/png"),
])
def test_406_when_nothing_acceptable(client, query, accept):
    response = client.get("/sparql", query_string={"query": query}, headers={"Accept": accept})
    assert response.status_code == 406
    error = json.loads(response.data)["error"]
    assert error["status"] == 406 and error["offers"]


@pytest.mark.parametrize("name", ["format", "output"])
@pytest.mark.parametrize("query, value, expected", [
    ("SELECT * WHERE { ?s ?p ?o } LIMIT 3", "json", JSON),
    ("SELECT * WHERE { ?s ?p ?o } LIMIT 3", "xml", "application/sparql-results+xml"),
    ("SELECT * WHERE { ?s ?p ?o } LIMIT 3", "csv", "text/csv"),
    ("SELECT * WHERE { ?s ?p ?o } LIMIT 3", "text/tab-separated-values", "text/tab-separated-values"),
    ("CONSTRUCT WHERE { ?s ?p ?o } LIMIT 3", "json", "application/ld+json"),
    ("CONSTRUCT WHERE { ?s ?p ?o } LIMIT 3", "xml", "application/rdf+xml"),
    ("CONSTRUCT WHERE { ?s ?p ?o } LIMIT 3", "nt", "application/n-triples"),
    ("CONSTRUCT WHERE { ?s ?p ?o } LIMIT 3", "nquads", "application/n-quads"),
    ("DESCRIBE <https://kg.example.org/id/person/juan-guaido>", "trig", "application/trig"),
    ("DESCRIBE <https://kg.example.org/id/person/juan-guaido>", "application/n-quads", "application/n-quads"),
])
def test_format_parameter_is_an_alias_of_accept(client, name, query, value, expected):
    """`format=` / `output=` win over the Accept header (clients that cannot set it send them)."""
    response = client.get("/sparql", query_string={"query": query, name: value}, headers={"Accept": "text/turtle"})
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.mimetype == expected
    posted = client.post("/sparql", data={"query": query, name: value})
    assert posted.mimetype == expected and posted.data == response.data


def test_unknown_format_parameter(client):
    response = client.get("/sparql", query_string={"query": "ASK {}", "format": "png"})
    assert response.status_code == 400 and "unknown format 'png'" in json.loads(response.data)["error"]["detail"]
    offered_elsewhere = client.get("/sparql", query_string={"query": "ASK {}", "format": "text/turtle"})
    assert offered_elsewhere.status_code == 406


BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"


def test_browser_get_shows_the_query_page_with_the_query(client):
    query = 'SELECT ?x WHERE { ?x ?p "</script><b>x</b>" } # é'
    response = client.get("/sparql", query_string={"query": query}, headers={"Accept": BROWSER_ACCEPT})
    assert response.status_code == 200 and response.mimetype == "text/html"
    assert response.headers["Content-Security-Policy"] and "Accept" in response.headers["Vary"]
    page = response.get_data(as_text=True)
    start = page.split('<script id="kg-start" type="application/json">')[1].split("</script>")[0]
    assert json.loads(start) == query  # embedded as JSON, with no way out of its script element
    assert "</script><b>" not in page


@pytest.mark.parametrize("accept", [None, "*/*", "text/html, application/sparql-results+json",
                                    "application/sparql-results+json, text/html;q=0.5"])
def test_clients_that_do_not_prefer_html_get_results(client, accept):
    headers = {"Accept": accept} if accept else {}
    response = client.get("/sparql", query_string={"query": "ASK {}"}, headers=headers)
    assert response.mimetype == JSON
    formatted = client.get("/sparql", query_string={"query": "ASK {}", "format": "json"},
                           headers={"Accept": BROWSER_ACCEPT})
    assert formatted.mimetype == JSON  # an explicit format wins over the browser's preference


def test_service_description(client):
    response = client.get("/sparql")
    assert response.status_code == 200 and response.mimetype == "text/turtle"
    sd = "http://www.w3.org/ns/sparql-service-description#"
    store = ox.Store()
    store.load(response.data, format=ox.RdfFormat.TURTLE)
    endpoint = next(iter(store.query(f"SELECT ?e WHERE {{ ?s a <{sd}Service> ; <{sd}endpoint> ?e }}")))["e"]
    assert endpoint.value.endswith("/sparql")
    names = {r["n"].value for r in store.query(f"SELECT ?n WHERE {{ ?d <{sd}namedGraph>/<{sd}name> ?n }}")}
    assert {NPR, HRW, ENTITIES_GRAPH} <= names
    assert bool(store.query(f"ASK {{ ?s <{sd}feature> <{sd}UnionDefaultGraph> }}"))
    jsonld = client.get("/sparql", headers={"Accept": "application/ld+json"})
    assert jsonld.mimetype == "application/ld+json"
    assert list(ox.parse(jsonld.data, format=ox.RdfFormat.JSON_LD))


def test_union_default_graph_is_a_bag(client):
    """A triple stated by two documents comes twice without DISTINCT (docs/model.md): in the
    union default graph, a triple comes once per named graph that holds it."""

    def select(query: str) -> list[dict]:
        return json.loads(client.get("/sparql", query_string={"query": query}).data)["results"]["bindings"]

    shared = select("""SELECT ?s ?p ?o (COUNT(?g) AS ?graphs) WHERE { GRAPH ?g { ?s ?p ?o } FILTER(isIRI(?o)) }
                       GROUP BY ?s ?p ?o HAVING (COUNT(?g) > 1) ORDER BY DESC(?graphs) ?s ?p ?o LIMIT 1""")
    assert shared, "no triple is held by two graphs"
    triple = " ".join(f"<{shared[0][v]['value']}>" for v in ("s", "p", "o"))
    row = select(f"SELECT (COUNT(*) AS ?n) (COUNT(DISTINCT *) AS ?d) WHERE {{ {triple} }}")[0]
    assert (int(row["n"]["value"]), int(row["d"]["value"])) == (int(shared[0]["graphs"]["value"]), 1)


def test_results_are_unicode(client):
    query = f"SELECT ?l WHERE {{ <{PREFIXES['kgr']}person/juan-guaido> <{PREFIXES['skos']}prefLabel> ?l }}"
    body = json.loads(client.get("/sparql", query_string={"query": query}).data)
    assert body["results"]["bindings"][0]["l"]["value"] == "Juan Guaidó"
