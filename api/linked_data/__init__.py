"""Linked Data: every IRI minted under the base IRI dereferences on this server, as RDF or as a page.

    dereference.py       the routes of the base IRI's paths, with content negotiation
    describe.py          the SPARQL that describes one IRI
    resource_page.py     the HTML page a browser gets for an IRI (templates/resource.html)
    statement_groups.py  a page's statements as a reader says them, grouped by the sentences that state them
    page_values.py       how a page shows a term: its text and its link
    ids.py               the stable ids of things, and the IRIs they resolve to
    void.py              the VoID description at /.well-known/void

It imports kg, the shared modules of kg.api (backend, request_life, build_answers, base_iri,
errors, negotiate) and the endpoint's predefined prefixes (kg.api.sparql.syntax).
"""
