"""The query page at /: YASGUI with example queries one click away.

    query_page.py       the route, its template (templates/index.html) and its security headers
    examples.py         kg's own example queries
    corpus_examples.py  examples made from the served corpus's own schema
    answering.py        which of kg's own return rows on the served graph (run once per version)

It imports kg, the server's own modules (kg.api.backend, base_iri), the SPARQL lexer (kg.api.sparql)
and the JSON API's answers computed once per served version (kg.api.json_api.answers).
"""
