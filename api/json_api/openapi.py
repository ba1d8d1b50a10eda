"""The OpenAPI 3.1 description of the JSON API, served at /api/openapi.json.

Tests check that it names every JSON route of the app and that real answers
validate against the schemas below.
"""

from __future__ import annotations

from typing import Any

from kg import __version__
from kg.api import negotiate
from kg.api.json_api.classes import CLASSES, DOCUMENT_ORDERS, ENTITY_ORDERS, ENTITY_TYPES, EVENT_TYPES

_STR = {"type": "string"}
# "Contains a character that is not white space", white space as Python's str.strip() sees it
# (all of it is in the Basic Multilingual Plane), so that the description and the API agree.
NOT_BLANK = "[^" + "".join(f"\\u{c:04x}" for c in range(0x10000) if chr(c).isspace()) + "]"
_NSTR = {"type": ["string", "null"]}
# An id as a client may write it: '/'-separated segments of any characters: the id escaped once, or the name
# it stands for (the server reads it by kg.model.iris.id_argument: letters of any script stay, the rest is
# %-escaped).
_ID = "^[^/]+(?:/[^/]+)*$"
_NINT = {"type": ["integer", "null"]}
_ENTITY_PARTS = {"memberships": "memberships", "out": "statements about others", "in": "statements by others",
                 "mentions": "mentions"}  # the paged lists of an entity (api/json_api/routes.py ENTITY_PARTS)

SCHEMAS: dict[str, Any] = {
    "Error": {
        "type": "object", "required": ["error"], "additionalProperties": False,
        "properties": {"error": {
            "type": "object", "required": ["status", "title", "detail"],
            "properties": {"status": {"type": "integer"}, "title": _STR, "detail": _STR,
                           "line": {"type": "integer"}, "column": {"type": "integer"},
                           "excerpt": _STR, "hint": _STR,
                           "cause": {"enum": ["worker-memory", "worker-crash"]},
                           "limit": {"type": "integer"},
                           "valid": {"type": "array", "items": _STR},
                           "offers": {"type": "array", "items": _STR}}}},
    },
    "EntityItem": {
        "type": "object", "required": ["id", "iri", "label", "types", "mentions", "href"],
        "properties": {"id": _NSTR, "iri": _STR, "label": _STR, "types": {"type": "array", "items": _STR},
                       "mentions": _NINT, "href": _NSTR,
                       "matched": _STR, "matchedAs": {"enum": ["pref", "alt", "hidden", "label"]},
                       "rank": {"enum": ["exact", "prefix", "word", "substring"]}},
    },
    "Page": {
        "type": "object", "required": ["total", "limit", "offset", "next", "items"],
        "properties": {"total": {"type": "integer"}, "limit": {"type": "integer"},
                       "offset": {"type": "integer"}, "next": _NSTR, "items": {"type": "array"}},
    },
    "Ref": {"type": ["object", "null"], "required": ["iri", "id", "label"],
            "properties": {"iri": _STR, "id": _NSTR, "label": _NSTR, "href": _NSTR}},
    "DocumentRef": {"type": ["object", "null"], "required": ["id", "iri", "title", "href"],
                    "properties": {"id": _NSTR, "iri": _STR, "title": _NSTR, "href": _NSTR}},
    "Summary": {"type": "object", "required": ["id", "iri", "href", "label", "types"],
                "properties": {"id": _NSTR, "iri": _STR, "href": _NSTR, "label": _NSTR,
                               "types": {"type": "array", "items": _STR}}},
    "Event": {"allOf": [{"$ref": "#/components/schemas/Summary"}, {
        "type": "object", "required": ["date", "document", "negated", "speculated", "participants"],
        "properties": {"date": _NSTR, "document": {"$ref": "#/components/schemas/DocumentRef"},
                       "negated": {"type": "boolean"}, "speculated": {"type": "boolean"},
                       "participants": {"type": "array", "items": {"allOf": [
                           {"$ref": "#/components/schemas/Ref"},
                           {"type": "object", "required": ["role", "predicate"],
                            "properties": {"role": _STR, "predicate": _STR}}]}},
                       "sentences": {"type": "array", "items": _STR}}}]},
    "Quote": {"type": "object", "required": ["id", "iri", "href", "text", "speaker", "document", "sentence"],
              "properties": {"id": _STR, "iri": _STR, "href": _STR, "text": _STR,
                             "speaker": {"$ref": "#/components/schemas/Ref"},
                             "document": {"$ref": "#/components/schemas/DocumentRef"}, "sentence": _NSTR}},
    "Figure": {"type": "object",
               "required": ["id", "iri", "href", "label", "value", "qualifier", "unit", "source", "date", "document",
                            "sentence"],
               "properties": {"id": _STR, "iri": _STR, "href": _STR, "label": _STR,
                              "value": {"type": ["number", "null"]}, "qualifier": _NSTR,
                              "unit": {"type": "null", "description": "the graph has no unit for figures yet "
                                                                     "(always null): the label says what is counted"},
                              "source": {"$ref": "#/components/schemas/Ref"}, "date": _NSTR,
                              "dateRef": {"$ref": "#/components/schemas/Ref"},
                              "document": {"$ref": "#/components/schemas/DocumentRef"}, "sentence": _NSTR}},
    "Membership": {"type": "object", "required": ["id", "member", "organization", "role", "document"],
                   "properties": {"id": _NSTR, "member": {"$ref": "#/components/schemas/Ref"},
                                  "organization": {"$ref": "#/components/schemas/Ref"},
                                  "role": {"$ref": "#/components/schemas/Ref"}, "document": _NSTR}},
    "Neighbourhood": {"type": "object", "required": ["entity", "neighbours"], "properties": {
        "entity": {"$ref": "#/components/schemas/Summary"},
        "neighbours": {"type": "array", "items": {"allOf": [{"$ref": "#/components/schemas/Summary"}, {
            "type": "object", "required": ["links"], "properties": {"links": {"type": "array", "items": {
                "type": "object", "required": ["predicate", "direction", "statements"],
                "properties": {"predicate": _STR, "direction": {"enum": ["in", "out"]},
                               "statements": {"type": "integer"}}}}}}]}}}},
    "Source": {"type": "object", "required": ["document", "documentIri", "title", "sentence"],
               "properties": {"document": _NSTR, "documentIri": _STR, "title": _NSTR, "sentence": _NSTR}},
    "Relation": {
        "type": "object", "required": ["predicate", "predicateIri", "sources"],
        "properties": {"predicate": _STR, "predicateIri": _STR,
                       "subject": {"$ref": "#/components/schemas/Ref"},
                       "object": {"$ref": "#/components/schemas/Ref"},
                       "sources": {"type": "array", "items": {"$ref": "#/components/schemas/Source"}}},
    },
    "Mention": {
        "type": "object", "required": ["iri", "text", "begin", "end", "sentence", "document"],
        "properties": {"iri": _STR, "text": _STR, "begin": _NINT, "end": _NINT, "sentence": _NSTR,
                       "document": {"type": "object", "required": ["id", "iri", "title"],
                                    "properties": {"id": _NSTR, "iri": _STR, "title": _NSTR}}},
    },
    "Entity": {
        "type": "object",
        "required": ["id", "iri", "label", "labels", "types", "sameAs", "mentionCount", "relations",
                     "mentions", "mentionsTotal"],
        "properties": {
            "id": _NSTR, "iri": _STR, "label": _STR,
            "labels": {"type": "object", "required": ["preferred", "alternative", "hidden"],
                       "properties": {"preferred": _STR, "alternative": {"type": "array", "items": _STR},
                                      "hidden": {"type": "array", "items": _STR}}},
            "types": {"type": "array", "items": _STR},
            "sameAs": {"type": "array", "items": _STR},
            "mentionCount": _NINT,
            "relations": {"type": "object", "required": ["out", "in"],
                          "properties": {"out": {"type": "array", "items": {"$ref": "#/components/schemas/Relation"}},
                                         "in": {"type": "array", "items": {"$ref": "#/components/schemas/Relation"}}}},
            "mentions": {"type": "array", "items": {"$ref": "#/components/schemas/Mention"}},
            "mentionsTotal": {"type": "integer"},
            "parts": {"type": "object", "required": list(_ENTITY_PARTS),
                      "description": "how much of each list the answer shows (each is one page)",
                      "properties": {part: {"$ref": "#/components/schemas/Part"} for part in _ENTITY_PARTS}},
            "complete": {"type": "boolean", "description": "false when any list is cut (see parts)"},
            "href": _NSTR,
            "memberships": {"type": "array", "items": {"$ref": "#/components/schemas/Membership"}},
        },
    },
    "Part": {
        "type": "object", "required": ["offset", "shown", "total", "totalExact", "next"],
        "properties": {"offset": {"type": "integer"}, "shown": {"type": "integer"},
                       "total": {"type": "integer", "description": "counted up to 1,000 (mentions: 100,000); totalExact is false there"},
                       "totalExact": {"type": "boolean"}, "next": _NSTR},
    },
    "Document": {
        "type": "object", "required": ["id", "iri", "graph", "title", "date", "dateNote", "publisher", "author"],
        "properties": {"id": _NSTR, "iri": _STR, "href": _NSTR, "graph": _NSTR, "title": _NSTR, "date": _NSTR,
                       "text": _STR,
                       "dateNote": _NSTR, "publisher": {"$ref": "#/components/schemas/Ref"},
                       "author": {"$ref": "#/components/schemas/Ref"}},
    },
    "Search": {"type": "object", "required": ["query", "items"],
               "properties": {"query": _STR,
                              "items": {"type": "array", "items": {"$ref": "#/components/schemas/EntityItem"}}}},
    "Stats": {"type": "object", "required": ["version", "counts", "entityTypes", "eventTypes", "relations"],
              "properties": {"version": _STR, "builtAt": _NSTR,
                             "counts": {"type": "object", "additionalProperties": {"type": "integer"}},
                             "entityTypes": {"type": "object", "additionalProperties": {"type": "integer"}},
                             "eventTypes": {"type": "object", "additionalProperties": {"type": "integer"}},
                             "relations": {"type": "object", "additionalProperties": {"type": "integer"}}}},
    "Health": {"type": "object", "required": ["status", "store"],
               "properties": {"status": {"enum": ["ok", "unavailable"]}, "store": {"enum": ["embedded", "remote"]},
                              "build": _NSTR, "workers": {"type": "integer"}, "worker_restarts": {"type": "integer"},
                              "in_memory": {"type": "boolean"}, "loading": _STR, "url": _STR, "problem": _STR}},
}


def _page_of(schema: str, description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": {
        "allOf": [{"$ref": "#/components/schemas/Page"},
                  {"properties": {"items": {"items": {"$ref": f"#/components/schemas/{schema}"}}}}]}}}}


def _type_param(names: tuple[str, ...], what: str) -> dict[str, Any]:
    return _param("type", "query", {"type": "string", "minLength": 1},
                  f"{what}: a class of the ontology by its local name, any case, or prefixed ({', '.join(names)}; "
                  "kgo:Person), or one of the corpus's own types as its build declared it (kgv:PER, or PER where "
                  "no kgo class has that name); subclasses included; an unknown one is a 400 listing the valid ones")


def _one(schema: str, summary: str, example: str) -> dict[str, Any]:
    """The operation that answers one item by its id."""
    return {"get": {"summary": summary, "operationId": f"get{schema}",
                    "parameters": [_param("key", "path", {"type": "string"}, f"id, e.g. {example}", True)],
                    "responses": {"200": _json(schema, f"the {schema.lower()}"), **_errors(404, 503)}}}


def _json(schema: str, description: str) -> dict[str, Any]:
    return {"description": description,
            "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}}}}


def _errors(*codes: int) -> dict[str, Any]:
    return {str(c): {"$ref": "#/components/responses/Error"} for c in codes}


def _param(name: str, where: str, schema: dict, description: str, required: bool = False) -> dict[str, Any]:
    return {"name": name, "in": where, "required": required, "schema": schema, "description": description}


_PAGING = [
    _param("limit", "query", {"type": "integer", "minimum": 1, "maximum": 500, "default": 50}, "page size"),
    _param("offset", "query", {"type": "integer", "minimum": 0, "maximum": 10**9, "default": 0}, "items to skip"),
]

_GRAPH_LIST = {"type": "array", "items": _STR}
_SPARQL_PARAMS = [
    _param("query", "query", _STR, "the SPARQL query"),
    {**_param("default-graph-uri", "query", _GRAPH_LIST, "graphs to query as the default graph (a graph this "
                                                          "dataset does not hold is empty; nothing is fetched)"),
     "style": "form", "explode": True},
    {**_param("named-graph-uri", "query", _GRAPH_LIST, "graphs to query as named graphs (a graph this dataset "
                                                        "does not hold is empty; nothing is fetched)"),
     "style": "form", "explode": True},
    _param("format", "query", _STR, "the answer's format instead of the Accept header: a media type or json, xml, "
                                    "csv, tsv, ttl, nt, nq, trig, n3, jsonld, rdfxml"),
    _param("output", "query", _STR, "the same as format"),
]
_ANSWER_TYPES = sorted({*negotiate.SOLUTION_OFFERS.values(), *negotiate.GRAPH_OFFERS.values()})
_SPARQL_RESPONSES = {
    "200": {"description": "the answer, in the negotiated format (SELECT/ASK: SPARQL results JSON by "
                           "default; CONSTRUCT/DESCRIBE and the service description: Turtle)",
            "content": {media: {"schema": {}} for media in _ANSWER_TYPES}},
    **_errors(400, 403, 406, 413, 415, 503),
}

PATHS: dict[str, Any] = {
    "/api/entities": {"get": {
        "summary": "List entities, optionally of one type", "operationId": "listEntities",
        "parameters": [_type_param(ENTITY_TYPES, "entities of this class"),
                       _param("sort", "query",
                              {"type": "string", "enum": list(ENTITY_ORDERS), "default": ENTITY_ORDERS[0]},
                              "label: by preferred label, ignoring case; mentions: the most mentioned first "
                              "(kgo:mentionCount), then by label")] + _PAGING,
        "responses": {"200": _page_of("EntityItem", "a page of entities"), **_errors(400, 503)}}},
    "/api/entities/{key}": {"get": {
        "summary": "One entity with labels, types, same-as links, relations and mentions",
        "operationId": "getEntity",
        "parameters": [_param("key", "path", {"type": "string"}, "canonical key, e.g. person/juan-guaido", True)]
        + [_param(part + "Offset", "query", {"type": "integer", "minimum": 0, "maximum": 10**9, "default": 0},
                  f"{what} to skip (each list is one page of at most 100)")
           for part, what in _ENTITY_PARTS.items()],
        "responses": {"200": _json("Entity", "the entity"), **_errors(400, 404, 503)}}},
    "/api/search": {"get": {
        "summary": "Search every label, ignoring accents and case", "operationId": "search",
        "parameters": [_param("q", "query", {"type": "string", "pattern": NOT_BLANK},
                              "text to find (not only white space)", True),
                       _param("limit", "query", {"type": "integer", "minimum": 1, "maximum": 100, "default": 20},
                              "most results")],
        "responses": {"200": _json("Search", "matching entities, best first"), **_errors(400, 503)}}},
    "/api/documents": {"get": {
        "summary": "The documents of the corpus", "operationId": "listDocuments",
        "parameters": [_param("sort", "query",
                              {"type": "string", "enum": list(DOCUMENT_ORDERS), "default": DOCUMENT_ORDERS[0]},
                              "id: by id; date: the latest first (dcterms:date), undated ones last")] + _PAGING,
        "responses": {"200": _page_of("Document", "a page of documents"), **_errors(400, 503)}}},
    "/api/documents/{slug}": {"get": {
        "summary": "One document with its whole text", "operationId": "getDocument",
        "parameters": [_param("slug", "path", {"type": "string", "pattern": _ID},
                              "document id, e.g. npr-venezuelan-armed-forces-fled or news/2019/a1 (a document in a "
                              "subfolder)", True)],
        "responses": {"200": _json("Document", "the document, with 'text'"), **_errors(404, 503)}}},
    "/api/events": {"get": {
        "summary": "Events with their date, participants and document, in date order (undated last)",
        "operationId": "listEvents", "parameters": [_type_param(EVENT_TYPES, "events of this class")] + _PAGING,
        "responses": {"200": _page_of("Event", "a page of events"), **_errors(400, 503)}}},
    "/api/timeline": {"get": {
        "summary": "Dated events in date order", "operationId": "timeline",
        "parameters": [_type_param(EVENT_TYPES, "events of this class")] + _PAGING,
        "responses": {"200": _page_of("Event", "a page of dated events"), **_errors(400, 503)}}},
    "/api/events/{key}": _one("Event", "One event with the sentences that tell it", "<document>/event/E14"),
    "/api/quotes": {"get": {
        "summary": "Quotes with their whole text, speaker, document and sentence", "operationId": "listQuotes",
        "parameters": [_param("speaker", "query", {"type": "string", "pattern": _ID},
                              "only quotes of this speaker (an id, e.g. person/juan-guaido)")] + _PAGING,
        "responses": {"200": _page_of("Quote", "a page of quotes"), **_errors(400, 503)}}},
    "/api/quotes/{key}": _one("Quote", "One quote", "<document>/quote/T28"),
    "/api/figures": {"get": {
        "summary": "Reported figures with value, qualifier, unit (none in the graph yet), source, date, document",
        "operationId": "listFigures",
        "parameters": [_param("source", "query", {"type": "string", "pattern": _ID},
                              "only figures reported by this entity (an id, e.g. organization/unhcr)")] + _PAGING,
        "responses": {"200": _page_of("Figure", "a page of figures"), **_errors(400, 503)}}},
    "/api/figures/{key}": _one("Figure", "One figure", "<document>/figure/T40"),
    "/api/neighbourhood/{key}": {"get": {
        "summary": "What an entity is linked to by facts (relations, event roles), without provenance noise",
        "operationId": "neighbourhood",
        "parameters": [_param("key", "path", {"type": "string"}, "entity id, e.g. organization/human-rights-watch",
                              True), _type_param(CLASSES, "only neighbours of this class")],
        "responses": {"200": _json("Neighbourhood", "the neighbours"), **_errors(400, 404, 503)}}},
    "/api/stats": {"get": {"summary": "Counts of what the graph holds", "operationId": "stats",
                           "responses": {"200": _json("Stats", "counts"), **_errors(503)}}},
    "/api/prefixes": {"get": {"summary": "Prefixes of the ontology", "operationId": "prefixes",
                              "responses": {"200": {"description": "prefix -> namespace IRI", "content": {
                                  "application/json": {"schema": {"type": "object",
                                                                  "additionalProperties": _STR}}}}}}},
    "/api/openapi.json": {"get": {"summary": "This description", "operationId": "openapi",
                                  "responses": {"200": {"description": "OpenAPI 3.1 document", "content": {
                                      "application/json": {"schema": {"type": "object"}}}}}}},
    "/sparql": {
        "get": {"summary": "SPARQL 1.1 query (read-only); without 'query', the service description",
                "operationId": "sparqlGet", "parameters": _SPARQL_PARAMS, "responses": _SPARQL_RESPONSES},
        "post": {"summary": "SPARQL 1.1 query in a form body or as application/sparql-query",
                 "operationId": "sparqlPost",
                 "parameters": [p for p in _SPARQL_PARAMS if p["name"] != "query"],
                 "requestBody": {"required": True, "content": {
                     "application/x-www-form-urlencoded": {"schema": {
                         "type": "object", "required": ["query"], "properties": {"query": _STR}}},
                     "application/sparql-query": {"schema": _STR}}},
                 "responses": _SPARQL_RESPONSES}},
    "/health": {"get": {"summary": "Liveness and what is served", "operationId": "health",
                        "responses": {"200": _json("Health", "serving"), "503": _json("Health", "not serving")}}},
}


def document() -> dict[str, Any]:
    """The OpenAPI document."""
    return {
        "openapi": "3.1.0",
        "info": {"title": "kg JSON API", "version": __version__,
                 "description": "Read-only JSON API over the kg knowledge graph, and its SPARQL 1.1 Protocol "
                                "endpoint at /sparql; every error has the shape of #/components/schemas/Error."},
        "paths": PATHS,
        "components": {"schemas": SCHEMAS,
                       "responses": {"Error": {"description": "an error",
                                               "content": {"application/json": {
                                                   "schema": {"$ref": "#/components/schemas/Error"}}}}}},
    }
