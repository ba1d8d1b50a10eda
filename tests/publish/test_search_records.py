"""A full build reads the search index's rows of the entity records off the records' N-Quads it
wrote (kg.publish.search_records) instead of asking the store (kg.publish.search_index.LABELS,
SUMMARIES, DESCRIPTIONS). Both must give the same rows: on built corpora (the records of several
languages and scripts, aliases, posts, knowledge-base links), and on records written to be awkward."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kg.model import iris
from kg.model.iris import FIXED_PREFIXES, prologue
from kg.model.nquads import QuadWriter, integer, literal
from kg.model.schema.ontology import KGO
from kg.pipeline.builder import build
from kg.publish.search_index import DESCRIPTIONS, LABELS, SUMMARIES, label_rows
from kg.publish.search_records import record_rows
from kg.store import build_dirs
from kg.store.embedded import EmbeddedStore
from tests.helpers import shared_corpus

PUBLIC = Path(__file__).resolve().parents[1] / "data" / "public"
CORPORA = {"zh-literature": lambda: PUBLIC / "zh-literature", "nerel": lambda: PUBLIC / "nerel",
           "commodity-news": lambda: shared_corpus("brat-commodity-news")}
RDF, RDFS, SKOS = FIXED_PREFIXES["rdf"], FIXED_PREFIXES["rdfs"], FIXED_PREFIXES["skos"]


def _labels(rows: list[dict]) -> list[tuple]:
    return sorted((r["e"], r["label"], r["kind"]) for r in rows)


def _summaries(rows: list[dict]) -> list[tuple]:
    """What each summary says, its types as a set (GROUP_CONCAT's order is the engine's)."""
    return sorted((r["e"], r["label"], r.get("mentions"), tuple(sorted(r["types"].split())), r["descriptions"])
                  for r in rows)


def _assert_same_rows(records: str, store: EmbeddedStore, what: str) -> None:
    labels, summaries = label_rows(store.select, documents=frozenset())
    assert labels and summaries, f"{what}: no record (nothing compared)"
    read_labels, read_summaries = record_rows(records)
    assert _labels(read_labels) == _labels(labels), what
    assert _summaries(read_summaries) == _summaries(summaries), what
    assert len(read_labels) == len(labels) and len(read_summaries) == len(summaries), what


def _records_of(data: Path) -> str:
    """The kgg:entities graph's N-Quads in a build's kg.nq."""
    build_dir = build_dirs.current_build(data)
    start, end = json.loads((build_dir / "kg.nq.sections.json").read_text(encoding="utf-8"))[iris.ENTITIES_GRAPH]
    return (build_dir / "kg.nq").read_bytes()[start:end].decode()


def _assert_built_rows_are_the_stores(data: Path, what: str) -> None:
    with build_dirs.build_store(build_dirs.current_build(data)) as store:
        _assert_same_rows(_records_of(data), store, what)


def test_the_shipped_corpus(shipped_data: Path) -> None:
    _assert_built_rows_are_the_stores(shipped_data, "shipped")


@pytest.mark.parametrize("name", list(CORPORA))
def test_built_corpora(name: str, tmp_path: Path) -> None:
    build(CORPORA[name](), tmp_path / "data")
    _assert_built_rows_are_the_stores(tmp_path / "data", name)


def test_awkward_records() -> None:
    """Escaped and non-ASCII labels, a label quoting a label's line, one form under several kinds, a
    record without a type (labels, no summary), one without a mention count, two counts (the greatest,
    10, where text order would give "9"), two descriptions, one of them language-tagged."""
    out = QuadWriter(iris.ENTITIES_GRAPH)
    a, b, c = iris.resource_iri("person/a"), iris.resource_iri("place/b"), iris.resource_iri("organization/c")
    out.add(a, RDF + "type", f"<{KGO.Person}>")
    out.add(a, RDF + "type", f"<{FIXED_PREFIXES['schema']}Person>")
    out.add(a, SKOS + "prefLabel", literal('Ana "B" \\ Ñ\tx'))
    out.add(a, RDFS + "label", literal('Ana "B" \\ Ñ\tx'))
    out.add(a, SKOS + "altLabel", literal(f"says <{SKOS}prefLabel> \"Z\" <{iris.ENTITIES_GRAPH}> ."))
    out.add(a, SKOS + "hiddenLabel", literal("ana b"))
    out.add(a, KGO.mentionCount, integer(9))
    out.add(a, KGO.mentionCount, integer(10))
    out.add(a, RDFS + "comment", literal("Person, first named in d: “Ana”"))
    out.add(a, RDFS + "comment", literal("Persona", lang="es"))
    out.add(b, SKOS + "prefLabel", literal("Bé"))
    out.add(b, SKOS + "hiddenLabel", literal("be"))
    out.add(c, RDF + "type", f"<{KGO.Organization}>")
    out.add(c, SKOS + "prefLabel", literal("C"))
    out.add(c, SKOS + "altLabel", literal("C"))
    records = out.text()
    store = EmbeddedStore()
    store.load_nquads(records.encode())
    _assert_same_rows(records, store, "awkward")
    summaries = {r["e"]: r for r in record_rows(records)[1]}
    assert set(summaries) == {a, c} and summaries[a]["mentions"] == "10" and "mentions" not in summaries[c]
    assert json.loads(summaries[a]["descriptions"]) == ["Person, first named in d: “Ana”", "Persona"]
    for query in (LABELS, SUMMARIES, DESCRIPTIONS):  # the queries the rows stand for answer something here
        assert store.select(prologue() + query)
