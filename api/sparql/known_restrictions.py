"""The FILTER [NOT] EXISTS restrictions beside a text:query pattern that its answer may decide before the engine runs.

INCEpTION keeps a search to instances with four FILTERs on the matched item (SPARQLQueryBuilder.limitToInstances):

    FILTER EXISTS { ?subj rdf:type [] . }  FILTER NOT EXISTS { ?subj rdf:type owl:Class . }
    FILTER NOT EXISTS { [] rdfs:subClassOf ?subj . }  FILTER NOT EXISTS { ?subj rdfs:subClassOf [] . }

The engine tests each for every row of the answer, one lookup apiece: at 2,000 rows, half of the query's time. The
answer knows them already: an entity the search index summarizes has a type in kgg:entities, and the subjects of a
triple such as `?s rdfs:subClassOf []` are few and read once per build (api/sparql/endpoint.py). A row a restriction
refuses is dropped from the answer (the engine would drop it); a restriction that holds for every row left is blanked
out of the text (spaces, so that positions stay), and the engine never tests it.

Only this form is read: FILTER [NOT] EXISTS around one triple pattern made of the pattern's subject variable, IRIs
(`a` for rdf:type) and `[]`, in the pattern's own group, or in the group that joins it (the pattern's group after
`{`, `}` or `.` and before anything but UNION: not inside OPTIONAL, MINUS, GRAPH, EXISTS, a subquery or a UNION,
where the outer FILTER would see rows without the variable bound). Any other FILTER stays, and the engine decides.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Protocol

from kg.api.sparql.name_filters import group
from kg.model.iris import FIXED_PREFIXES
from kg.store import sparql_lexer as lexer

VAR, ANY = "?", "[]"  # the pattern's subject variable, and a blank node, as terms of a triple
RDF_TYPE = f"<{FIXED_PREFIXES['rdf']}type>"


@dataclass(frozen=True)
class Restriction:
    """One FILTER [NOT] EXISTS { triple }: where it is in the text and what it asks of the subject."""

    start: int
    end: int
    negated: bool
    triple: tuple[str, str, str]  # VAR, ANY or an IRI in <>

    def pattern(self, variable: str = "?s") -> str:
        """The triple as SPARQL, the subject variable named `variable`."""
        return " ".join(variable if t == VAR else t for t in self.triple) + " ."


# the subjects for which a triple holds, of those asked; None: not known
Decide = Callable[[Restriction, list[str]], "set[str] | None"]


def restrictions(tokens: list[lexer.Token], at: int, subject: str) -> list[Restriction]:
    """The restrictions on `subject` of the pattern whose predicate is tokens[at]: in its group and the one joining it
    (none inside GRAPH, where EXISTS reads the active graph, not the union the restrictions are told from)."""
    if _inside_graph(tokens, at):
        return []
    found = []
    for first, last in _groups(tokens, at):
        depth = tokens[first].depth
        for i in range(first, last + 1):
            if tokens[i].kind == "word" and tokens[i].text.upper() == "FILTER" and tokens[i].depth == depth:
                read = _restriction(tokens, i, subject)
                if read is not None:
                    found.append(read)
    return found


def _inside_graph(tokens: list[lexer.Token], at: int) -> bool:
    """Whether a group enclosing tokens[at] is a GRAPH's (GRAPH, a variable or an IRI, then its brace)."""
    depth = tokens[at].depth
    for i in range(at, 1, -1):
        if tokens[i].text == "{" and tokens[i].kind == "other" and tokens[i].depth < depth:
            depth = tokens[i].depth
            if tokens[i - 2].kind == "word" and tokens[i - 2].text.upper() == "GRAPH":
                return True
    return False


def _groups(tokens: list[lexer.Token], at: int) -> list[tuple[int, int]]:
    own = group(tokens, at)
    opening, closing = own[0] - 1, own[1] + 1
    if opening < 1 or closing >= len(tokens) or tokens[opening].text != "{":
        return [own]
    before = tokens[opening - 1]
    after = tokens[closing + 1] if closing + 1 < len(tokens) else None
    joined = before.kind == "other" and before.text in ("{", "}", ".") and tokens[opening].depth > 0 \
        and not (after is not None and after.kind == "word" and after.text.upper() == "UNION")
    return [own, group(tokens, opening)] if joined else [own]


def _restriction(tokens: list[lexer.Token], at: int, subject: str) -> Restriction | None:
    """FILTER [NOT] EXISTS { s p o [.] } at tokens[at], of `subject` and constants only."""
    i = at + 1
    negated = i < len(tokens) and tokens[i].kind == "word" and tokens[i].text.upper() == "NOT"
    i += 1 if negated else 0
    if i + 1 >= len(tokens) or tokens[i].text.upper() != "EXISTS" or tokens[i + 1].text != "{":
        return None
    depth, i = tokens[i + 1].depth, i + 2
    terms: list[str] = []
    while i < len(tokens) and not (tokens[i].text == "}" and tokens[i].depth == depth):
        term, i = _term(tokens, i, subject)
        if term is None:
            return None
        terms.append(term)
    if terms[-1:] == ["."]:
        terms.pop()
    if i >= len(tokens) or len(terms) != 3 or "." in terms or VAR not in terms or terms[1] in (VAR, ANY):
        return None
    return Restriction(tokens[at].start, tokens[i].start + 1, negated, (terms[0], terms[1], terms[2]))


def _term(tokens: list[lexer.Token], i: int, subject: str) -> tuple[str | None, int]:
    token = tokens[i]
    if token.kind == "var":
        return (VAR if token.text[1:] == subject[1:] else None), i + 1
    if token.kind == "iri":
        return token.text, i + 1
    if token.kind == "word" and token.text == "a":
        return RDF_TYPE, i + 1
    if token.text == "[" and i + 1 < len(tokens) and tokens[i + 1].text == "]":
        return ANY, i + 2
    if token.text == ".":
        return ".", i + 1
    return None, i + 1


def decided(found: list[Restriction], subjects: Iterable[str], typed: set[str],
            decide: Decide) -> tuple[set[str], list[Restriction]]:
    """(the subjects some restriction refuses, the restrictions that hold for every other subject); `typed`: subjects
    known to have a type (entities the search index summarizes), which `decide` is not asked about for `?s rdf:type []`."""
    asked = sorted(set(subjects))
    if not asked:
        return set(), list(found)  # no row: every restriction holds for all of them
    refused: set[str] = set()
    settled = []
    for restriction in found:
        if restriction.triple == (VAR, RDF_TYPE, ANY):
            rest = [s for s in asked if s not in typed]
            found_rest = decide(restriction, rest) if rest else set()
            holding = None if found_rest is None else {s for s in asked if s in typed} | found_rest
        else:
            holding = decide(restriction, asked)
        if holding is None:
            continue
        refused |= (holding if restriction.negated else set(asked) - holding)
        settled.append(restriction)
    return refused, settled


class Span(Protocol):
    """A piece of the query's text (a restriction, a lookup: api/sparql/record_lookups.py)."""

    @property
    def start(self) -> int: ...

    @property
    def end(self) -> int: ...


def blanked(query: str, settled: Iterable[Span]) -> str:
    """`query` with these pieces (restrictions decided, lookups bound) replaced by spaces (line breaks kept)."""
    for restriction in sorted(set(settled), key=lambda r: -r.start):
        span = query[restriction.start:restriction.end]
        query = query[:restriction.start] + "".join(c if c in "\r\n" else " " for c in span) + query[restriction.end:]
    return query
