"""The query page at /: YASGUI with example queries one click away.

    query_page.py       the route, its template (templates/index.html) and its security headers
    examples.py         kg's own example queries
    corpus_examples.py  examples made from the served corpus's own schema

It imports kg, the server's own modules (kg.api.backend, base_iri) and the SPARQL lexer (kg.api.sparql).
"""
