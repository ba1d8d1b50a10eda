"""The JSON API's events, timeline, quotes, figures and neighbourhoods.

Lists are paged over keys read and sorted once per build (api/json_api/queries.py
says why); a page's details are then asked for with VALUES. Every item has
an id that resolves at its `href` (api/linked_data/ids.py).
"""

from __future__ import annotations

from typing import Any, Callable

from flask import Blueprint, Response, jsonify, request, url_for

from kg.api.build_answers import cached
from kg.api.errors import ApiError
from kg.api.json_api import queries
from kg.api.json_api.classes import CLASSES, EVENT_TYPES
from kg.api.json_api.corpus_terms import class_iri, corpus_properties, type_arg
from kg.api.json_api.params import paged, paging
from kg.api.json_api.store_reads import add_titles, doc_id, resolve, select, select_many, type_names
from kg.api.linked_data import ids
from kg.model import iris as kg_iris
from kg.model.iris import ONTOLOGY, id_argument, is_path_of_ids
from kg.publish.names import natural_key, prefixed_name

bp = Blueprint("facts", __name__)


@bp.get("/api/events")
def events() -> Response:
    """Events (of one class, any case), in date order, undated ones last."""
    type_name = type_arg(EVENT_TYPES, events=True)
    return _event_list(_event_keys(type_name), "jsonapi.facts.events", type=type_name)


@bp.get("/api/timeline")
def timeline() -> Response:
    """Dated events only, in date order."""
    type_name = type_arg(EVENT_TYPES, events=True)
    keys = [k for k in _event_keys(type_name) if k[0]]
    return _event_list(keys, "jsonapi.facts.timeline", type=type_name)


@bp.get("/api/events/<idpath:key>")
def event(key: str) -> Response:
    """One event with its date, participants and the sentence that tells it."""
    return _one(key, "event", lambda iris: _events(iris, evidence=True))


@bp.get("/api/quotes")
def quotes() -> Response:
    """Quotes with their whole text, speaker, document and sentence; `speaker` filters by the speaker's id."""
    return _listing("Quote", "saidBy", "speaker", _quotes, "jsonapi.facts.quotes")


@bp.get("/api/quotes/<idpath:key>")
def quote(key: str) -> Response:
    return _one(key, "quote", _quotes)


@bp.get("/api/figures")
def figures() -> Response:
    """Reported figures: value, qualifier, unit, source, date, document and sentence; `source` filters by
    the reporting entity's id. Figures are never merged: each claim is its own item."""
    return _listing("Figure", "reportedBy", "source", _figures, "jsonapi.facts.figures")


@bp.get("/api/figures/<idpath:key>")
def figure(key: str) -> Response:
    return _one(key, "figure", _figures)


@bp.get("/api/neighbourhood/<idpath:key>")
def neighbourhood(key: str) -> Response:
    """What an entity is directly linked to by facts (relations both ways, events it has a role in;
    kgo's and the corpus's own), without provenance records or mentions: each neighbour once, with the links and how often stated;
    `type` keeps the neighbours of one class (any case)."""
    type_name = type_arg(CLASSES)
    iri = resolve(key)
    center = select(queries.summaries([iri])) if iri else []
    if not center:
        raise ApiError(404, f"no entity {key!r}")
    rows = select(queries.neighbourhood(iri, corpus_properties()))
    others = sorted({r["other"] for r in rows if ids.item_id(r["other"])})
    found = {r["x"]: r for r in select(queries.summaries(others))} if others else {}
    neighbours: dict[str, dict[str, Any]] = {}
    for row in rows:
        other = row["other"]
        if other not in found or (type_name and class_iri(type_name) not in found[other]["types"].split()):
            continue  # a literal, a thing without an id, or not of the type asked for
        item = neighbours.setdefault(other, {**_summary(other, found[other]), "links": []})
        item["links"].append({"predicate": _name_of(row["p"]), "direction": row["direction"],
                              "statements": int(row["n"])})
    return jsonify({"entity": _summary(iri, center[0]), "neighbours": list(neighbours.values())})


# -- helpers ---------------------------------------------------------------

def _listing(class_name: str, prop: str, arg: str, describe: Callable[[list[str]], list[dict[str, Any]]],
             endpoint: str) -> Response:
    """A page of the instances of a class, all of them (keys read once per build) or those whose
    `prop` is the entity named by the request's `arg`."""
    value = _id_arg(arg)
    limit, offset = paging()
    if value:
        entity = resolve(value)
        keys = sorted((r["x"] for r in select(queries.instances(class_name, prop, entity))),
                      key=natural_key) if entity else []
    else:
        keys = cached(class_name, lambda deadline: sorted(
            (r["x"] for r in select(queries.instances(class_name), deadline)), key=natural_key))
    page = keys[offset:offset + limit]
    return jsonify(paged(len(keys), limit, offset, describe(page), endpoint, **{arg: value}))


def _one(key: str, kind: str, describe: Callable[[list[str]], list[dict[str, Any]]]) -> Response:
    iri = resolve(key)
    items = describe([iri]) if iri else []
    if not items:
        raise ApiError(404, f"no {kind} {key!r}")
    return jsonify(items[0])


def _id_arg(name: str) -> str | None:
    value = request.args.get(name)
    value = None if value is None else id_argument(value)
    if value is not None and not is_path_of_ids(value):
        raise ApiError(400, f"'{name}' must be an id such as person/juan-guaido")
    return value


def _event_keys(type_name: str | None) -> list[tuple[str, str]]:
    """(date, event) pairs in date order (undated last), once per build and type."""
    def compute(deadline: float) -> list[tuple[str, str]]:
        dates: dict[str, str] = {}
        for row in select(queries.event_keys(class_iri(type_name or "Event")), deadline):  # an event stated with two dates: the first
            date = row.get("date", "")
            if row["e"] not in dates or (date and (not dates[row["e"]] or date < dates[row["e"]])):
                dates[row["e"]] = date
        return sorted(((d, e) for e, d in dates.items()), key=lambda p: (p[0] == "", p[0], natural_key(p[1])))

    return cached(f"events of type {type_name or 'Event'}", compute)


def _event_list(keys: list[tuple[str, str]], endpoint: str, **args: Any) -> Response:
    limit, offset = paging()
    page = [e for _, e in keys[offset:offset + limit]]
    return jsonify(paged(len(keys), limit, offset, _events(page), endpoint, **args))


def _events(iris: list[str], evidence: bool = False) -> list[dict[str, Any]]:
    if not iris:
        return []
    asked = [queries.event_page(iris), queries.event_roles(iris)] + ([queries.evidence(iris)] if evidence else [])
    page, role_rows, *evidence_rows = select_many(asked)  # one trip: the rows of things not events are dropped
    found = {r["e"]: r for r in page if "label" in r or "types" in r}
    found = {e: r for e, r in found.items() if ONTOLOGY + "Event" in r.get("types", "").split()}
    roles: dict[str, list[dict[str, Any]]] = {}
    for row in role_rows:
        roles.setdefault(row["e"], []).append({"role": _name_of(row["role"]), "predicate": prefixed_name(row["role"]),
                                               **ids.ref(row["who"], row.get("label"))})
    sentences = _sentences(evidence_rows[0]) if evidence else {}
    items = []
    for e in iris:
        if e not in found:
            continue
        row = found[e]
        item = {**_summary(e, row), "date": row.get("date"), "document": _doc_ref(row.get("doc")),
                "negated": row.get("negated") == "true", "speculated": row.get("speculated") == "true",
                "participants": sorted(roles.get(e, []), key=lambda p: (
                    natural_key(p["role"]), natural_key(p["label"] or ""), natural_key(p["iri"])))}
        if evidence:
            item["sentences"] = sentences.get(e, [])
        items.append(item)
    return _titled(items)


def _quotes(iris: list[str]) -> list[dict[str, Any]]:
    if not iris:
        return []
    page, evidence_rows = select_many([queries.quote_page(iris), queries.evidence(iris)])
    found = {r["x"]: r for r in page if "text" in r}
    sentences = _sentences(evidence_rows)
    return _titled([{"id": ids.item_id(q), "iri": q, "href": ids.href(q), "text": found[q]["text"],
             "speaker": ids.ref(found[q].get("speaker"), found[q].get("speakerLabel")),
             "document": _doc_ref(found[q].get("doc")), "sentence": (sentences.get(q) or [None])[0]}
            for q in iris if q in found])


def _figures(iris: list[str]) -> list[dict[str, Any]]:
    if not iris:
        return []
    page, evidence_rows = select_many([queries.figure_page(iris), queries.evidence(iris)])
    found = {r["x"]: r for r in page if "label" in r}
    sentences = _sentences(evidence_rows)
    items = []
    for f in iris:
        if f not in found:
            continue
        row = found[f]
        items.append({"id": ids.item_id(f), "iri": f, "href": ids.href(f), "label": row["label"],
                      "value": _number(row.get("value")), "qualifier": row.get("qualifier"), "unit": None,
                      "source": ids.ref(row.get("source"), row.get("sourceLabel")),
                      "date": row.get("asOfValue"), "dateRef": ids.ref(row.get("asOf")),
                      "document": _doc_ref(row.get("doc")), "sentence": (sentences.get(f) or [None])[0]})
    return _titled(items)


def _name_of(prop: str) -> str:
    """A role or relation by its name: kgo's as kgo names them (agent), the corpus's as its
    annotation.conf or layer spells them (Imposer); any other as a prefixed name."""
    for namespace in (ONTOLOGY, kg_iris.VOCABULARY):
        if prop.startswith(namespace):
            return prop[len(namespace):]
    return prefixed_name(prop)


def _sentences(rows: list[dict[str, str]]) -> dict[str, list[str]]:
    """The sentences that state each thing, in text order, from the rows of queries.evidence."""
    found: dict[str, list[tuple[int, str]]] = {}
    for row in rows:
        found.setdefault(row["x"], []).append((int(row.get("begin") or 0), row["sentence"]))
    return {x: list(dict.fromkeys(s for _, s in sorted(pairs))) for x, pairs in found.items()}


def _summary(iri: str, row: dict[str, str]) -> dict[str, Any]:
    return {"id": ids.item_id(iri), "iri": iri, "href": ids.href(iri), "label": row.get("label"),
            "types": type_names(row.get("types", "").split())}


def _doc_ref(doc: str | None) -> dict[str, Any] | None:
    """A reference to a document; its title is filled in by _titled, for a whole page at once."""
    if not doc:
        return None
    slug = doc_id(doc)
    return {"id": slug, "iri": doc, "title": None, "href": url_for("jsonapi.document", slug=slug) if slug else None}


def _titled(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Set the title of every item's document, asking the store once."""
    refs = [item["document"] for item in items if item.get("document")]
    rows = [{"doc": ref["iri"]} for ref in refs]
    add_titles(rows)
    for ref, row in zip(refs, rows):
        ref["title"] = row.get("title")
    return items


def _number(value: str | None) -> int | float | None:
    if value is None:
        return None
    number = float(value)
    return int(number) if number.is_integer() else number
