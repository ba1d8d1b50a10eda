"""The graphs a page shows, cut from the build's view index, are the cuts of the whole view graph.

kg.viz.view_index makes each graph from the rows of its own nodes: a part must be the whole graph's
subgraph on its nodes (every attribute, in the same order; of each node's mention sentences and
each edge's evidence, SENTENCES_SHOWN_OTHERS of them, SENTENCES_SHOWN of the mentions of the node
a neighbourhood is about, with the count of all), a neighbourhood the node and the best of the
entities near it, the events that link them to it and the rest of its neighbours, a selection
the best of a kind, family, date or document and what its events name, a focus the nodes within
its depth.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import networkx as nx
import pytest

from kg.errors import InputError
from kg.model.iris import RESOURCE
from kg.pipeline.builder import build
from kg.publish.search import read_index
from kg.publish.view_data import ACTORS
from kg.publish.view_index import SENTENCES_SHOWN, ViewIndex, open_index
from kg.publish.view_index.read import SENTENCES_SHOWN_OTHERS
from kg.store import build_dirs, checksums
from kg.viz.html import safe_json
from kg.viz.neighbours import neighbourhood_data
from kg.viz.network import graph_of, ordered_subgraph
from kg.viz.view_index import (
    focus_graph,
    neighbourhood_graph,
    page_graph,
    part_graph,
    resolve,
    selection_graph,
    store_index,
)
from tests.helpers import ROOT, shared_corpus
from tests.viz.support import plan_steps, row_table_scans


def whole_of(index: ViewIndex) -> nx.MultiDiGraph:
    return graph_of(index.schema, index.rows(index.all_nodes(), cap=None), whole_ranks=index.ranks())


def assert_cut(made: nx.MultiDiGraph, whole: nx.MultiDiGraph, nodes: list[str] | set[str], centre: str | None = None,
               edges_of: set[str] | None = None, mentions_of: set[str] | None = None) -> None:
    """`made` is the subgraph of `whole` on `nodes` (with `edges_of`, only the edges with an end
    among those), its sentence lists cut to the shown: SENTENCES_SHOWN_OTHERS of each, the
    mentions of `centre` SENTENCES_SHOWN, none of the mentions of a node not in `mentions_of` (when given)."""
    expected = ordered_subgraph(whole, nodes)
    if edges_of is not None:
        expected.remove_edges_from([(s, o, k) for s, o, k in list(expected.edges(keys=True))
                                    if s not in edges_of and o not in edges_of])
    assert list(made) == list(expected)
    for node, data in made.nodes(data=True):
        wanted = dict(expected.nodes[node])
        every = wanted.pop("mention_sentences")
        got = dict(data)
        shown = got.pop("mention_sentences")
        cap = SENTENCES_SHOWN if node == centre else SENTENCES_SHOWN_OTHERS
        cap = 0 if mentions_of is not None and node not in mentions_of else cap
        assert shown == sorted(shown) and set(shown) <= set(every) and len(shown) == min(cap, len(every)), node
        assert got.pop("mentioned", len(every)) == len(every)
        got.pop("outside")
        assert got == wanted, node
    assert [(s, o, k) for s, o, k in made.edges(keys=True)] == [(s, o, k) for s, o, k in expected.edges(keys=True)]
    for s, o, k, data in made.edges(keys=True, data=True):
        every = expected.edges[s, o, k]["evidence"]
        shown = data["evidence"]
        assert set(shown) <= set(every) and len(shown) == min(SENTENCES_SHOWN_OTHERS, len(every))
    assert made.graph["ranks"] == whole.graph["ranks"] and made.graph["total_nodes"] == whole.number_of_nodes()
    cited = {s for _, _, d in made.edges(data=True) for s in d["evidence"]}
    cited |= {s for _, d in made.nodes(data=True) for s in d["mention_sentences"]}
    assert set(made.graph["sentences"]) == cited
    assert all(made.graph["sentences"][s] == whole.graph["sentences"][s] for s in cited)
    for node in made:
        assert made.nodes[node]["outside"] == whole.degree(node) - made.degree(node)


def best(whole: nx.MultiDiGraph, index: ViewIndex, nodes, limit: int) -> list[str]:
    scores = index.scores(nodes)
    return sorted(nodes, key=lambda n: (-scores[n].score, n))[:limit]


@pytest.fixture(scope="module")
def shipped(tmp_path_factory) -> tuple[ViewIndex, nx.MultiDiGraph, Path]:
    root = tmp_path_factory.mktemp("shipped")
    shutil.copytree(ROOT / "corpus", root / "corpus")
    build(root / "corpus", root / "data")
    current = build_dirs.require_current_build(root / "data")
    index = open_index(current)
    return index, whole_of(index), current


def test_a_part_is_the_subgraph_of_its_nodes(shipped) -> None:
    index, whole, _ = shipped
    for nodes in (index.overview(40), sorted(whole)[::7], [n for n, f in whole.nodes(data="family") if f == "Event"]):
        assert_cut(part_graph(index, nodes), whole, nodes)


def test_a_neighbourhood_is_the_node_and_its_best_neighbours(shipped) -> None:
    index, whole, _ = shipped
    undirected = whole.to_undirected(as_view=True)
    family = dict(whole.nodes(data="family"))
    by_score = index.best("", (), 10)
    events = [n for n, f in family.items() if f == "Event"][:3]
    for node in by_score[:3] + events:
        near = set(undirected[node]) - {node}
        near_events = {n for n in near if family[n] == "Event"}
        roles = {e: {o for _, o in whole.out_edges(e) if family[o] in ACTORS} for e in near_events}
        actors = ({n for n in near if family[n] in ACTORS} | {a for named in roles.values() for a in named}) - {node}
        for limit in (5, 500):
            chosen = best(whole, index, actors, (limit - 1) * 3 // 5)
            linking = [e for e in best(whole, index, near_events, len(near_events)) if roles[e] & set(chosen)]
            chosen += linking[:limit - 1 - len(chosen)]
            chosen += best(whole, index, near - set(chosen), limit - 1 - len(chosen))
            made = neighbourhood_graph(index, node, limit)
            figures = {n for n in chosen if family[n] == "Figure"}
            assert_cut(made, whole, [node] + chosen, centre=node, edges_of={node} | (set(chosen) & near_events),
                       mentions_of={node} | figures)  # the page's block cites the mentions of these only
    with pytest.raises(InputError):
        neighbourhood_graph(index, RESOURCE + "person/nobody")


def test_the_rows_of_a_page_are_read_by_index_never_by_a_scan_of_a_row_table(shipped) -> None:
    """Each query the reader runs for a part of the graph and a neighbourhood probes the row
    tables' indexes for the nodes it asks for (an index with a delta: tests/viz/test_kept_view.py)."""
    assert not row_table_scans(shipped[0])


def test_a_neighbourhood_reads_literals_and_edges_from_their_indexes_alone(shipped) -> None:
    """A node's literals (a place every article names has a row per article) and the edges of a
    neighbourhood's candidates are read from their indexes, not row by row from their tables."""
    steps = {detail for _, detail in plan_steps(shipped[0])}
    for table in ("literals", "edges"):
        used = {detail for detail in steps if f" INDEX {table}_" in detail}
        assert used and all("COVERING INDEX" in detail for detail in used), (table, used)


def test_a_build_made_before_the_covering_indexes_reads_the_same_view(shipped, tmp_path: Path) -> None:
    """A segment with the former indexes (a node's literals and each end's edges by that column
    alone) is read as it is: the same neighbourhoods, through the tables."""
    index, whole, current = shipped
    build_dir = tmp_path / current.name
    shutil.copytree(current / "view-index", build_dir / "view-index")
    base = build_dir / "view-index" / "base.sqlite"
    with sqlite3.connect(base) as connection:
        connection.executescript("DROP INDEX literals_node_p_v_source; DROP INDEX edges_s; DROP INDEX edges_o; "
                                 "CREATE INDEX literals_node ON literals(node); CREATE INDEX edges_s ON edges(s); "
                                 "CREATE INDEX edges_o ON edges(o);")
    checksums.seal(base)
    former = open_index(build_dir)
    assert former is not None
    assert "COVERING INDEX literals" not in " ".join(detail for _, detail in plan_steps(former))
    for node in index.best("", (), 5):
        assert safe_json(neighbourhood_data(neighbourhood_graph(former, node), node)) == \
            safe_json(neighbourhood_data(neighbourhood_graph(index, node), node))


def test_selections_are_the_best_of_a_kind_a_family_a_date_a_document(shipped) -> None:
    index, whole, _ = shipped
    data = dict(whole.nodes(data=True))

    def chosen_with_named(chosen: list[str], limit: int) -> list[str]:
        named = {o for e in chosen if data[e]["family"] == "Event" for _, o in whole.out_edges(e)} - set(chosen)
        return chosen + best(whole, index, named, limit - len(chosen))

    day = next(d["props"]["date"] for d in data.values() if d["family"] == "Event" and d["props"].get("date"))
    dated = [n for n, d in data.items() if d["props"].get("date", "").startswith(day[:7]) and d["family"] == "Event"]
    figures = {n for n, d in data.items() if d["family"] == "Figure"}  # a selection reads their mentions only
    made = selection_graph(index, date=day[:7], limit=40)
    assert_cut(made, whole, chosen_with_named(best(whole, index, dated, 20), 40), mentions_of=figures)
    kind = next(d["types"][0] for d in data.values() if d["family"] == "Event")
    made = selection_graph(index, kind=kind, limit=10)
    assert_cut(made, whole, chosen_with_named(best(whole, index, [n for n, d in data.items() if d["types"][0] == kind], 5), 10),
               mentions_of=figures)
    made = selection_graph(index, family="Place", limit=8)
    assert_cut(made, whole, best(whole, index, [n for n, d in data.items() if d["family"] == "Place"], 4), mentions_of=figures)
    doc = sorted(whole.graph["docs"])[0]
    named = {n for n in whole if n.startswith(doc + "/")}
    named |= {n for n, d in data.items() for s in d["mention_sentences"] if s.startswith(doc + "#")}
    made = selection_graph(index, doc=doc, limit=500)
    assert named <= set(made) and {n for n in made if n.startswith(doc + "/")} == {n for n in named if n.startswith(doc + "/")}
    with pytest.raises(InputError):
        selection_graph(index)


def test_a_focus_is_the_nodes_within_its_depth(shipped) -> None:
    index, whole, _ = shipped
    node = index.best("family = 'Place'", (), 1)[0]
    for depth in (0, 1, 2):
        within = nx.single_source_shortest_path_length(whole.to_undirected(as_view=True), node, cutoff=depth)
        made = focus_graph(index, node, depth, limit=10_000)
        assert set(made) == set(within)
    assert focus_graph(index, node, 2, limit=12).number_of_nodes() == 12
    with pytest.raises(InputError):
        focus_graph(index, node, -1)


def test_the_page_is_the_whole_graph_or_the_overview(shipped) -> None:
    index, whole, _ = shipped
    whole_page = page_graph(index, whole.number_of_nodes())
    assert list(whole_page.nodes(data=True)) == list(whole.nodes(data=True)) and "summary" not in whole_page.graph
    overview = page_graph(index, 50)
    assert set(overview) == set(index.best("", (), 50)) and overview.graph["total_nodes"] == whole.number_of_nodes()
    assert dict(overview.graph["summary"]["dates"]) == dict(index.dates())


@pytest.mark.parametrize("ident", ["https://kg.example.org/id/place/cucuta", "place/cucuta", "kgr:place/cucuta",
                                   "Cúcuta", "CUCUTA"])
def test_a_focus_is_named_by_iri_key_prefixed_name_or_label(shipped, ident: str) -> None:
    index, _, current = shipped
    assert resolve(index, ident, read_index(current)) == RESOURCE + "place/cucuta"


def test_an_unknown_focus_is_refused(shipped) -> None:
    index, _, current = shipped
    for ident in ("place/atlantis", "Atlantis"):
        with pytest.raises(InputError, match="names no entity or event"):
            resolve(index, ident, read_index(current))


def test_the_index_of_a_store_answers_as_the_kept_one(tmp_path: Path) -> None:
    corpus = shared_corpus("brat-commodity-news")
    build(corpus, tmp_path / "data")
    current = build_dirs.require_current_build(tmp_path / "data")
    kept = open_index(current)
    store = build_dirs.build_store(current)
    try:
        with build_dirs.under_build_base(current):
            asked = store_index(store.select)
    finally:
        store.close()
    assert asked.ranks() == kept.ranks() and asked.dates() == kept.dates() and len(asked) == len(kept)
    assert asked.overview(30) == kept.overview(30)
    nodes = kept.all_nodes()
    assert asked.scores(nodes) == kept.scores(nodes)
