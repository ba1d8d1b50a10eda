"""Where a built graph lives and how it is queried: embedded Oxigraph, or a SPARQL 1.1 server.

    build_dirs.py where a build lives under the data directory, and how a new one replaces the old
    embedded.py   the GraphStore interface and the embedded Oxigraph store
    remote/       the same interface over HTTP, its engines, and the push of a build
    terms.py      rdflib terms from Oxigraph's terms and from SPARQL JSON results
    memo.py       the one cache convention for values computed from data that can change

May import kg.errors, kg.settings, kg.model.iris and kg.formats.rdf_syntaxes; the remote store writes
exports with kg.publish.export's sections.
"""
