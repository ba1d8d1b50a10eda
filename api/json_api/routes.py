"""The JSON API for tools and pages: entities, search, documents, stats, health
(events, timeline, quotes, figures and neighbourhoods: api/json_api/facts.py).

Every answer is JSON; every error is the one shape of api/errors.py. The
OpenAPI description of these routes is api/json_api/openapi.py, served here too.
"""

from __future__ import annotations

import time
from typing import Any, Callable

from flask import Blueprint, Response, g, jsonify, request, url_for

from kg.api.app_state import app_state
from kg.api.build_answers import cached
from kg.api.json_api import facts, openapi, queries
from kg.api.json_api.classes import DOCUMENT_ORDERS, ENTITY_ORDERS, ENTITY_TYPES
from kg.api.json_api.corpus_terms import class_iri, type_arg
from kg.api.json_api.params import MAX_OFFSET, int_arg, paged, paging
from kg.api.json_api.store_reads import add_titles, doc_id, documents_of, select, select_many, type_names
from kg.api.linked_data import ids
from kg.api.request_life import pinned_backend
from kg.errors import ApiError, PoolBusy, StoreError
from kg.model import iris
from kg.model.iris import FIXED_PREFIXES, ONTOLOGY, RDF_TYPE, term_name
from kg.publish.names import natural_key
from kg.publish.stats import graph_stats
from kg.settings import limit

bp = Blueprint("jsonapi", __name__)
bp.register_blueprint(facts.bp)
HEALTH_WAIT = limit("health_wait")
SEARCH_SIZE = limit("search_size")


@bp.record_once
def _start(setup: Any) -> None:
    """When the app is made: read the served build's search index in the background."""
    state = app_state(setup.app)
    state.search.warm(state.backend)


@bp.get("/api/entities")
def entities() -> Response:
    """Entities, optionally of one type (a class of the ontology, with its subclasses, any case; or one
    of the corpus's own), by label or (`sort=mentions`) the most mentioned first."""
    type_name = type_arg(ENTITY_TYPES, events=False)
    order = _choice_arg("sort", ENTITY_ORDERS)
    limit, offset = paging()
    keys = _entity_keys(type_name, order)
    page = keys[offset:offset + limit]
    rows = select(queries.entity_page(sorted({e for e, _ in page}))) if page else []
    found = {(r["e"], r["label"]): r for r in rows}
    items = [_entity_item(e, label, found[e, label].get("types", ""), found[e, label].get("mentions"))
             for e, label in page if (e, label) in found]
    return jsonify(paged(len(keys), limit, offset, items, "jsonapi.entities", type=type_name,
                         sort=None if order == ENTITY_ORDERS[0] else order))


@bp.get("/api/entities/<idpath:key>")
def entity(key: str) -> Response:
    """One entity (or any other thing with an id): labels, types, same-as links, memberships with their
    roles, relations in and out with their sources, mentions. Each of the last four lists is one page of
    at most PART_LIMIT items (`<part>Offset` asks for another); `parts` says of each how many there are
    and where the next page is, and `complete` is false when any list is cut.

    Two trips to a query worker whatever the entity (three for a document-local thing): the id's IRI
    together with the canonical thing's record and pages, then the titles and the counts of cut lists.
    Under load every trip waits for a free worker, and one query after another (up to 11) made this
    route's p99 three times its queries' own time at 10,000 articles."""
    offsets = {part: int_arg(part + "Offset", 0, 0, MAX_OFFSET) for part in ENTITY_PARTS}
    key = iris.id_argument(key)
    if not iris.is_path_of_ids(key):
        raise ApiError(404, f"no entity {key!r}")
    canonical = ids.candidates(key)[0]
    first = select_many([ids.resolve_query(key), *_entity_queries(canonical, offsets)])
    iri = ids.resolved(key, first[0])
    answers = first[1:] if iri == canonical else select_many(_entity_queries(iri, offsets)) if iri else []
    if not answers or not answers[0]:
        raise ApiError(404, f"no entity {key!r}")
    body = _record(iri, answers[0])
    rows = dict(zip(ENTITY_PARTS, answers[1:]))
    shown = {part: _first_items(rows[part], unit, PART_LIMIT) for part, (_, unit) in ENTITY_PARTS.items()}
    cut = [part for part, (_, unit) in ENTITY_PARTS.items() if offsets[part] or _units(rows[part], unit) > PART_LIMIT]
    titled = shown["out"] + shown["in"] + shown["mentions"]
    docs = documents_of(titled)
    second = select_many(([queries.titles(docs)] if docs else []) + [_COUNTS[p](iri, COUNT_CAPS[p]) for p in cut])
    add_titles(titled, second.pop(0) if docs else [])
    totals = {part: int(answer[0].get("n", 0)) if answer else 0 for part, answer in zip(cut, second)}
    body["memberships"] = _memberships(shown["memberships"])
    body["relations"] = {"out": _relations(shown["out"], "object"), "in": _relations(shown["in"], "subject")}
    body["mentions"] = [_mention(r) for r in sorted(shown["mentions"], key=_text_order)]
    body["parts"] = {part: _part(key, part, offsets[part], _units(rows[part], unit), totals.get(part))
                     for part, (_, unit) in ENTITY_PARTS.items()}
    body["mentionsTotal"] = body["parts"]["mentions"]["total"]
    body["complete"] = all(p["offset"] == 0 and p["next"] is None for p in body["parts"].values())
    return jsonify(body)


def _entity_queries(iri: str, offsets: dict[str, int]) -> list[str]:
    """The record of `iri` (a canonical thing's from the entity records, another's from its own
    triples), then one page of each part (a row more than shown, to tell whether it is cut)."""
    record = queries.entity_record(iri) if iri.startswith(iris.RESOURCE) else queries.node_record(iri)
    return [record, *(page(iri, PART_LIMIT + 1, offsets[part]) for part, (page, _) in ENTITY_PARTS.items())]


PART_LIMIT = limit("entity_part")
# A part's items are counted up to its cap (the count stops there). Statements and memberships take
# joins to count (7,000 statements: 0.3-0.7 s at 10,000 articles); mentions one index scan (8,300: 10 ms).
COUNT_CAPS = {"memberships": 1_000, "out": 1_000, "in": 1_000, "mentions": 100_000}
ENTITY_PARTS: dict[str, tuple[Callable[[str, int, int], str], str]] = {
    "memberships": (queries.memberships, "ms"), "out": (queries.relations_out, "st"),
    "in": (queries.relations_in, "st"), "mentions": (queries.mentions, "m")}
_COUNTS: dict[str, Callable[[str, int], str]] = {
    "memberships": queries.membership_count, "out": lambda e, cap: queries.relation_count(e, "out", cap),
    "in": lambda e, cap: queries.relation_count(e, "in", cap), "mentions": queries.mention_count}


def _units(rows: list[dict[str, str]], unit: str) -> int:
    """How many distinct `unit`s (statements, memberships, mentions) the rows hold."""
    return len({row[unit] for row in rows})


def _first_items(rows: list[dict[str, str]], unit: str, limit: int) -> list[dict[str, str]]:
    """The rows of the first `limit` distinct `unit`s (a statement or membership may take several rows)."""
    kept: dict[str, None] = {}
    out = []
    for row in rows:
        if row[unit] not in kept and len(kept) == limit:
            continue
        kept[row[unit]] = None
        out.append(row)
    return out


def _part(key: str, part: str, offset: int, units: int, counted: int | None) -> dict[str, Any]:
    """How much of one part the answer shows: offset, shown, total (`counted` up to its COUNT_CAPS,
    `totalExact` false there; None when the part is shown whole) and the URL of the next page
    (None on the last)."""
    more = units > PART_LIMIT
    shown = min(units, PART_LIMIT)
    total = shown if counted is None else counted
    nxt = url_for("jsonapi.entity", key=key, **{part + "Offset": offset + PART_LIMIT}) if more else None
    return {"offset": offset, "shown": shown, "total": total, "totalExact": total < COUNT_CAPS[part], "next": nxt}


def _text_order(row: dict[str, str]) -> tuple:
    return natural_key(row["doc"]), int(row.get("begin") or 0), natural_key(row["m"])


@bp.get("/api/search")
def search() -> Response:
    """Entities whose label (any of them) contains `q`, ignoring accents and case; a thing local to one
    document (a description, a caseless script's single mention) is marked `local`, with its document."""
    text = request.args.get("q", "")
    if not text.strip():
        raise ApiError(400, "missing or empty 'q' parameter")
    limit = int_arg("limit", 20, 1, SEARCH_SIZE)
    index = app_state().search.get(pinned_backend(), g.deadline)
    items = []
    for hit in index.search(text, limit, g.deadline):
        summary = hit.summary
        item = _entity_item(hit.entity, summary.label if summary else hit.label,
                            " ".join(summary.types) if summary else "", summary.mentions if summary else None)
        item.update(matched=hit.label, matchedAs=hit.kind, rank=hit.rank)
        if hit.document is not None:  # a thing local to one document (a description): no shared entity
            item.update(local=True, document={"id": ids.item_id(hit.document), "href": ids.href(hit.document)})
        items.append(item)
    return jsonify({"query": text, "items": items})


@bp.get("/api/documents")
def documents() -> Response:
    """The news articles of the corpus, by id or (`sort=date`) the latest first, undated ones last.
    The order is computed once per build (api/json_api/queries.py says why), so a page costs the same at any
    size: the latest 20 articles by SPARQL (ORDER BY DESC(?date) LIMIT 20) took 1.4 s at 10,000."""
    order = _choice_arg("sort", DOCUMENT_ORDERS)
    limit, offset = paging()
    keys = cached(f"documents by {order}", _by_date if order == "date" else _by_id)
    page = keys[offset:offset + limit]
    found = {r["doc"]: r for r in select(queries.documents(page))} if page else {}
    items = [_document(found[doc]) for doc in page if doc in found]
    return jsonify(paged(len(keys), limit, offset, items, "jsonapi.documents",
                         sort=None if order == DOCUMENT_ORDERS[0] else order))


def _by_id(deadline: float) -> list[str]:
    return sorted((r["doc"] for r in select(queries.DOCUMENT_KEYS, deadline)), key=natural_key)


def _by_date(deadline: float) -> list[str]:
    """Every article, the latest first (ISO dates sort as text), undated ones last, then by IRI."""
    rows = sorted(select(queries.DOCUMENT_DATES, deadline), key=lambda r: natural_key(r["doc"]))
    rows.sort(key=lambda r: r.get("date", ""), reverse=True)
    return [r["doc"] for r in rows]


@bp.get("/api/documents/<idpath:slug>")
def document(slug: str) -> Response:
    """One article with its whole text; `slug` is its id (escaped once, as in the href the API gives)
    or its path in the corpus (kg.model.iris.id_argument)."""
    slug = iris.id_argument(slug)
    doc = iris.DOCUMENT + slug
    rows = select(queries.documents([doc])) if iris.is_path_of_ids(slug) else []
    text = select(queries.document_text(doc)) if rows else []
    if not text:
        raise ApiError(404, f"no document {slug!r}")
    body = _document(rows[0])
    body["text"] = text[0]["text"]
    return jsonify(body)


@bp.get("/api/stats")
def stats() -> Response:
    """Counts of what the graph holds (computed once per build)."""
    return jsonify(cached("stats", _compute_stats))


@bp.get("/api/openapi.json")
def openapi_json() -> Response:
    return jsonify(openapi.document())


@bp.get("/api/prefixes")
def prefixes() -> Response:
    """The prefixes of the ontology (the query page's editor completes them)."""
    return jsonify(iris.PREFIXES)


@bp.get("/health")
def health() -> Response:
    """Liveness and what is served; 503 while there is nothing to serve."""
    g.deadline = min(g.deadline, time.monotonic() + HEALTH_WAIT)
    try:
        info = pinned_backend().health()
    except (StoreError, PoolBusy):  # nothing built, or the first build still loading
        info = app_state().backend.health()
    ok = info.get("build") is not None or info.get("store") == "remote"
    if info.get("store") == "remote":
        try:
            pinned_backend().graphs(min(g.deadline, time.monotonic() + 2.0))
        except Exception as exc:  # any failure to reach the store is "unavailable"
            ok, info["problem"] = False, str(exc)
    elif info.get("workers", 0) < 1:
        ok = False
    info["status"] = "ok" if ok else "unavailable"
    response = jsonify(info)
    response.status_code = 200 if ok else 503
    return response


# -- helpers ---------------------------------------------------------------

def _choice_arg(name: str, valid: tuple[str, ...]) -> str:
    """A parameter that takes one of a few words (the first by default); a 400 listing them else."""
    raw = request.args.get(name, valid[0])
    if raw not in valid:
        raise ApiError(400, f"'{name}' must be one of: {', '.join(valid)}", valid=list(valid))
    return raw


def _entity_keys(type_name: str | None, order: str) -> list[tuple[str, str]]:
    """(entity, label) pairs of a type, in page order: by label ignoring case, or by mentions, most
    first (then by label); then IRI."""

    def compute(deadline: float) -> list[tuple[str, str]]:
        rows = select(queries.entity_keys(class_iri(type_name) if type_name else None), deadline)
        by_label = sorted(rows, key=lambda r: (natural_key(r["label"].lower()), natural_key(r["e"])))
        if order == "mentions":
            by_label.sort(key=lambda r: -int(float(r.get("mentions") or 0)))
        return [(r["e"], r["label"]) for r in by_label]

    return cached(f"entities of type {type_name} by {order}", compute)


def _compute_stats(deadline: float) -> dict[str, Any]:
    backend = pinned_backend()
    manifest = backend.manifest()
    kept = manifest.get("quads")  # the build's own count: counting reads the whole store
    stats = graph_stats(lambda sparql: select(sparql, deadline), backend.graphs(deadline),
                        kept if isinstance(kept, int) else None)
    return {"version": backend.version(), **stats, "builtAt": manifest.get("built_at") or manifest.get("created")}


def _entity_item(iri: str, label: str, types: str, mentions: Any) -> dict[str, Any]:
    return {"id": ids.item_id(iri), "iri": iri, "label": label, "types": type_names(types.split()),
            "mentions": int(mentions) if mentions not in (None, "") else None, "href": ids.href(iri)}


def _record(iri: str, rows: list[dict[str, str]]) -> dict[str, Any]:
    by: dict[str, list[str]] = {}
    for row in rows:
        by.setdefault(row["p"], []).append(row["o"])
    skos = FIXED_PREFIXES["skos"]
    pref = by.get(skos + "prefLabel", [""])[0]
    count = by.get(ONTOLOGY + "mentionCount")
    return {
        "id": ids.item_id(iri), "iri": iri, "href": ids.href(iri), "label": pref,
        "labels": {"preferred": pref,
                   "alternative": sorted(set(by.get(skos + "altLabel", []))),
                   "hidden": sorted(set(by.get(skos + "hiddenLabel", [])))},
        "types": type_names(by.get(RDF_TYPE, [])),
        "sameAs": sorted(set(by.get(FIXED_PREFIXES["owl"] + "sameAs", []))),
        "mentionCount": int(count[0]) if count else None,
    }


def _relations(rows: list[dict[str, str]], side: str) -> list[dict[str, Any]]:
    """Group statement rows by (predicate, other end), collecting their sources."""
    grouped: dict[tuple[str, str], dict[str, Any]] = {}
    for row in rows:
        key = (row["p"], row["other"])
        if key not in grouped:
            grouped[key] = {"predicate": term_name(row["p"]), "predicateIri": row["p"],
                            side: ids.ref(row["other"], row.get("otherLabel")),
                            "sources": []}
        if "doc" in row:
            source = {"document": doc_id(row["doc"]), "documentIri": row["doc"],
                      "title": row.get("title"), "sentence": row.get("sentence")}
            if source not in grouped[key]["sources"]:
                grouped[key]["sources"].append(source)
    return list(grouped.values())


def _mention(row: dict[str, str]) -> dict[str, Any]:
    return {"iri": row["m"], "text": row["text"],
            "begin": int(row["begin"]) if "begin" in row else None,
            "end": int(row["end"]) if "end" in row else None,
            "sentence": row.get("sentence"),
            "document": {"id": doc_id(row["doc"]), "iri": row["doc"], "title": row.get("title")}}


def _document(row: dict[str, str]) -> dict[str, Any]:
    slug = doc_id(row["doc"])
    return {"id": slug, "iri": row["doc"], "href": url_for("jsonapi.document", slug=slug) if slug else None, "graph": iris.GRAPH + slug if slug else None,
            "title": row.get("title"), "date": row.get("date"), "dateNote": row.get("dateNote"),
            "publisher": _ref(row, "publisher"), "author": _ref(row, "author")}


def _ref(row: dict[str, str], name: str) -> dict[str, Any] | None:
    return ids.ref(row.get(name), row.get(name + "Label"))


def _memberships(rows: list[dict[str, str]]) -> list[dict[str, Any]]:
    """One item per kgo:Membership: member, organization and role together, with the document."""
    return [{"id": ids.item_id(r["ms"]), "member": _ref(r, "member"), "organization": _ref(r, "organization"),
             "role": _ref(r, "role"), "document": doc_id(r["doc"]) if "doc" in r else None}
            for r in sorted(rows, key=lambda r: (natural_key(r.get("organizationLabel", "")),
                                                 natural_key(r.get("roleLabel", "")), natural_key(r["ms"])))]





