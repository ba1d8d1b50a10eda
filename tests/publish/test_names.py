"""Prefixed names paste back: what kg.publish.names writes, SPARQL (Oxigraph's parser) and
Turtle (rdflib's) read as the IRI it was made from."""

from __future__ import annotations

import pyoxigraph as ox
import pytest
import rdflib
from hypothesis import assume, given, settings, strategies as st

from kg.model import iris
from kg.publish.names import local_part, prefixed_name

PREFIXES = iris.namespaces(iris.DEFAULT_BASE).prefixes
# Characters an IRI may hold (RFC 3987: no space, no <>"{}|\\^`), from every plane the grammar names
# ('%' only as %XX: alone it makes no IRI)
IRI_CHARS = st.characters(blacklist_characters=' <>"{}|\\^`%', blacklist_categories=("Cc", "Cs", "Zs", "Zl", "Zp"))
IRI_PARTS = st.one_of(st.text(IRI_CHARS, min_size=1, max_size=4), st.sampled_from(["%41", "%D0%BC", "/", "."]))


def _sparql_reads(name: str) -> str:
    prologue = " ".join(f"PREFIX {p}: <{ns}>" for p, ns in PREFIXES.items())
    [row] = list(ox.Store().query(f"{prologue} SELECT ?x WHERE {{ BIND({name} AS ?x) }}"))
    return row["x"].value


def _turtle_reads(name: str) -> str:
    prologue = "".join(f"@prefix {p}: <{ns}> .\n" for p, ns in PREFIXES.items())
    graph = rdflib.Graph().parse(data=f"{prologue}<urn:s> <urn:p> {name} .", format="turtle")
    return str(next(iter(graph.objects())))


@pytest.mark.parametrize(("iri", "name"), [
    (iris.ONTOLOGY + "Person", "kgo:Person"),
    (iris.DEFAULT_BASE + "vocab#PER-Pronoun", "kgv:PER-Pronoun"),
    (iris.DEFAULT_BASE + "id/person/juan-guaido", "person:juan-guaido"),
    (iris.DEFAULT_BASE + "id/diagnostictool/oct", "kgr:diagnostictool\\/oct"),
    (iris.DEFAULT_BASE + "doc/dev/216586_text#E1", "doc:dev\\/216586_text\\#E1"),
    (iris.DEFAULT_BASE + "doc/a.b", "doc:a.b"),
    (iris.DEFAULT_BASE + "doc/-a", "doc:\\-a"),
    (iris.DEFAULT_BASE + "id/entity/%D0%BC", "kgr:entity\\/%D0%BC"),
    (iris.DEFAULT_BASE + "id/place/москва", "place:москва"),
    (iris.DEFAULT_BASE + "id/entity/वस्तु", "kgr:entity\\/वस्तु"),
    ("http://example.org/elsewhere", "<http://example.org/elsewhere>"),
])
def test_names_as_written(iri: str, name: str) -> None:
    assert prefixed_name(iri, PREFIXES) == name
    assert _sparql_reads(name) == iri and _turtle_reads(name) == iri


def test_what_no_local_part_holds_stays_whole() -> None:
    assert local_part("a[b]") is None and local_part("a.") is None
    assert prefixed_name(iris.DEFAULT_BASE + "id/a[b]", PREFIXES) == f"<{iris.DEFAULT_BASE}id/a[b]>"


@settings(max_examples=300, deadline=None)
@given(st.lists(IRI_PARTS, max_size=5), st.sampled_from(sorted(PREFIXES.values())))
def test_any_name_reads_back_as_its_iri(parts: list[str], namespace: str) -> None:
    iri = namespace + "".join(parts)
    try:
        ox.NamedNode(iri)
    except ValueError:
        assume(False)  # not an IRI (a second '#'): no store holds it
    name = prefixed_name(iri, PREFIXES)
    if name.startswith("<"):
        return  # a character no prefixed name can write: the IRI whole, which reads back by construction
    assert _sparql_reads(name) == iri
    assert _turtle_reads(name) == iri
