"""Linked Data on `kg serve`, the data: every IRI under the base dereferences by content negotiation
(checked against the store: nothing missing, nothing invented), unknown IRIs are 404s, and VoID
agrees with the store; on the shipped corpus and on a foreign one (brat's BioNLP-ST 2011 GE), whose
JSON-LD is also checked against its Turtle."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pyoxigraph as ox
import pytest
import requests

from kg.api.backend.workers import WorkerPool
from kg.formats import rdf_syntaxes
from kg.model.iris import BASE, DOCUMENT, ENTITIES_GRAPH, GRAPH, ONTOLOGY_GRAPH, PREFIXES
from kg.testing.servers import Server
from tests.api.linked_support import (
    BROWSER,
    GUAIDO,
    NPR,
    RDF,
    SD,
    TIMEOUT,
    VOID,
    Page,
    most_stated,
    parsed,
    path_of,
    reference,
    serve_foreign,
    union_triples,
    value,
)
from tests.helpers import made_app
from tests.jsonld_support import assert_same_as_turtle

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
    for name, expected in (("nt", "application/n-triples"), ("jsonld", "application/ld+json"),
                            ("nq", "application/n-quads"), ("trig", "application/trig")):
        response = client.get(path_of(GUAIDO), query_string={"format": name}, headers={"Accept": BROWSER})
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


# -- VoID ---------------------------------------------------------------------------------------

def void_store(client) -> ox.Store:
    response = client.get("/.well-known/void")
    assert response.status_code == 200 and response.mimetype == "text/turtle"
    store = ox.Store()
    store.load(response.data, format=ox.RdfFormat.TURTLE)
    return store


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


def test_void_numbers_of_classes_and_properties_are_those_of_the_store(client, shipped_data):
    store, void = reference(shipped_data), void_store(client)
    dataset = BASE + ".well-known/void#dataset"
    for name, query in (("classes", "SELECT (COUNT(DISTINCT ?c) AS ?n) WHERE { ?x a ?c }"),
                        ("properties", "SELECT (COUNT(DISTINCT ?q) AS ?n) WHERE { ?x ?q ?y }")):
        assert value(void, f"SELECT ?n WHERE {{ <{dataset}> <{VOID}{name}> ?n }}") == value(store, query, union=True)


def test_void_reads_no_quad_for_the_count_the_build_kept(shipped_data, monkeypatch):
    """Counting every quad reads the whole store (17 s at 10,000 articles): the build's count is used."""
    asked: list[str] = []
    submit = WorkerPool.submit

    def keep(pool, job, deadline):
        asked.append(str(job.args.get("request", job.args)))
        return submit(pool, job, deadline)

    monkeypatch.setattr(WorkerPool, "submit", keep)
    with made_app({"DATA": str(shipped_data), "WORKERS": 1}) as app:
        assert app.test_client().get("/.well-known/void").status_code == 200
    assert asked and not any("?s ?p ?o" in query for query in asked)
    assert any("?x ?property ?y" in query for query in asked)


def test_void_features_are_the_formats_the_pages_answer_in(client):
    """Each void:feature names a syntax an entity page really answers in, and every syntax is named."""
    void = void_store(client)
    features = {r["f"].value for r in void.query(f"SELECT ?f WHERE {{ ?d <{VOID}feature> ?f }}")}
    served = set()
    for fmt in rdf_syntaxes.RDF_FORMATS:
        response = client.get(path_of(GUAIDO), headers={"Accept": fmt.media_type})
        if response.status_code == 200 and response.mimetype == fmt.media_type:
            served.add(rdf_syntaxes.W3C_FORMATS + fmt.w3c)
    assert features == served and len(served) == len(rdf_syntaxes.RDF_FORMATS)


def test_void_licence_and_the_service_description_link(shipped_data):
    with made_app({"DATA": str(shipped_data), "WORKERS": 1, "LICENSE": "https://creativecommons.org/licenses/by/4.0/"}) as app:
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


# -- a foreign corpus -----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def foreign(tmp_path_factory) -> Iterator[tuple[Path, Server]]:
    data, server = serve_foreign(tmp_path_factory.mktemp("foreign"))
    yield data, server
    server.stop()


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


def test_foreign_corpus_json_ld_says_what_turtle_says(foreign):
    """Framed JSON-LD of a foreign corpus's entity and article: the same graph as their Turtle."""
    data, server = foreign

    def get(path: str, headers: dict[str, str]) -> bytes:
        response = requests.get(server.url + path.lstrip("/"), headers=headers, timeout=TIMEOUT)
        assert response.status_code == 200 and response.headers["Content-Type"].startswith(headers["Accept"])
        return response.content

    entity = most_stated(data)
    document = assert_same_as_turtle(get, path_of(entity))
    assert document["@reverse"] and isinstance(document.get("mentionCount"), int)
    article = value(reference(data), f"SELECT ?d WHERE {{ ?st <{PREFIXES['prov']}wasDerivedFrom> ?d }} LIMIT 1",
                    union=True)
    assert_same_as_turtle(get, path_of(article))
    context = requests.get(server.url + "context.jsonld", timeout=TIMEOUT)
    assert context.headers["Content-Type"].startswith("application/ld+json")
    assert context.json()["@context"] == document["@context"]
