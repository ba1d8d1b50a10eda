"""Reconciliation: the candidates of a query and their scores, whatever the protocol's version.

Candidates come from the search index of the served build (kg.publish.search: every name of
every entity record, folded) and from the knowledge-base items a query gives as a property
(`owl:sameAs` = Q8502 or an item's IRI). Each is scored from 0 to 100:

- its name: the query equal to its preferred name (100), to an alias (95), to a hidden
  spelling, a misspelling or folded form, or any other label the index holds (85); a name starting with it (70), a word of a name
  starting with it (60), a name containing it (40); these three less for a longer name;
- the item given: a candidate linked to it scores 100 on the name's share;
- each property value given (`memberOf` = "National Assembly", or {"id": ...}): matched when the
  candidate has that value, by id or by any name of the value, folded;
  with property values, the score is 70% the name's and 30% the share of values matched;
- a type given: with `type_strict` "any" or "all" (and always in 1.0-draft), candidates of
  other types are left out; with "should" (OpenRefine's default) their score is halved.

Candidates are sorted by score (then by mentions, then id). `match` is true for one candidate
only: the query is exactly one of its names (preferred or alias, folded), no other candidate of
the type given (if any) has that name, and no type or property value given contradicts it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kg.api.json_api.queries import iri as sparql_iri
from kg.api.json_api.store_reads import select_many
from kg.api.linked_data import ids
from kg.api.services import terms
from kg.api.services.suggest import descriptions
from kg.model import iris
from kg.model.iris import WIKIDATA, fold, prologue
from kg.publish.search import Hit, SearchIndex

NAME_SCORES = {("exact", "pref"): 100.0, ("exact", "label"): 100.0, ("exact", "alt"): 95.0,
               ("exact", "hidden"): 85.0, "prefix": 70.0, "word": 60.0, "substring": 40.0}
NAME_KINDS = frozenset({"pref", "alt", "label"})  # kinds of label that are names (hidden ones are spellings)
NAME_SHARE = 0.7  # of the score, when property values are given
TYPE_PENALTY = 0.5  # a candidate of another type, with type_strict "should"
SEARCHED = 50  # hits asked of the index per query (candidates are cut to the query's limit after scoring)


@dataclass(frozen=True)
class PropertyValue:
    """One property of a query with the values it should have: names or ids."""

    pid: str
    iri: str
    values: tuple[str, ...]  # folded names
    ids: tuple[str, ...]  # entity ids or IRIs given as {"id": ...}
    quantifier: str = "any"  # which of the values the candidate must have: any, all or none
    required: bool = False  # a candidate without them is left out (1.0-draft)

    @property
    def is_item(self) -> bool:
        """Whether the property gives the knowledge-base item itself (owl:sameAs)."""
        return self.pid in terms.ITEM_PIDS or self.iri == terms.SAME_AS


@dataclass(frozen=True)
class Query:
    """A reconciliation query, read from either version of the protocol."""

    text: str
    types: tuple[str, ...] = ()  # class IRIs
    type_strict: str = "should"  # any, all or should
    limit: int = 10
    properties: tuple[PropertyValue, ...] = ()
    entities: tuple[str, ...] = ()  # IRIs of entities given by id (1.0-draft's matchType "id")


@dataclass
class Candidate:
    """An entity record proposed for a query, with what its score is made of."""

    iri: str
    name: str
    types: list[str]
    mentions: int
    name_score: float = 0.0
    matched: str = ""  # the name, alias or spelling the query matched
    features: dict[str, float | bool] = field(default_factory=dict)
    exact_name: bool = False
    contradicted: bool = False
    score: float = 0.0
    description: str = ""

    @property
    def id(self) -> str:
        return ids.item_id(self.iri) or self.iri


def reconcile(index: SearchIndex, queries: list[Query]) -> list[list[Candidate]]:
    """The candidates of each query, best first (for the whole batch, one trip to a query worker for the
    values the queries give, when they give any, and one for the descriptions of the candidates kept)."""
    found = [_named(index, query) for query in queries]
    named = sorted({c.iri for candidates in found for c in candidates.values()})
    facts = _facts(named, queries)
    results = []
    for query, candidates in zip(queries, found):
        _add_linked(candidates, query, facts)
        results.append(_ranked(query, list(candidates.values()), facts))
    _describe([c for kept in results for c in kept])
    return results


def _describe(kept: list[Candidate]) -> None:
    """The description of each candidate kept (read after ranking: a batch keeps a fifth of those it scores)."""
    found = descriptions(sorted({c.iri for c in kept}))
    for candidate in kept:
        candidate.description = found.get(candidate.iri, "")


# -- candidates ------------------------------------------------------------------------------------

def _named(index: SearchIndex, query: Query) -> dict[str, Candidate]:
    """The entities whose names the query's text matches, by IRI."""
    if not query.text.strip():
        return {}
    candidates = {}
    for hit in index.search(query.text, max(SEARCHED, query.limit)):
        candidates[hit.entity] = _from_hit(hit)
    return candidates


def _from_hit(hit: Hit) -> Candidate:
    summary = hit.summary
    score = NAME_SCORES.get((hit.rank, hit.kind), NAME_SCORES.get(hit.rank, NAME_SCORES[("exact", "hidden")]))
    if hit.rank != "exact":
        score *= 0.8 + 0.2 / max(1.0, len(hit.label) / 10)  # a longer name matched by a part of it: less
    candidate = Candidate(hit.entity, summary.label if summary else hit.label, list(summary.types) if summary else [],
                          summary.mentions if summary else 0, name_score=round(score, 2), matched=hit.label)
    candidate.exact_name = hit.rank == "exact" and hit.kind in NAME_KINDS
    candidate.features["name"] = candidate.name_score
    return candidate


def _item_iris(prop: PropertyValue) -> list[str]:
    """The IRIs a sameAs property's values name: IRIs as given, Wikidata ids (Q8502, wd:Q8502) as items."""
    found = []
    for value in (*prop.ids, *prop.values):
        text = value.strip()
        if text.startswith(("http://", "https://")):
            found.append(text)
        elif text[:3].lower() == "wd:":
            found.append(WIKIDATA + text[3:].upper())
        elif len(text) > 1 and text[0] in "qpl" + "QPL" and text[1:].isdigit():
            found.append(WIKIDATA + text.upper())
    return found


def _add_linked(candidates: dict[str, Candidate], query: Query, facts: _Facts) -> None:
    """The entities linked to an item the query gives, and those it gives by id, join its
    candidates, scored 100 on their name."""
    items = [(i, "sameAs") for prop in query.properties if prop.is_item for i in _item_iris(prop)]
    for item, feature in items + [(e, "id") for e in query.entities]:
        for entity in facts.linked.get(item, ()):
            candidate = candidates.get(entity)
            if candidate is None:
                summary = facts.summaries.get(entity)
                if summary is None:
                    continue
                candidate = candidates[entity] = Candidate(entity, summary[0], summary[1], summary[2])
            candidate.name_score = 100.0
            candidate.features[feature] = True


# -- what the store says of the candidates ---------------------------------------------------------

@dataclass
class _Facts:
    values: dict[tuple[str, str], tuple[set[str], set[str]]]  # (entity, property) -> (folded names, ids)
    linked: dict[str, set[str]]  # item IRI -> entities linked to it
    summaries: dict[str, tuple[str, list[str], int]]  # entity -> (name, types, mentions), of linked ones


def _facts(named: list[str], queries: list[Query]) -> _Facts:
    """The values of the properties the queries give, for every candidate (those named, and those
    linked to the items the queries give), and the entities linked to those items: one trip to a
    query worker, none when the queries give neither properties nor items nor ids."""
    properties = sorted({p.iri for q in queries for p in q.properties if not p.is_item})
    items = sorted({i for q in queries for p in q.properties if p.is_item for i in _item_iris(p)})
    given = sorted({e for q in queries for e in q.entities})
    sources = _sources(named + given, items)
    sparqls = [_values_query(sources, properties) if properties and sources else None,
               _linked_query(items, given) if items or given else None]
    answers = iter(select_many([s for s in sparqls if s]))
    value_rows, linked_rows = (next(answers) if sparql else [] for sparql in sparqls)
    values: dict[tuple[str, str], tuple[set[str], set[str]]] = {}
    for row in value_rows:
        names, found_ids = values.setdefault((row["e"], row["p"]), (set(), set()))
        found_ids.update({row["o"], ids.item_id(row["o"]) or row["o"]})
        names.add(fold(row.get("l") or row["o"]))
    linked: dict[str, set[str]] = {}
    summaries = {}
    for row in linked_rows:
        linked.setdefault(row["item"], set()).add(row["e"])
        summaries[row["e"]] = (row.get("label", ""), row.get("types", "").split(), int(row.get("mentions") or 0))
    return _Facts(values, linked, summaries)


def _sources(named: list[str], items: list[str]) -> str:
    """A pattern binding ?e to the entities named and to those linked to the items ('' for none)."""
    sources = [f"{{ VALUES ?e {{ {' '.join(map(sparql_iri, named))} }} }}" if named else "",
               f"{{ VALUES ?item {{ {' '.join(map(sparql_iri, items))} }} GRAPH kgg:entities {{ ?e owl:sameAs ?item }} }}"
               if items else ""]
    return " UNION ".join(s for s in sources if s)


def _values_query(sources: str, properties: list[str]) -> str:
    """The values of the given properties of the candidates, with every name of a value that is an entity."""
    return prologue() + f"""
SELECT DISTINCT ?e ?p ?o ?l WHERE {{
  {sources}
  VALUES ?p {{ {" ".join(map(sparql_iri, properties))} }}
  ?e ?p ?o
  OPTIONAL {{ GRAPH kgg:entities {{ ?o skos:prefLabel|skos:altLabel ?l }} }}
}}"""


def _linked_query(items: list[str], given: list[str]) -> str:
    """The entities linked to these items, and those given by IRI (linked to themselves), with
    their name, types and mentions."""
    sources = [f"{{ VALUES ?item {{ {' '.join(map(sparql_iri, items))} }} GRAPH kgg:entities {{ ?e owl:sameAs ?item }} }}"
               if items else "",
               f"{{ VALUES ?e {{ {' '.join(map(sparql_iri, given))} }} BIND(?e AS ?item) }}" if given else ""]
    return prologue() + f"""
SELECT ?item ?e (SAMPLE(?name) AS ?label) (GROUP_CONCAT(DISTINCT STR(?t); separator=" ") AS ?types)
       (MAX(?n) AS ?mentions) WHERE {{
  {" UNION ".join(s for s in sources if s)}
  GRAPH kgg:entities {{ ?e skos:prefLabel ?name ; a ?t }}
  OPTIONAL {{ GRAPH kgg:entities {{ ?e kgo:mentionCount ?n }} }}
}} GROUP BY ?item ?e"""


# -- scores ----------------------------------------------------------------------------------------

def _ranked(query: Query, candidates: list[Candidate], facts: _Facts) -> list[Candidate]:
    kept = [c for c in candidates if _scored(query, c, facts)]
    kept.sort(key=lambda c: (-c.score, -c.mentions, c.id))
    kept = kept[:query.limit]
    exact = [c for c in kept if c.exact_name and c.features.get("type", True)]  # of another type: no rival
    if len(exact) == 1 and not exact[0].contradicted:
        exact[0].features["unambiguous"] = True
    return kept


def is_match(candidate: Candidate) -> bool:
    return bool(candidate.features.get("unambiguous"))


def _scored(query: Query, candidate: Candidate, facts: _Facts) -> bool:
    """Score `candidate`; False when a type it must have is not among its types."""
    score = candidate.name_score
    values = [p for p in query.properties if not p.is_item]
    if values:
        matched = [_has_value(candidate.iri, p, facts) for p in values]
        for prop, ok in zip(values, matched):
            candidate.features[f"property:{terms.term_id(prop.iri)}"] = ok
            if prop.required and not ok:
                return False
        score = NAME_SHARE * score + (1 - NAME_SHARE) * 100.0 * sum(matched) / len(matched)
        candidate.contradicted = not all(matched)
    if query.types:
        has = [t in candidate.types for t in query.types]
        fits = all(has) if query.type_strict == "all" else any(has)
        candidate.features["type"] = fits
        if not fits:
            if query.type_strict in ("any", "all"):
                return False
            score *= TYPE_PENALTY
            candidate.contradicted = True
    candidate.score = round(score, 2)
    return True


def _has_value(entity: str, prop: PropertyValue, facts: _Facts) -> bool:
    """Whether the entity has the values given, as the quantifier asks (an id and its IRI count as one)."""
    names, found_ids = facts.values.get((entity, prop.iri), (set(), set()))
    given = [name in names for name in prop.values] + [i in found_ids for i in prop.ids[::2]]
    if prop.quantifier == "all":
        return bool(given) and all(given)
    if prop.quantifier == "none":
        return not any(given)
    return any(given)


# -- reading the values a query gives ------------------------------------------------------------

def property_value(pid: str, given: Any, quantifier: str = "any", required: bool = False) -> PropertyValue:
    """A property of a query with its values (a value or a list of them; strings, numbers,
    booleans, or {"id": ...} for an entity already reconciled)."""
    names, found_ids = [], []
    for value in given if isinstance(given, list) else [given]:
        if isinstance(value, dict):
            if isinstance(value.get("id"), str):
                found_ids.append(value["id"])
                found_ids.append(entity_iri(value["id"]))
            if isinstance(value.get("name"), str):
                names.append(fold(value["name"]))
        elif isinstance(value, bool):
            names.append("true" if value else "false")
        elif isinstance(value, (str, int, float)):
            names.append(fold(str(value)))
    return PropertyValue(pid, terms.term_iri(pid), tuple(n for n in names if n), tuple(found_ids), quantifier,
                         required)


def entity_iri(entity_id: str) -> str:
    """The IRI of an entity id of this service (ids are the IRI under the resource namespace)."""
    if entity_id.startswith(("http://", "https://")):
        return entity_id
    return iris.RESOURCE + entity_id
