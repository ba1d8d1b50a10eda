"""Stable ids of the JSON API: every thing of the graph has one, and it resolves.

- a canonical thing (`<base>id/person/juan-guaido`): its key, `person/juan-guaido`;
- a thing local to one document (`<base>doc/<slug>/quote/T28`): `<slug>/quote/T28`;
- a document (`<base>doc/<slug>`): `<slug>`.

An id is the IRI without its namespace, so which namespace it came from is asked of
the graph (`resolve`): the families of canonical things are whatever the build minted
(a foreign corpus's `disease/...` as well as our `person/...`), never a fixed list.
The IRI says which route describes the thing (`href`): events, quotes and figures
have their own; every other thing is an entity.
"""

from __future__ import annotations

from flask import url_for
from werkzeug.routing import PathConverter

from kg.model import iris
from kg.store.protocol import Select

ROUTES = {"event": "jsonapi.facts.event", "quote": "jsonapi.facts.quote", "figure": "jsonapi.facts.figure"}


class IdPathConverter(PathConverter):
    """`<idpath:name>`: the rest of a request path, '/' included, as the server decoded it, any
    character included (Werkzeug's `path` stops at a line break, so a document named `new\nline`,
    id `new%0Aline`, was a 404)."""

    regex = r"[^/][\s\S]*?"


def item_id(iri: str) -> str | None:
    """The id of a canonical or document-local thing, None for any other IRI."""
    if iri.startswith(iris.RESOURCE):
        return iri[len(iris.RESOURCE):] or None
    if iri.startswith(iris.DOCUMENT):
        rest = iri[len(iris.DOCUMENT):]
        return rest if "/" in rest and "#" not in rest else None
    return None


def candidates(thing_id: str) -> list[str]:
    """The IRIs an id may stand for, the canonical thing first."""
    return [iris.RESOURCE + thing_id, iris.DOCUMENT + thing_id]


def resolve(thing_id: str, select: Select) -> str | None:
    """The IRI of the thing the graph holds under this id (a canonical thing before a
    document-local one: canonical keys are one family and one slug, local ids end in a kind and
    an annotation id); None when it holds neither. `thing_id` must be a checked id (no IRI-breaking
    characters)."""
    return resolved(thing_id, select(resolve_query(thing_id)))


def resolve_query(thing_id: str) -> str:
    """Which of the id's candidate IRIs the graph holds (asked apart from `resolved`, so that a
    route can send it together with other queries)."""
    names = " ".join(f"<{iri}>" for iri in candidates(thing_id))
    return f"SELECT ?x WHERE {{ VALUES ?x {{ {names} }} FILTER EXISTS {{ ?x ?p ?o }} }}"


def resolved(thing_id: str, rows: list[dict[str, str]]) -> str | None:
    """The IRI `resolve` picks from the rows of `resolve_query`."""
    found = {row["x"] for row in rows}
    return next((iri for iri in candidates(thing_id) if iri in found), None)


def kind_of(iri: str) -> str | None:
    """'person', 'disease', ...: the family of a canonical thing; 'event', 'quote', ...: the kind of
    a document-local one; None for other IRIs."""
    thing_id = item_id(iri)
    if thing_id is None:
        return None
    parts = thing_id.split("/")
    return parts[0] if iri.startswith(iris.RESOURCE) else parts[-2]


def href(iri: str) -> str | None:
    """The route that describes the thing, None when it has no id."""
    thing_id = item_id(iri)
    if thing_id is None:
        return None
    return url_for(ROUTES.get(kind_of(iri) or "", "jsonapi.entity"), key=thing_id)


def ref(iri: str | None, label: str | None = None) -> dict[str, str | None] | None:
    """A reference to another thing: its IRI, id, label and route."""
    if not iri:
        return None
    return {"iri": iri, "id": item_id(iri), "label": label, "href": href(iri)}
