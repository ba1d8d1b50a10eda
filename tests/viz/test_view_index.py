"""The view index cuts the same graphs from the rows as networkx cut them from the whole view graph.

`ViewIndex.top(n)` must be `cap_nodes(whole, n)` and `ViewIndex.neighbourhood(x)` must be
`neighbours.neighbourhood(whole, x)`: the same nodes and edges with every attribute, in the same
order, and the same labels, documents and ranks (the whole graph's). The one difference on purpose:
a capped graph carries only the sentences its own nodes and edges cite.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import networkx as nx
import pytest

from kg.pipeline.builder import build
from kg.publish.view_data import load_parts
from kg.store import build_dirs
from kg.viz.html import render
from kg.viz.neighbours import neighbourhood
from kg.viz.network import cap_nodes, kept_graph
from kg.viz.view_index import ViewIndex, kept_index, store_index
from tests.helpers import ROOT, shared_corpus


def cited(graph: nx.MultiDiGraph) -> set[str]:
    """The sentences a graph's nodes and edges cite."""
    found = {s for _, _, d in graph.edges(data=True) for s in d["evidence"]}
    return found | {s for _, d in graph.nodes(data=True) for s in d["mention_sentences"]}


def assert_same_graph(made: nx.MultiDiGraph, expected: nx.MultiDiGraph) -> None:
    assert list(made.nodes(data=True)) == list(expected.nodes(data=True))
    assert list(made.edges(keys=True, data=True)) == list(expected.edges(keys=True, data=True))
    others = set(expected.graph) - {"sentences", "docs"}
    assert {k: made.graph.get(k) for k in others} == {k: expected.graph[k] for k in others}
    wanted = cited(expected)
    assert list(made.graph["sentences"]) == [s for s in expected.graph["sentences"] if s in wanted]
    if "total_nodes" in made.graph or "outside" in next(iter(dict(made.nodes(data=True)).values()), {}):
        shown = {made.graph["sentences"][s]["doc"] for s in made.graph["sentences"]}
        shown |= {n.rsplit("/", 2)[0] for n in made}
        assert made.graph["docs"] == {d: v for d, v in expected.graph["docs"].items() if d in shown}
        assert set(made.graph["docs"]) >= {d for d in shown if d in expected.graph["docs"]}
    else:
        assert made.graph["docs"] == expected.graph["docs"]


def _index_and_whole(data: Path) -> tuple[ViewIndex, nx.MultiDiGraph]:
    parts = load_parts(build_dirs.require_current_build(data))
    assert parts is not None
    return kept_index(parts), kept_graph(parts)


@pytest.fixture(scope="module")
def shipped(tmp_path_factory) -> tuple[ViewIndex, nx.MultiDiGraph]:
    root = tmp_path_factory.mktemp("shipped")
    shutil.copytree(ROOT / "corpus", root / "corpus")
    build(root / "corpus", root / "data")
    return _index_and_whole(root / "data")


def _check_cuts(index: ViewIndex, whole: nx.MultiDiGraph) -> None:
    assert len(index) == whole.number_of_nodes() > 0
    assert_same_graph(index.whole(), whole)
    for cap in (1, 7, 60, whole.number_of_nodes() // 2, whole.number_of_nodes()):
        assert_same_graph(index.top(cap), cap_nodes(whole, cap))
    by_degree = sorted(whole, key=lambda n: (-whole.degree(n), n))
    events = [n for n in by_degree if whole.nodes[n]["family"] == "Event"]
    chosen = by_degree[:3] + by_degree[-2:] + events[:3]
    for node in chosen:
        for limit in (4, 500):
            assert_same_graph(index.neighbourhood(node, limit), neighbourhood(whole, node, limit))


def test_the_cuts_of_the_shipped_corpus_are_networkx_cuts(shipped) -> None:
    index, whole = shipped
    assert whole.number_of_nodes() > 300
    _check_cuts(index, whole)


def test_a_capped_page_carries_only_the_sentences_it_cites(shipped) -> None:
    index, whole = shipped
    top = index.top(20)
    assert top.graph["total_nodes"] == whole.number_of_nodes()
    assert set(top.graph["sentences"]) == cited(top) and len(top.graph["sentences"]) < len(whole.graph["sentences"])
    assert all("outside" in d for _, d in top.nodes(data=True))
    page = render(top)
    assert page == render(cap_nodes(whole, 20)) or len(page) < len(render(cap_nodes(whole, 20)))


def test_the_index_of_a_store_is_the_index_of_the_kept_parts(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "corpus", tmp_path / "corpus")
    build(tmp_path / "corpus", tmp_path / "data")
    current = build_dirs.require_current_build(tmp_path / "data")
    store = build_dirs.build_store(current)
    try:
        with build_dirs.under_build_base(current):
            asked = store_index(store)
    finally:
        store.close()
    kept = kept_index(load_parts(current))
    assert asked.ranks == kept.ranks and asked.degree == kept.degree
    assert_same_graph(asked.top(50), kept.top(50))


def test_the_cuts_of_a_real_corpus_are_networkx_cuts(tmp_path: Path) -> None:
    corpus = shared_corpus("brat-commodity-news")
    build(corpus, tmp_path / "data")
    _check_cuts(*_index_and_whole(tmp_path / "data"))
