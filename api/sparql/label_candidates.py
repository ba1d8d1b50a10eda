"""The names that may start with a text: what lets INCEpTION's starts-with search without a full-text index
(api/sparql/label_filters.py) give the engine a few names instead of every name of the build to test.

The table of a name property (rdfs:label, skos:prefLabel, skos:altLabel, skos:hiddenLabel): every statement of the
property in the union of the graphs (as often as the union holds it: once a graph), its object as a SPARQL term and
its text (STR) case-folded (str.casefold), sorted; read once a build in the background (api/build_answers.
cached_if_ready: the engine reads the names until then), and not kept when a property has more than MAX_NAMES
statements, or a blank node has a name (inline data cannot name it; a blank object has no text and no REGEX holds
for it, so it is left out). About 80 MB at 10,000 articles (190,000 rdfs:label statements).

Why the candidates hold every thing the engine keeps: with the "i" flag, the engine's REGEX compares characters under
Unicode's simple case folding, one character for one, and two characters equal under it have the same full case
folding (str.casefold); so a name that a REGEX anchored at its start (`^guai.*`) holds, folded, starts with the
folded plain text the pattern starts with (without "i", the more so). Each candidate's name is then tested with the
FILTERs' looser tests (api/sparql/name_filters.py), and the engine still applies the FILTER to the rows it joins.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from typing import Callable

from kg.api.sparql.name_filters import NameTest
from kg.model.iris import FIXED_PREFIXES
from kg.model.nquads import literal

SKOS, RDFS = FIXED_PREFIXES["skos"], FIXED_PREFIXES["rdfs"]
NAME_PROPERTIES = frozenset({RDFS + "label", SKOS + "prefLabel", SKOS + "altLabel", SKOS + "hiddenLabel"})
MAX_NAMES = 2_000_000  # names of a property kept (10,000 articles: 190,000 rdfs:label); more: the engine's way
MAX_CANDIDATES = 5_000  # statements put inline for one search; more: the engine reads the names itself

Statement = tuple[str, str, str]  # thing, property, object: SPARQL terms


@dataclass(frozen=True)
class Names:
    """The statements of one property: their objects' folded texts sorted, with each one's thing, text and term."""

    prop: str
    folded: list[str]
    things: list[str]
    texts: list[str]
    terms: list[str]

    def starting_with(self, start: str) -> list[tuple[int, str]]:
        """(position, text) of the statements whose object's folded text starts with `start` folded."""
        key = start.casefold()
        found, i = [], bisect_left(self.folded, key)
        while i < len(self.folded) and self.folded[i].startswith(key):
            found.append((i, self.texts[i]))
            i += 1
        return found

    def statement(self, position: int) -> Statement:
        return f"<{self.things[position]}>", f"<{self.prop}>", self.terms[position]


def names_query(prop: str) -> str:
    """The statements of `prop` with their objects' text (of an IRI too: STR reads it), language and datatype."""
    return (f"SELECT ?s ?o (STR(?o) AS ?text) (LANG(?o) AS ?lang) (DATATYPE(?o) AS ?datatype) (isIRI(?o) AS ?iri) "
            f"WHERE {{ ?s <{prop}> ?o FILTER (!isBlank(?o)) }} LIMIT {MAX_NAMES + 1}")


def blank_named_query(prop: str) -> str:
    return f"SELECT ?s WHERE {{ ?s <{prop}> ?o FILTER (isBlank(?s)) }} LIMIT 1"


def table(prop: str, rows: list[dict[str, str]], blank_named: bool) -> Names | None:
    """The table of a property from names_query's rows; None when too many, or a blank node is named."""
    if blank_named or len(rows) > MAX_NAMES:
        return None
    ordered = sorted((row["text"].casefold(), row["s"], row["text"], _term(row)) for row in rows)
    return Names(prop, *(list(column) for column in zip(*ordered))) if ordered else Names(prop, [], [], [], [])


def _term(row: dict[str, str]) -> str:
    """The object of a names_query row as SPARQL text (N-Triples' escapes are SPARQL's too)."""
    if row.get("iri") == "true":
        return f"<{row['o']}>"
    return literal(row["text"], row.get("datatype"), row.get("lang"))


def candidates(tables: Callable[[str], Names | None], properties: frozenset[str], starts: list[str],
               tests: list[NameTest]) -> list[Statement] | None:
    """The statements of `properties` whose object's text starts with the longest of `starts` (folded) and that
    every test may hold for; None when a property is not one of NAME_PROPERTIES or its table is not read, when there
    is no start to look for, or past MAX_CANDIDATES."""
    if not starts or not properties or not properties <= NAME_PROPERTIES:
        return None
    start = max(starts, key=len)
    found: list[Statement] = []
    for prop in sorted(properties):
        names = tables(prop)
        if names is None:
            return None
        found += [names.statement(i) for i, text in names.starting_with(start) if all(test(text) for test in tests)]
        if len(found) > MAX_CANDIDATES:
            return None
    return found
