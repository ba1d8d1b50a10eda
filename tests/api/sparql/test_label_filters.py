"""INCEpTION's label search without a full-text index (api/sparql/label_filters.py): its FILTER on the matched label
is moved into a group with the triple that binds the label before the engine runs, only where the two texts mean the
same, and every shape answers the same rows moved or not."""

from __future__ import annotations

import json

import pytest

from kg.api.sparql import label_filters
from kg.api.sparql.label_filters import placed
from tests.api.services import inception_queries as q
from tests.api.support import body

LABEL_TRIPLE = "?subj ?pMatch ?m ."
VALUES = "VALUES ( ?pMatch ) { (rdfs:label) (skos:altLabel) }"
REGEX = 'FILTER ( REGEX( STR( ?m ), "^guai.*", "i" ) )'


def _engines(sent: list[str]) -> str:
    """The last query text sent to a worker."""
    return [text for text in sent if text][-1]


def _answers(client, query: str) -> list[str]:
    response = client.post("/sparql", data={"query": query}, headers={"Accept": "application/sparql-results+json"})
    assert response.status_code == 200, response.get_data(as_text=True)
    return sorted(json.dumps(b, sort_keys=True) for b in json.loads(response.data)["results"]["bindings"])


@pytest.mark.parametrize("needle", ["Guai", "person", "juan guaido", "Ven", "a", "Juan Guaidó", "the (armed) forces"])
def test_every_no_full_text_shape_answers_the_same_rows_moved_or_not(client, queries_run, monkeypatch, needle):
    """Exact label, starts-with and contains, for instances and for classes, as INCEpTION sends them without a
    full-text mode: the starts-with group is moved (the engine gets the FILTER in the triple's group), the others
    have no FILTER beside a VALUES and a triple, and each answers row for row what the text as sent answers."""
    from kg.api.sparql import endpoint

    for shape in (q.exact_label, q.starting_with, q.containing):
        for kind in ("instances", "classes"):
            query = shape(kind, needle)
            moved = _answers(client, query)
            assert (query in _engines(queries_run)) == (shape is not q.starting_with)
            with monkeypatch.context() as patch:
                patch.setattr(endpoint.label_filters, "placed", lambda text: text)
                assert _answers(client, query) == moved, query
                assert query in _engines(queries_run)


def test_a_group_moved_in_an_optional_answers_the_same(client, monkeypatch):
    """In an OPTIONAL the FILTER is the left join's condition: it reads the label alone, so moved or not the same
    things keep or lose their label."""
    from kg.api.sparql import endpoint

    query = ("SELECT ?s ?m WHERE { ?s a <https://kg.example.org/ontology#Person> OPTIONAL { VALUES ?p { rdfs:label "
             "skos:altLabel } ?s ?p ?m . FILTER ( REGEX( STR( ?m ), \"^j\", \"i\" ) ) } }")
    assert placed(query) != query
    moved = _answers(client, query)
    assert any('"^j' not in row and "Juan" in row for row in moved)
    with monkeypatch.context() as patch:
        patch.setattr(endpoint.label_filters, "placed", lambda text: text)
        assert _answers(client, query) == moved


@pytest.mark.parametrize(("group", "moved"), [
    (f"{{ {VALUES} {LABEL_TRIPLE} {REGEX} }}", f"{{ {VALUES} {{ {LABEL_TRIPLE} {REGEX} }} }}"),
    (f"{{ {VALUES} VALUES ?x {{ 1 2 }} ?subj ?pMatch ?m {REGEX} FILTER ( LCASE( STR( ?m ) ) != \"x\" ) }}",
     f"{{ {VALUES} VALUES ?x {{ 1 2 }} {{ ?subj ?pMatch ?m {REGEX} FILTER ( LCASE( STR( ?m ) ) != \"x\" ) }} }}"),
    (f"GRAPH ?g {{ VALUES ?pMatch {{ rdfs:label }} ?subj rdfs:label ?m {REGEX} }}",
     f"GRAPH ?g {{ VALUES ?pMatch {{ rdfs:label }} {{ ?subj rdfs:label ?m {REGEX} }} }}"),
    (f"OPTIONAL {{ {VALUES} {LABEL_TRIPLE}\nFILTER ( STRSTARTS( LCASE( STR( ?m ) ), \"guai\" ) ) }}",
     f"OPTIONAL {{ {VALUES} {{ {LABEL_TRIPLE}\nFILTER ( STRSTARTS( LCASE( STR( ?m ) ), \"guai\" ) ) }} }}"),
])
def test_a_filter_on_the_label_alone_is_moved_into_the_triples_group(group, moved):
    """Braces put around the triple and its FILTERs, the lines kept."""
    assert placed(f"SELECT * WHERE {{ ?subj a [] .\n{group}\n}}") == f"SELECT * WHERE {{ ?subj a [] .\n{moved}\n}}"


@pytest.mark.parametrize("group", [
    f"{{ {LABEL_TRIPLE} {REGEX} }}",  # no VALUES: the group is the triple's already
    f"{{ {VALUES} {LABEL_TRIPLE} FILTER ( REGEX( STR( ?m ), ?subj ) ) }}",  # reads another variable
    f"{{ {VALUES} {LABEL_TRIPLE} FILTER ( ?m = ?other ) }}",
    f"{{ {VALUES} {LABEL_TRIPLE} FILTER EXISTS {{ ?subj a [] }} }}",
    f"{{ {VALUES} {LABEL_TRIPLE} FILTER ( NOT EXISTS {{ ?subj a [] }} ) }}",
    f"{{ {VALUES} {LABEL_TRIPLE} FILTER ( <http://example.org/f>( ?m ) ) }}",  # a function by IRI
    f"{{ {VALUES} {LABEL_TRIPLE} FILTER ( RAND() < 0.5 ) }}",  # not a function of the label
    f"{{ {VALUES} {LABEL_TRIPLE} FILTER ( BOUND( ?m ) ) }}",
    f"{{ {VALUES} {LABEL_TRIPLE} ?subj a ?t . {REGEX} }}",  # two triples
    f"{{ {VALUES} ?subj ?pMatch ?m ; a ?t . {REGEX} }}",
    f"{{ {VALUES} {LABEL_TRIPLE} {REGEX} ?subj a ?t }}",  # a triple after the FILTER
    f"{{ {VALUES} {LABEL_TRIPLE} {REGEX} OPTIONAL {{ ?subj a ?t }} }}",
    f"{{ {VALUES} ?subj ?pMatch \"Guaidó\" . {REGEX} }}",  # the object no variable
    f"{{ {VALUES} {LABEL_TRIPLE} }}",  # no FILTER
    f"{{ {VALUES} {LABEL_TRIPLE} BIND ( STR( ?m ) AS ?s ) {REGEX} }}",
])
def test_anything_else_is_left_as_written(group):
    query = f"SELECT * WHERE {{ ?subj a [] . {group} }}"
    assert placed(query) == query


def test_the_text_inceptions_starts_with_search_sends_is_moved():
    sent = q.starting_with("instances", "Guai")
    assert '{ ?subj ?pMatch ?m . FILTER ( ( REGEX( STR( ?m ), "^Guai.*", "i" ) ) ) } }' in placed(sent)
    assert placed(q.starting_with("instances", "Guai", fts=True)) == q.starting_with("instances", "Guai", fts=True)


def test_an_error_after_a_moved_group_keeps_its_line(client):
    query = q.starting_with("instances", "Guai") + "\nORDER BY ?x ?"
    error = body(client.post("/sparql", data={"query": query}), 400)["error"]
    assert error["line"] == query.count("\n") + 1


def test_a_text_too_long_or_not_lexed_is_left_as_written():
    long = f"SELECT * WHERE {{ {VALUES} {LABEL_TRIPLE} {REGEX} }} # {'x' * label_filters.MAX_TEXT}"
    assert placed(long) == long
    broken = f'SELECT * WHERE {{ {VALUES} {LABEL_TRIPLE} {REGEX} "unclosed'
    assert placed(broken) == broken
