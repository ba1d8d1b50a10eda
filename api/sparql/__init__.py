"""The SPARQL 1.1 endpoint at /sparql: how a query is read, checked and answered.

    endpoint.py             the /sparql route (Protocol GET and POST; a browser's GET gets the query page)
    protocol.py             reading a SPARQL 1.1 Protocol request: query, dataset, Accept
    syntax.py               predefined prefixes, and syntax errors a reader can act on
    service_description.py  the Service Description sent on GET /sparql without a query
    label_filters.py        a FILTER on a label put in a group with its triple (label search without full text)
    full_text.py            Jena's text:query (INCEpTION's full-text search) answered from the search index
    name_filters.py         the FILTERs on a text:query's matched name applied to its answer
    known_restrictions.py   the FILTER [NOT] EXISTS on a text:query's subject decided before the engine runs
    record_lookups.py       the OPTIONAL lookups of a text:query's subject (label, description) bound in its answer

The lexer that sees what a query is before any engine runs it is kg.store.sparql_lexer; the query
runs in the backend (kg.api.backend: workers, execute) under the request's deadline.

It imports kg, the shared modules of kg.api (backend, request_life, errors, negotiate, base_iri)
and the query page (kg.api.page), which a browser's GET of /sparql?query= gets.
"""
