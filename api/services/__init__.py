"""The services annotation and data-cleaning tools speak: the W3C reconciliation service for
OpenRefine (version 0.2 at /reconcile, 1.0-draft at /reconcile/1.0-draft) and kg's profile as
INCEpTION's knowledge base (/inception/profile; the SPARQL INCEpTION sends is answered by /sparql,
its full-text form by api/sparql/full_text.py).

Modules:
- reconcile_v02, reconcile_v1: the routes of each version, reading its requests and shaping its answers;
- matching: candidates and scores, shared by both versions;
- suggest, preview, extension: auto-completion, the entity preview, data extension, shared too;
- terms: type and property ids and names; protocol: request parameters, batch limits, JSONP;
- knowledge_base: the knowledge-base profile for INCEpTION.

Imports kg.api.json_api (the search index, ids, answers computed once per build) and
kg.api.linked_data; nothing imports this package but the app factory.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask


def register(app: Flask) -> None:
    """Install the services' routes on the app."""
    from kg.api.services import knowledge_base, reconcile_v02, reconcile_v1

    app.register_blueprint(reconcile_v02.bp)
    app.register_blueprint(reconcile_v1.bp)
    app.register_blueprint(knowledge_base.bp)
