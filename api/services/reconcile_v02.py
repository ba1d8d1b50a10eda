"""The W3C reconciliation service, version 0.2 (what OpenRefine 3.x speaks), at /reconcile.

    GET  /reconcile                          the service manifest (JSONP with ?callback=)
    GET|POST /reconcile  queries={...}       a batch of queries, answered under the same keys
    GET|POST /reconcile  extend={...}        data extension: property values of reconciled entities
    GET  /reconcile/suggest/{entity,type,property}?prefix=&cursor=
    GET  /reconcile/flyout?id=               the preview as an HTML fragment, for the suggest widget
    GET  /reconcile/preview?id=              the preview page (an iframe in OpenRefine)
    GET  /reconcile/propose_properties?type=&limit=

Entity ids are the JSON API's (`person/juan-guaido`: the IRI under identifierSpace); type and
property ids are api/services/terms.py's. Matching and scores: api/services/matching.py.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, request

from kg import __version__
from kg.api.errors import ApiError
from kg.api.services import extension, matching, preview, protocol, suggest, terms
from kg.model import iris
from kg.model.iris import ONTOLOGY

bp = Blueprint("reconcile_v02", __name__, url_prefix="/reconcile")
VERSION = "0.2"
DEFAULT_LIMIT = 10
TYPE_STRICT = ("any", "all", "should")


@bp.route("", methods=["GET", "POST"])
def service() -> Response:
    """The manifest, or the answer to `queries` or `extend`."""
    queries = protocol.json_param("queries")
    if queries is not None:
        return protocol.answer(reconcile(queries), jsonp=request.method == "GET")
    extend = protocol.json_param("extend")
    if extend is not None:
        return protocol.answer(extend_data(extend), jsonp=request.method == "GET")
    return protocol.answer(manifest(), jsonp=True)


def manifest() -> dict[str, Any]:
    here = request.url_root + "reconcile"
    suggest_service = {"service_url": here, "flyout_service_path": "/flyout?id=${id}"}
    return {
        "versions": [VERSION], "name": "kg knowledge graph", "identifierSpace": iris.RESOURCE,
        "schemaSpace": ONTOLOGY, "serviceVersion": __version__,
        "documentation": request.url_root,
        "view": {"url": request.url_root + iris.RESOURCE[len(iris.BASE):] + "{{id}}"},
        "preview": {"url": here + "/preview?id={{id}}", "width": preview.WIDTH, "height": preview.HEIGHT},
        "defaultTypes": default_types(),
        "suggest": {"entity": {**suggest_service, "service_path": "/suggest/entity"},
                    "type": {"service_url": here, "service_path": "/suggest/type"},
                    "property": {"service_url": here, "service_path": "/suggest/property"}},
        "extend": {"propose_properties": {"service_url": here, "service_path": "/propose_properties"},
                   "property_settings": [{"name": "limit", "label": "Limit", "type": "number", "default": 0,
                                          "help_text": "most values per entity (0: up to "
                                                       f"{extension.MAX_VALUES})"}]},
    }


def default_types() -> list[dict[str, str]]:
    """The ontology's top entity classes that the served graph has."""
    known = terms.terms()
    return [{"id": terms.term_id(ONTOLOGY + name), "name": known[ONTOLOGY + name].name}
            for name in ("Person", "Organization", "Place", "Event") if ONTOLOGY + name in known]


def reconcile(batch: Any) -> dict[str, Any]:
    """{key: {"result": [candidate, ...]}} for a batch {key: query}."""
    if not isinstance(batch, dict):
        raise ApiError(400, "'queries' must be a JSON object of queries by key")
    protocol.check_batch(len(batch), "queries")
    keys = list(batch)
    found = matching.reconcile(protocol.search_index(), [read_query(key, batch[key]) for key in keys])
    return {key: {"result": [candidate(c) for c in candidates]} for key, candidates in zip(keys, found)}


def read_query(key: str, raw: Any) -> matching.Query:
    """One query of a 0.2 batch (a bare string is its text)."""
    if isinstance(raw, str):
        raw = {"query": raw}
    if not isinstance(raw, dict):
        raise ApiError(400, f"query {key!r} must be a JSON object")
    text = protocol.text(raw.get("query", ""), f"query {key!r}")
    types = raw.get("type")
    types = [types] if isinstance(types, str) else types or []
    if not isinstance(types, list) or not all(isinstance(t, str) for t in types):
        raise ApiError(400, f"'type' of query {key!r} must be a type id or a list of them")
    strict = raw.get("type_strict", "should")
    if strict not in TYPE_STRICT:
        raise ApiError(400, f"'type_strict' of query {key!r} must be one of {', '.join(TYPE_STRICT)}")
    properties = raw.get("properties") or []
    if not isinstance(properties, list) or not all(isinstance(p, dict) and isinstance(p.get("pid"), str)
                                                   and "v" in p for p in properties):
        raise ApiError(400, f"'properties' of query {key!r} must be a list of {{\"pid\": ..., \"v\": ...}}")
    protocol.check_batch(len(properties), f"properties in query {key!r}")
    if not text.strip() and not properties:
        raise ApiError(400, f"query {key!r} has neither a text nor properties")
    return matching.Query(text, tuple(terms.known_type(t).iri for t in types), strict,
                          protocol.limit_of(raw.get("limit"), DEFAULT_LIMIT),
                          tuple(matching.property_value(p["pid"], p["v"]) for p in properties))


def candidate(found: matching.Candidate) -> dict[str, Any]:
    item: dict[str, Any] = {"id": found.id, "name": found.name, "score": found.score,
                            "match": matching.is_match(found), "type": [terms.type_ref(t) for t in found.types]}
    if found.description:
        item["description"] = found.description
    item["features"] = [{"id": name, "value": value} for name, value in found.features.items()]
    return item


@bp.get("/suggest/entity")
def suggest_entity() -> Response:
    prefix, limit, cursor = _suggest_args()
    return protocol.answer({"result": suggest.entities(prefix, limit, cursor) if prefix.strip() else []},
                           jsonp=True)


@bp.get("/suggest/type")
def suggest_type() -> Response:
    prefix, limit, cursor = _suggest_args()
    return protocol.answer({"result": suggest.types(prefix, limit, cursor)}, jsonp=True)


@bp.get("/suggest/property")
def suggest_property() -> Response:
    prefix, limit, cursor = _suggest_args()
    return protocol.answer({"result": suggest.properties(prefix, limit, cursor)}, jsonp=True)


def _suggest_args() -> tuple[str, int, int]:
    prefix = protocol.text(request.args.get("prefix", ""), "'prefix'")
    limit = protocol.int_arg("limit", DEFAULT_LIMIT, protocol.MAX_LIMIT) or DEFAULT_LIMIT
    return prefix, limit, protocol.int_arg("cursor", 0, suggest.MAX_OFFSET)


@bp.get("/flyout")
def flyout() -> Response:
    return protocol.answer(preview.flyout(_id_arg()), jsonp=True)


@bp.get("/preview")
def preview_page() -> Response:
    return preview.preview(_id_arg())


def _id_arg() -> str:
    entity_id = request.args.get("id", "")
    if not entity_id:
        raise ApiError(400, "missing 'id' parameter")
    return protocol.text(entity_id, "'id'")


@bp.get("/propose_properties")
def propose_properties() -> Response:
    type_id = request.args.get("type", "")
    if not type_id:
        raise ApiError(400, "missing 'type' parameter")
    limit = protocol.int_arg("limit", DEFAULT_LIMIT, protocol.MAX_LIMIT) or DEFAULT_LIMIT
    term = terms.known_type(type_id)
    return protocol.answer({"type": term.id, "limit": limit, "properties": extension.proposals(term, limit)},
                           jsonp=True)


def extend_data(query: Any) -> dict[str, Any]:
    """{"meta": [...], "rows": {id: {property id: [values]}}}."""
    entity_ids, asked = read_extension(query)
    rows = extension.values(entity_ids, asked)
    return {"meta": [{"id": p.id, "name": terms.property_name(p.iri)} for p in asked], "rows": rows}


def read_extension(query: Any) -> tuple[list[str], list[extension.Asked]]:
    """The ids and properties of a data extension query (both versions share its shape)."""
    if not isinstance(query, dict) or not isinstance(query.get("ids"), list) \
            or not isinstance(query.get("properties"), list):
        raise ApiError(400, "a data extension query is {\"ids\": [...], \"properties\": [{\"id\": ...}]}")
    entity_ids, properties = query["ids"], query["properties"]
    protocol.check_batch(len(entity_ids), "entities")
    protocol.check_batch(len(properties), "properties")
    if not all(isinstance(e, str) for e in entity_ids) or \
            not all(isinstance(p, dict) and isinstance(p.get("id"), str) for p in properties):
        raise ApiError(400, "'ids' must be strings and each property {\"id\": ...}")
    return [protocol.text(e, "an id") for e in entity_ids], [extension.asked(p) for p in properties]

