"""The lexer that classifies a request before any engine sees it."""

from __future__ import annotations

import pyoxigraph as ox
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kg.api.lexer import LexError, analyze


@pytest.mark.parametrize("query, form", [
    ("SELECT * WHERE { ?s ?p ?o }", "SELECT"),
    ("PREFIX a: <http://a/>\nBASE <http://b/>\nask {}", "ASK"),
    ("construct where { ?s ?p ?o }", "CONSTRUCT"),
    ("DESCRIBE <http://x>", "DESCRIBE"),
    ("# comment SELECT\nSELECT*{}", "SELECT"),
])
def test_form(query, form):
    assert analyze(query).form == form


@pytest.mark.parametrize("update", [
    "INSERT DATA { <a:s> <a:p> <a:o> }",
    "PREFIX x: <http://x/> DELETE WHERE { ?s ?p ?o }",
    "WITH <http://g> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }",
    "CLEAR ALL", "DROP GRAPH <http://g>", "CREATE GRAPH <http://g>", "ADD DEFAULT TO <http://g>",
    "COPY <http://a> TO <http://b>", "MOVE <http://a> TO <http://b>", "insertdata{<a:s> <a:p> <a:o>}",
])
def test_updates(update):
    info = analyze(update)
    assert info.update and info.form is None


@pytest.mark.parametrize("query", [
    "SELECT * WHERE { SERVICE <http://127.0.0.1:1/> { ?s ?p ?o } }",
    "select * where { service silent <http://x/> { } }",
    "PREFIX ex: <http://x/> SELECT * { SERVICEex:g { ?s ?p ?o } }",  # Oxigraph accepts the glued form
    "SELECT * { ?s ?p ?o .SERVICE<http://x/>{} }",
    "SELECT * { \\u0053ERVICE <http://x/> { } }",  # engines that unescape first see SERVICE
    "LOAD <http://x/data.ttl>",
])
def test_fetching_keywords_are_seen(query):
    assert analyze(query).fetching


@pytest.mark.parametrize("query", [
    'SELECT * { ?s ?p "SERVICE <http://x> {}" }',
    "SELECT * { ?s ?p '''LOAD\n<http://x>''' }",
    "SELECT * { ?s ?p ?o } # SERVICE <http://x> {}",
    "SELECT ?service { ?service ?p <http://x/SERVICE> }",
    'SELECT * { ?s ?p "x"@service }',
    "SELECT ?load { ?load a <http://x/Load> }",
])
def test_keywords_in_strings_iris_comments_variables_are_not(query):
    assert analyze(query).fetching == ()


def test_dataset_clause_resolved():
    info = analyze("BASE <http://b/>\nPREFIX k: <http://k/>\n"
                   "SELECT * FROM k:one FROM <two> FROM NAMED <http://n/three> WHERE { ?s ?p ?o }")
    assert info.from_graphs == ("http://k/one", "http://b/two")
    assert info.from_named == ("http://n/three",)


def test_construct_dataset_after_template():
    info = analyze("CONSTRUCT { ?s ?p ?o } FROM <http://g> WHERE { ?s ?p ?o }")
    assert info.from_graphs == ("http://g",)


def test_odd_dataset_spelling_is_refused():
    with pytest.raises(LexError):
        analyze("SELECT * FROMNAMED <http://g> { }")


def test_escaped_from_is_seen():
    info = analyze("SELECT * \\u0046ROM <http://evil/> { }")
    assert "http://evil/" in info.from_graphs


def test_top_limit_ignores_subqueries():
    assert analyze("SELECT * { { SELECT * { ?s ?p ?o } LIMIT 5 } } LIMIT 100").top_limit == 100
    assert analyze("SELECT * { { SELECT * { ?s ?p ?o } LIMIT 5 } }").top_limit is None


_words = st.sampled_from(["?s", "?p", "?o", "<http://x/y>", '"text"', "'t'", "a", ".", ";", "ex:p", "1", "{", "}",
                          "# remark\n", '"""long\nstring"""', "FILTER(?o > 3)", "OPTIONAL", "UNION"])
_hidden = st.sampled_from(['"SERVICE <http://x> {}"', "# SERVICE <http://x>\n", "<http://x/SERVICE>",
                           "?service", '"LOAD"@en', "'''LOAD <x>'''"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_words, max_size=12), _hidden, st.lists(_words, max_size=12))
def test_hidden_keywords_never_count(before, hidden, after):
    query = "SELECT * WHERE { " + " ".join(before + [hidden] + after) + " }"
    assert analyze(query).fetching == ()


@settings(max_examples=300, deadline=None)
@given(st.lists(_words, max_size=10), st.sampled_from(["SERVICE", "service", "Service", "SERVICE SILENT"]),
       st.sampled_from([" <http://127.0.0.1:9/>", "<http://127.0.0.1:9/>", " ?g"]))
def test_real_service_clauses_always_count(before, keyword, target):
    query = "SELECT * WHERE { " + " ".join(before) + " " + keyword + target + " { ?s ?p ?o } }"
    assert analyze(query).fetching == ("SERVICE",)


def test_engine_and_lexer_agree_on_service_in_a_string():
    store = ox.Store()
    query = 'SELECT ?x WHERE { BIND("SERVICE <http://127.0.0.1:9/> {}" AS ?x) }'
    assert analyze(query).fetching == ()
    assert len(list(store.query(query))) == 1  # the engine runs it: nothing is fetched


@pytest.mark.parametrize("query, open_ended", [
    ("SELECT * { ?s ?p ?o }", True),
    ("SELECT * { ?s ?p ?o } OFFSET 5", True),
    ("SELECT * { ?s ?p ?o } ORDER BY ?s", False),  # sorted whole anyway; Virtuoso limits sorted LIMITs
    ("SELECT * { { SELECT * { ?s ?p ?o } LIMIT 3 } }", True),  # the inner LIMIT is not the outermost
    ("SELECT * { ?s ?p ?o } LIMIT 5", False),
    ("SELECT * { ?s ?p ?o } VALUES ?s { <http://a> }", False),  # LIMIT cannot follow VALUES
    ("SELECT * { ?s ?p ?o } # LIMIT in a comment", True),
    ('SELECT * { ?s ?p "\\u0041" }', False),  # escapes: the text is not what the engine reads
    ("ASK { }", False),
    ("CONSTRUCT WHERE { ?s ?p ?o }", False),
])
def test_open_ended_selects_may_take_a_limit(query, open_ended):
    assert analyze(query).open_ended is open_ended


def test_lexing_stops_past_the_token_bound():
    from kg.api.lexer import MAX_TOKENS, TooManyTokens

    with pytest.raises(TooManyTokens, match="more than 50,000 tokens"):
        analyze("ASK { " + "a." * MAX_TOKENS + " }")
    assert analyze("ASK { " + "a." * (MAX_TOKENS // 2 - 10) + " }").form == "ASK"
