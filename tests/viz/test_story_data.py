"""Links between actors, the strongest of them, the actors a large page opens on, the timeline
and the figures, computed from view graphs."""

from __future__ import annotations

import networkx as nx

from kg.viz.html import STORY_MAX, view_data
from kg.viz.panels import after_span, day_label, figure_groups, timeline
from kg.viz.story import Link, actor_graph, actor_links, strongest_links, top_actors


def node(graph, name, family, **props):
    graph.add_node(name, family=family, label=name, alt=[], hidden=[], wikidata=[], mentions=1, facts=[],
                   mention_sentences=[], type_labels=[family.lower()], props=props)


def test_strongest_links_keep_the_heaviest_of_each_actor():
    links = {("a", "b"): Link("a", "b", events=["e1", "e2", "e3"]), ("a", "c"): Link("a", "c", events=["e1"]),
             ("a", "d"): Link("a", "d", events=["e1"]), ("c", "d"): Link("c", "d", events=["e1"])}
    assert strongest_links(links, 1) == {("a", "b"), ("a", "c"), ("a", "d")}  # ties: the first pair
    assert strongest_links(links, 5) == set(links)


def test_a_large_graph_opens_on_its_best_connected_actors():
    graph = nx.MultiDiGraph(labels={}, docs={}, sentences={})
    for i in range(STORY_MAX + 60):
        node(graph, f"p{i}", "Person")
    for i in range(STORY_MAX + 59):  # a chain of events: p0 is in the most, the tail in the fewest
        node(graph, f"e{i}", "Event")
        for j in (0, i + 1) if i % 2 else (i, i + 1):
            graph.add_edge(f"e{i}", f"p{j}", key="agent", label="agent", evidence=[])
    data = view_data(graph)
    story = actor_graph(graph, actor_links(graph))
    assert data["meta"]["initial"] == top_actors(story, graph, STORY_MAX)
    assert len(data["meta"]["initial"]) == STORY_MAX and "p0" in data["meta"]["initial"]
    assert any(e.get("strong") for e in data["edges"]) and not all(e.get("strong") for e in data["edges"])


def test_timeline_groups_dated_events_by_day_in_order():
    graph = nx.MultiDiGraph(labels={}, docs={}, sentences={})
    node(graph, "a", "Person")
    node(graph, "late", "Event", date="2019-05-01")
    node(graph, "early", "Event", date="2019-02")
    node(graph, "same day", "Event", date="2019-05-01", speculated="true")
    node(graph, "undated", "Event")
    graph.add_edge("late", "a", key="agent", label="agent", evidence=[])
    days = timeline(graph)
    assert [(d["date"], d["label"], [e["id"] for e in d["events"]]) for d in days] == [
        ("2019-02", "February 2019", ["early"]), ("2019-05-01", "Wednesday 1 May 2019", ["late", "same day"])]
    assert days[1]["events"][0]["participants"] == ["a"] and days[1]["events"][1]["uncertain"] == "speculated"
    assert day_label("2019") == "2019" and day_label("not a date") == "not a date"


def test_figures_are_grouped_by_event_kind_and_role():
    graph = nx.MultiDiGraph(labels={}, docs={}, sentences={})
    node(graph, "flight", "Event")
    node(graph, "ministry", "Organization")
    node(graph, "1,400", "Figure", value="1400", qualifier="MoreThan")
    node(graph, "1,000", "Figure", value="1000", qualifier="Nearly")
    node(graph, "50", "Figure", value="50")
    graph.add_edge("flight", "1,400", key="agent", label="agent", evidence=[])
    graph.add_edge("flight", "1,000", key="agent", label="agent", evidence=[])
    graph.add_edge("1,000", "ministry", key="https://kg.example.org/ontology#reportedBy", label="reported by",
                   evidence=[])
    groups = figure_groups(graph)
    assert [(g["topic"], [r["id"] for r in g["rows"]]) for g in groups] == [
        ("event, agent", ["1,000", "1,400"]), ("other figures", ["50"])]
    assert groups[0]["rows"][0]["sources"] == ["ministry"] and groups[0]["rows"][1]["qualifier"] == "MoreThan"


def test_after_span_gives_what_a_figure_counts():
    sentence = "More than 1,400 members of the security forces have crossed, officials said."
    assert after_span(sentence, "More than 1,400") == "members of the security forces have crossed"
    assert after_span(sentence, "absent") == ""
