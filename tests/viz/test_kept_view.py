"""The view index a build keeps (kg.publish.view_index) makes the view the store's SPARQL gives,
and an incremental build's index is the one a full build of the same corpus keeps.

The whole graph made from the index's rows must be the graph made from the store's answers (every
node and edge with every attribute, in the same order, the same sentences, documents, labels and
ranks) and the same page; each node's family, kind, mentions, degree and score must be those of
the networkx graph; after an edit, an addition, a removal, several edits in a row and a
compaction, everything the index answers must equal a full build's.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import networkx as nx
import pytest

from benchmarks.corpus import mutate
from benchmarks.corpus.generate import Generator
from kg.pipeline.builder import build
from kg.publish import view_index
from kg.publish.view_index import ViewIndex, open_index, segments, tables
from kg.publish.view_index.derive import OVERVIEW_FAMILIES
from kg.store import build_dirs
from kg.viz.html import render
from kg.viz.network import graph_of, load_graph
from kg.viz.panels import figure_topics
from tests.helpers import ROOT, add_article, edit_npr, remove_npr, shared_corpus
from tests.viz.support import row_table_scans


def index_of(data: Path) -> ViewIndex:
    index = open_index(build_dirs.require_current_build(data))
    assert index is not None, "the build kept no view index"
    return index


def whole_of(index: ViewIndex) -> nx.MultiDiGraph:
    """The whole view graph, made from the index's rows of every node."""
    return graph_of(index.schema, index.rows(index.all_nodes(), cap=None), whole_ranks=index.ranks())


def asked(data: Path) -> nx.MultiDiGraph:
    """The whole view graph, made from the store's SPARQL answers."""
    current = build_dirs.require_current_build(data)
    store = build_dirs.build_store(current)
    try:
        with build_dirs.under_build_base(current):
            return load_graph(store)
    finally:
        store.close()


def assert_same_view(data: Path) -> None:
    made, expected = whole_of(index_of(data)), asked(data)
    assert list(made.nodes(data=True)) == list(expected.nodes(data=True))
    assert list(made.edges(keys=True, data=True)) == list(expected.edges(keys=True, data=True))
    assert made.graph == expected.graph  # ranks included: the index's are the whole graph's
    assert list(made.graph["sentences"]) == list(expected.graph["sentences"])  # the page numbers them in this order
    assert render(made) == render(expected)


def assert_scores_are_the_graphs(index: ViewIndex, whole: nx.MultiDiGraph) -> None:
    scores = index.scores(whole)
    assert set(scores) == set(whole) and len(index) == whole.number_of_nodes()
    for node, data in whole.nodes(data=True):
        mentions = data["mentions"] or len(data["mention_sentences"])
        found = scores[node]
        assert (found.family, found.kind, found.mentions, found.degree, found.score) == \
            (data["family"], data["types"][0], mentions, whole.degree(node), mentions + whole.degree(node)), node
    ranked = sorted((n for n, f in whole.nodes(data="family") if f in OVERVIEW_FAMILIES),
                    key=lambda n: (-scores[n].score, n))
    for size in (1, 10, 40):
        assert index.best("", (), size) == ranked[:size]
    dated = Counter(d["props"]["date"] for _, d in whole.nodes(data=True) if d["family"] == "Event" and d["props"].get("date"))
    assert dict(index.dates()) == dict(dated)
    topics: Counter = Counter()
    for node, family in whole.nodes(data="family"):
        if family == "Figure":
            found = {(whole.nodes[e]["types"][0], key) for e, _, key in whole.in_edges(node, keys=True)
                     if whole.nodes[e]["family"] == "Event"}
            topics.update(found or {("", "")})
            assert len(found) == len(figure_topics(whole, node))
    assert Counter({(kind, role): n for kind, role, n in index.figure_topics()}) == topics


def state_of(index: ViewIndex) -> dict:
    """Everything an index answers that does not depend on how it is stored."""
    whole = whole_of(index)
    scores = index.scores(whole)
    return {"scores": scores, "ranks": index.ranks(), "dates": index.dates(),
            "figures": sorted(index.figure_topics()), "overview": index.overview(30), "total": len(index),
            "nodes": list(whole.nodes(data=True)), "edges": list(whole.edges(keys=True, data=True)),
            "graph": whole.graph}


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    copy = tmp_path / "corpus"
    shutil.copytree(ROOT / "corpus", copy)
    return copy


def test_the_kept_view_of_the_shipped_corpus_is_the_stores(corpus: Path, tmp_path: Path):
    data = tmp_path / "data"
    build(corpus, data)
    index = index_of(data)
    whole = whole_of(index)
    assert whole.number_of_nodes() > 300 and whole.number_of_edges() > 400  # the shipped corpus, drawn
    assert len(whole.graph["docs"]) == 4 and whole.graph["sentences"]
    assert_same_view(data)
    assert_scores_are_the_graphs(index, whole)


@pytest.mark.parametrize("change", [edit_npr, add_article, remove_npr], ids=["edit", "add", "remove"])
def test_an_incremental_build_patches_the_view_index(corpus: Path, tmp_path: Path, change):
    data = tmp_path / "data"
    build(corpus, data)
    before = state_of(index_of(data))
    change(corpus)
    assert build(corpus, data).mode == "incremental"
    assert_same_view(data)
    full = tmp_path / "full"
    build(corpus, full, full=True)
    patched, fresh = state_of(index_of(data)), state_of(index_of(full))
    assert patched == fresh
    assert before["edges"] != patched["edges"] or before["graph"]["docs"] != patched["graph"]["docs"]  # the change shows


def test_removals_and_edits_in_a_row_patch_the_degrees_of_popular_nodes(tmp_path: Path):
    """A generated corpus links a few places and people from most of its documents: removing
    documents and editing others, build after build, lowers and raises their degrees by what changed
    (the kept edges patched by the links of the sources replaced), as a full build counts them."""
    corpus, data = tmp_path / "corpus", tmp_path / "data"
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "corpus" / "generate.py"), "--docs", "30", "--seed", "3",
                    "--out", str(corpus)], check=True, capture_output=True, timeout=120)
    build(corpus, data)
    generator, slugs = Generator(3, 30), sorted(p.stem for p in corpus.glob("*.txt"))
    whole = whole_of(index_of(data))
    popular = max(whole, key=whole.degree)
    seen = [whole.degree(popular)]
    linking = sorted({whole.graph["sentences"][s]["doc"].rpartition("/")[2]
                      for _, _, evidence in whole.edges(popular, data="evidence") for s in evidence})
    editing = [slug for slug in slugs if slug not in linking]
    for step, slug in enumerate(linking[:3]):
        mutate.remove_document(corpus, slug)
        mutate.edit_document(corpus, editing[step], generator, salt=step)
        assert build(corpus, data).mode == "incremental"
        full = tmp_path / f"full-{step}"
        build(corpus, full, full=True)
        patched = state_of(index_of(data))
        assert patched == state_of(index_of(full)), f"after step {step}"
        seen.append(patched["scores"][popular].degree)
    assert all(later < earlier for earlier, later in zip(seen, seen[1:])), seen  # each removal took links of it


def test_an_edit_links_the_base_and_writes_a_delta_of_what_it_changed(corpus: Path, tmp_path: Path):
    data = tmp_path / "data"
    first = build(corpus, data).build_dir / build_dirs.VIEW_INDEX_DIR
    assert not (first / tables.DELTA_FILE).exists()
    edit_npr(corpus)
    second = build(corpus, data).build_dir / build_dirs.VIEW_INDEX_DIR
    for name in (tables.BASE_FILE, tables.HEAD_FILE):
        assert (second / name).stat().st_ino == (first / name).stat().st_ino
    delta = tables.open_read(second / tables.DELTA_FILE)
    try:
        sources = {row[0] for row in delta.execute("SELECT name FROM sources")}
        replaced = {row[0] for row in delta.execute("SELECT name FROM replaced")}
    finally:
        delta.close()
    assert "d:npr-venezuelan-armed-forces-fled" in sources and sources <= replaced
    assert not any(name.startswith("d:") and "npr" not in name for name in sources)  # the other articles stay in the base
    assert not row_table_scans(index_of(data))  # each arm of the base and the delta is probed by node


def test_edits_in_a_row_carry_the_delta_and_a_grown_delta_is_compacted(corpus: Path, tmp_path: Path, monkeypatch):
    data = tmp_path / "data"
    build(corpus, data)
    edit_npr(corpus)
    build(corpus, data)
    add_article(corpus)
    build(corpus, data)  # the delta holds the edit and the addition
    first_base = build_dirs.require_current_build(data) / build_dirs.VIEW_INDEX_DIR / tables.BASE_FILE
    assert (first_base.parent / tables.DELTA_FILE).exists()
    full = tmp_path / "full"
    build(corpus, full, full=True)
    assert state_of(index_of(data)) == state_of(index_of(full))
    monkeypatch.setattr(view_index, "COMPACT_MIN", 0)
    remove_npr(corpus)
    current = build(corpus, data).build_dir / build_dirs.VIEW_INDEX_DIR
    assert not (current / tables.DELTA_FILE).exists()  # compacted: one new base
    assert (current / tables.BASE_FILE).stat().st_ino != first_base.stat().st_ino
    assert first_base.exists()  # the previous build's base is untouched
    shutil.rmtree(full)
    build(corpus, full, full=True)
    assert state_of(index_of(data)) == state_of(index_of(full))


def test_a_build_after_one_that_kept_no_view_index_reads_it_from_the_store(corpus: Path, tmp_path: Path):
    data = tmp_path / "data"
    build(corpus, data)
    shutil.rmtree(build_dirs.require_current_build(data) / build_dirs.VIEW_INDEX_DIR)  # a build made before kg kept it
    edit_npr(corpus)
    assert build(corpus, data).mode == "incremental"
    assert_same_view(data)


def test_an_unreadable_index_is_none(corpus: Path, tmp_path: Path):
    data = tmp_path / "data"
    build(corpus, data)
    base = build_dirs.require_current_build(data) / build_dirs.VIEW_INDEX_DIR / tables.BASE_FILE
    base.unlink()
    base.write_bytes(b"not a database")
    assert open_index(build_dirs.require_current_build(data)) is None


SHARED = [("brat-commodity-news",), ("inception-xmi", "mimotext"), ("inception-xmi", "ner4archives"),
          ("webanno-tsv3", "globalise"), ("webanno-tsv3", "arete")]


@pytest.mark.parametrize("parts", SHARED, ids=["/".join(p) for p in SHARED])
def test_the_kept_view_of_a_shared_corpus_is_the_stores(parts: tuple[str, ...], tmp_path: Path):
    data = tmp_path / "data"
    build(shared_corpus(*parts), data)
    index = index_of(data)
    whole = whole_of(index)
    assert whole.number_of_nodes() > 0
    assert_same_view(data)
    assert_scores_are_the_graphs(index, whole)


def test_an_edit_writes_its_delta_without_a_scan_of_the_base(corpus: Path, tmp_path: Path, monkeypatch):
    """What an edit derives (the touched nodes, their edges, the counts) is read from the base by
    node, never by a scan of its rows: an edit costs what it changes, not what the corpus holds
    (through a view's union SQLite scanned every row table of the base: 4.7 s at 10,000 articles)."""
    data = tmp_path / "data"
    build(corpus, data)
    scans: set[tuple[str, str]] = set()
    writing_exit = segments._writing.__exit__

    def explained_exit(self, *failure):
        if failure[0] is None and self.path.name == tables.DELTA_FILE:
            scans.update(base_scans(self.connection, asked))
        return writing_exit(self, *failure)

    asked: list[str] = []
    create = tables.create
    monkeypatch.setattr(tables, "create", lambda path: _traced(create(path), asked))
    monkeypatch.setattr(segments._writing, "__exit__", explained_exit)
    edit_npr(corpus)
    assert build(corpus, data).mode == "incremental"
    assert asked and not scans


def _traced(connection, asked: list[str]):
    connection.set_trace_callback(asked.append)
    return connection


def base_scans(connection, queries: list[str]) -> set[tuple[str, str]]:
    """(query, plan step) of each step of `queries` that scans a table of the base segment (`b`) that
    grows with the corpus: its rows, nodes, edges, IRIs and sources."""
    connection.set_trace_callback(None)
    growing = {*tables.ROW_TABLES, "nodes", "edges", "terms", "sources"}
    found = set()
    for sql in queries:
        if not sql.lstrip().upper().startswith(("SELECT", "INSERT", "WITH")):
            continue
        for *_, detail in connection.execute("EXPLAIN QUERY PLAN " + sql):
            if detail.startswith("SCAN b.") and detail.split()[1][2:] in growing:
                found.add((" ".join(sql.split()[:8]), detail))
    return found
