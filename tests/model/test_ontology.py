"""annotation.conf, ontology.ttl, kg.model.schema.ontology and built graphs agree."""

from __future__ import annotations

import rdflib
from rdflib import OWL, RDF, RDFS

from kg.formats.brat.conf import load_config
from kg.model.iris import ONTOLOGY
from kg.model.resources import ontology_graph
from kg.model.schema.corpus_vocabulary import property_name
from kg.model.schema.ontology import KGO
from kg.pipeline.validation.shacl import check_declared
from tests.helpers import CORPUS, store_quads

CONF = load_config(CORPUS / "annotation.conf")


def _kgo_terms(kind) -> set[str]:
    return {str(s)[len(ONTOLOGY):] for s in ontology_graph().subjects(RDF.type, kind) if str(s).startswith(ONTOLOGY)}


def test_every_annotation_type_is_an_ontology_class() -> None:
    classes = _kgo_terms(OWL.Class)
    assert set(CONF.parents) - classes == set()
    assert set(CONF.events) - classes == set()


def test_every_relation_role_and_attribute_is_an_ontology_property() -> None:
    properties = _kgo_terms(OWL.ObjectProperty) | _kgo_terms(OWL.DatatypeProperty)
    names = (set(CONF.relations) - set(CONF.equiv_types())) | set(CONF.attributes)
    names |= {role.name for node in CONF.events.values() for role in node.roles}
    assert {property_name(n) for n in names} - properties == set()


def test_entity_hierarchy_matches_subclass_axioms() -> None:
    graph = ontology_graph()
    for child, parent in CONF.parents.items():
        if parent:
            assert (KGO[child], RDFS.subClassOf, KGO[parent]) in graph, child


def test_every_ontology_term_has_label_and_comment() -> None:
    graph = ontology_graph()
    for term in {s for s in graph.subjects() if isinstance(s, rdflib.URIRef) and str(s).startswith(ONTOLOGY)}:
        assert graph.value(term, RDFS.label) is not None, term
        assert graph.value(term, RDFS.comment) is not None, term


def test_vocab_namespace_is_exactly_the_ontology() -> None:
    declared = {str(s) for s in ontology_graph().subjects() if str(s).startswith(ONTOLOGY)}
    assert {str(KGO[name]) for name in KGO.__annotations__} == declared


def test_built_graph_uses_only_declared_terms(shipped_data) -> None:
    graph = rdflib.Graph()
    for quad in store_quads(shipped_data, skip_ontology=True):
        graph.add(tuple(_to_rdflib(t) for t in (quad.subject, quad.predicate, quad.object)))
    check_declared(graph)
    assert len(graph) > 1000


def _to_rdflib(term):
    import pyoxigraph as ox

    if isinstance(term, ox.NamedNode):
        return rdflib.URIRef(term.value)
    if isinstance(term, ox.Literal):
        if term.language:
            return rdflib.Literal(term.value, lang=term.language)
        return rdflib.Literal(term.value, datatype=rdflib.URIRef(term.datatype.value))
    return rdflib.BNode(term.value)
