"""The HTML preview of an entity that a reconciliation client shows in a small frame
(templates/preview.html): its name, id, types, description, other names and mention count, and a
link to its Linked Data page. Every text is escaped by the template; the page runs no script and
may be framed by any site (OpenRefine shows it in an iframe of its own origin)."""

from __future__ import annotations

from typing import Any

from flask import Response, render_template

from kg.api.errors import ApiError
from kg.api.json_api import queries
from kg.api.json_api.store_reads import resolve, select
from kg.api.linked_data import ids
from kg.api.linked_data.page_values import href
from kg.api.services import terms
from kg.model.iris import FIXED_PREFIXES, ONTOLOGY, RDF_TYPE

WIDTH, HEIGHT = 400, 160  # pixels of the frame the manifests announce
MAX_ALIASES = 8
POLICY = ("default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; "
          "form-action 'none'; frame-ancestors *")
SKOS, RDFS = FIXED_PREFIXES["skos"], FIXED_PREFIXES["rdfs"]


def preview(entity_id: str) -> Response:
    """The preview page of the entity with this id (404 when the graph has none)."""
    page = render_template("preview.html", **card(entity_id))
    response = Response(page, mimetype="text/html")
    response.headers["Content-Security-Policy"] = POLICY
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


def flyout(entity_id: str) -> dict[str, str]:
    """0.2's flyout: the preview's body as an HTML fragment, with the id."""
    page = render_template("preview.html", **card(entity_id))
    return {"id": entity_id, "html": page[page.index("<body>") + 6:page.index("</body>")].strip()}


def card(entity_id: str) -> dict[str, Any]:
    """What the preview shows of an entity record."""
    iri = resolve(entity_id) if isinstance(entity_id, str) and entity_id else None
    rows = select(queries.entity_record(iri)) if iri else []
    if not rows:
        raise ApiError(404, f"no entity {entity_id!r}")
    by: dict[str, list[str]] = {}
    for row in rows:
        by.setdefault(row["p"], []).append(row["o"])
    name = (by.get(SKOS + "prefLabel") or by.get(RDFS + "label") or [entity_id])[0]
    aliases = sorted(set(by.get(SKOS + "altLabel", [])) - {name})
    count = by.get(ONTOLOGY + "mentionCount")
    return {"id": ids.item_id(iri) or iri, "name": name, "types": sorted(terms.type_ref(t)["name"] for t in
                                                                          by.get(RDF_TYPE, [])),
            "description": (by.get(RDFS + "comment") or [""])[0], "aliases": aliases[:MAX_ALIASES],
            "more_aliases": max(0, len(aliases) - MAX_ALIASES), "mentions": int(count[0]) if count else None,
            "page": href(iri)}
