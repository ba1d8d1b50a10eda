"""The OPTIONAL lookups beside a text:query pattern that its answer may bind before the engine runs.

INCEpTION fetches each candidate's label, description and deprecation after a search with one OPTIONAL apiece
(SPARQLQueryBuilder.retrieveLabel / retrieveDescription / retrieveDeprecation):

    OPTIONAL { { ?subj rdfs:label ?l . } } OPTIONAL { { ?subj rdfs:comment ?dc . } }
    OPTIONAL { { ?subj owl:deprecated ?dp . } }

The engine evaluates them one row at a time on the store: at 2,000 candidates, most of a search's time. When the
endpoint knows every value of those predicates for every subject of the answer (`Known`: the search index holds each
record's rdfs:label and rdfs:comment in kgg:entities; what other graphs add to them, such as the words in which a
document names a post, is read once a build in the background; the few subjects of owl:deprecated too), the values become columns of the answer's inline data, one row per
combination and UNDEF for none, as the OPTIONAL's left join would give, and the OPTIONAL is blanked out.

Only this form is read: `OPTIONAL { ?subject <IRI> ?variable }`, its triple alone in one or two pairs of braces, with
the pattern's subject variable, a predicate written as an IRI, and a variable the query names nowhere else inside its
WHERE clause (its projection and ORDER BY may name it), in a SELECT DISTINCT of variables without grouping, whose
answer is a set: the values of a lookup are then the set of those of every graph. It must follow the pattern in a group that joins
the pattern's own: every group from the pattern's up to the WHERE clause's opens after `{`, `}` or `.` and is not one
side of a UNION (so not inside OPTIONAL, MINUS, GRAPH, EXISTS, SERVICE or a subquery), so that every row it joins
has the subject bound from the inline data. Anything else stays, and the engine decides.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import Callable

from kg.api.sparql.name_filters import group
from kg.model import iris
from kg.model.iris import FIXED_PREFIXES
from kg.store import sparql_lexer as lexer

UNDEF = "UNDEF"
_RDFS, _XSD = FIXED_PREFIXES["rdfs"], FIXED_PREFIXES["xsd"]
_NAMES = f"VALUES ?p {{ <{_RDFS}label> <{_RDFS}comment> }}"
XSD_STRING = _XSD + "string"
# a name or description in kgg:entities that is not a plain string: any answer, and the search index's values (plain
# strings) are not the engine's
NOT_PLAIN = f"""SELECT ?s WHERE {{
  {_NAMES} GRAPH <{iris.ENTITIES_GRAPH}> {{ ?s ?p ?o }} FILTER (!isLiteral(?o) || datatype(?o) != <{XSD_STRING}>)
}} LIMIT 1"""
# the names and descriptions of things under the records' namespace (kg.model.iris.RESOURCE) in the other graphs than
# kgg:entities, with their datatype: what they add to a record's is told from the search index (a test a row in the
# engine took 20 s at 10,000 articles; reading the 5,414 rows, 6 s, most of it the scan of 120,000 names)
OTHER_VALUES = f"""SELECT DISTINCT ?s ?p ?o (DATATYPE(?o) AS ?datatype) WHERE {{
  {_NAMES} GRAPH ?g {{ ?s ?p ?o }}
  FILTER (?g != <{iris.ENTITIES_GRAPH}> && STRSTARTS(STR(?s), "{iris.RESOURCE}"))
}}"""
# the statements of rdfs:label and rdfs:comment in the union of the graphs, and in the named graphs: equal when the
# store's own default graph (which the union holds too) holds none
NAME_COUNTS = (f"SELECT (COUNT(*) AS ?n) WHERE {{ {_NAMES} ?s ?p ?o }}",
               f"SELECT (COUNT(*) AS ?n) WHERE {{ {_NAMES} GRAPH ?g {{ ?s ?p ?o }} }}")


@dataclass(frozen=True)
class Lookup:
    """One OPTIONAL { ?subject <predicate> ?variable }: where it is in the text and what it binds."""

    start: int
    end: int
    predicate: str  # the IRI, without its brackets
    variable: str


# the values of `predicates` of each of `subjects` as SPARQL terms, or None when one of them is not known
Known = Callable[[frozenset[str], list[str]], "dict[str, dict[str, list[str]]] | None"]


def lookups(tokens: list[lexer.Token], at: int, subject: str) -> list[Lookup]:
    """The lookups of `subject` that follow the pattern whose predicate is tokens[at], in a group joining it, in a
    SELECT DISTINCT of variables."""
    chain = _joined_chain(tokens, at)
    if chain is None or not _distinct_variables(tokens):
        return []
    found = []
    for first, last in chain:
        depth = tokens[first].depth
        for i in range(max(first, at), last + 1):
            if tokens[i].depth == depth and tokens[i].kind == "word" and tokens[i].text.upper() == "OPTIONAL":
                read = _lookup(tokens, i, subject)
                if read is not None and _named_once(tokens, read):
                    found.append(read)
    return found


def _distinct_variables(tokens: list[lexer.Token]) -> bool:
    """Whether the query is a SELECT DISTINCT of variables (or *) without grouping: its answer is the set of the
    rows of its WHERE clause, however many times a row comes (so the values of a lookup are a set too)."""
    words = [(i, t.text.upper()) for i, t in enumerate(tokens) if t.depth == 0 and t.kind == "word"]
    select = next((i for i, word in words if word == "SELECT"), None)
    if select is None or select + 1 >= len(tokens) or tokens[select + 1].text.upper() != "DISTINCT":
        return False
    projection = []
    for token in tokens[select + 2:]:
        if token.text == "{" or (token.kind == "word" and token.text.upper() == "WHERE"):
            break
        projection.append(token)
    return all(t.kind == "var" or t.text == "*" for t in projection) and \
        not any(word in ("GROUP", "HAVING") for _, word in words)


def _joined_chain(tokens: list[lexer.Token], at: int) -> list[tuple[int, int]] | None:
    """The groups from the one holding tokens[at] up to the WHERE clause's, each joining the next; None when one
    does not (or the outermost is not a WHERE clause's)."""
    chain = []
    first, last = group(tokens, at)
    while True:
        chain.append((first, last))
        opening = first - 1
        if opening < 1 or tokens[opening].text != "{":
            return None
        before = tokens[opening - 1]
        if tokens[opening].depth == 0:
            return chain if before.kind == "word" and before.text.upper() == "WHERE" else None
        after = tokens[last + 2] if last + 2 < len(tokens) else None
        if before.kind != "other" or before.text not in ("{", "}", ".") or \
                (after is not None and after.kind == "word" and after.text.upper() == "UNION"):
            return None
        first, last = group(tokens, opening)


def _lookup(tokens: list[lexer.Token], at: int, subject: str) -> Lookup | None:
    """OPTIONAL { [{] subject <IRI> ?variable [.] [}] } at tokens[at]."""
    i = at + 1
    braces = 0
    while i < len(tokens) and tokens[i].text == "{" and braces < 2:
        braces, i = braces + 1, i + 1
    if braces == 0 or i + 2 >= len(tokens):
        return None
    s, p, o = tokens[i:i + 3]
    if s.kind != "var" or s.text[1:] != subject[1:] or p.kind != "iri" or o.kind != "var" or o.text[1:] == subject[1:]:
        return None
    i += 3
    if i < len(tokens) and tokens[i].text == ".":
        i += 1
    closing = tokens[i:i + braces]
    if len(closing) != braces or any(t.text != "}" for t in closing):
        return None
    return Lookup(tokens[at].start, closing[-1].start + 1, p.text[1:-1], "?" + o.text[1:])


def _named_once(tokens: list[lexer.Token], lookup: Lookup) -> bool:
    """Whether the lookup's variable appears inside the WHERE clause only in the lookup itself."""
    name = lookup.variable[1:]
    return not any(t.kind == "var" and t.text[1:] == name and t.depth > 0 and not lookup.start <= t.start < lookup.end
                   for t in tokens)


def bound(found: list[Lookup], subjects: list[str], known: Known) -> tuple[list[Lookup], dict[str, list[list[str]]]]:
    """(the lookups answered, and for each subject the combinations of their values, one SPARQL term or UNDEF per
    lookup); nothing answered when a value of one subject is not known. With no subject, no row joins them: all."""
    if not found or not subjects:
        return found, {}
    values = known(frozenset(lookup.predicate for lookup in found), sorted(set(subjects)))
    if values is None:
        return [], {}
    combinations = {subject: [list(row) for row in product(*([*values[subject][lookup.predicate]] or [UNDEF]
                                                              for lookup in found))]
                    for subject in set(subjects)}
    return found, combinations
