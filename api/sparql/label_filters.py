"""INCEpTION's label search without a full-text index: its FILTER on the matched label moved into a group with the
one triple that binds the label, so that the engine reads the matching labels first.

Without a full-text mode, INCEpTION's starts-with search (FtsAdapterNoFts.withLabelStartingWith) sends

    { ?subj a [] . FILTER NOT EXISTS { ... } ... }
    { VALUES ( ?pMatch ) { (rdfs:label) (skos:altLabel) } ?subj ?pMatch ?m . FILTER ( REGEX( STR( ?m ), "^guai.*", "i" ) ) }

With the FILTER beside the VALUES and the triple, the engine (Oxigraph) evaluates the first group whole, every typed
thing with its three NOT EXISTS (1.2 million rows at 10,000 articles: more than the endpoint's 30 s), and joins the
labels after; with the FILTER in a group of its own triple, as INCEpTION's contains search already sends it, it reads
the labels under the two properties, keeps those the FILTER holds for, and tests the restrictions of the few left.

The two texts mean the same: a FILTER holds for its whole group, and when every variable it reads is bound by one
triple of the group (nothing optional), Filter(f, Join(rest, triple)) = Join(rest, Filter(f, triple)), since every
solution of the join carries the triple's value of those variables; in an OPTIONAL's group too, where the FILTER is
the left join's condition, because what it reads comes from the triple alone. So only this is moved: a group made
of VALUES blocks (one at least: without, the group is the triple's already), then one triple whose object is a variable, then FILTERs reading that variable alone, through
string functions and operators only (no EXISTS, no braces). Anything else is left as written. The braces are put
on the triple's line, so that an error's line stays the client's.

The engine still reads every name under the properties to test the FILTER (at 10,000 articles about 200,000: a
second or so). Where a REGEX of the FILTER is anchored at the name's start (INCEpTION's starts-with), the triple in
the moved group is given as inline data instead: the statements of those properties whose name starts so
(api/sparql/label_candidates.py, a table of every such statement of the build, read once a build), a superset of
those the FILTER keeps, so that the engine tests those few; when the table is not read yet (or the subject is no
variable, the properties not bound to IRIs, the statements too many, the query naming a GRAPH: the table holds the
union's), the group is only moved.
"""

from __future__ import annotations

from typing import Callable

from kg.api.sparql import known_restrictions
from kg.api.sparql.known_restrictions import Decide, Restriction
from kg.api.sparql.name_filters import NameTest, anchored_starts, bound_values, group, name_tests
from kg.store import sparql_lexer as lexer

MAX_TEXT = 20_000  # characters: a longer text (inline data) is not INCEpTION's search, and is not lexed again
# the words a moved FILTER may hold: SPARQL's string and term functions, whose value depends on their arguments only
PURE_FUNCTIONS = frozenset({
    "REGEX", "STR", "LCASE", "UCASE", "STRSTARTS", "STRENDS", "CONTAINS", "STRLEN", "LANG", "LANGMATCHES",
    "DATATYPE", "ISLITERAL", "ISIRI", "ISURI", "ISBLANK", "ISNUMERIC", "SUBSTR", "STRBEFORE", "STRAFTER",
    "REPLACE", "ENCODE_FOR_URI", "SAMETERM", "TRUE", "FALSE",
})
_TERMS = frozenset({"var", "iri", "pname"})


Statement = tuple[str, str, str]  # subject, property, object: SPARQL terms
Candidates = Callable[[frozenset[str], list[str], list[NameTest]], list[Statement] | None]


def placed(query: str, candidates: Candidates | None = None, decide: Decide | None = None) -> str:
    """`query` with each FILTER on a label moved into a group with the triple that binds the label (above); with
    `candidates` (api/sparql/label_candidates.py), the triple given as the statements whose name may start as an
    anchored REGEX of the FILTER asks, when it tells them; with `decide` too, the restrictions on their subjects in
    the groups joined with it decided before the engine runs (api/sparql/known_restrictions.py)."""
    if len(query) > MAX_TEXT or "FILTER" not in query.upper():
        return query
    try:
        tokens = lexer.tokens(query)
    except lexer.LexError:
        return query  # the endpoint has read it already; the engine says what is wrong
    moves = [move for move in (_movable(tokens, i) for i, t in enumerate(tokens) if t.text == "{") if move]
    in_graph = any(t.kind == "word" and t.text.upper() == "GRAPH" for t in tokens)  # the table is the union's
    given, settled = [], []
    for opening, _, _, triple in moves:
        found = _statements(tokens, triple, candidates) if candidates is not None and not in_graph else None
        if found is not None and decide is not None:
            found, holding = _restricted(tokens, opening, tokens[triple].text, found, decide)
            settled += holding
        given.append(found)
    query = known_restrictions.blanked(query, settled)  # spaces: the offsets stay
    for (_, start, end, triple), found in reversed(list(zip(moves, given))):
        kept = query[start:end] if found is None else _values(tokens, triple, found) + query[_after_triple(tokens, triple):end]
        query = f"{query[:start]}{{ {kept} }}{query[end:]}"
    return query


def _restricted(tokens: list[lexer.Token], opening: int, subject: str, found: list[Statement],
                decide: Decide) -> tuple[list[Statement], list[Restriction]]:
    """The statements whose subject the restrictions on `subject` in the groups joined with the group opened at
    tokens[opening] let through, and the restrictions that hold for all of them. A restriction in a group joined
    with this one holds for the rows of the join, whose subjects are those of these statements: one that refuses a
    subject refuses its rows, one that holds for every subject left is needed by no row."""
    found_restrictions = {r.start: r for i in _joined_siblings(tokens, opening)
                          for r in known_restrictions.restrictions(tokens, i + 1, subject)}
    if not found_restrictions:
        return found, []
    subjects = [s[1:-1] for s, _, _ in found]
    refused, holding = known_restrictions.decided(list(found_restrictions.values()), subjects, set(), decide)
    return [s for s in found if s[0][1:-1] not in refused], holding


def _joined_siblings(tokens: list[lexer.Token], opening: int) -> list[int]:
    """The openings of the plain groups joined with the one opened at tokens[opening] in their parent group (each
    after '{', '}' or '.', none before UNION), this one among them; none when this one is not such a group."""
    depth = tokens[opening].depth
    first, last = group(tokens, opening)
    siblings = [i for i in range(first, last + 1) if tokens[i].text == "{" and tokens[i].kind == "other"
                and tokens[i].depth == depth and _plain(tokens, i)]
    return siblings if opening in siblings and depth > 0 else []


def _plain(tokens: list[lexer.Token], opening: int) -> bool:
    """Whether the group opened at tokens[opening] is joined with the rest of its parent (not an OPTIONAL's, a
    UNION's, a MINUS's, a GRAPH's, a SERVICE's or a VALUES's)."""
    before = tokens[opening - 1] if opening > 0 else None
    close = _closing_brace(tokens, opening)
    after = tokens[close + 1] if close is not None and close + 1 < len(tokens) else None
    return before is not None and before.kind == "other" and before.text in ("{", "}", ".") and close is not None \
        and not (after is not None and after.kind == "word" and after.text.upper() == "UNION")


def _closing_brace(tokens: list[lexer.Token], opening: int) -> int | None:
    depth = tokens[opening].depth
    return next((i for i in range(opening + 1, len(tokens)) if tokens[i].text == "}" and tokens[i].depth == depth),
                None)


def _after_triple(tokens: list[lexer.Token], triple: int) -> int:
    """The offset after the triple at tokens[triple] and its '.'."""
    last = tokens[triple + 3] if triple + 3 < len(tokens) and tokens[triple + 3].text == "." else tokens[triple + 2]
    return last.start + len(last.text)


def _statements(tokens: list[lexer.Token], triple: int, candidates: Candidates) -> list[Statement] | None:
    """The statements `candidates` tells for the triple at tokens[triple]; None when it tells none."""
    subject, predicate, label = tokens[triple:triple + 3]
    if subject.kind != "var" or len({subject.text, predicate.text, label.text}) < 3:
        return None
    if predicate.kind == "iri":
        properties: frozenset[str] | None = frozenset({predicate.text[1:-1]})
    else:
        properties = bound_values(tokens, triple + 1, predicate.text) if predicate.kind == "var" else None
    if not properties:
        return None
    return candidates(properties, anchored_starts(tokens, triple + 1, label.text),
                      name_tests(tokens, triple + 1, label.text))


def _values(tokens: list[lexer.Token], triple: int, found: list[Statement]) -> str:
    """VALUES standing for the triple at tokens[triple]: these statements of it."""
    subject, predicate, label = tokens[triple:triple + 3]
    if predicate.kind == "iri":
        columns, rows = f"{subject.text} {label.text}", (f"({s} {o})" for s, _, o in found)
    else:
        columns, rows = f"{subject.text} {predicate.text} {label.text}", (f"({s} {p} {o})" for s, p, o in found)
    return f"VALUES ( {columns} ) {{ {' '.join(rows)} }} "


def _movable(tokens: list[lexer.Token], opening: int) -> tuple[int, int, int, int] | None:
    """(opening, start, end, triple): the start and end offsets of the triple and its FILTERs in the group opened at
    tokens[opening], and the index of the triple's subject, when the group is VALUES blocks, one triple and FILTERs
    reading the triple's object alone; else None."""
    depth = tokens[opening].depth + 1
    i, blocks = opening + 1, 0
    while i < len(tokens) and tokens[i].depth == depth and tokens[i].text.upper() == "VALUES":
        i, blocks = _after_values(tokens, i), blocks + 1
        if i is None:
            return None
    if not blocks or i + 3 > len(tokens) or not _is_triple(tokens[i:i + 3]):
        return None
    triple, start, label = i, tokens[i].start, tokens[i + 2].text
    i += 4 if i + 3 < len(tokens) and tokens[i + 3].text == "." else 3
    filters = 0
    while i < len(tokens) and tokens[i].depth == depth and tokens[i].text.upper() == "FILTER":
        i = _after_filter(tokens, i, label)
        if i is None:
            return None
        filters += 1
    closed = i < len(tokens) and tokens[i].text == "}" and tokens[i].depth == depth - 1
    return (opening, start, tokens[i - 1].start + len(tokens[i - 1].text), triple) if filters and closed else None


def _after_values(tokens: list[lexer.Token], at: int) -> int | None:
    """The index after the VALUES block at tokens[at] (its variables, then its braces)."""
    depth = tokens[at].depth
    i = at + 1
    while i < len(tokens) and tokens[i].depth == depth and tokens[i].text != "{":
        if tokens[i].kind != "var" and tokens[i].text not in "()":
            return None
        i += 1
    while i < len(tokens) and not (tokens[i].text == "}" and tokens[i].depth == depth):
        i += 1
    return i + 1 if i < len(tokens) else None


def _is_triple(three: list[lexer.Token]) -> bool:
    subject, predicate, obj = three
    return subject.kind in _TERMS and (predicate.kind in _TERMS or predicate.text == "a") and obj.kind == "var"


def _after_filter(tokens: list[lexer.Token], at: int, label: str) -> int | None:
    """The index after the FILTER at tokens[at] when its parenthesized expression reads `label` alone, through
    PURE_FUNCTIONS; else None."""
    depth, i, open_ = tokens[at].depth, at + 1, 0
    if i >= len(tokens) or tokens[i].text != "(":
        return None
    while i < len(tokens):
        token = tokens[i]
        if token.depth != depth or (token.kind == "var" and token.text != label):
            return None
        if token.kind in ("word", "run") and token.text.upper() not in PURE_FUNCTIONS:
            return None
        if token.kind in ("iri", "pname"):
            return None  # a function call by IRI: not known to depend on its arguments alone
        open_ += {"(": 1, ")": -1}.get(token.text, 0) if token.kind == "other" else 0
        i += 1
        if open_ == 0:
            return i
    return None
