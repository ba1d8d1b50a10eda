"""The JSON API under /api: entities, search, documents, events, timeline, quotes, figures, stats, health.

    routes.py       entities, search, documents, stats, health
    facts.py        events, timeline, quotes, figures and neighbourhoods
    store_reads.py  what the routes read from the request's pinned build: rows, ids' IRIs, titles
    params.py       the routes' parameters, read strictly, and the shape of a paged list
    queries.py      the SPARQL behind the routes, written against docs/model.md
    classes.py      the classes the `type` parameters accept, and the orders of the lists
    openapi.py      the OpenAPI 3.1 description at /api/openapi.json

It imports kg, the shared modules of kg.api (app_state, request_life, build_answers, errors,
negotiate) and the ids of kg.api.linked_data.
"""
