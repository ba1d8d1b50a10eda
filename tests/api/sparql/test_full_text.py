"""Jena's text:query answered from kg's search index (api/sparql/full_text.py), through /sparql on the shipped corpus:
each form Jena documents that INCEpTION uses, the names it gives back, and the forms it refuses."""

from __future__ import annotations

import json

import pytest

from tests.api.support import body

PREFIX = "PREFIX text: <http://jena.apache.org/text#>\n"
RECORDS = "https://kg.example.org/id/"
GUAIDO = RECORDS + "person/juan-guaido"


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


def test_names_best_first_and_the_limit_counts_names(client):
    """As Jena answers (one hit a name): the names that are the words first (both spellings of Guaidó), then the
    names starting with them, then those holding them further on; each score below the one before."""
    found = rows(client, 'SELECT ?s ?sc ?m WHERE { ( ?s ?sc ?m ) text:query ( ?p "guaido*" 2000 ) } ORDER BY DESC(?sc)')
    folded = [r["m"].lower().replace("ó", "o") for r in found]
    ranks = [0 if f == "guaido" else 1 if f.startswith("guaido") else 2 for f in folded]
    assert ranks == sorted(ranks) and ranks[0] == 0 and 2 in ranks, folded
    assert len({r["sc"] for r in found}) == len(found)
    first = rows(client, 'SELECT ?s ?m WHERE { ( ?s ?sc ?m ) text:query ( ?p "guaido*" 2 ) }')
    assert {r["m"] for r in first} == {"Guaidó", "Guaido"} and {r["s"] for r in first} == {GUAIDO}


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


@pytest.mark.parametrize("prefix", ["guai", "Vene", "mad", "colom", "nicolás m"])
def test_the_full_text_answer_finds_what_the_regular_expression_finds(client, prefix):
    """INCEpTION's starts-with search, with the full-text form (whose FILTER on the name the answer applies
    before the engine, api/sparql/name_filters.py) and without it: the same names of the same entity records
    (the things local to one document are not in the search index)."""
    from tests.api.services import inception_queries as q

    def found(fts: bool) -> set[tuple[str, str]]:
        query = q.starting_with("instances", prefix, fts).removeprefix(PREFIX)
        return {(r["subj"], r["m"]) for r in rows(client, query) if r["subj"].startswith(RECORDS)}

    assert found(True) == found(False) and found(True)


@pytest.mark.parametrize(("other", "kept"), [
    ('OPTIONAL { FILTER ( REGEX( STR( ?m ), "^x", "i" ) ) }', "all"),
    ('FILTER ( REGEX( STR( ?m ), "^x", "i" ) || true )', "all"),
    ('FILTER ( REGEX( STR( ?m ), "^(x|g)", "i" ) )', "g"),
    ('FILTER ( REGEX( STR( ?m ), "^x", "i" ) || REGEX( STR( ?m ), "^g", "i" ) )', "g")])
def test_a_filter_elsewhere_or_of_another_form_is_left_to_the_engine(client, other, kept):
    every = [r["m"] for r in rows(client, 'SELECT ?m WHERE { ( ?s ?sc ?m ) text:query ( ?p "guai*" ) }')]
    expected = every if kept == "all" else [m for m in every if m.lower().startswith("g")]
    query = f'SELECT ?m WHERE {{ ( ?s ?sc ?m ) text:query ( ?p "guai*" ) {other} }}'
    assert sorted(r["m"] for r in rows(client, query)) == sorted(expected) and expected


def test_the_answer_keeps_only_the_rows_the_group_can_use(shipped_data):
    """Before the engine runs: INCEpTION's FILTER on the name and its VALUES of the matching properties (label,
    alternative label) are applied to the answer's rows, so that the engine joins no row they would refuse."""
    import re

    from api.sparql import full_text
    from kg.publish.search import read_index
    from kg.store import build_dirs
    from tests.api.services import inception_queries as q

    index = read_index(build_dirs.current_build(shipped_data))
    rewritten = full_text.rewrite(q.starting_with("instances", "Venez", True), lambda: index, lambda: [])
    cells = re.findall(r'\((<[^>]+>) "[^"]+"\^\^<[^>]+> "([^"]*)" <([^>]+)>\)', rewritten)
    assert cells and all(name.lower().startswith("venez") for _, name, _ in cells)
    assert {prop for _, _, prop in cells} <= {q.LABEL[1:-1], q.ALT_LABEL[1:-1]}
    without = full_text.rewrite('SELECT * WHERE { ( ?subj ?sc ?m ) text:query ( ?p "venez*" 2000 ) }'
                                .replace("SELECT", q.FUSEKI_PREFIX + "SELECT"), lambda: index, lambda: [])
    assert len(re.findall(r"\(<", without)) > len(cells)  # names holding a word "venez…" further on, and prefLabels


def test_a_needle_past_the_search_bound_is_a_400(client):
    needle = " ".join(["guaido"] * 300)
    response = client.post("/sparql", data={"query": PREFIX + f'SELECT * WHERE {{ ?s text:query "{needle}" }}'})
    assert "at most 1,000" in body(response, 400)["error"]["detail"]


def _sent(client, query: str) -> str:
    """The text the endpoint gives the engine for `query` (on the service's dataset)."""
    import time

    from flask import g

    from kg.api.sparql import endpoint

    with client.application.test_request_context("/sparql"):
        g.deadline = time.monotonic() + 30
        return endpoint._full_text(query, service_dataset=True)


def _answers(client, query: str) -> list[str]:
    response = client.post("/sparql", data={"query": query}, headers={"Accept": "application/sparql-results+json"})
    assert response.status_code == 200, response.get_data(as_text=True)
    return sorted(json.dumps(b, sort_keys=True) for b in json.loads(response.data)["results"]["bindings"])


@pytest.mark.parametrize("needle", ["Guai", "Juan Guaidó", "Venez", "person", "National Guard", "Colomb"])
def test_the_restrictions_to_instances_are_told_before_the_engine_runs(client, monkeypatch, needle):
    """INCEpTION's four FILTER [NOT] EXISTS on the matched item (api/sparql/known_restrictions.py) are decided from
    the search index and the build's few subclass and class triples: taken out of the text the engine runs, and
    every shape answers exactly what the engine answers testing them itself."""
    from kg.api.sparql import endpoint
    from tests.api.services import inception_queries as q

    for shape in (q.exact_label, q.starting_with, q.containing):
        for kind in ("instances", "classes"):
            query = shape(kind, needle, True)
            told = _answers(client, query)
            if kind == "instances":
                sent = _sent(client, query)
                assert "EXISTS" not in sent and "VALUES (?subj ?sc ?m ?pMatch" in sent, (shape.__name__, sent)
            with monkeypatch.context() as patch:
                patch.setattr(endpoint, "_holding", lambda restriction, subjects: None)
                untold = _sent(client, query)
                assert "FILTER NOT EXISTS" in untold or kind == "classes" or ") {  }" in untold  # no row: none
                assert _answers(client, query) == told, (shape.__name__, kind)
            if shape is q.exact_label and kind == "instances" and needle == "Juan Guaidó":
                assert GUAIDO in "".join(told)


@pytest.mark.parametrize(("where", "told"), [
    ("{pattern} . {restriction}", True),
    ("VALUES ?p {{ <http://www.w3.org/2000/01/rdf-schema#label> }} {{ {pattern} }} {restriction}", True),
    ("OPTIONAL {{ {pattern} }} {restriction}", False),
    ("{{ {pattern} }} UNION {{ ?s ?p ?m }} {restriction}", False),
    ("GRAPH ?g {{ {pattern} {restriction} }}", False),
    ("{pattern} . {restriction_of_another}", False)])
def test_a_restriction_is_told_only_where_the_subject_is_bound_by_the_answer(client, where, told):
    """A FILTER NOT EXISTS refusing Guaidó (a person) drops his rows and leaves the text where the pattern's rows are
    the group's; elsewhere (OPTIONAL, UNION, GRAPH, another variable) the engine decides."""
    pattern = '( ?s ?sc ?m ) text:query ( ?p "guai*" 50 )'
    person = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <https://kg.example.org/ontology#Person>"
    group = where.format(pattern=pattern, restriction=f"FILTER NOT EXISTS {{ ?s {person} . }}",
                         restriction_of_another=f"FILTER NOT EXISTS {{ ?x {person} . }}")
    query = PREFIX + f"SELECT ?s ?m WHERE {{ {group} }}"
    sent = _sent(client, query)
    assert ("FILTER NOT EXISTS" not in sent) == told and (GUAIDO not in sent) == told, sent
    if told:
        assert GUAIDO not in "".join(_answers(client, query))


LOOKUPS = ("OPTIONAL { { ?s <http://www.w3.org/2000/01/rdf-schema#label> ?l . } } "
           "OPTIONAL { { ?s <http://www.w3.org/2000/01/rdf-schema#comment> ?dc . } } "
           "OPTIONAL { { ?s <http://www.w3.org/2002/07/owl#deprecated> ?dp . } }")


@pytest.mark.parametrize("needle", ["Guai", "Juan Guaidó", "sergeant", "National Guard"])
def test_the_lookups_of_label_and_description_are_bound_before_the_engine_runs(client, monkeypatch, needle):
    """INCEpTION's OPTIONAL lookups of each candidate's label, description and deprecation (api/sparql/
    record_lookups.py) become columns of the answer's inline data, from the search index (and, for a record a document
    names too, such as a post, from the store in one query): taken out of the text the engine runs, and every shape
    answers exactly what the engine answers doing the lookups itself, row for row (a post's label in kgg:entities
    and the words a document names it in, for "sergeant")."""
    from kg.api.sparql import endpoint
    from tests.api.services import inception_queries as q

    shapes = [shape(kind, needle, True) for shape in (q.exact_label, q.starting_with, q.containing)
              for kind in ("instances", "classes")]
    bag = PREFIX + (f'SELECT DISTINCT ?s ?l ?dc ?dp WHERE {{ ( ?s ?sc ?m ) text:query ( ?p "{needle.lower()}*" 2000 ) '
                    f'{LOOKUPS} }}')
    _lookups_known(client)
    for query in [*shapes, bag]:
        bound = _answers(client, query)
        sent = _sent(client, query)
        if query is shapes[0] or query is bag:  # instances: every row a record
            assert "OPTIONAL" not in sent, sent
        with monkeypatch.context() as patch:
            patch.setattr(endpoint, "_known_values", lambda predicates, subjects: None)
            untold = _sent(client, query)
            assert "OPTIONAL" in untold or ") {  }" in untold  # no row: no lookup joins one
            assert _answers(client, query) == bound, query
    if needle == "sergeant":
        assert any("Bolivarian National Guard" in row for row in _answers(client, bag))


def _lookups_known(client) -> None:
    """Wait for what the build's records' names are in other graphs (computed in the background on first use, the
    lookups left to the engine meanwhile)."""
    import time

    from flask import g

    from kg.api.build_answers import cached
    from kg.api.sparql import endpoint

    with client.application.test_request_context("/sparql"):
        g.deadline = time.monotonic() + 60
        assert cached(endpoint.OTHER_NAMES, lambda deadline: (endpoint._other_values(deadline),))[0] is not None


@pytest.mark.parametrize(("where", "bound"), [
    ("{pattern} . {lookup}", True),
    ("{{ VALUES ?p {{ <http://www.w3.org/2000/01/rdf-schema#label> }} {{ {pattern} }} }} {lookup}", True),
    ("{lookup} {pattern}", False),
    ("OPTIONAL {{ {pattern} }} {lookup}", False),
    ("{{ {pattern} }} UNION {{ ?s ?p ?m }} {lookup}", False),
    ("GRAPH ?g {{ {pattern} }} {lookup}", False),
    ("{{ SELECT ?s WHERE {{ {pattern} }} }} {lookup}", False),
    ("{pattern} . ?s ?q ?l . {lookup}", False),
    ("{pattern} . OPTIONAL {{ ?s <http://www.w3.org/2000/01/rdf-schema#label> ?l . FILTER (true) }}", False),
    ("{pattern} . OPTIONAL {{ ?s <http://www.w3.org/2004/02/skos/core#prefLabel> ?l }}", False),
    ("{pattern} . {lookup} NOT DISTINCT", False)])
def test_a_lookup_is_bound_only_where_the_answer_binds_its_subject(client, where, bound):
    """A lookup is bound only after the pattern, in a group that joins it, of the pattern's subject, with a
    predicate the endpoint knows and a variable named nowhere else, in a SELECT DISTINCT; elsewhere the engine does
    it."""
    pattern = '( ?s ?sc ?m ) text:query ( ?p "guai*" 50 )'
    lookup = "OPTIONAL { ?s <http://www.w3.org/2000/01/rdf-schema#label> ?l }"
    group = where.format(pattern=pattern, lookup=lookup)
    form = "SELECT" if group.endswith(" NOT DISTINCT") else "SELECT DISTINCT"
    query = PREFIX + f"{form} * WHERE {{ {group.removesuffix(' NOT DISTINCT')} }}"
    _lookups_known(client)
    sent = _sent(client, query)
    assert ("OPTIONAL" not in sent) == bound, sent
    if bound:
        assert '"Juan Guaidó"' in sent
