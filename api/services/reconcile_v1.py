"""The W3C reconciliation service, version 1.0-draft, at its own root /reconcile/1.0-draft (its
manifest and 0.2's cannot share one).

    GET  /reconcile/1.0-draft                        the service manifest
    POST /reconcile/1.0-draft/match                  {"queries": [...]} -> {"results": [...]} in order
    GET  /reconcile/1.0-draft/suggest/{entity,type,property}?prefix=&limit=&offset=
    GET  /reconcile/1.0-draft/preview?id=
    POST /reconcile/1.0-draft/extend                 {"ids": [...], "properties": [...]}
    GET  /reconcile/1.0-draft/extend/propose?type=&limit=

A query's conditions: `name` (its text; several are joined), `id` (an entity id of this
service), `property` (a property id and its values, with `required` and `matchQuantifier` any,
all or none). `type` restricts the candidates to a class. Matching and scores:
api/services/matching.py, shared with 0.2.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request

from kg import __version__
from kg.api.errors import ApiError
from kg.api.services import extension, matching, preview, protocol, reconcile_v02, suggest, terms
from kg.model import iris

bp = Blueprint("reconcile_v1", __name__, url_prefix="/reconcile/1.0-draft")
VERSION = "1.0-draft"
QUANTIFIERS = ("any", "all", "none")


@bp.get("")
def manifest() -> Response:
    return jsonify({
        "versions": [VERSION], "name": "kg knowledge graph", "serviceVersion": __version__,
        "documentation": request.url_root,
        "view": {"url": request.url_root + iris.RESOURCE[len(iris.BASE):] + "{id}"},
        "preview": {"width": preview.WIDTH, "height": preview.HEIGHT},
        "defaultTypes": reconcile_v02.default_types(),
        "suggest": {"entity": True, "type": True, "property": True},
        "extend": {"proposeProperties": True,
                   "propertySettings": [{"id": "limit", "name": "Limit", "type": "number", "default": 0,
                                         "helpText": f"most values per entity (0: up to {extension.MAX_VALUES})"}]},
    })


@bp.post("/match")
def match() -> Response:
    batch = protocol.json_body()
    if not isinstance(batch, dict) or not isinstance(batch.get("queries"), list):
        raise ApiError(400, "a reconciliation batch is {\"queries\": [...]}")
    protocol.check_batch(len(batch["queries"]), "queries")
    queries = [read_query(n, raw) for n, raw in enumerate(batch["queries"])]
    found = matching.reconcile(protocol.search_index(), queries)
    return jsonify({"results": [{"candidates": [candidate(c) for c in cands]} for cands in found]})


def read_query(number: int, raw: Any) -> matching.Query:
    where = f"query {number}"
    if not isinstance(raw, dict) or not isinstance(raw.get("conditions"), list) or not raw["conditions"]:
        raise ApiError(400, f"{where} must be an object with a non-empty list of conditions")
    protocol.check_batch(len(raw["conditions"]), f"conditions in {where}")
    names, entities, properties = [], [], []
    for condition in raw["conditions"]:
        kind, value = _condition(condition, where)
        if kind == "name":
            names += [protocol.text(v, f"a name of {where}") for v in (value if isinstance(value, list) else [value])]
        elif kind == "id":
            entities += [matching.entity_iri(protocol.text(v, f"an id of {where}"))
                         for v in (value if isinstance(value, list) else [value])]
        else:
            properties.append(_property(condition, value, where))
    type_id = raw.get("type")
    if type_id is not None and not isinstance(type_id, str):
        raise ApiError(400, f"'type' of {where} must be a type id")
    types = (terms.known_type(type_id).iri,) if type_id else ()
    return matching.Query(" ".join(names), types, "all", protocol.limit_of(raw.get("limit"), reconcile_v02.DEFAULT_LIMIT),
                          tuple(properties), tuple(entities))


def _condition(condition: Any, where: str) -> tuple[str, Any]:
    if not isinstance(condition, dict) or condition.get("matchType") not in ("name", "id", "property") \
            or "propertyValue" not in condition:
        raise ApiError(400, f"each condition of {where} needs a matchType (name, id or property) and a propertyValue")
    value = condition["propertyValue"]
    if condition["matchType"] != "property" and not (isinstance(value, str) or (
            isinstance(value, list) and all(isinstance(v, str) for v in value))):
        raise ApiError(400, f"a {condition['matchType']} condition of {where} takes a string (or a list of them)")
    return condition["matchType"], value


def _property(condition: dict[str, Any], value: Any, where: str) -> matching.PropertyValue:
    pid = condition.get("propertyId")
    if not isinstance(pid, str) or not pid:
        raise ApiError(400, f"a property condition of {where} needs a propertyId")
    quantifier = condition.get("matchQuantifier", "any")
    if quantifier not in QUANTIFIERS:
        raise ApiError(400, f"'matchQuantifier' of {where} must be one of {', '.join(QUANTIFIERS)}")
    return matching.property_value(pid, value, quantifier, condition.get("required") is True)


def candidate(found: matching.Candidate) -> dict[str, Any]:
    item: dict[str, Any] = {"id": found.id, "name": found.name}
    if found.description:
        item["description"] = found.description
    item.update(score=found.score, match=matching.is_match(found), type=[terms.type_ref(t) for t in found.types],
                features=[{"id": name, "name": _FEATURE_NAMES.get(name.split(":")[0], name), "value": value}
                          for name, value in found.features.items()])
    return item


_FEATURE_NAMES = {"name": "name similarity", "sameAs": "linked to the item given", "id": "the id given",
                  "property": "has the value given", "type": "of the type given",
                  "unambiguous": "the only candidate with this exact name"}


@bp.get("/suggest/entity")
def suggest_entity() -> Response:
    prefix, limit, offset = _suggest_args()
    return jsonify({"result": suggest.entities(prefix, limit, offset) if prefix.strip() else []})


@bp.get("/suggest/type")
def suggest_type() -> Response:
    return jsonify({"result": suggest.types(*_suggest_args())})


@bp.get("/suggest/property")
def suggest_property() -> Response:
    return jsonify({"result": suggest.properties(*_suggest_args())})


def _suggest_args() -> tuple[str, int, int]:
    prefix = protocol.text(request.args.get("prefix", ""), "'prefix'")
    limit = protocol.int_arg("limit", reconcile_v02.DEFAULT_LIMIT, protocol.MAX_LIMIT) or reconcile_v02.DEFAULT_LIMIT
    return prefix, limit, protocol.int_arg("offset", 0, suggest.MAX_OFFSET)


@bp.get("/preview")
def preview_page() -> Response:
    entity_id = request.args.get("id", "")
    if not entity_id:
        raise ApiError(400, "missing 'id' parameter")
    return preview.preview(protocol.text(entity_id, "'id'"))


@bp.post("/extend")
def extend() -> Response:
    entity_ids, asked = reconcile_v02.read_extension(protocol.json_body())
    found = extension.values(entity_ids, asked)
    return jsonify({"meta": [{"id": p.id, "name": terms.property_name(p.iri)} for p in asked],
                    "rows": [{"id": e, "properties": [{"id": p.id, "values": found[e][p.id]} for p in asked]}
                             for e in entity_ids]})


@bp.get("/extend/propose")
def propose() -> Response:
    type_id = request.args.get("type", "")
    if not type_id:
        raise ApiError(400, "missing 'type' parameter")
    limit = protocol.int_arg("limit", reconcile_v02.DEFAULT_LIMIT, protocol.MAX_LIMIT) or reconcile_v02.DEFAULT_LIMIT
    term = terms.known_type(type_id)
    return jsonify({"type": term.id, "limit": limit, "properties": extension.proposals(term, limit)})
