"""kg: build, store, export and serve an RDF knowledge graph from brat-annotated news.

The data flows one way: corpus -> annotations -> resolution -> graph -> store -> exports.
`api` (Flask) and `viz` (network view) build on this package; it never imports them.
"""

__version__ = "0.1.0"
