"""Where a built graph lives and how it is queried: embedded Oxigraph, or a SPARQL 1.1 server.

    protocol.py   GraphStore: what kg, api and viz ask of a store, embedded or remote
    build_dirs.py the data directory and its builds: every file named, and how a new build replaces the old
    manifest_lines.py  a build manifest's text, one line per document: an edit copies the unchanged lines
    checksums.py  the checksum kept beside each file a build keeps: a file damaged on disk is made again, never used
    embedded.py   the embedded Oxigraph store
    remote/       the same interface over HTTP, its engines, and the push of a build
    terms.py      rdflib terms from Oxigraph's terms and from SPARQL JSON results
    memo.py       the one cache convention for values computed from data that can change
    sparql_lexer.py  what a SPARQL query is (form, dataset, update, remote fetches), read before any engine runs it

May import kg.errors, kg.settings, kg.model.iris, kg.formats.rdf_syntaxes and kg.formats.positions.
"""
