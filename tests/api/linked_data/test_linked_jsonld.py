"""JSON-LD on `kg serve`: the published @context is served (its own media type, open to every
origin, cacheable) and is the very context the export and every JSON-LD answer embed; a thing's
or a document's JSON-LD is framed with it on top, in compact terms with native numbers and dates,
each node written once; read back with rdflib (not our parser) it is the same graph as the Turtle
answer for the same IRI. On the shipped corpus here; on a foreign one (brat's BioNLP-ST 2011 GE)
in test_linked_data.py, which serves it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rdflib.compare import isomorphic

from kg.model.iris import DOCUMENT, ENTITIES_GRAPH, GRAPH, PREFIXES, RESOURCE
from tests.api.linked_support import GUAIDO, NPR, path_of, reference, value
from tests.helpers import made_app
from tests.jsonld_support import JSONLD, TURTLE, assert_same_as_turtle, graph_of, node_objects


def whole(values: Any, nodes: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """The node objects a property's value (a reference, a node, or a list of them) stands for."""
    return [nodes[v if isinstance(v, str) else v["@id"]] for v in (values if isinstance(values, list) else [values])]


# -- the shipped corpus, through the app -------------------------------------------------------

def _get(client):
    def get(path: str, headers: dict[str, str]) -> bytes:
        response = client.get(path, headers=headers)
        assert response.status_code == 200, response.get_data(as_text=True)[:300]
        assert response.mimetype == headers["Accept"]
        return response.data
    return get


def test_the_context_is_served_cacheable_and_open_to_every_origin(shipped_data):
    with made_app({"DATA": str(shipped_data), "WORKERS": 1, "CORS": False}) as app:
        client = app.test_client()
        response = client.get("/context.jsonld")
        assert response.status_code == 200 and response.mimetype == "application/ld+json"
        assert response.headers["Access-Control-Allow-Origin"] == "*"  # even with CORS off: terms, no data
        assert response.cache_control.public and response.cache_control.max_age >= 3600
        assert client.get("/context.jsonld", headers={"If-None-Match": response.headers["ETag"]}).status_code == 304
        assert "Access-Control-Allow-Origin" not in client.get("/api/stats").headers  # the setting still holds


def test_the_served_context_is_the_one_embedded_everywhere(client):
    served = client.get("/context.jsonld").get_json()["@context"]
    assert served["person"] == RESOURCE + "person/" and served["Person"] == "kgo:Person"
    export = json.loads(client.get("/export.jsonld").data)
    assert export["@context"] == served
    for path in (path_of(GUAIDO), path_of(DOCUMENT + NPR), path_of(ENTITIES_GRAPH), "/ontology", "/.well-known/void"):
        assert client.get(path, headers=JSONLD).get_json()["@context"] == served, path


def test_the_context_is_linked_from_the_void(client):
    void = graph_of(client.get("/.well-known/void", headers=TURTLE).data, "turtle")
    assert any(str(o).endswith("/context.jsonld") for o in void.objects())


@pytest.mark.parametrize("iri", [GUAIDO, DOCUMENT + NPR, RESOURCE + "organization/national-assembly-of-venezuela"],
                         ids=["person", "article", "organization"])
def test_json_ld_is_framed_and_says_what_turtle_says(client, iri):
    assert_same_as_turtle(_get(client), path_of(iri))


def test_a_local_thing_and_a_graph_say_what_turtle_says(client, shipped_data):
    quote = value(reference(shipped_data), f"SELECT ?q WHERE {{ ?q a <{PREFIXES['kgo']}Quote> }} LIMIT 1", union=True)
    assert_same_as_turtle(_get(client), path_of(quote))
    get = _get(client)
    assert isomorphic(graph_of(get(path_of(GRAPH + NPR), JSONLD), "json-ld"),
                      graph_of(get(path_of(GRAPH + NPR), TURTLE), "turtle"))


def test_entity_json_ld_is_compact_native_and_cites(client):
    document = _get(client)(path_of(GUAIDO), JSONLD)
    document = json.loads(document)
    assert document["@id"] == "person:juan-guaido" and document["@type"] == "Person"
    assert isinstance(document["mentionCount"], int) and document["prefLabel"] == "Juan Guaidó"
    statements = [s for v in document["@reverse"].values() for s in (v if isinstance(v, list) else [v])]
    assert {"subject", "object"} <= set(document["@reverse"])
    nodes = {n["@id"]: n for n in node_objects(document)}
    cited = [s for s in statements if s.get("@type") == "Statement"]
    assert cited and all("evidence" in s and "wasDerivedFrom" in s for s in cited)
    for statement in cited:  # every statement's sentences and article are written, in full, somewhere
        for sentence in whole(statement["evidence"], nodes):
            assert sentence["anchorOf"] and isinstance(sentence["beginIndex"], int)
        for article in whole(statement["wasDerivedFrom"], nodes):
            assert article["title"] and article["@type"] == "NewsArticle"
    dates = [n["dcterms:date"] for n in nodes.values() if "dcterms:date" in n]  # `date` is a prefix (id/date/)
    assert any(isinstance(d, str) for d in dates)  # a day: a plain string, typed xsd:date by the context
    assert all(len(d) == 10 if isinstance(d, str) else d["@type"] in ("xsd:gYearMonth", "xsd:gYear") for d in dates)
    assert document["@context"]["dcterms:date"] == {"@id": "dcterms:date", "@type": "xsd:date"}


def test_the_framed_answer_keeps_the_truncation_header(small_client):
    response = small_client.get(path_of(GUAIDO), headers=JSONLD)
    assert response.status_code == 200 and response.headers["X-KG-Truncated"] == "true"
    assert json.loads(response.data)["@id"] == "person:juan-guaido"
