"""The SPARQL 1.1 endpoint at /sparql: how a query is read, admitted, run under a real time limit and answered.

    endpoint.py             the /sparql route (Protocol GET and POST; a browser's GET gets the query page)
    protocol.py             reading a SPARQL 1.1 Protocol request: query, dataset, Accept
    lexer.py                a small lexer that sees what a query is before any engine runs it
    syntax.py               predefined prefixes, and syntax errors a reader can act on
    admission.py            what a flood of requests may take of the request threads and the CPU
    handoff.py              idle query workers handed to waiting request threads, first come, first served
    workers.py              query worker processes with a real time limit (also the child's side)
    execute.py              one query against a store, with the row cap
    service_description.py  the Service Description sent on GET /sparql without a query

It imports kg and the server's own modules (kg.api.backend, errors, negotiate); the route also draws the
query page (kg.api.page) and names the VoID dataset (kg.api.linked_data.void). workers.py runs in the
query worker processes: nothing here imports Flask at package level.
"""
