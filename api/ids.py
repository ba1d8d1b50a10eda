"""Stable ids of the JSON API: every thing of the graph has one, and it resolves.

- a canonical thing (`https://kg.example.org/id/person/juan-guaido`): its key, `person/juan-guaido`;
- a thing local to one document (`https://kg.example.org/doc/<slug>/quote/T28`): `<slug>/quote/T28`;
- a document (`https://kg.example.org/doc/<slug>`): `<slug>`.

The id says which route describes the thing (`href`): events, quotes and
figures have their own; every other thing is an entity.
"""

from __future__ import annotations

from flask import url_for

from kg import iris

FAMILIES = frozenset({"person", "organization", "place", "event", "date", "role", "post"})
ROUTES = {"event": "jsonapi.facts.event", "quote": "jsonapi.facts.quote", "figure": "jsonapi.facts.figure"}


def item_id(iri: str) -> str | None:
    """The id of a canonical or document-local thing, None for any other IRI."""
    if iri.startswith(iris.RESOURCE):
        return iri[len(iris.RESOURCE):] or None
    if iri.startswith(iris.DOCUMENT):
        rest = iri[len(iris.DOCUMENT):]
        return rest if "/" in rest and "#" not in rest else None
    return None


def iri_of(thing_id: str) -> str:
    """The IRI an id stands for (the inverse of item_id)."""
    family = thing_id.partition("/")[0]
    return (iris.RESOURCE if family in FAMILIES else iris.DOCUMENT) + thing_id


def kind_of(thing_id: str) -> str:
    """'event', 'quote', 'figure', 'person', ...: the family of a key, the kind of a local thing."""
    parts = thing_id.split("/")
    return parts[0] if parts[0] in FAMILIES or len(parts) < 2 else parts[1]


def href(iri: str) -> str | None:
    """The route that describes the thing, None when it has no id."""
    thing_id = item_id(iri)
    if thing_id is None:
        return None
    return url_for(ROUTES.get(kind_of(thing_id), "jsonapi.entity"), key=thing_id)


def ref(iri: str | None, label: str | None = None) -> dict[str, str | None] | None:
    """A reference to another thing: its IRI, id, label and route."""
    if not iri:
        return None
    return {"iri": iri, "id": item_id(iri), "label": label, "href": href(iri)}
