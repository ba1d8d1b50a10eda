"""The lexer that classifies a request before any engine sees it."""

from __future__ import annotations

import re

import pyoxigraph as ox
import pytest
from hypothesis import given, settings, strategies as st

from kg.store.sparql_lexer import LexError, analyze


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
    from kg.store.sparql_lexer import MAX_TOKENS, TooManyTokens

    with pytest.raises(TooManyTokens, match="more than 50,000 tokens"):
        analyze("ASK { " + "a." * MAX_TOKENS + " }")
    assert analyze("ASK { " + "a." * (MAX_TOKENS // 2 - 10) + " }").form == "ASK"


# -- linear work (issue 29): counted, not timed ------------------------------------------------

# Texts that made the lexer rescan: runs of escaped quotes after a quote that never closes
# (each quote of the run started a scan to the end of the line: 13.65 s for 50,000).
HOSTILE = {
    "escaped-double": lambda n: 'SELECT * { ?s ?p "' + '\\"' * n + " }",
    "escaped-single": lambda n: "SELECT * { ?s ?p '" + "\\'" * n + " }",
    "escaped-long": lambda n: 'SELECT * { ?s ?p """' + '\\"' * n + " }",
    "quote-backslash": lambda n: "ASK { " + '"\\' * n + " }",
    "long-quotes": lambda n: "ASK { " + '"""\\' * n,
    "mixed": lambda n: "ASK { '" + "\\'\"\\\"" * n + "\n}",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_lexing_work_is_linear_in_the_length(name):
    """The characters the lexer's scans go over: at most a few per character of the text, so
    100,000 repeats cost about 10 times 10,000 (they cost about 100 times, quadratic, before)."""
    from kg.store.sparql_lexer import lex

    small, large = HOSTILE[name](10_000), HOSTILE[name](100_000)
    work_small = lex(small, limit=10**9).scanned
    work_large = lex(large, limit=10**9).scanned
    assert work_small <= 3 * len(small) and work_large <= 3 * len(large)
    assert work_large <= 12 * work_small


def _reference_tokens(text: str) -> list[tuple]:
    """The tokens as the lexer defined them before it remembered failed string scans: one
    regular expression tried at every position (quadratic on HOSTILE texts, exact on short ones)."""
    from kg.store import sparql_lexer as lexer

    string = "|".join(re.escape(quote) + body.pattern + re.escape(quote)
                      for forms in lexer._STRING_BODIES.values() for quote, body in forms)
    pattern = lexer._TOKEN.pattern.replace(r"""(?P<quote>["'])""", f"(?P<string>{string})")
    out, depth = [], 0
    for match in re.finditer(pattern, text, re.VERBOSE | re.DOTALL):
        kind = match.lastgroup
        if kind is None:
            continue
        start, value = match.start(kind), match.group(kind)
        if kind == "run":
            out += [(p.lastgroup, p.group(), depth, start + p.start()) for p in lexer._RUN_PARTS.finditer(value)]
            continue
        depth = max(0, depth - 1) if value == "}" else depth
        out.append((kind, value, depth, start))
        depth += value == "{"
    return out


_pieces = st.sampled_from(['"', "'", "\\", '"""', "'''", '\\"', "\\'", "a", " ", "\n", "\r", "SERVICE", "#", "<",
                           ">", ":", "{", "}", "?v", "@en", "1", "."])


@settings(max_examples=500, deadline=None)
@given(st.lists(_pieces, max_size=40))
def test_remembered_string_scans_give_the_same_tokens(pieces):
    """Skipping the scans that must fail changes no token: the same kinds, texts and places as the
    single regular expression that tried every quote."""
    from kg.store.sparql_lexer import tokens

    text = "".join(pieces)
    assert [tuple(t) for t in tokens(text, limit=10**9)] == _reference_tokens(text)


@pytest.mark.parametrize("query", [
    "BASE <http://x/> " + "BASE <a/> " * 2000 + "ASK {}",  # each base longer than the one before
    "BASE <http://x/" + "a" * 200_000 + "/> " + "PREFIX p: <b> " * 10 + "ASK {}",  # a long base used often
    "PREFIX p: <http://x/" + "a" * 100_000 + "/> SELECT * " + " FROM p:g" * 20 + " {}",
])
def test_names_resolved_are_bounded(query):
    """Each resolution against a base or namespace costs its length: a 100 KB query named 400 MB of
    graphs, and 4,000 relative BASEs took 1.3 s; past MAX_RESOLVED characters the query is refused."""
    with pytest.raises(LexError, match="more than 1,000,000 characters of IRIs"):
        analyze(query)


def test_dataset_of_many_graphs_still_resolves():
    graphs = " ".join(f"FROM ex:g{i} FROM <http://y/h{i}>" for i in range(2000))
    info = analyze(f"PREFIX ex: <http://x/> SELECT * {graphs} WHERE {{ ?s ?p ?o }}")
    assert len(info.from_graphs) == 4000 and info.from_graphs[:2] == ("http://x/g0", "http://y/h0")
