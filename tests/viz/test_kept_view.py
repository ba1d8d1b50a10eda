"""The view drawn from the data a build kept is the view the store's SPARQL gives.

A build keeps each document's and record's part of the view (kg.publish.view_data); the view
merges them instead of querying the store. Here both paths read the same build and must make the
same graph (every node and edge with every attribute, in the same order, and the same sentences,
documents, labels and ranks) and the same page: on the shipped corpus, after each kind of
incremental build, when the previous build kept no view data, and on shared real corpora.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kg.pipeline.builder import build
from kg.publish.view_data import SHARDS, load_parts
from kg.store import build_dirs
from kg.viz.html import render
from kg.viz.neighbours import neighbourhood, neighbourhood_data
from kg.viz.network import kept_graph, load_graph
from tests.helpers import ROOT, add_article, edit_npr, remove_npr, shared_corpus


def _views(data: Path):
    """(kept graph, SPARQL graph) of the current build of `data`."""
    current = build_dirs.require_current_build(data)
    parts = load_parts(current)
    assert parts is not None, "the build kept no view data"
    store = build_dirs.build_store(current)
    try:
        with build_dirs.under_build_base(current):
            return kept_graph(parts), load_graph(store)
    finally:
        store.close()


def assert_same_view(data: Path) -> None:
    kept, asked = _views(data)
    assert list(kept.nodes(data=True)) == list(asked.nodes(data=True))
    assert list(kept.edges(keys=True, data=True)) == list(asked.edges(keys=True, data=True))
    assert kept.graph == asked.graph
    assert list(kept.graph["sentences"]) == list(asked.graph["sentences"])  # the page numbers them in this order
    assert render(kept) == render(asked)


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    copy = tmp_path / "corpus"
    shutil.copytree(ROOT / "corpus", copy)
    return copy


def test_the_kept_view_of_the_shipped_corpus_is_the_stores(corpus: Path, tmp_path: Path):
    data = tmp_path / "data"
    build(corpus, data)
    kept, asked = _views(data)
    assert kept.number_of_nodes() > 300 and kept.number_of_edges() > 400  # the shipped corpus, drawn
    assert len(kept.graph["docs"]) == 4 and kept.graph["sentences"]
    assert_same_view(data)


@pytest.mark.parametrize("change", [edit_npr, add_article, remove_npr], ids=["edit", "add", "remove"])
def test_an_incremental_build_patches_the_view_data(corpus: Path, tmp_path: Path, change):
    data = tmp_path / "data"
    build(corpus, data)
    before = _views(data)[0]
    change(corpus)
    assert build(corpus, data).mode == "incremental"
    assert_same_view(data)
    full = tmp_path / "full"
    build(corpus, full, full=True)
    patched, fresh = _views(data)[0], _views(full)[0]
    assert list(patched.nodes(data=True)) == list(fresh.nodes(data=True))
    assert list(patched.edges(keys=True, data=True)) == list(fresh.edges(keys=True, data=True))
    assert patched.graph == fresh.graph
    assert (list(before.edges(keys=True, data=True)) != list(patched.edges(keys=True, data=True))
            or before.graph["docs"] != patched.graph["docs"])  # the change shows


def test_an_edit_rewrites_only_the_shards_of_what_it_changed(corpus: Path, tmp_path: Path):
    data = tmp_path / "data"
    first = build(corpus, data).build_dir / build_dirs.VIEW_PARTS_DIR
    edit_npr(corpus)
    second = build(corpus, data).build_dir / build_dirs.VIEW_PARTS_DIR
    shared = {p.name for p in second.iterdir() if p.stat().st_ino == (first / p.name).stat().st_ino}
    rewritten = {p.name for p in second.iterdir()} - shared
    assert len([n for n in rewritten if n.startswith("d")]) == 1  # the edited article's shard
    assert 0 < len([n for n in rewritten if n.startswith("r")]) < SHARDS  # those of the records it touched
    assert "head.pickle" in shared and len(shared) > SHARDS


def test_a_build_after_one_that_kept_no_view_data_reads_it_from_the_store(corpus: Path, tmp_path: Path):
    data = tmp_path / "data"
    build(corpus, data)
    shutil.rmtree(build_dirs.require_current_build(data) / build_dirs.VIEW_PARTS_DIR)  # a build made before kg kept it
    edit_npr(corpus)
    assert build(corpus, data).mode == "incremental"
    assert_same_view(data)


def test_the_neighbours_of_a_node_are_the_same_from_either_path(corpus: Path, tmp_path: Path):
    data = tmp_path / "data"
    build(corpus, data)
    kept, asked = _views(data)
    for node in sorted(kept)[::25]:
        assert neighbourhood_data(neighbourhood(kept, node), node) == neighbourhood_data(neighbourhood(asked, node), node)


SHARED = [("brat-commodity-news",), ("inception-xmi", "mimotext"), ("inception-xmi", "ner4archives"),
          ("webanno-tsv3", "globalise"), ("webanno-tsv3", "arete")]


@pytest.mark.parametrize("parts", SHARED, ids=["/".join(p) for p in SHARED])
def test_the_kept_view_of_a_shared_corpus_is_the_stores(parts: tuple[str, ...], tmp_path: Path):
    data = tmp_path / "data"
    build(shared_corpus(*parts), data)
    kept, _ = _views(data)
    assert kept.number_of_nodes() > 0
    assert_same_view(data)
