"""The graph comparison every round-trip test relies on: isomorphism when blank nodes occur."""

from __future__ import annotations

import pyoxigraph as ox
import pytest
import rdflib

from tests.helpers import assert_same_quads

EX = "http://example.org/"


def _quads(*labels: str, value: str = "x") -> set[ox.Quad]:
    g = ox.NamedNode(EX + "g")
    return {ox.Quad(ox.NamedNode(EX + "s"), ox.NamedNode(EX + "p"), ox.BlankNode(labels[0]), g),
            ox.Quad(ox.BlankNode(labels[0]), ox.NamedNode(EX + "q"), ox.BlankNode(labels[1]), g),
            ox.Quad(ox.BlankNode(labels[1]), ox.NamedNode(EX + "v"), ox.Literal(value), g)}


def test_blank_nodes_named_differently_are_the_same_graph():
    assert_same_quads(_quads("a", "b"), _quads("n1", "n2"))


def test_a_changed_value_behind_blank_nodes_is_a_difference_shown():
    with pytest.raises(AssertionError) as caught:
        assert_same_quads(_quads("a", "b", value="y"), _quads("n1", "n2"), "exports")
    lines = str(caught.value).splitlines()
    # the changed literal, and the blank nodes whose canonical label depends on it
    assert lines[0] in ("exports differ: 1 missing, 1 unexpected", "exports differ: 2 missing, 2 unexpected")
    assert any(line.startswith("- ") and "'x'" in line for line in lines)
    assert any(line.startswith("+ ") and "'y'" in line for line in lines)


def test_oxigraph_and_rdflib_terms_compare_equal():
    rd = {(rdflib.URIRef(EX + "s"), rdflib.URIRef(EX + "p"), rdflib.BNode("z"), rdflib.URIRef(EX + "g")),
          (rdflib.BNode("z"), rdflib.URIRef(EX + "v"), rdflib.Literal("x"), rdflib.URIRef(EX + "g"))}
    g = ox.NamedNode(EX + "g")
    oxi = {ox.Quad(ox.NamedNode(EX + "s"), ox.NamedNode(EX + "p"), ox.BlankNode("b0"), g),
           ox.Quad(ox.BlankNode("b0"), ox.NamedNode(EX + "v"), ox.Literal("x"), g)}
    assert_same_quads(rd, oxi)
    with pytest.raises(AssertionError):
        assert_same_quads(rd, oxi | {ox.Quad(ox.NamedNode(EX + "s"), ox.NamedNode(EX + "p"), ox.Literal("w"), g)})
