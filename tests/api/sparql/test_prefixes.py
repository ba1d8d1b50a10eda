"""/sparql predefines the prefixes of kg.model.iris.PREFIXES (a query's own PREFIX wins), lists them in
its service description, and explains syntax errors: line and column in the query as sent, the line
with a caret, and for an unknown prefix the closest predefined one and the whole list."""

from __future__ import annotations

import json

import pytest
import rdflib

from kg.model.iris import PREFIXES

SH = rdflib.Namespace("http://www.w3.org/ns/shacl#")


def answer(client, query: str, method: str = "post"):
    if method == "get":
        response = client.get("/sparql", query_string={"query": query})
    else:
        response = client.post("/sparql", data={"query": query})
    return response, json.loads(response.data)


@pytest.mark.parametrize("method", ["get", "post"])
def test_readme_query_runs_without_prefix_lines(client, method):
    response, body = answer(client, "SELECT ?l WHERE { person:juan-guaido skos:altLabel ?l }", method)
    assert response.status_code == 200, body
    assert "Guaido" in {b["l"]["value"] for b in body["results"]["bindings"]}


def test_own_prefix_overrides_a_predefined_one(client):
    query = "PREFIX person: <http://example.org/other/>\nSELECT ?l WHERE { person:juan-guaido skos:altLabel ?l }"
    response, body = answer(client, query)
    assert response.status_code == 200 and body["results"]["bindings"] == []


def test_dataset_clause_with_a_predefined_prefix(client):
    query = "SELECT (COUNT(*) AS ?n) FROM kgg:npr-venezuelan-armed-forces-fled WHERE { ?s ?p ?o }"
    response, body = answer(client, query)
    assert response.status_code == 200, body
    assert int(body["results"]["bindings"][0]["n"]["value"]) > 100


def test_service_description_lists_the_prefixes(client):
    response = client.get("/sparql", headers={"Accept": "text/turtle"})
    graph = rdflib.Graph().parse(data=response.data, format="turtle")
    declared = {str(graph.value(d, SH.prefix)): str(graph.value(d, SH.namespace)) for d in graph.objects(None, SH.declare)}
    assert declared == PREFIXES


def test_unknown_prefix_is_explained(client):
    response, body = answer(client, "SELECT ?x WHERE {\n  ?x a kgo:Person .\n  ?x persn:knows ?y }")
    error = body["error"]
    assert response.status_code == 400 and error["line"] == 3 and error["column"] == 6
    assert error["excerpt"] == "   3 |   ?x persn:knows ?y }\n     |      ^"
    assert "'persn:' is not declared" in error["detail"] and "did you mean person:?" in error["hint"]
    assert all(f"{p}:" in error["hint"] for p in PREFIXES)
    assert "Prefix not found" not in error["detail"] and "'\\u{" not in error["detail"]


def test_other_errors_are_short(client):
    response, body = answer(client, "SELECT ?x WHERE {\n  ?x ?p ?o .\n  FILTER(?x = ) }")
    error = body["error"]
    assert response.status_code == 400 and error["line"] == 3 and error["column"] > 1  # where the engine stopped
    assert error["excerpt"].startswith("   3 |   FILTER(?x = ) }")
    assert len(error["detail"]) < 300 and "[" not in error["detail"].splitlines()[0]
