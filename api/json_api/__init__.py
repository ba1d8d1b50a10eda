"""The JSON API under /api: entities, search, documents, events, timeline, quotes, figures, stats, health.

    routes.py      entities, search, documents, stats, health
    facts.py       events, timeline, quotes, figures and neighbourhoods
    answers.py     what the routes share: the request's store, paging, titles, answers computed once per build
    background.py  work a request starts and later requests wait for, one thread per key
    queries.py     the SPARQL behind the routes, written against docs/model.md
    classes.py     the classes the `type` parameters accept, and the orders of the lists
    search.py      the search index of the build being served
    openapi.py     the OpenAPI 3.1 description at /api/openapi.json

It imports kg, the server's own modules (kg.api.backend, errors) and the ids of kg.api.linked_data.
"""
