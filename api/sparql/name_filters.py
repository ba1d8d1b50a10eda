"""The FILTERs on a text:query pattern's matched name that its answer may apply before the engine runs.

INCEpTION puts beside every full-text pattern a FILTER on the literal it matched, a REGEX built from the
user's text (`REGEX( STR( ?m ), "^guai.*", "i" )`; for words, one REGEX a word joined by `&&`). A FILTER
holds for its whole group, and when it reads nothing but the pattern's literal, dropping the answer's rows
it refuses changes nothing the query returns (the rows are dropped after the pattern's limit, as Jena's
answer would be filtered after its own); the engine then joins the few rows that can be kept, not every
name holding the words (at 10,000 articles, a prefix of four letters names thousands of entities).

Only what is read for certain is used: FILTERs at the pattern's own depth in its own group, made of REGEX
calls over the literal (or STR of it) joined by `&&`, each pattern a plain text with `.` for any
character, `\\s+` for spaces, `^` and `$` at its ends and `.*` at its end, flags "" or "i". Anything else
keeps every row. The FILTER stays in the query: the engine still decides; a row is dropped only when
every reading of it (as written, case-folded) fails, so that the engine's regular expressions, which
may fold a character that Python's do not, never lose a row here.
"""

from __future__ import annotations

import re
from typing import Callable

from kg.store import sparql_lexer as lexer

NameTest = Callable[[str], bool]
_PLAIN = re.compile(r"\^?(?:[^\\.*+?()\[\]{}|^$]|\.|\\s\+)*(?:\.\*)?\$?")  # the regular expressions read


def name_tests(tokens: list[lexer.Token], at: int, literal: str | None) -> list[NameTest]:
    """The tests of the FILTERs in the group of the pattern whose predicate is tokens[at] that read only its
    `literal` variable (None: the pattern binds no literal, and nothing is tested)."""
    if literal is None:
        return []
    depth = tokens[at].depth
    first, last = group(tokens, at)
    found = []
    for i in range(first, last + 1):
        if tokens[i].kind == "word" and tokens[i].text.upper() == "FILTER" and tokens[i].depth == depth:
            test = _filter_test(tokens, i + 1, last, literal)
            if test is not None:
                found.append(test)
    return found


def bound_values(tokens: list[lexer.Token], at: int, variable: str) -> frozenset[str] | None:
    """The IRIs a VALUES of `variable` alone, in the group of the pattern whose predicate is tokens[at], binds
    it to (INCEpTION's `VALUES ( ?pMatch ) { (rdfs:label) (skos:altLabel) }`): a join the answer may make
    first, keeping the names under those properties only. None: no such VALUES (or another form)."""
    depth = tokens[at].depth
    first, last = group(tokens, at)
    for i in range(first, last + 1):
        if tokens[i].kind == "word" and tokens[i].text.upper() == "VALUES" and tokens[i].depth == depth:
            found = _values_of(tokens[i + 1:last + 1], variable)
            if found is not None:
                return found
    return None


def _values_of(after: list[lexer.Token], variable: str) -> frozenset[str] | None:
    texts = [t.text for t in after]
    if texts[:1] == [variable]:
        body = 1
    elif texts[:3] == ["(", variable, ")"]:
        body = 3
    else:
        return None
    if texts[body:body + 1] != ["{"] or "}" not in texts[body:]:
        return None
    cells = [t for t in after[body + 1:texts.index("}", body)] if not (t.kind == "other" and t.text in "()")]
    if not cells or any(t.kind != "iri" for t in cells):
        return None
    return frozenset(t.text[1:-1] for t in cells)


def group(tokens: list[lexer.Token], at: int) -> tuple[int, int]:
    """The first and last tokens of the group holding tokens[at] (its braces left out)."""
    depth = tokens[at].depth
    first = at
    while first > 0 and tokens[first - 1].depth >= depth:
        first -= 1
    last = at
    while last + 1 < len(tokens) and tokens[last + 1].depth >= depth:
        last += 1
    return first, last


def _filter_test(tokens: list[lexer.Token], start: int, last: int, literal: str) -> NameTest | None:
    """The test of the FILTER whose expression starts at tokens[start], when it is a conjunction of REGEX
    calls over `literal`; None otherwise."""
    end = _closing(tokens, start, last)
    if end is None:
        return None
    expression = [t for t in tokens[start:end + 1] if not (t.kind == "other" and t.text in ("(", ")"))]
    calls: list[NameTest] = []
    i = 0
    while i < len(expression):
        if expression[i].text == "&" and i + 1 < len(expression) and expression[i + 1].text == "&" and calls:
            i += 2
            continue
        read = _regex_call(expression, i, literal)
        if read is None:
            return None
        test, i = read
        calls.append(test)
    return (lambda name: all(test(name) for test in calls)) if calls else None


def _closing(tokens: list[lexer.Token], start: int, last: int) -> int | None:
    """The index of the parenthesis closing the one at tokens[start]."""
    if start > last or tokens[start].text != "(":
        return None
    open_ = 0
    for i in range(start, last + 1):
        open_ += {"(": 1, ")": -1}.get(tokens[i].text, 0) if tokens[i].kind == "other" else 0
        if open_ == 0:
            return i
    return None


def _regex_call(expression: list[lexer.Token], i: int, literal: str) -> tuple[NameTest, int] | None:
    """REGEX [STR] literal , "pattern" [, "flags"] (parentheses taken out) at expression[i]: its test and
    the index after it."""
    texts = [t.text for t in expression[i:i + 7]]
    if not texts or texts[0].upper() != "REGEX":
        return None
    at = 2 if len(texts) > 1 and texts[1].upper() == "STR" else 1
    if texts[at:at + 2] != [literal, ","] or len(texts) <= at + 2 or expression[i + at + 2].kind != "string":
        return None
    pattern, after = _unquoted(texts[at + 2]), i + at + 3
    flags = ""
    if after + 1 < len(expression) and expression[after].text == "," and expression[after + 1].kind == "string":
        flags, after = _unquoted(expression[after + 1].text), after + 2
    if flags not in ("", "i") or not _PLAIN.fullmatch(pattern):
        return None
    return _test(pattern, flags == "i"), after


def _unquoted(literal: str) -> str:
    body = literal[3:-3] if literal[:3] in ('"""', "'''") else literal[1:-1]
    return re.sub(r"\\(.)", r"\1", body)


def _test(pattern: str, caseless: bool) -> NameTest:
    """Whether a name may match `pattern`: as written, or (caseless) folded either way."""
    loose = re.DOTALL  # Python's . and \s hold more than XPath's: a looser test, never a stricter one
    exact = re.compile(pattern, loose | (re.IGNORECASE if caseless else 0))
    folded = re.compile(pattern.casefold(), loose | re.IGNORECASE)
    if not caseless:
        return lambda name: exact.search(name) is not None
    return lambda name: exact.search(name) is not None or folded.search(name.casefold()) is not None
