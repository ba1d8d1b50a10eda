"""Jena's text:query answered from kg's search index (api/sparql/full_text.py), through /sparql on the shipped corpus:
each form Jena documents that INCEpTION uses, the names it gives back, and the forms it refuses."""

from __future__ import annotations

import json

import pytest

from tests.api.support import body

PREFIX = "PREFIX text: <http://jena.apache.org/text#>\n"
GUAIDO = "https://kg.example.org/id/person/juan-guaido"


def rows(client, query: str) -> list[dict[str, str]]:
    response = client.post("/sparql", data={"query": PREFIX + query}, headers={"Accept": "application/sparql-results+json"})
    assert response.status_code == 200, response.get_data(as_text=True)
    return [{k: v["value"] for k, v in b.items()} for b in json.loads(response.data)["results"]["bindings"]]


def test_a_subject_and_a_string(client):
    found = rows(client, 'SELECT ?s WHERE { ?s text:query "guaido" }')
    assert {r["s"] for r in found} == {GUAIDO}


def test_every_name_holding_the_words_with_its_property(client):
    found = rows(client, 'SELECT ?s ?sc ?m ?p WHERE { ( ?s ?sc ?m ) text:query ( ?p "juan guaido" ) }')
    names = {(r["m"], r["p"].rsplit("#", 1)[-1].rsplit("/", 1)[-1]) for r in found if r["s"] == GUAIDO}
    assert names >= {("Juan Guaidó", "prefLabel"), ("Juan Guaidó", "label"), ("Juan Guaido", "altLabel"),
                     ("juan guaido", "hiddenLabel")}
    assert all(0 < float(r["sc"]) <= 1 for r in found)


def test_a_property_given_and_a_prefix(client):
    found = rows(client, 'SELECT ?s ?m WHERE { ( ?s ?sc ?m ) text:query ( skos:altLabel "guai*" 10 ) }')
    assert {r["m"] for r in found if r["s"] == GUAIDO} == {"Guaidó", "Guaido", "Juan Guaido"}
    assert rows(client, 'SELECT ?s WHERE { ( ?s ?sc ?m ) text:query ( <http://www.w3.org/2000/01/rdf-schema#comment> '
                        '"guai*" ) }') == []  # the index holds names only


def test_a_class_by_its_name(client):
    found = rows(client, 'SELECT ?s WHERE { ( ?s ?sc ?m ) text:query ( rdfs:label "military*" ) }')
    assert "https://kg.example.org/ontology#MilitaryUnit" in {r["s"] for r in found}


def test_the_limit_bounds_the_hits(client):
    found = rows(client, 'SELECT DISTINCT ?s WHERE { ( ?s ?sc ?m ) text:query ( ?p "v*" 3 ) }')
    assert 0 < len(found) <= 3


def test_names_with_quotes_stay_literals(client):
    found = rows(client, 'SELECT ?m WHERE { ( ?s ?sc ?m ) text:query ( ?p "\\"guaido\\"~" ) }')
    assert "Guaido" in {r["m"] for r in found}


@pytest.mark.parametrize("pattern", ['?s text:query ?x', '( ?s ?sc ?m ?g ?x ) text:query "guaido"',
                                     '?s text:query ( ?p "a" "b" )'])
def test_another_form_is_a_400_naming_the_forms_read(client, pattern):
    error = body(client.post("/sparql", data={"query": PREFIX + f"SELECT * WHERE {{ {pattern} }}"}), 400)["error"]
    assert error["detail"].startswith("text:query is answered from kg's search index in these forms only")


def test_without_the_namespace_nothing_is_rewritten(client):
    assert rows(client, 'PREFIX t: <http://example.org/t#> SELECT ?s WHERE { ?s t:query "guaido" }') == []
