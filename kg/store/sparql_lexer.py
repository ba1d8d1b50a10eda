"""A small SPARQL lexer: enough to see what a query is before any engine runs it.

The endpoint must know, before execution, whether a request is a query or an
update, whether it would reach the network (SERVICE, LOAD) and which graphs
its dataset clause (FROM, FROM NAMED) names. Keywords hidden in strings, IRIs,
comments, variables, prefixed names or language tags are not keywords, so the
text is split into tokens first and only bare words are looked at.

The lexer is deliberately conservative: when in doubt a word counts as a
keyword, so a false alarm refuses a query but nothing slips through.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import islice
from typing import NamedTuple
from urllib.parse import urljoin

from kg.errors import LexError
from kg.formats.positions import line_column
from kg.settings import limit

# Every alternative is possessive or cannot fail after a long scan, so that
# lexing is linear in the text's length. A run of name characters that is not
# a prefixed name (no colon after it) is one `run` token, split into words
# by _RUN_PARTS: matching `word` and then trying `pname` again at each letter
# inside "a.a.a.a..." used to make an 80 KB query cost 23 s. String literals
# are scanned by _Strings (a quote is a `quote` token here), which can fail
# after a long scan and so remembers where it failed.
_NAME = r"[^\W\d][\w\-.\u00b7]*+"
# Whitespace and comments before a token are skipped in the same match; at the end of the text
# nothing follows them (no group matched).
_TOKEN = re.compile(
    rf"""
    (?:\s++|\#[^\n\r]*+)*+
    (?:
      (?P<iri><[^<>"{{}}|^`\\\x00-\x20]*+>)
    | (?P<quote>["'])
    | (?P<var>[?$][\w\u00b7\u0300-\u036f\u203f-\u2040]++)
    | (?P<langtag>@[A-Za-z]++(?:-[A-Za-z0-9]++)*+)
    | (?P<pname>(?:{_NAME})?:(?:[\w\-.:%\u00b7]|\\.)*+)
    | (?P<run>{_NAME})
    | (?P<number>\d[\w.]*+|\.\d\w*+)
    | (?P<other>.)
    )?
    """,
    re.VERBOSE | re.DOTALL,
)
# The bodies of the string forms each quote may open, tried in this order: a long
# string first, then a short one; each ends where its closing quote must be.
_STRING_BODIES = {
    '"': (('"""', re.compile(r'(?:[^"\\]|\\.|"(?!""))*+', re.DOTALL)),
          ('"', re.compile(r'(?:[^"\\\n\r]|\\.)*+', re.DOTALL))),
    "'": (("'''", re.compile(r"(?:[^'\\]|\\.|'(?!''))*+", re.DOTALL)),
          ("'", re.compile(r"(?:[^'\\\n\r]|\\.)*+", re.DOTALL))),
}
_RUN_PARTS = re.compile(r"(?P<word>[^\W\d]\w*+)|(?P<number>\d[\w.]*+|\.\d\w*+)|(?P<other>.)", re.DOTALL)
_OPENERS = frozenset("{([")
_CLOSERS = frozenset("})]")
_UNARY = frozenset("!+-")
MAX_DEPTH = limit("query_depth")
# Tokens a query may have. Lexing costs 2-3 µs a token in the request thread, before the time
# limit applies: the bound keeps the worst case near 0.15 s. A query of 1 MB of IRIs in VALUES
# has 24,000 tokens; 50,000 are reached only by text such as "a.a.a..." or "<a<a<a...".
MAX_TOKENS = limit("query_tokens")
# Characters of IRIs the BASE, PREFIX and FROM clauses may resolve to together (each resolution counts
# its base or namespace too); the 11 declarations put before every query (api/sparql/syntax.py) take ~400.
MAX_RESOLVED = limit("query_resolved")

UPDATE_KEYWORDS = frozenset(
    {"INSERT", "DELETE", "LOAD", "CLEAR", "CREATE", "DROP", "COPY", "MOVE", "ADD", "WITH"}
)
QUERY_FORMS = frozenset({"SELECT", "ASK", "CONSTRUCT", "DESCRIBE"})
FETCHING_KEYWORDS = frozenset({"SERVICE", "LOAD"})
_UNICODE_ESCAPE = re.compile(r"\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})")


class Token(NamedTuple):
    """One token (a tuple: hundreds of thousands are made for a large query)."""

    kind: str
    text: str
    depth: int  # nesting depth of { } at the token
    start: int = 0  # offset of its first character in the text


class TooManyTokens(LexError):
    """A query of more than MAX_TOKENS tokens (lexing stops there)."""


class TooDeep(LexError):
    """A query nested deeper than MAX_DEPTH, at `line`:`column` (1-based, in characters)."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(message)
        self.line = line
        self.column = column


@dataclass(frozen=True)
class QueryInfo:
    """What a request text is, as far as the endpoint's rules are concerned."""

    form: str | None  # SELECT, ASK, CONSTRUCT, DESCRIBE, or None when not a query
    update: bool = False  # the first keyword is an update operation
    fetching: tuple[str, ...] = ()  # SERVICE / LOAD keywords seen
    from_graphs: tuple[str, ...] = ()  # FROM <iri>, resolved
    from_named: tuple[str, ...] = ()  # FROM NAMED <iri>, resolved
    top_limit: int | None = None  # LIMIT of the outermost query, if any
    # a SELECT whose outermost query has no LIMIT, no trailing VALUES and no ORDER BY (nor
    # codepoint escapes): a LIMIT may be appended to its text, so that an engine stops early
    # (not after ORDER BY: the whole answer is sorted anyway, and Virtuoso refuses to sort a
    # LIMIT above its MaxSortedTopRows, 10,000 by default)
    open_ended: bool = False

    @property
    def has_dataset(self) -> bool:
        return bool(self.from_graphs or self.from_named)


class Lexed(NamedTuple):
    """The tokens of a text, and the characters the lexer's scans went over to find them
    (its work: linear in the text's length, which tests check)."""

    tokens: list[Token]
    scanned: int


def tokens(text: str, limit: int = MAX_TOKENS) -> list[Token]:
    """Split SPARQL text into tokens, dropping whitespace and comments (linear in len(text));
    raise TooManyTokens past `limit` tokens, without lexing the rest."""
    return lex(text, limit).tokens


def lex(text: str, limit: int = MAX_TOKENS) -> Lexed:
    """tokens(), with the lexer's work."""
    out: list[Token] = []
    depth = 0
    strings = _Strings(text)
    pos = 0
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        kind, pos = match.lastgroup, match.end()
        if kind is None:
            break
        start = match.start(kind)
        if kind == "quote":
            closed = strings.end(start)
            kind, pos = ("other", pos) if closed is None else ("string", closed)
        if len(out) >= limit:
            raise TooManyTokens(f"the query has more than {limit:,} tokens (names, IRIs, literals, "
                                "punctuation): refused before any engine runs; shorten it")
        value = text[start:pos]
        if kind == "run":
            parts = islice(_RUN_PARTS.finditer(value), limit - len(out) + 1)
            out.extend(Token(part.lastgroup or "other", part.group(), depth, start + part.start()) for part in parts)
            continue
        if value == "}":
            depth = max(0, depth - 1)
        out.append(Token(kind, value, depth, start))
        if value == "{":
            depth += 1
    return Lexed(out, pos + strings.scanned)


class _Strings:
    """Finds the string literals of one text. A scan that finds no closing quote stopped at
    some place; a later opener of the same form before that place can only be one of the
    quotes that scan read as escaped (\\"), after which it goes on exactly as the scan did and
    fails at the same place. So it is not scanned again: scanning from every quote of a run
    of \\" after an unclosed one made lexing quadratic (13.65 s for 50,000)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.failed: dict[str, int] = {}  # opener -> where its last failed scan stopped
        self.scanned = 0  # characters the scans went over

    def end(self, start: int) -> int | None:
        """The end of the string literal that starts at `start`, None when no form closes."""
        text = self.text
        for quote, body in _STRING_BODIES[text[start]]:
            if not text.startswith(quote, start) or self.failed.get(quote, -1) > start:
                continue
            stop = body.match(text, start + len(quote)).end()
            self.scanned += stop - start
            if text.startswith(quote, stop):
                return stop + len(quote)
            self.failed[quote] = stop
        return None


def check_depth(text: str, toks: list[Token], limit: int = MAX_DEPTH) -> None:
    """Raise TooDeep at the first token nested deeper than `limit`: groups and
    brackets ({ ( [) plus a run of unary operators (! + -) each count one level.
    The engine's parser recurses once per level and a deep enough query
    overflows its stack, which kills the process."""
    depth = 0
    run = 0
    for tok in toks:
        value = tok.text
        if tok.kind == "other" and value in _UNARY:
            run += 1
        else:
            run = 0
        if tok.kind == "other" and value in _OPENERS:
            depth += 1
        elif tok.kind == "other" and value in _CLOSERS:
            depth = max(0, depth - 1)
        if depth + run > limit:
            line, column = line_column(text, tok.start)
            raise TooDeep(f"the query nests deeper than {limit} levels at {line}:{column} "
                          "(groups, brackets and unary operators): flatten it", line, column)


def unescape(text: str) -> str:
    """Apply SPARQL's \\u / \\U codepoint escapes to the whole text (some engines do)."""

    def repl(m: re.Match) -> str:
        code = int(m.group(1) or m.group(2), 16)
        return chr(code) if code <= 0x10FFFF else m.group()

    return _UNICODE_ESCAPE.sub(repl, text)


@lru_cache(maxsize=1024)
def analyze(text: str) -> QueryInfo:
    """Classify `text` (cached: a query sent again is not lexed again). Looks
    at the raw text and, when it has codepoint escapes, at its unescaped form
    too, and reports the union of both, so no escape trick hides a keyword
    from an engine that unescapes first.

    Raises LexError for a dataset clause the lexer cannot read with certainty,
    TooDeep for a query nested deeper than MAX_DEPTH.
    """
    toks = tokens(text)
    check_depth(text, toks)
    info = _analyze_tokens(toks)
    if not _UNICODE_ESCAPE.search(text):
        return info
    other = _analyze_tokens(tokens(unescape(text)))
    return replace(
        info,
        update=info.update or other.update,
        fetching=tuple(sorted(set(info.fetching) | set(other.fetching))),
        from_graphs=_union(info.from_graphs, other.from_graphs),
        from_named=_union(info.from_named, other.from_named),
        open_ended=False)


def _union(first: tuple[str, ...], second: tuple[str, ...]) -> tuple[str, ...]:
    """`first`, then the graphs of `second` it does not name."""
    seen = set(first)
    return first + tuple(g for g in second if g not in seen)


def _analyze_tokens(toks: list[Token]) -> QueryInfo:
    # Engines accept keywords glued to what follows ("SERVICEex:g", "FROM<x>"),
    # so a word or prefixed name that merely starts with a keyword counts.
    names, start = _prologue(toks)
    heads = [(i, toks[i].text.upper()) for i in range(start, len(toks)) if toks[i].kind in ("word", "pname")]
    first = heads[0][1] if heads and toks[heads[0][0]].kind == "word" and heads[0][0] == start else None
    graphs: list[str] = []
    named: list[str] = []
    for i, word in heads:
        # Dataset clauses only exist in the outermost query (depth 0).
        if word.startswith("FROM") and toks[i].depth == 0:
            is_named, iri = _dataset_clause(toks, i, names)
            (named if is_named else graphs).append(iri)
    return QueryInfo(
        form=first if first in QUERY_FORMS else None,
        update=first is not None and first.startswith(tuple(UPDATE_KEYWORDS)),
        fetching=tuple(sorted({k for _, w in heads for k in FETCHING_KEYWORDS if w.startswith(k)})),
        from_graphs=tuple(graphs), from_named=tuple(named), top_limit=_top_limit(toks),
        open_ended=first == "SELECT" and not any(toks[i].depth == 0 and w.startswith(("LIMIT", "VALUES", "ORDER"))
                                                 for i, w in heads))


def _dataset_clause(toks: list[Token], i: int, names: _Names) -> tuple[bool, str]:
    """Read `FROM [NAMED] iri` starting at token i; refuse any other spelling."""
    if toks[i].kind != "word" or toks[i].text.upper() != "FROM":
        raise LexError(f"cannot read the dataset clause at '{toks[i].text}': write FROM <iri> or FROM NAMED <iri>")
    named = i + 1 < len(toks) and toks[i + 1].kind == "word" and toks[i + 1].text.upper() == "NAMED"
    j = i + 2 if named else i + 1
    iri = names.resolve(toks[j]) if j < len(toks) else None
    if iri is None:
        raise LexError("FROM must be followed by an IRI or a prefixed name")
    return named, iri


class _Names:
    """The BASE and PREFIXes in force, resolving IRIs against them within MAX_RESOLVED characters:
    a resolution costs the length of the base or namespace and of the IRI, so a long base used by
    thousands of BASE, PREFIX or FROM clauses cost time and memory quadratic in the query's length
    (a 100 KB query named 400 MB of graphs)."""

    def __init__(self) -> None:
        self.base: str | None = None
        self.prefixes: dict[str, str] = {}
        self.left = MAX_RESOLVED

    def join(self, iri: str) -> str:
        """`iri` resolved against the base."""
        self._spend(len(self.base or "") + len(iri))
        return urljoin(self.base, iri) if self.base else iri

    def resolve(self, tok: Token) -> str | None:
        """The IRI an IRI or prefixed-name token stands for; None for another token."""
        if tok.kind == "iri":
            return self.join(unescape(tok.text[1:-1]))
        if tok.kind == "pname":
            prefix, _, local = tok.text.partition(":")
            if prefix not in self.prefixes:
                return tok.text  # unknown prefix: the engine will reject the query
            self._spend(len(self.prefixes[prefix]) + len(local))
            return self.prefixes[prefix] + re.sub(r"\\(.)", r"\1", local)
        return None

    def _spend(self, characters: int) -> None:
        self.left -= characters
        if self.left < 0:
            raise LexError(f"the query's BASE, PREFIX and FROM clauses resolve to more than {MAX_RESOLVED:,} "
                           "characters of IRIs: refused before any engine runs; shorten them")


def _prologue(toks: list[Token]) -> tuple[_Names, int]:
    """BASE and PREFIX declarations, and the index of the first token after them."""
    names = _Names()
    i = 0
    while i < len(toks):
        word = toks[i].text.upper() if toks[i].kind == "word" else ""
        if word == "BASE" and i + 1 < len(toks) and toks[i + 1].kind == "iri":
            names.base = names.join(toks[i + 1].text[1:-1])
            i += 2
        elif word == "PREFIX" and i + 2 < len(toks) and toks[i + 2].kind == "iri":
            names.prefixes[toks[i + 1].text.rstrip(":")] = names.join(toks[i + 2].text[1:-1])
            i += 3
        else:
            break
    return names, i


def _top_limit(toks: list[Token]) -> int | None:
    """The LIMIT of the outermost query (depth 0), when it is a plain integer."""
    for i, tok in enumerate(toks):
        if tok.depth == 0 and tok.kind == "word" and tok.text.upper() == "LIMIT":
            following = toks[i + 1].text if i + 1 < len(toks) else ""
            if following and toks[i + 1].kind == "number" and following.isascii() and following.isdigit():
                # bounded before conversion: Python refuses to convert more than 4,300 digits
                return int(following) if len(following) <= 18 else 10**18
    return None
