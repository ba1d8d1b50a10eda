"""The SHACL check of a build's entity records: the records of the entities that the documents
checked with SHACL name (kg.pipeline.reading.readers' sample), against shapes.ttl and the declared terms.

A full build checks the records' N-Quads it wrote (kg.model.entities.entity_records) before the
store has finished loading them, so that the check runs while Oxigraph's bulk loader works instead
of after it; an incremental build asks its patched store for them. The terms declared are the
corpus vocabulary's and the classes the build's graphs declare in its namespace (a document
declares those of the types it uses beyond its annotation.conf): read off the N-Quads on their way
to the loader (DeclaredClasses), or asked of the store. Both ways check the same quads against the
same terms.
"""

from __future__ import annotations

from typing import Iterable

from kg.model import iris
from kg.model.iris import FIXED_PREFIXES, RDF_TYPE, resource_iri
from kg.pipeline.validation.shacl import validate_nquads
from kg.store.embedded import EmbeddedStore

OWL_CLASS = FIXED_PREFIXES["owl"] + "Class"


class DeclaredClasses:
    """The classes of the corpus vocabulary's namespace that some graphs' N-Quads type owl:Class, as
    the store would list them once it holds those graphs (declared_in_store)."""

    _NEEDLE = f" <{RDF_TYPE}> <{OWL_CLASS}> "

    def __init__(self) -> None:
        self.found: set[str] = set()

    def add(self, nquads: str) -> None:
        """The declarations in one graph's N-Quads (a needle inside a literal has a subject with spaces)."""
        prefix = "<" + iris.VOCABULARY
        at = nquads.find(self._NEEDLE)
        while at >= 0:
            subject = nquads[nquads.rfind("\n", 0, at) + 1:at]
            if subject.startswith(prefix) and " " not in subject:
                self.found.add(subject[1:-1])
            at = nquads.find(self._NEEDLE, at + 1)


def validate_written_records(records: str, keys: Iterable[str], declared: frozenset[str]) -> None:
    """Check the records of `keys` among the records' N-Quads a full build wrote (`records`: one line
    per quad, each starting with its record's IRI), with the terms `declared` besides the ontology's."""
    validate_nquads(records_of(records, keys).encode(), declared)


def records_of(records: str, keys: Iterable[str]) -> str:
    """The lines of the records of `keys` in some records' N-Quads. Split at line feeds alone: a
    literal may hold U+2028, U+0085 or other characters str.splitlines breaks at."""
    subjects = {f"<{resource_iri(key)}>" for key in keys}
    return "".join(line + "\n" for line in records.split("\n") if line[:line.find(" ")] in subjects)


def validate_stored_records(store: EmbeddedStore, keys: Iterable[str], vocabulary: frozenset[str]) -> None:
    """Check the records of `keys` that `store` holds (an incremental build's), with the corpus
    vocabulary's terms and the classes its graphs declare besides the ontology's."""
    records = store.dump_graph(iris.ENTITIES_GRAPH, subjects=[resource_iri(k) for k in sorted(keys)])
    validate_nquads(records.encode(), vocabulary | declared_in_store(store))


def declared_in_store(store: EmbeddedStore) -> frozenset[str]:
    """The classes of the corpus vocabulary's namespace that a graph of `store` types owl:Class."""
    rows = store.select(f"""SELECT DISTINCT ?t WHERE {{ GRAPH ?g {{ ?t a <{OWL_CLASS}> }}
                            FILTER(STRSTARTS(STR(?t), "{iris.VOCABULARY}")) }}""")
    return frozenset(row["t"] for row in rows)
