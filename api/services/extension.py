"""Data extension: the values of chosen properties for reconciled entities, and the properties to
propose for a type. Both versions of the protocol share this; each shapes the answer its own way.

Values: an entity or document-local thing as {"id", "name"}, a number as {"int"} or {"float"}, a
day as {"date"} (an ISO date-time at midnight UTC, as the schema asks), any other literal as
{"str"}; at most `limit` values per entity and property (the property setting `limit`, else
MAX_VALUES), in the store's order. Proposals: the properties most entities of the type have,
counted on a sample of SAMPLE of them, once per served build.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kg.api.build_answers import cached
from kg.api.json_api.queries import iri as sparql_iri
from kg.api.json_api.store_reads import select
from kg.api.linked_data import ids
from kg.api.services import terms
from kg.api.services.matching import entity_iri
from kg.model.iris import FIXED_PREFIXES, prologue

XSD = FIXED_PREFIXES["xsd"]
MAX_VALUES = 100  # values per entity and property at most
MAX_ROWS = 20_000  # rows of one extension query at most
SAMPLE = 500  # entities of a type whose properties are counted to propose some
INTEGERS = {XSD + n for n in ("integer", "int", "long", "short", "nonNegativeInteger", "positiveInteger")}
DECIMALS = {XSD + n for n in ("decimal", "double", "float")}


@dataclass(frozen=True)
class Asked:
    """A property of an extension query with its limit."""

    id: str
    iri: str
    limit: int


def asked(item: Any) -> Asked:
    """One entry of a query's `properties`: {"id": ..., "settings": {"limit": n}}."""
    settings = item.get("settings") if isinstance(item.get("settings"), dict) else {}
    raw = settings.get("limit")
    try:
        limit = int(raw) if raw not in (None, "") else 0
    except (TypeError, ValueError):
        limit = 0
    return Asked(item["id"], terms.term_iri(item["id"]), min(limit, MAX_VALUES) if limit > 0 else MAX_VALUES)


def values(entity_ids: list[str], properties: list[Asked]) -> dict[str, dict[str, list[dict[str, Any]]]]:
    """{entity id: {property id: [value, ...]}} for every id and property asked (empty lists where none)."""
    by_iri = {entity_iri(e): e for e in entity_ids}
    found: dict[str, dict[str, list[dict[str, Any]]]] = {e: {p.id: [] for p in properties} for e in entity_ids}
    if not by_iri or not properties:
        return found
    seen: set[tuple[str, str, str]] = set()
    for row in select(_values_query(sorted(by_iri), sorted({p.iri for p in properties}))):
        for prop in properties:
            if prop.iri != row["p"] or (row["e"], prop.id, row["o"]) in seen:
                continue
            kept = found[by_iri[row["e"]]][prop.id]
            if len(kept) < prop.limit:
                seen.add((row["e"], prop.id, row["o"]))
                kept.append(_value(row))
    return found


def _values_query(entities: list[str], properties: list[str]) -> str:
    return prologue() + f"""
SELECT ?e ?p ?o (SAMPLE(?name) AS ?l) (SAMPLE(IF(isIRI(?o), "iri", STR(DATATYPE(?o)))) AS ?kind) WHERE {{
  VALUES ?e {{ {" ".join(map(sparql_iri, entities))} }}
  VALUES ?p {{ {" ".join(map(sparql_iri, properties))} }}
  ?e ?p ?o
  OPTIONAL {{ ?o skos:prefLabel|rdfs:label ?name }}
}} GROUP BY ?e ?p ?o LIMIT {MAX_ROWS}"""


def _value(row: dict[str, str]) -> dict[str, Any]:
    kind, value = row.get("kind", ""), row["o"]
    if kind == "iri":
        return {"id": ids.item_id(value) or value, "name": row.get("l") or ids.item_id(value) or value}
    try:
        if kind in INTEGERS:
            return {"int": int(value)}
        if kind in DECIMALS:
            return {"float": float(value)}
    except ValueError:
        pass
    if kind == XSD + "date" and len(value) == 10:
        return {"date": value + "T00:00:00+00:00"}
    return {"str": value}


def proposals(type_term: terms.Term, limit: int) -> list[dict[str, str]]:
    """The properties entities of the type have, the most common first."""
    counted = cached(f"properties of {type_term.iri}", lambda deadline: _count_properties(type_term.iri, deadline))
    return [{"id": terms.term_id(p), "name": terms.property_name(p)} for p in counted[:limit]]


def _count_properties(type_iri: str, deadline: float) -> list[str]:
    rows = select(prologue() + f"""
SELECT ?p (COUNT(DISTINCT ?e) AS ?n) WHERE {{
  {{ SELECT ?e WHERE {{ GRAPH kgg:entities {{ ?e a {sparql_iri(type_iri)} }} }} LIMIT {SAMPLE} }}
  ?e ?p ?o
}} GROUP BY ?p""", deadline)
    hidden = {FIXED_PREFIXES["skos"] + "hiddenLabel"}
    return [r["p"] for r in sorted(rows, key=lambda r: (-int(r["n"]), r["p"])) if r["p"] not in hidden]
