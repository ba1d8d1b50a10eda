"""Where the endpoint's answers come from: the embedded store of the current build, queried in
query worker processes with a real time limit, or a remote SPARQL 1.1 server.

    protocol.py        Backend: what the routes ask of either (each call bounded by a deadline); make_backend
    embedded.py        the current build's store through a pool of query workers; a request's pinned build
    remote.py          a remote SPARQL server, queried in the request thread
    workers.py         the pool of query worker processes with a real time limit (the server's side)
    worker_handles.py  the template and a forked worker as the pool sees them (start, fork, kill, last words)
    worker_process.py  the workers' side: the template process that opens the graph once, and the workers forked from it
    execute.py         one query against a store, with the row cap
    handoff.py         idle workers (or reading slots) handed to waiting threads, first come, first served
                       (a client running its share of long queries behind the others)
    background.py      work a request starts and later requests wait for, one thread per key
    search_indexes.py  the search index of each served version, read or computed in the background

It imports kg only: no Flask (worker_process.py runs in the query worker processes). The routes
reach a backend through kg.api.request_life.pinned_backend.
"""
