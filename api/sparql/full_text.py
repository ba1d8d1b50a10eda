"""Jena's full-text form, answered from kg's search index: what INCEpTION sends to a knowledge base
whose full-text search is set to Apache Jena Fuseki (`text:query`).

    PREFIX text: <http://jena.apache.org/text#>
    ... ( ?subj ?sc ?m ) text:query ( ?pMatch "guai*" 400 ) . FILTER(...)

No engine kg serves knows Jena's property function, so before the engine runs, each such pattern
is replaced by inline data (VALUES) computed from the search index of the served build
(kg.publish.search): the classes and properties of the ontology whose names match, then, as Jena
answers (one hit a name), the names of entities that hold the query's words, best first (the name
that is the words, so its accented and unaccented spellings both, for the FILTER INCEpTION adds on
the exact label; then names starting with the words; then the others; more mentions first), each
with its entity, its score and the property it is under (skos:prefLabel, skos:altLabel,
skos:hiddenLabel, rdfs:label), up to the pattern's limit. One FTS5 query finds and ranks them (its
prefix index for a word's start); nothing is fetched, and the rest of the query runs as written.
The endpoint reads the client's text for what the query is (kg.store.sparql_lexer) before the
rewrite: the inline data is not lexed again. The FILTERs INCEpTION puts beside the pattern on its
matched name (api/sparql/name_filters.py) and on its subject (FILTER [NOT] EXISTS, keeping a search to
instances: api/sparql/known_restrictions.py) are applied to the rows before the engine joins them,
and those decided for every row are taken out of the text. The OPTIONAL lookups INCEpTION puts after the
pattern (label, description, deprecation: api/sparql/record_lookups.py) become columns of the inline data when
the endpoint knows their values for every row, and are taken out of the text too.

Forms read: the subject a variable or a list of one to three variables (entity, score, matched
literal); the object a string, or a list of an optional property (a variable, bound elsewhere, or
an IRI) then the query string then an optional limit. The query string is read as INCEpTION writes
it (sanitized, lower-cased): words, each a whole word or, ending in `*`, a word's beginning; `~`
(fuzzy) and Lucene's operators are ignored. Another form of text:query is a 400 naming the forms
read. The replacement stays on the pattern's line, so that an error after it keeps its line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

from kg.api.errors import ApiError
from kg.api.sparql import known_restrictions, record_lookups
from kg.api.sparql.known_restrictions import Decide, Restriction
from kg.api.sparql.name_filters import NameTest, bound_values, name_tests
from kg.api.sparql.record_lookups import Known, Lookup
from kg.model import iris
from kg.model.iris import FIXED_PREFIXES, fold
from kg.model.nquads import literal
from kg.publish.search import SearchIndex
from kg.publish.search_index import word_text
from kg.store import sparql_lexer as lexer

JENA_TEXT = "http://jena.apache.org/text#"
QUERY = JENA_TEXT + "query"
DEFAULT_LIMIT = 100  # hits when the pattern gives no limit
MAX_LIMIT = 2000  # hits at most, whatever the pattern asks
SKOS, RDFS = FIXED_PREFIXES["skos"], FIXED_PREFIXES["rdfs"]
PROPERTIES = {"pref": SKOS + "prefLabel", "alt": SKOS + "altLabel", "hidden": SKOS + "hiddenLabel",
              "label": RDFS + "label"}


def schema_names_query() -> str:
    """The names of the classes and properties of the ontology graph (the corpus vocabulary's too)."""
    return f"""SELECT DISTINCT ?t ?l ?p WHERE {{
  VALUES ?p {{ <{SKOS}prefLabel> <{SKOS}altLabel> <{RDFS}label> }}
  GRAPH <{iris.ONTOLOGY_GRAPH}> {{ ?t ?p ?l }} FILTER(isIRI(?t))
}}"""


_PREFIX_DECL = re.compile(r"PREFIX", re.IGNORECASE)
_OPERATORS = frozenset({"and", "or", "not"})


def mentions_jena(query: str) -> bool:
    """Whether the query may use Jena's text namespace (a cheap test before any rewriting)."""
    return JENA_TEXT in query


@dataclass(frozen=True)
class Pattern:
    """One text:query pattern: where it is in the text and what it asks."""

    start: int
    end: int
    variables: tuple[str, ...]  # entity, score, literal (as many as given)
    property: str | None  # a variable (?pMatch), an IRI, or None: every name
    needle: str  # the Lucene query string, unquoted
    limit: int
    name_tests: tuple[NameTest, ...] = ()  # the FILTERs of its group on the matched name (api/sparql/name_filters.py)
    bound: frozenset[str] | None = None  # the IRIs a VALUES of its group binds its property variable to
    restrictions: tuple[Restriction, ...] = ()  # FILTER [NOT] EXISTS on its subject (api/sparql/known_restrictions.py)
    lookups: tuple[Lookup, ...] = ()  # OPTIONAL lookups of its subject (api/sparql/record_lookups.py)


SchemaNames = list[tuple[str, str, str]]  # (class or property IRI, name, property IRI of the name)


def rewrite(query: str, index: Callable[[], SearchIndex], schema: Callable[[], SchemaNames],
            deadline: float | None = None, decide: Decide | None = None, known: Known | None = None) -> str:
    """`query` with every text:query pattern replaced by its answer from the search index (entities)
    and from the names of the ontology's classes and properties (`schema`); QueryTimeout past `deadline`.
    With `decide`, the restrictions on a pattern's subject it can tell are applied to its answer and taken
    out of the text (api/sparql/known_restrictions.py); with `known`, the lookups of the one pattern's subjects
    whose values it knows are bound in its answer and taken out of the text (api/sparql/record_lookups.py)."""
    tokens = lexer.tokens(query)
    patterns = _patterns(tokens, _text_prefixes(tokens))
    if not patterns:
        return query
    found, names = index(), schema()
    answers, settled = [], []
    for pattern in patterns:
        rows = answer(pattern, found, names, deadline)
        if decide is not None and pattern.restrictions:
            refused, holding = known_restrictions.decided(list(pattern.restrictions), [r[0] for r in rows],
                                                          {r[0] for r in rows if r[4]}, decide)
            rows, settled = [r for r in rows if r[0] not in refused], settled + holding
        answers.append(rows)
    bound: tuple[list[Lookup], dict[str, list[list[str]]]] = ([], {})
    if known is not None and len(patterns) == 1:
        bound = record_lookups.bound(list(patterns[0].lookups), [r[0] for r in answers[0]], known)
    query = known_restrictions.blanked(query, [*settled, *bound[0]])  # spaces: the patterns' offsets stay
    for pattern, rows in reversed(list(zip(patterns, answers))):
        query = query[:pattern.start] + _values(pattern, rows, *bound) + query[pattern.end:]
    return query


def _text_prefixes(tokens: list[lexer.Token]) -> set[str]:
    """The prefixes the query declares for Jena's text namespace ('text:' as INCEpTION writes it)."""
    found = set()
    for i, token in enumerate(tokens[:-2]):
        if token.kind == "word" and _PREFIX_DECL.fullmatch(token.text) and tokens[i + 1].kind == "pname" \
                and tokens[i + 2].text == f"<{JENA_TEXT}>":
            found.add(tokens[i + 1].text)
    return found


def _is_query_predicate(token: lexer.Token, prefixes: set[str]) -> bool:
    if token.kind == "iri":
        return token.text == f"<{QUERY}>"
    return token.kind == "pname" and any(token.text == p + "query" for p in prefixes)


def _patterns(tokens: list[lexer.Token], prefixes: set[str]) -> list[Pattern]:
    found = []
    for i, token in enumerate(tokens):
        if _is_query_predicate(token, prefixes) and token.depth > 0:
            found.append(_pattern(tokens, i))
    return found


def _pattern(tokens: list[lexer.Token], at: int) -> Pattern:
    """The pattern whose predicate is tokens[at]."""
    subject_start, variables = _subject(tokens, at)
    end, prop, needle, limit = _object(tokens, at)
    tests = name_tests(tokens, at, variables[2] if len(variables) == 3 else None)
    bound = bound_values(tokens, at, prop) if prop is not None and prop.startswith(("?", "$")) else None
    restrictions = known_restrictions.restrictions(tokens, at, variables[0])
    lookups = record_lookups.lookups(tokens, at, variables[0])
    return Pattern(tokens[subject_start].start, end, variables, prop, needle, limit, tuple(tests), bound,
                   tuple(restrictions), tuple(lookups))


def _subject(tokens: list[lexer.Token], at: int) -> tuple[int, tuple[str, ...]]:
    if at >= 1 and tokens[at - 1].kind == "var":
        return at - 1, (tokens[at - 1].text,)
    if at >= 3 and tokens[at - 1].text == ")":
        first = at - 2
        while first >= 0 and tokens[first].kind == "var":
            first -= 1
        if first >= 0 and tokens[first].text == "(" and 1 <= at - 2 - first <= 3:
            return first, tuple(t.text for t in tokens[first + 1:at - 1])
    raise _unsupported(tokens[at])


def _object(tokens: list[lexer.Token], at: int) -> tuple[int, str | None, str, int]:
    """(end offset, property, query string, limit) of the object after the predicate tokens[at]."""
    nxt = tokens[at + 1] if at + 1 < len(tokens) else None
    if nxt is not None and nxt.kind == "string":
        return nxt.start + len(nxt.text), None, _unquote(nxt.text), DEFAULT_LIMIT
    if nxt is None or nxt.text != "(":
        raise _unsupported(tokens[at])
    close = at + 2
    while close < len(tokens) and tokens[close].text != ")" and close - at <= 5:
        close += 1
    inner = tokens[at + 2:close]
    if close >= len(tokens) or tokens[close].text != ")":
        raise _unsupported(tokens[at])
    prop = None
    if inner and inner[0].kind in ("var", "iri", "pname"):
        prop, inner = inner[0].text, inner[1:]
    if not inner or inner[0].kind != "string" or len(inner) > 2 or (len(inner) == 2 and inner[1].kind != "number"):
        raise _unsupported(tokens[at])
    limit = int(inner[1].text) if len(inner) == 2 and inner[1].text.isdigit() else DEFAULT_LIMIT
    return tokens[close].start + 1, prop, _unquote(inner[0].text), min(limit, MAX_LIMIT)


def _unsupported(token: lexer.Token) -> ApiError:
    return ApiError(400, "text:query is answered from kg's search index in these forms only: "
                         "?s text:query 'words', or ( ?s ?score ?literal ) text:query ( ?property 'words' limit ) "
                         "with the property an IRI or a variable", excerpt=token.text)


def _unquote(literal: str) -> str:
    body = literal[3:-3] if literal[:3] in ('"""', "'''") else literal[1:-1]
    return re.sub(r"\\(.)", r"\1", body)


# -- the answer --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Words:
    """The words of a Lucene query string: whole words and beginnings of words, folded."""

    whole: tuple[str, ...]
    starts: tuple[str, ...]

    @property
    def phrase(self) -> str:
        return " ".join((*self.whole, *self.starts))

    def fit(self, label: str) -> bool:
        """Whether a name holds every word (a beginning: at the start of one of its words)."""
        words = _words_of_name(label)
        return all(w in words for w in self.whole) and all(any(x.startswith(s) for x in words) for s in self.starts)


@lru_cache(maxsize=8192)
def _words_of_name(label: str) -> tuple[str, ...]:
    """The folded words of a name of the schema (the same few hundred are read by every search)."""
    return tuple(word_text(fold(label)).split())


def words_of(needle: str) -> _Words:
    whole, starts = [], []
    for raw in needle.split():
        term = raw.strip("+-!()[]{}^\"'").split("~")[0]
        if term.lower() in _OPERATORS:
            continue
        prefix = term.endswith("*")
        runs = word_text(fold(term.rstrip("*?"))).split()
        if not runs:
            continue
        whole += runs[:-1]
        (starts if prefix else whole).append(runs[-1])
    return _Words(tuple(whole), tuple(starts))


Row = tuple[str, float, str, str, bool]  # thing, score, name, property IRI of the name, whether it is a typed entity


def answer(pattern: Pattern, index: SearchIndex, schema: SchemaNames, deadline: float | None = None) -> list[Row]:
    """(thing, score, name, property IRI, typed) rows: classes and properties whose names hold the words, then the
    names of entities holding them, best first (kg.publish.search: SearchIndex.names_with_words), each scored by its
    place; `typed` when the search index summarizes the entity (it has a type in kgg:entities)."""
    words = words_of(pattern.needle)
    if not words.phrase:
        return []
    wanted = _wanted_property(pattern.property)
    wanted = pattern.bound if wanted is None else frozenset({wanted})
    rows: list[Row] = [(term, 1.0, label, prop, False) for term, label, prop in schema
            if words.fit(label) and (wanted is None or prop in wanted)][:pattern.limit]
    kinds = tuple(kind for kind, prop in PROPERTIES.items() if wanted is None or prop in wanted)
    names = index.names_with_words(words.whole, words.starts, kinds, pattern.limit - len(rows), deadline) \
        if kinds and len(rows) < pattern.limit else []
    rows += [(entity, round(1.0 - position / (len(names) + 1), 4), label, PROPERTIES[kind], typed)
             for position, (entity, label, kind, typed) in enumerate(names)]
    return [row for row in rows if all(test(row[2]) for test in pattern.name_tests)]


def _wanted_property(prop: str | None) -> str | None:
    """The property IRI the pattern names (None: any, or a variable that VALUES will bind)."""
    if prop is None or prop.startswith(("?", "$")):
        return None
    if prop.startswith("<"):
        return prop[1:-1]
    prefix, _, rest = prop.partition(":")
    return {"skos": SKOS, "rdfs": RDFS}.get(prefix, "") + rest


def _values(pattern: Pattern, rows: list[Row], lookups: list[Lookup] | None = None,
            looked_up: dict[str, list[list[str]]] | None = None) -> str:
    """The inline data that stands for the pattern's answer (on one line), with a column for each lookup bound
    (`looked_up`: each subject's combinations of their values, record_lookups.bound)."""
    columns = list(pattern.variables)
    with_property = pattern.property is not None and pattern.property.startswith(("?", "$"))
    if with_property:
        columns.append(pattern.property)
    columns += [lookup.variable for lookup in lookups or []]
    cells = []
    for entity, score, label, prop, _ in rows:
        row = [f"<{entity}>", f'"{score}"^^<{FIXED_PREFIXES["xsd"]}float>', literal(label)][:len(pattern.variables)]
        if with_property:
            row.append(f"<{prop}>")
        for values in (looked_up or {}).get(entity, [[]]):
            cells.append("(" + " ".join(row + values) + ")")
    return f"VALUES ({' '.join(columns)}) {{ {' '.join(cells)} }}"

