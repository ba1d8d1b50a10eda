"""What a build offers beyond its store: the RDF exports, JSON-LD, the search index and the statistics.

    export.py               Turtle, TriG, N-Quads and JSON-LD exports, serialized by Oxigraph
    jsonld.py               JSON-LD with kg's published context (context.jsonld)
    search_index.py         every label of every entity, folded, in a build's SQLite FTS5 file: written
                            whole, or patched from the previous build's
    search.py               searching that file (or the same tables in memory): ranked hits
    stats.py                the one definition of a graph's statistics
    kept_configs.py         the configuration files a build kept, checked against their checksums before
                            an export back to brat or XMI reads them

May import kg.store, kg.model, kg.formats.rdf_syntaxes, and kg.pipeline's manifest and shapes.
"""
