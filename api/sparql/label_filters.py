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
"""

from __future__ import annotations

from kg.store import sparql_lexer as lexer

MAX_TEXT = 20_000  # characters: a longer text (inline data) is not INCEpTION's search, and is not lexed again
# the words a moved FILTER may hold: SPARQL's string and term functions, whose value depends on their arguments only
PURE_FUNCTIONS = frozenset({
    "REGEX", "STR", "LCASE", "UCASE", "STRSTARTS", "STRENDS", "CONTAINS", "STRLEN", "LANG", "LANGMATCHES",
    "DATATYPE", "ISLITERAL", "ISIRI", "ISURI", "ISBLANK", "ISNUMERIC", "SUBSTR", "STRBEFORE", "STRAFTER",
    "REPLACE", "ENCODE_FOR_URI", "SAMETERM", "TRUE", "FALSE",
})
_TERMS = frozenset({"var", "iri", "pname"})


def placed(query: str) -> str:
    """`query` with each FILTER on a label moved into a group with the triple that binds the label (above)."""
    if len(query) > MAX_TEXT or "FILTER" not in query.upper():
        return query
    try:
        tokens = lexer.tokens(query)
    except lexer.LexError:
        return query  # the endpoint has read it already; the engine says what is wrong
    moves = [span for span in (_movable(tokens, i) for i, t in enumerate(tokens) if t.text == "{") if span]
    for start, end in reversed(moves):
        query = f"{query[:start]}{{ {query[start:end]} }}{query[end:]}"
    return query


def _movable(tokens: list[lexer.Token], opening: int) -> tuple[int, int] | None:
    """(start, end) offsets of the triple and its FILTERs in the group opened at tokens[opening], when the
    group is VALUES blocks, one triple and FILTERs reading the triple's object alone; else None."""
    depth = tokens[opening].depth + 1
    i, blocks = opening + 1, 0
    while i < len(tokens) and tokens[i].depth == depth and tokens[i].text.upper() == "VALUES":
        i, blocks = _after_values(tokens, i), blocks + 1
        if i is None:
            return None
    if not blocks or i + 3 > len(tokens) or not _is_triple(tokens[i:i + 3]):
        return None
    start, label = tokens[i].start, tokens[i + 2].text
    i += 4 if i + 3 < len(tokens) and tokens[i + 3].text == "." else 3
    filters = 0
    while i < len(tokens) and tokens[i].depth == depth and tokens[i].text.upper() == "FILTER":
        i = _after_filter(tokens, i, label)
        if i is None:
            return None
        filters += 1
    closed = i < len(tokens) and tokens[i].text == "}" and tokens[i].depth == depth - 1
    return (start, tokens[i - 1].start + len(tokens[i - 1].text)) if filters and closed else None


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
