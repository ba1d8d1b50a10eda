"""The view graph read from a store: which nodes, which edges, which sentences."""

from __future__ import annotations

import pytest

from kg.errors import InputError
from kg.model.iris import RESOURCE
from kg.publish.search import SearchIndex
from kg.viz.network import load_graph, local_name
from kg.viz.view_index import focus_graph, resolve, store_index

DOC = "https://kg.example.org/doc/sample-article"
EVENT = DOC + "/event/E1"


def test_nodes_are_the_entities_and_events_only(sample_graph):
    families = dict(sample_graph.nodes(data="family"))
    assert families == {
        RESOURCE + "person/juan-guaido": "Person", RESOURCE + "person/juan-carlos-mora": "Person",
        RESOURCE + "person/evil": "Person", RESOURCE + "organization/venezuelan-national-guard": "Organization",
        RESOURCE + "place/venezuela": "Place", RESOURCE + "place/colombia": "Place",
        RESOURCE + "place/cucuta": "Place", RESOURCE + "date/2019-02-23": "Date",
        EVENT: "Event", DOC + "/quote/T7": "Quote", DOC + "/figure/T8": "Figure",
    }  # not the role, the membership, the mentions, sentences, statements or documents


def test_node_attributes_come_from_the_entity_records(sample_graph):
    guaido = sample_graph.nodes[RESOURCE + "person/juan-guaido"]
    assert guaido["label"] == "Juan Guaidó"
    assert sorted(guaido["alt"]) == ["Guaido", "Guaidó"]
    assert sorted(guaido["hidden"]) == ["Guiado", "juan guaido"]
    assert guaido["mentions"] == 3
    guard = sample_graph.nodes[RESOURCE + "organization/venezuelan-national-guard"]
    assert guard["type_labels"] == ["military unit", "organization"]
    assert sample_graph.nodes[RESOURCE + "place/venezuela"]["wikidata"] == ["Q717"]
    assert ("date", "2019-02-23") in sample_graph.nodes[EVENT]["facts"]
    assert sample_graph.nodes[DOC + "/quote/T7"]["label"] == "We will not <i>go back</i>"


def test_edges_are_directed_labelled_and_merged_across_documents(sample_graph):
    mora, guard = RESOURCE + "person/juan-carlos-mora", RESOURCE + "organization/venezuelan-national-guard"
    member = sample_graph.edges[mora, guard, "https://kg.example.org/ontology#memberOf"]
    assert member["label"] == "member of"
    assert member["evidence"] == [DOC + "#char=0,60", "https://kg.example.org/doc/second-article#char=0,40"]
    assert not sample_graph.has_edge(guard, mora)
    roles = {(o.rsplit("/", 1)[-1], d["label"]) for _, o, d in sample_graph.out_edges(EVENT, data=True)}
    assert roles == {("juan-carlos-mora", "agent"), ("venezuela", "origin"), ("cucuta", "destination"),
                     ("2019-02-23", "time")}
    assert sample_graph.number_of_edges() == 9


def test_cited_sentences_and_documents(sample_graph):
    sentences = sample_graph.graph["sentences"]
    assert sentences[DOC + "#char=0,60"] == {
        "text": "Lt. Juan Carlos Mora of the National Guard fled to Cúcuta.", "doc": DOC}
    assert sample_graph.graph["docs"][DOC] == {
        "title": "Soldiers <em>cross</em> the border", "date": "2019-02-24", "publisher": ""}
    assert sample_graph.nodes[RESOURCE + "person/juan-guaido"]["mention_sentences"] == [DOC + "#char=61,140"]


@pytest.fixture
def sample_index(sample_store):
    return store_index(sample_store.select)


@pytest.mark.parametrize("ident", ["https://kg.example.org/id/place/cucuta", "place/cucuta",
                                   "kgr:place/cucuta", "Cucuta", "CÚCUTA"])
def test_resolve_accepts_iri_key_prefixed_name_and_alias(sample_store, sample_index, ident):
    assert resolve(sample_index, ident, SearchIndex.compute(sample_store.select)) == RESOURCE + "place/cucuta"


@pytest.mark.parametrize("ident", ["nobody", "person/nobody"])
def test_resolve_rejects_unknown_names(sample_store, sample_index, ident):
    with pytest.raises(InputError, match="names no entity"):
        resolve(sample_index, ident, SearchIndex.compute(sample_store.select))


def test_a_focus_follows_edges_both_ways(sample_index):
    cucuta = RESOURCE + "place/cucuta"
    assert set(focus_graph(sample_index, cucuta, 0)) == {cucuta}
    assert set(focus_graph(sample_index, cucuta, 1)) == {cucuta, RESOURCE + "place/colombia", EVENT}
    two = focus_graph(sample_index, cucuta, 2)
    assert RESOURCE + "person/juan-carlos-mora" in two and RESOURCE + "person/evil" not in two
    with pytest.raises(InputError):
        focus_graph(sample_index, cucuta, -1)


def test_local_name():
    assert local_name("https://kg.example.org/ontology#subOrganizationOf") == "sub organization of"
    assert local_name("https://kg.example.org/id/person/juan-guaido") == "juan guaido"


def test_empty_store_gives_an_empty_graph():
    from kg.store.embedded import EmbeddedStore

    graph = load_graph(EmbeddedStore())
    assert graph.number_of_nodes() == 0 and graph.graph["sentences"] == {}
