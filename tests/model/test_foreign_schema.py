"""A corpus with its own annotation schema builds: its types become classes and its relations,
roles and attributes properties of the corpus vocabulary (kgv:), and kg.toml aligns them with
kg's ontology so that queries written against kgo: find them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pyoxigraph as ox
import pytest

from kg.store import build_dirs
from tests.helpers import run_kg

ACE = Path(__file__).parents[1] / "data" / "ace" / "annotation.conf"
TEXT = "Ann Lee of Acme Corp was born in Paris. She married Bob Ray in Rome. Acme protested.\n"
ANN = """T1\tPerson 0 7\tAnn Lee
T2\tOrganization 11 20\tAcme Corp
T3\tBe-born 25 29\tborn
T4\tGPE 33 38\tParis
T5\tMarry 44 51\tmarried
T6\tPerson 52 59\tBob Ray
T7\tGPE 63 67\tRome
T8\tPerson 40 43\tShe
T9\tOrganization 69 73\tAcme
T10\tDemonstrate 74 83\tprotested
E1\tBe-born:T3 Person-Arg:T1 Place-Arg:T4
E2\tMarry:T5 Person-Arg:T8 Person-Arg2:T6 Place-Arg:T7
E3\tDemonstrate:T10 Entity:T9 Cause:E2
R1\tEmployment Employee:T1 Employer:T2
A1\tConfidence E2 High
A2\tCertain R1
*\tAlias T2 T9
N1\tReference T4 GeoNames:2988507\tParis
#1\tAnnotatorNotes E1\tborn in Paris
"""
KG_TOML = """[align]
Person = "Person"
GPE = "Place"
Organization = "Organization"
Employment = "memberOf"
"""


@pytest.fixture
def ace_corpus(tmp_path: Path) -> Path:
    corpus = tmp_path / "ace"
    corpus.mkdir()
    shutil.copy(ACE, corpus / "annotation.conf")
    (corpus / "doc1.txt").write_text(TEXT)
    (corpus / "doc1.ann").write_text(ANN)
    return corpus


def _query(data: Path, sparql: str) -> list[tuple[str, ...]]:
    store = ox.Store.read_only(str(build_dirs.store_path(build_dirs.current_build(data))))
    prefixes = "PREFIX kgo: <https://kg.example.org/ontology#> PREFIX kgv: <https://kg.example.org/vocab#> "
    prefixes += "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> "
    return sorted(tuple(str(v.value) for v in row) for row in store.query(prefixes + sparql, use_default_graph_as_union=True))


def test_without_alignment_the_types_are_minted(ace_corpus: Path, tmp_path: Path) -> None:
    (ace_corpus / "kg.toml").write_text("[align]\ndefault = false\n")  # GPE would be a place by default
    data = tmp_path / "data"
    result = run_kg("build", "--corpus", str(ace_corpus), "--data", str(data), "--quiet")
    assert result.exit_code == 0, result.output
    assert _query(data, "SELECT ?l WHERE { GRAPH ?g { kgv:GPE rdfs:label ?l ; rdfs:subClassOf kgv:Entity } }") == [("GPE",)]
    assert _query(data, "SELECT ?p WHERE { GRAPH ?g { kgv:Marry rdfs:subClassOf ?p } }") == [
        ("https://kg.example.org/vocab#Life",)]
    # Person and Organization are kgo's own terms: a type of that name is that class
    people = _query(data, "SELECT DISTINCT ?x WHERE { ?x a kgo:Person }")
    assert ("https://kg.example.org/id/person/ann-lee",) in people
    assert _query(data, "SELECT ?x WHERE { ?x a kgo:Place }") == []
    # Paris is linked to a GeoNames item: the item's entity (no tools.conf: an IRI under kg's base)
    assert _query(data, "SELECT DISTINCT ?x WHERE { ?x a kgv:GPE }") == [
        ("https://kg.example.org/id/entity/rome",), ("https://kg.example.org/id/geonames/2988507",)]
    # an event argument that is an event, a relation with its own argument labels, attributes,
    # each property spelt as annotation.conf spells it
    assert _query(data, "SELECT ?c WHERE { ?e kgv:Cause ?c ; a kgv:Demonstrate }") == [
        ("https://kg.example.org/doc/doc1/event/E2",)]
    assert _query(data, "SELECT ?l WHERE { ?s kgo:argumentLabels ?l ; kgv:Certain true }") == [("Employee Employer",)]
    assert _query(data, "SELECT ?v WHERE { ?e kgv:Confidence ?v }") == [("High",)]
    assert _query(data, "SELECT ?i WHERE { GRAPH <https://kg.example.org/graph/entities> { ?e <http://www.w3.org/2002/07/owl#sameAs> ?i } }") == [
        ("https://kg.example.org/reference/GeoNames/2988507",)]
    assert _query(data, "SELECT ?a WHERE { ?a kgo:memberOf ?b }") == []


def test_alignment_makes_kgo_queries_find_the_corpus_types(ace_corpus: Path, tmp_path: Path) -> None:
    (ace_corpus / "kg.toml").write_text(KG_TOML)
    data = tmp_path / "data"
    result = run_kg("build", "--corpus", str(ace_corpus), "--data", str(data), "--quiet")
    assert result.exit_code == 0, result.output
    places = _query(data, "SELECT DISTINCT ?x WHERE { ?x a kgo:Place }")
    assert places == [("https://kg.example.org/id/geonames/2988507",), ("https://kg.example.org/id/place/rome",)]
    assert _query(data, "SELECT ?p WHERE { GRAPH ?g { kgv:GPE rdfs:subClassOf ?p } }") == [
        ("https://kg.example.org/ontology#Place",), ("https://kg.example.org/vocab#Entity",)]
    assert _query(data, "SELECT ?a ?b WHERE { ?a kgo:memberOf ?b }") == [
        ("https://kg.example.org/id/person/ann-lee", "https://kg.example.org/id/organization/acme")]
    assert _query(data, "SELECT ?p WHERE { GRAPH ?g { kgv:Employment rdfs:subPropertyOf ?p } }") == [
        ("https://kg.example.org/ontology#memberOf",)]
    # the Alias equivalence joined Acme Corp to Acme, and provenance reaches the sentence
    assert _query(data, "SELECT DISTINCT ?e WHERE { ?m kgo:annotationId 'T2' ; kgo:denotes ?e }") == [
        ("https://kg.example.org/id/organization/acme",)]
    nif = "<http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#anchorOf>"
    rdf = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#predicate>"
    assert _query(data, f"SELECT ?t WHERE {{ ?s {rdf} kgv:Employment ; kgo:evidence/{nif} ?t }}") == [
        ("Ann Lee of Acme Corp was born in Paris.",)]


@pytest.mark.parametrize("toml, message", [
    ('[align]\nGPE = "Planet"\n', "kg.toml:2: GPE = 'Planet': not a term of kg's ontology"),
    ('[align]\nGPE = "memberOf"\n', "kg.toml:2: GPE is an annotation type but 'memberOf' is a property"),
    ('[align]\nSpaceship = "Place"\n', "kg.toml:2: Spaceship is not declared in annotation.conf"),
    ('[mapping]\nGPE = "Place"\n', "kg.toml:1: unknown table 'mapping'"),
])
def test_bad_alignment_is_located(ace_corpus: Path, tmp_path: Path, toml: str, message: str) -> None:
    (ace_corpus / "kg.toml").write_text(toml)
    result = run_kg("build", "--corpus", str(ace_corpus), "--data", str(tmp_path / "data"), "--quiet")
    assert result.exit_code == 2
    assert message in result.stderr, result.stderr
