"""Real servers in child processes, for tests and benchmarks (never used by a build or by `kg serve`).

    servers.py         `kg serve` and other servers in child processes, with their logs
    sparql_servers.py  SPARQL servers to try a remote store on: `oxigraph serve` and Virtuoso
"""
