"""A large graph's page in headless Chromium: it opens on its best-connected actors from a small
first block, reads the rest (gzipped) after the first frame, and places the nodes a click or a
layer brings in around the node they belong to, covering no drawn node."""

from __future__ import annotations

import math
from pathlib import Path

import networkx as nx
import pytest

from kg.viz import html as view_html
from kg.viz.measure import OVERLAP

pytestmark = pytest.mark.browser

ACTORS = view_html.STORY_MAX + 60
OVERLAPPING_PAIRS = """async except => { await kgView.drawn(); const ids = network.body.data.nodes.getIds().filter(id => id !== except);
  const boxes = ids.map(id => network.getBoundingBox(id)); const pairs = [];
  boxes.forEach((a, i) => boxes.forEach((b, j) => {
    if (i < j && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) pairs.push([ids[i], ids[j]]);
  }));
  return pairs; }"""


def node(graph: nx.MultiDiGraph, name: str, family: str, label: str) -> None:
    graph.add_node(name, family=family, label=label, alt=[], hidden=[], wikidata=[], mentions=1, facts=[],
                   mention_sentences=[], type_labels=[family.lower()], props={})


def large_graph(stated: bool = True) -> nx.MultiDiGraph:
    """Actors in a ring of events, every tenth also in an event with a hub; each event has a
    quote: more linked actors than a page opens on, with layers around them. With `stated`, one
    person is a member of the hub (a statement): the events are fewer than the actors and not
    all that links them, so the page opens on the actors alone."""
    graph = nx.MultiDiGraph(labels={}, docs={}, sentences={})
    node(graph, "hub", "Organization", "Hub Organization")
    if stated:
        node(graph, "p999", "Person", "Member of the hub")
        graph.add_edge("p999", "hub", key="memberOf", label="member of", evidence=[])
    for i in range(ACTORS):
        node(graph, f"p{i:03}", "Person", f"Person number {i}")
    for i in range(ACTORS):
        event = f"e{i:03}"
        node(graph, event, "Event", f"meeting {i}")
        node(graph, f"q{i:03}", "Quote", f"said at meeting {i}")
        graph.add_edge(event, f"p{i:03}", key="agent", label="agent", evidence=[])
        graph.add_edge(event, f"p{(i + 1) % ACTORS:03}", key="agent", label="agent", evidence=[])
        graph.add_edge(f"q{i:03}", f"p{i:03}", key="saidBy", label="said by", evidence=[])
        if i % 10 == 0:
            graph.add_edge(event, "hub", key="place", label="place", evidence=[])
    return graph


@pytest.fixture
def large_page(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.setattr(view_html, "COMPRESS_OVER", 0)  # the gzip path, whatever the size
    path = tmp_path / "large.html"
    path.write_text(view_html.render(large_graph()), encoding="utf-8")
    return path


def drawn_positions(page) -> dict:
    return page.page.evaluate("network.getPositions()")


def test_opens_on_the_first_block_and_reads_the_rest_after_the_first_frame(page, large_page):
    page.open(large_page.as_uri())
    timings = page.page.evaluate("kgView.timings")
    assert timings["firstDraw"] <= timings["read"] <= timings["ready"]
    meta = page.page.evaluate("kgView.data.meta")
    assert page.page.evaluate("kgView.data.nodes.length") == meta["nodes"] == 2 * ACTORS + ACTORS + 2
    assert set(page.page.evaluate("kgView.state().visible")) <= set(meta["initial"])
    assert page.page.evaluate("kgView.search('person number 205')")[:1] == ["p205"]
    assert page.errors == [] and page.blocked == []


def test_a_click_lays_out_the_new_neighbours_around_the_clicked_actor(page, large_page):
    page.open(large_page.as_uri())
    before = set(page.page.evaluate("kgView.state().visible"))
    clicked = next(f"p{i:03}" for i in range(ACTORS) if f"p{i:03}" in before and f"p{i + 1:03}" not in before)
    page.click_node(clicked)
    page.drawn()
    after = set(page.page.evaluate("kgView.state().visible"))
    new = after - before - set(page.page.evaluate("kgView.data.meta.initial"))  # placed by the page
    assert new, "the click added no neighbour"
    positions = drawn_positions(page)
    for n in new:  # the clicked actor is among the three nodes drawn before nearest to each new one
        here = (positions[n]["x"], positions[n]["y"])
        nearest = sorted(before, key=lambda m: math.dist(here, (positions[m]["x"], positions[m]["y"])))
        assert clicked in nearest[:3], (n, nearest[:3])
    assert page.page.evaluate(OVERLAPPING_PAIRS, clicked) == []  # the clicked node's label is always drawn
    assert {n: positions[n] for n in before} == {n: drawn_positions(page)[n] for n in before}  # nothing else moved
    page.screenshot("viz-large-expanded.png")
    assert page.errors == []


def test_events_are_drawn_from_the_start_when_they_carry_the_story(page, tmp_path):
    path = tmp_path / "events.html"
    path.write_text(view_html.render(large_graph(stated=False)), encoding="utf-8")
    page.open(path.as_uri())
    assert page.page.evaluate("kgView.data.meta.showEvents") is True
    families = set(page.page.evaluate("network.body.data.nodes.get().map(n => n.family)"))
    assert "Event" in families and "Quote" not in families
    assert page.errors == [] and page.blocked == []


def test_layers_of_a_large_graph_cover_no_drawn_node(page, large_page):
    page.open(large_page.as_uri())
    page.page.evaluate("kgView.setLayers(['events', 'quotes']); kgView.fit()")
    page.drawn()
    measured = page.page.evaluate(OVERLAP)
    families = set(page.page.evaluate("network.body.data.nodes.get().map(n => n.family)"))
    assert {"Event", "Quote"} <= families and measured["drawn"] > ACTORS
    assert measured["overlapping"] == 0, measured
    page.screenshot("viz-large-layers.png")
    page.page.evaluate("kgView.setLayers([])")
    assert set(page.page.evaluate("network.body.data.nodes.get().map(n => n.family)")) <= {"Person", "Organization"}
    assert page.errors == []
