"""The query page at /: YASGUI with example queries one click away.

    query_page.py       the route and its template (templates/index.html)
    examples.py         kg's own example queries
    corpus_examples.py  examples made from the served corpus's own schema
    answering.py        which of kg's own return rows on the served graph (run once per version)

It imports kg and the shared modules of kg.api (app_state, request_life, base_iri, build_answers).
"""
