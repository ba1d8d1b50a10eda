"""A full build reads the search index's rows of the things local to a document off each document's
N-Quads (kg.publish.search_locals) instead of asking the store; an incremental build asks the store
(kg.publish.search_index.LOCALS, LOCAL_SUMMARIES). Both must give the same rows, and a full build's
index file must hold what the store's answers make of it, on corpora rich in local things: caseless
scripts' single mentions (Sanskrit, Chinese, Japanese), descriptions, quotes and figures (kept out)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from kg.model import iris
from kg.model.iris import prologue
from kg.pipeline.builder import build
from kg.publish.search_index import LOCAL_SUMMARIES, LOCALS, index_path, label_rows, make_index
from kg.publish.search_locals import LocalRows
from kg.store import build_dirs
from tests.helpers import shared_corpus

PUBLIC = Path(__file__).resolve().parents[1] / "data" / "public"
CORPORA = {"ullekhanam": lambda: PUBLIC / "ullekhanam",
           "zh-literature": lambda: PUBLIC / "zh-literature", "keepha-ja": lambda: PUBLIC / "keepha-ja",
           "commodity-news": lambda: shared_corpus("brat-commodity-news")}


def _labels(rows: list[dict]) -> list[tuple]:
    return sorted((r["e"], r["label"], r["kind"], r["doc"]) for r in rows)


def _summaries(rows: list[dict]) -> list[tuple]:
    """SAMPLE's label aside (any of a thing's labels): what each summary says, its types as a set."""
    return sorted((r["e"], r["doc"], int(r["mentions"]), tuple(sorted(r["types"].split()))) for r in rows)


def _contents(path: Path) -> tuple[list, list]:
    db = sqlite3.connect(path)
    try:
        return (sorted(db.execute("SELECT iri, summary, label, types, mentions, document, descriptions FROM entities")),
                sorted(db.execute("SELECT e.iri, l.label, l.kind, l.kind_order, l.folded, l.mentions, l.local "
                                  "FROM labels l JOIN entities e ON e.id = l.entity")))
    finally:
        db.close()


def _assert_local_rows_are_the_stores(data: Path, what: str, scratch: Path) -> None:
    build_dir = build_dirs.current_build(data)
    sections = json.loads((build_dir / "kg.nq.sections.json").read_text(encoding="utf-8"))
    text = (build_dir / "kg.nq").read_bytes()
    scanned = LocalRows()
    for graph, (start, end) in sections.items():
        if iris.slug_of_graph(graph) is not None:  # a document's graph
            scanned.add(text[start:end].decode())
    with build_dirs.build_store(build_dir) as store:
        labels, summaries = store.select(prologue() + LOCALS), store.select(prologue() + LOCAL_SUMMARIES)
        whole = label_rows(store.select)
    assert labels, f"{what}: no thing local to a document (nothing compared)"
    assert _labels(scanned.labels) == _labels(labels), what
    assert _summaries(scanned.summaries) == _summaries(summaries), what
    made = make_index(scratch / "whole.sqlite", *whole)
    assert _contents(index_path(build_dir)) == _contents(made), what


def test_the_shipped_corpus(shipped_data: Path, tmp_path: Path) -> None:
    _assert_local_rows_are_the_stores(shipped_data, "shipped", tmp_path)


@pytest.mark.parametrize("name", list(CORPORA))
def test_corpora_rich_in_local_things(name: str, tmp_path: Path) -> None:
    data = tmp_path / "data"
    build(CORPORA[name](), data)
    _assert_local_rows_are_the_stores(data, name, tmp_path)
