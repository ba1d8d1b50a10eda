"""Auto-completion for both versions of the reconciliation service: entities (from the search
index, best first, as /api/search ranks them), types and properties (from the schema of the
served graph, names starting with the prefix first)."""

from __future__ import annotations

from typing import Any

from flask import g

from kg.api.json_api.queries import iri as sparql_iri
from kg.api.json_api.store_reads import select
from kg.api.linked_data import ids
from kg.api.services import protocol, terms
from kg.model.iris import fold, prologue

MAX_OFFSET = 1000
ITEM = {"id": "owl:sameAs", "name": "knowledge-base item (owl:sameAs)",
        "description": "an item of Wikidata or another knowledge base the entity is linked to: Q8502, wd:Q8502 or an IRI"}


def entities(prefix: str, limit: int, offset: int = 0) -> list[dict[str, Any]]:
    """Entities whose names match `prefix`, with their description and types."""
    hits = protocol.search_index().search(prefix, min(offset + limit, MAX_OFFSET + protocol.MAX_LIMIT), local=False)[offset:]
    found = descriptions([hit.entity for hit in hits])
    items = []
    for hit in hits:
        summary = hit.summary
        item: dict[str, Any] = {"id": ids.item_id(hit.entity) or hit.entity,
                                "name": summary.label if summary and summary.label else hit.label}
        if found.get(hit.entity):
            item["description"] = found[hit.entity]
        item["notable"] = [terms.type_ref(t) for t in (summary.types if summary else [])]
        items.append(item)
    return items


def descriptions(entities: list[str]) -> dict[str, str]:
    """The description of each entity record that has one (rdfs:comment in kgg:entities): from the search index,
    which holds those of the records it summarizes; the store is asked about the others only."""
    if not entities:
        return {}
    held = protocol.search_index().records(entities, g.deadline)
    found = {entity: described[0] for entity, (_, described) in held.items() if described}
    rest = [entity for entity in entities if entity not in held]
    if not rest:
        return found
    rows = select(prologue() + f"""
SELECT ?e (SAMPLE(?comment) AS ?d) WHERE {{
  VALUES ?e {{ {" ".join(map(sparql_iri, rest))} }} GRAPH kgg:entities {{ ?e rdfs:comment ?comment }} }} GROUP BY ?e""")
    return found | {row["e"]: row["d"] for row in rows}


def types(prefix: str, limit: int, offset: int = 0) -> list[dict[str, Any]]:
    """Classes whose name or id matches `prefix`."""
    chosen = _matching([t for t in terms.terms().values() if t.kind == "type"], prefix)
    return [_type_item(term) for term in chosen[offset:offset + limit]]


def _type_item(term: terms.Term) -> dict[str, Any]:
    item: dict[str, Any] = {"id": term.id, "name": term.name}
    if term.description:
        item["description"] = term.description
    broader = [terms.type_ref(up) for up in term.broader if up in terms.terms()]
    if broader:
        item["broader"] = [{"id": b["id"], "name": b["name"]} for b in broader]
    return item


def properties(prefix: str, limit: int, offset: int = 0) -> list[dict[str, Any]]:
    """Properties whose name or id matches `prefix` (and owl:sameAs, the knowledge-base item)."""
    chosen = _matching([t for t in terms.terms().values() if t.kind == "property"], prefix)
    items = [{"id": t.id, "name": t.name, **({"description": t.description} if t.description else {})}
             for t in chosen]
    if _fits(prefix, ITEM["id"], ITEM["name"]):
        items.insert(0, dict(ITEM))
    return items[offset:offset + limit]


def _matching(candidates: list[terms.Term], prefix: str) -> list[terms.Term]:
    """Terms matching the prefix: a name or id starting with it first, then containing it; by name."""
    needle = fold(prefix)
    kept = [t for t in candidates if _fits(prefix, t.id, t.name)]
    return sorted(kept, key=lambda t: (not (fold(t.name).startswith(needle) or fold(t.id).startswith(needle)),
                                       fold(t.name), t.id))


def _fits(prefix: str, term_id: str, name: str) -> bool:
    needle = fold(prefix)
    return not needle or needle in fold(name) or needle in fold(term_id)
