"""The documented Python API (kg/__init__.py): kg.build, kg.open, typed query results, to_rdflib(),
to_dataframe(), and kg.__all__. Values checked by hand against tests/data/tiny."""

from __future__ import annotations

import datetime
import shutil
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest
import rdflib

import kg
from kg.store import build_dirs
from tests.helpers import TINY, TINY_STATS, assert_same_quads

ANA = rdflib.URIRef("https://kg.example.org/id/person/ana-ruiz")


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    corpus = tmp_path_factory.mktemp("python-api") / "corpus"
    shutil.copytree(TINY, corpus)
    data = corpus.parent / "data"
    report = kg.build(corpus, data)
    assert (report.mode, report.documents) == ("full", 2)
    assert kg.build(corpus, data).mode == "unchanged"
    return data


@pytest.fixture
def graph(data: Path):
    with kg.open(data) as opened:
        yield opened


def test_all_names_exactly_the_documented_api():
    assert sorted(kg.__all__) == ["BuildLockedError", "BuildReport", "InputError", "KgError", "KnowledgeGraph",
                                  "QueryError", "Results", "StoreError", "ValidationError", "__version__",
                                  "build", "open"]
    namespace: dict = {}
    exec("from kg import *", namespace)
    assert set(kg.__all__) <= set(namespace)
    for name in kg.__all__:
        if name != "__version__":
            assert getattr(kg, name).__doc__, f"kg.{name} has no docstring"


def test_importing_kg_stays_light():
    """`import kg` must not load the builder, pySHACL or pandas (the workers and the CLI import kg)."""
    code = "import sys, kg; print(sorted(m for m in ('kg.pipeline.builder', 'pyshacl', 'pandas', 'kg.python_api') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_select_answers_with_python_values(graph):
    rows = graph.query("""SELECT ?label ?mentions ?value ?qualifier ?date WHERE {
        person:ana-ruiz skos:prefLabel ?label ; kgo:mentionCount ?mentions .
        ?figure a kgo:Figure ; kgo:value ?value ; kgo:qualifier ?qualifier ; prov:wasDerivedFrom ?doc .
        ?doc dcterms:date ?date . FILTER(?value > 1000) }""")
    assert rows.variables == ["label", "mentions", "value", "qualifier", "date"]
    # Ana Ruiz: "Ana Ruiz" and "Ruiz" in alpha, "Ana Ruiz" in beta; "more than 1,400" in alpha, dated 2019-02-24
    assert list(rows) == [{"label": "Ana Ruiz", "mentions": 3, "value": Decimal(1400), "qualifier": "MoreThan",
                           "date": datetime.date(2019, 2, 24)}]
    assert type(rows[0]["mentions"]) is int and type(rows[0]["label"]) is str


def test_iris_are_urirefs_and_unbound_variables_absent(graph):
    rows = graph.query("SELECT ?e ?sameAs WHERE { ?e skos:prefLabel 'Ana Ruiz' OPTIONAL { ?e owl:sameAs ?sameAs } }")
    assert list(rows) == [{"e": ANA}] and isinstance(rows[0]["e"], rdflib.URIRef)


def test_ask_is_a_bool_and_construct_an_rdflib_graph(graph):
    assert graph.query("ASK { person:ana-ruiz a kgo:Person }") is True
    assert graph.query("ASK { person:ana-ruiz a kgo:Place }") is False
    built = graph.query("CONSTRUCT { ?e skos:prefLabel ?l } WHERE { GRAPH kgg:entities { ?e a kgo:Person ; skos:prefLabel ?l } }")
    assert set(built) == {(ANA, rdflib.SKOS.prefLabel, rdflib.Literal("Ana Ruiz")),
                          (rdflib.URIRef("https://kg.example.org/id/person/pedro-ruiz"), rdflib.SKOS.prefLabel,
                           rdflib.Literal("Pedro Ruiz"))}


def test_a_bad_query_raises_query_error(graph):
    with pytest.raises(kg.QueryError):
        graph.query("SELECT ?x WHERE { ?x }")


def test_to_rdflib_holds_every_quad_of_the_export(graph, data):
    dataset = graph.to_rdflib()
    export = rdflib.Dataset()
    export.parse(build_dirs.export_path(build_dirs.current_build(data), "nq"), format="nquads")
    quads = {q for q in dataset.quads((None, None, None, None))}
    assert {str(g) for *_, g in quads} == {f"https://kg.example.org/graph/{n}" for n in
                                           ("alpha", "beta", "entities", "ontology")}
    assert_same_quads(quads, set(export.quads((None, None, None, None))), "to_rdflib() against kg.nq")


def test_to_dataframe_has_a_column_per_variable(graph):
    frame = graph.query("SELECT ?e ?n WHERE { GRAPH kgg:entities { ?e a kgo:Person ; kgo:mentionCount ?n } } "
                        "ORDER BY ?e").to_dataframe()
    assert list(frame.columns) == ["e", "n"]
    assert frame.to_dict("records") == [{"e": ANA, "n": 3},
                                        {"e": rdflib.URIRef("https://kg.example.org/id/person/pedro-ruiz"), "n": 2}]
    assert str(frame["n"].dtype) == "int64"


def test_stats_are_those_of_kg_stats(graph):
    stats = graph.stats()
    stats["counts"].pop("quads")
    assert stats == TINY_STATS


def test_open_without_a_build_raises_store_error(tmp_path):
    with pytest.raises(kg.StoreError, match="no build in"):
        kg.open(tmp_path)


def test_bad_input_raises_input_error_and_keeps_the_previous_build(tmp_path):
    corpus = tmp_path / "corpus"
    shutil.copytree(TINY, corpus)
    first = kg.build(corpus, tmp_path / "data").build_dir
    (corpus / "beta.ann").write_text("T1\tPerson 0 3\tXyz\n", encoding="utf-8")
    with pytest.raises(kg.InputError) as caught:
        kg.build(corpus, tmp_path / "data")
    assert caught.value.exit_code == 2 and str(caught.value).startswith(f"{corpus / 'beta.ann'}:1: span text 'Xyz'")
    assert build_dirs.current_build(tmp_path / "data") == first
