"""The endpoint's predefined prefixes, and syntax errors a reader can act on.

Every query sent to /sparql may use the prefixes of kg.model.iris.PREFIXES without
declaring them (as Wikidata's endpoint does), and IRIs relative to the base
IRI: they are declared on one line put before the query, and a PREFIX of the query's own, coming later,
overrides them. The engine then reports positions one line too far; `explain`
maps them back and turns its grammar dump (`error at 1:37: expected one of
Prefix not found, ['%'], ...`) into line, column, the offending line with a
caret under the place, and a hint.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from kg.model import iris
from kg.store import sparql_lexer as lexer

_POSITION = re.compile(r"error at (\d+):(\d+): ?(.*)", re.DOTALL)
_QUOTED = re.compile(r'"([^"]+)"|(?<![\[\w\'])([A-Z][A-Za-z ]+?)(?=,|$)')
MAX_EXPECTED = 8


def declarations() -> str:
    """The base IRI and the predefined prefixes (of the base in force) on one line, put before every
    query. The base resolves a query's relative IRIs (`<id/person/juan-guaido>`), as the protocol's
    tests expect of an endpoint; a BASE of the query's own, coming later, wins."""
    return f"BASE <{iris.BASE}> " + iris.prologue(one_line=True)


def with_prefixes(query: str) -> str:
    """`query` with the predefined prefixes declared before it (its own ones win)."""
    return declarations() + query


@dataclass(frozen=True)
class SyntaxProblem:
    """A syntax error located in the text the client sent."""

    line: int | None
    column: int | None
    message: str
    excerpt: str | None
    hint: str | None

    @property
    def detail(self) -> str:
        where = f" at line {self.line}, column {self.column}" if self.line else ""
        parts = [f"SPARQL syntax error{where}: {self.message}"]
        if self.excerpt:
            parts.append(self.excerpt)
        if self.hint:
            parts.append(self.hint)
        return "\n".join(parts)


def explain(engine_message: str, query: str, shifted: bool = True) -> SyntaxProblem:
    """A readable account of the engine's error about `query` (as the client sent it;
    `shifted`: the engine saw it after the one line of declarations())."""
    match = _POSITION.search(engine_message)
    if not match:
        return SyntaxProblem(None, None, " ".join(engine_message.split()), None, None)
    line, column, rest = int(match.group(1)) - (1 if shifted else 0), int(match.group(2)), match.group(3)
    if line < 1:
        line, column = 1, 1
    lines = query.splitlines() or [""]
    text = lines[line - 1] if line <= len(lines) else ""
    if "Prefix not found" in rest:
        unknown = _unknown_prefix(text, column, query)
        if unknown is not None:  # point at the start of the prefixed name, not past its end
            column = text.rfind(unknown + ":", 0, column) + 1 or column
        name = f"'{unknown}:'" if unknown is not None else "a prefix"
        return SyntaxProblem(line, column, f"{name} is not declared", _excerpt(line, column, text),
                             _prefix_hint(unknown))
    return SyntaxProblem(line, column, _expected(rest), _excerpt(line, column, text), None)


def _excerpt(line: int, column: int, text: str) -> str:
    """The line, numbered, and a caret under `column`."""
    return f"{line:>4} | {text}\n     | {' ' * max(0, column - 1)}^"


def _expected(rest: str) -> str:
    """'expected one of ",", ".", [_]' -> 'expected one of , .' (character classes dropped)."""
    rest = " ".join(rest.split())
    if not rest.startswith("expected"):
        return rest
    names = [q or w for q, w in _QUOTED.findall(rest.split("expected", 1)[1])]
    names = [n.strip() for n in names if n.strip() and n.strip() != "one of"]
    if not names:
        return "unexpected text here"
    shown = ", ".join(f"'{n}'" for n in names[:MAX_EXPECTED]) + (", ..." if len(names) > MAX_EXPECTED else "")
    return f"expected {shown}" if len(names) == 1 else f"expected one of {shown}"


def _unknown_prefix(text: str, column: int, query: str) -> str | None:
    """The prefix of the prefixed name that ends nearest before `column` on the line,
    if the query does not declare it."""
    declared = set(iris.PREFIXES) | _declared(query)
    best: str | None = None
    for token in lexer.tokens(text[:column]):
        if token.kind == "pname":
            prefix = token.text.partition(":")[0]
            if prefix not in declared:
                best = prefix
    return best


def _declared(query: str) -> set[str]:
    toks = lexer.tokens(query)
    return {toks[i + 1].text.partition(":")[0] for i in range(len(toks) - 1)
            if toks[i].kind == "word" and toks[i].text.upper() == "PREFIX" and toks[i + 1].kind == "pname"}


def _prefix_hint(unknown: str | None) -> str:
    known = ", ".join(f"{p}:" for p in iris.PREFIXES)
    close = difflib.get_close_matches(unknown, list(iris.PREFIXES), n=1) if unknown else []
    guess = f"did you mean {close[0]}:? " if close else ""
    return f"hint: {guess}declare it with PREFIX {unknown or 'name'}: <namespace IRI>, or use a predefined one: {known}"
