"""Check a built graph against shapes.ttl with pySHACL, and against the ontology: every class and
predicate used must be declared, in ontology.ttl or in the corpus vocabulary the build publishes
beside it in its ontology graph (kg.model.schema.corpus_vocabulary).

The shapes hold under RDFS entailment too (a SHACL tool run with `inference=rdfs` over a build and
its ontology graph finds it conforms): kgo:evidence is a sub-property of prov:wasDerivedFrom, so a
statement is derived from its sentences as well as from its one document."""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from typing import TYPE_CHECKING

import pyoxigraph as ox
import rdflib
from rdflib import OWL, RDF, RDFS, URIRef

from kg.errors import ValidationError
from kg.model import iris
from kg.model.resources import ontology_graph, shapes_graph
from kg.store.terms import from_oxigraph

if TYPE_CHECKING:
    from kg.store.protocol import GraphStore

MAX_REPORTED = 20
DECLARATIONS = (OWL.Class, RDFS.Class, OWL.ObjectProperty, OWL.DatatypeProperty, OWL.AnnotationProperty, RDF.Property)


def declared_terms() -> set[URIRef]:
    """Every IRI ontology.ttl says something about: its classes, properties and the reused terms."""
    return {s for s in ontology_graph().subjects() if isinstance(s, URIRef)}


def check_shapes(data: rdflib.Graph) -> None:
    """Raise ValidationError with pySHACL's findings when `data` breaks a shape."""
    import pyshacl  # 0.6 s to import: not on the path of a build that has nothing to do

    conforms, report, text = pyshacl.validate(data, shacl_graph=shapes_graph(), inference="none",
                                              advanced=False, allow_warnings=True)
    if not conforms:
        raise ValidationError("the graph does not conform to shapes.ttl:\n" + _first_results(report, text))


def check_declared(data: rdflib.Graph, extra: frozenset[str] = frozenset()) -> None:
    """Raise ValidationError when a predicate or class in `data` is not declared in ontology.ttl
    (or, for `extra`, in the corpus vocabulary, or by a document of `data` for the names it uses
    beyond its annotation.conf: a class or property of the corpus vocabulary's namespace)."""
    declared = declared_terms() | {RDF.type} | {URIRef(t) for t in extra} | _declared_within(data) | _DECLARING
    used = set(data.predicates()) | set(data.objects(None, RDF.type))
    missing = sorted(str(t) for t in used - declared if isinstance(t, URIRef))
    if missing:
        raise ValidationError("terms declared neither in ontology.ttl nor in the corpus vocabulary: "
                              + ", ".join(missing))


_DECLARING = {OWL.Class, OWL.ObjectProperty, OWL.DatatypeProperty, RDF.Property, RDFS.subClassOf, RDFS.subPropertyOf}  # what declares


def _declared_within(data: rdflib.Graph) -> set[URIRef]:
    kinds = (OWL.Class, OWL.ObjectProperty, OWL.DatatypeProperty)
    return {term for kind in kinds for term in data.subjects(RDF.type, kind)
            if isinstance(term, URIRef) and str(term).startswith(iris.VOCABULARY)}


def validate_nquads(nquads: bytes, extra: frozenset[str] = frozenset()) -> None:
    """Validate the union of the graphs in some N-Quads (shapes, then declared terms; `extra` are
    the terms of the corpus vocabulary). N-Quads found to conform once in this process are not
    validated again (pySHACL takes seconds where the rest of a build takes less)."""
    key = _digest(nquads, extra)
    if key in _CONFORMING:
        _CONFORMING.move_to_end(key)
        return
    union = _union_graph(nquads)
    check_shapes(union)
    check_declared(union, extra)
    _remember(key)


def _union_graph(nquads: bytes) -> rdflib.Graph:
    """The union of the graphs in some N-Quads, as one rdflib graph. Oxigraph parses: rdflib's
    N-Triples reader is quadratic in a line's length (an article's text is one literal: a 5 MB text
    took minutes). Each distinct term is converted once: a document names its article, its
    sentences and the ontology's terms on many lines."""
    union = rdflib.Graph()
    terms: dict = {}

    def term(oxigraph_term):
        found = terms.get(oxigraph_term)
        if found is None:
            found = terms[oxigraph_term] = from_oxigraph(oxigraph_term)
        return found

    for quad in ox.parse(nquads, format=ox.RdfFormat.N_QUADS):
        union.add((term(quad.subject), term(quad.predicate), term(quad.object)))
    return union


def validate_documents(documents: list[bytes], extra: frozenset[str] = frozenset()) -> None:
    """Validate the union of the N-Quads of some documents, leaving out those found to conform
    before in this process (alone or with others): a build after an edit validates the edited
    document, not the corpus, as an incremental build does. Raises as validate_nquads does."""
    keys = [_digest(nquads, extra) for nquads in documents]
    unseen = [nquads for nquads, key in zip(documents, keys) if key not in _CONFORMING]
    if unseen:
        validate_nquads(b"".join(unseen), extra)
    for key in keys:
        _remember(key)


def _remember(key: bytes) -> None:
    _CONFORMING[key] = None
    _CONFORMING.move_to_end(key)
    while len(_CONFORMING) > REMEMBERED_CONFORMING:
        _CONFORMING.popitem(last=False)


# Conformance is a function of the N-Quads, the declared terms and shapes.ttl (read once per process):
# the digests of what conformed (unions and the documents in them), so that a rebuild in one process
# (`kg serve --watch`, a test session) validates again only the graphs that changed. Only conforming
# graphs are kept: a failure is re-checked.
REMEMBERED_CONFORMING = 10_000
_CONFORMING: OrderedDict[bytes, None] = OrderedDict()


def _digest(nquads: bytes, extra: frozenset[str]) -> bytes:
    digest = hashlib.sha256(nquads)
    digest.update(b"\0" + "\n".join(sorted(extra)).encode())
    return digest.digest()


def validate_store(store: GraphStore) -> int:
    """Validate a build as `kg validate` does: the union of its graphs against the shapes, every
    term used declared in its ontology graph (ontology.ttl and the corpus vocabulary). Returns the
    number of graphs validated."""
    names = store.graphs()
    ontology = [g for g in names if g == iris.ONTOLOGY_GRAPH]
    data = [g for g in names if g not in ontology]
    validate_nquads("".join(store.dump_graph(g) for g in data).encode(),
                    declared_in("".join(store.dump_graph(g) for g in ontology).encode()))
    return len(data)


def declared_in(nquads: bytes) -> frozenset[str]:
    """The classes and properties some N-Quads declare (typed owl:Class, owl:ObjectProperty...)."""
    types = {str(t) for t in DECLARATIONS}
    return frozenset(quad.subject.value for quad in ox.parse(nquads, format=ox.RdfFormat.N_QUADS)
                     if quad.predicate.value == str(RDF.type) and quad.object.value in types
                     and isinstance(quad.subject, ox.NamedNode))


def _first_results(report: rdflib.Graph, text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    return "\n".join(lines[: MAX_REPORTED * 8])
