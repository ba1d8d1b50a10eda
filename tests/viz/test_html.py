"""The page as text: self-contained, escaped, with a policy that admits only its own scripts."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from html.parser import HTMLParser

import networkx as nx
import pytest
from hypothesis import given, strategies as st

from kg.errors import KgError
from kg.viz import html as view_html
from kg.viz.html import _raw, render, safe_json, split_data, view_data
from kg.viz.network import FAMILIES
from tests.viz.support import join_blocks

EVIL = "<script>window.__pwned=1</script>"


class Elements(HTMLParser):
    """Every start tag with its attributes, and the text inside each <script>."""

    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"
        if self._in_script:
            self.scripts.append("")

    def handle_endtag(self, tag):
        self._in_script = False

    def handle_data(self, data):
        if self._in_script:
            self.scripts[-1] += data


@pytest.fixture
def page(sample_graph) -> str:
    return render(sample_graph, title='Graph <b>"x"</b>')


def parse(html: str) -> Elements:
    parser = Elements()
    parser.feed(html)
    return parser


def test_page_is_self_contained(page):
    elements = parse(page)
    urls = [v for _, attrs in elements.tags for k, v in attrs.items() if k in ("src", "href", "action")]
    assert urls == []
    assert [t for t, _ in elements.tags if t in ("link", "iframe", "img", "object", "embed")] == []
    assert "vis-network" in elements.scripts[1][:200] and "var network = null" in elements.scripts[2]
    assert not re.search(r"https?://(?!kg\.example\.org|www\.wikidata\.org|www\.w3\.org|visjs|almende|"
                         r"opensource|www\.apache|github|schema\.org|purl\.org|persistence|xmlns|semanticweb)",
                         page)


def test_two_data_blocks_two_scripts_and_corpus_text_never_raw(page):
    elements = parse(page)
    assert [attrs for tag, attrs in elements.tags if tag == "script"] == [
        {"type": "application/json", "id": "kg-data"}, {}, {},
        {"type": "application/json", "id": "kg-more", "data-encoding": "json"}]
    assert EVIL not in page and "<img src=x" not in page and "<em>cross" not in page
    assert "<title>Graph &lt;b&gt;&#34;x&#34;&lt;/b&gt;</title>" in page


def test_data_blocks_are_the_view_data(page, sample_graph):
    first = json.loads(parse(page).scripts[0])
    expected = view_data(sample_graph)
    assert first["nodes"] == expected["nodes"][: first["meta"]["first"]] and first["meta"]["first"] == 7
    assert {n["family"] for n in first["nodes"]} <= {"Person", "Organization", "Place"}
    assert {e["kind"] for e in first["edges"]} == {"link"} and "nodeDetails" not in first
    block = join_blocks(page)
    assert block["nodes"] == expected["nodes"]
    assert sorted(block["edges"], key=lambda e: e["id"]) == sorted(expected["edges"], key=lambda e: e["id"])
    assert block["nodeDetails"]["https://kg.example.org/id/person/evil"]["label"].startswith(EVIL)
    assert len(block["nodes"]) == block["meta"]["nodes"] == 11
    assert {e["kind"] for e in block["edges"]} == {"link", "layer"}
    assert all(e["arrow"] for e in block["edges"] if e["kind"] == "layer")


def test_a_large_second_block_travels_gzipped_and_escaped(sample_graph, monkeypatch):
    monkeypatch.setattr(view_html, "COMPRESS_OVER", 0)
    page = render(sample_graph)
    more = parse(page).scripts[3]
    assert re.fullmatch(r"[A-Za-z0-9+/=]+", more) and EVIL not in page
    assert join_blocks(page)["nodeDetails"]["https://kg.example.org/id/person/evil"]["label"].startswith(EVIL)


def test_a_large_graph_opens_on_its_best_connected_actors_and_their_strong_links():
    graph = nx.MultiDiGraph(labels={}, docs={}, sentences={})
    for i in range(view_html.STORY_MAX + 40):
        graph.add_node(f"p{i}", family="Person", label=f"p{i}", alt=[], hidden=[], wikidata=[], mentions=1,
                       facts=[], mention_sentences=[], type_labels=["person"], props={})
    for i in range(view_html.STORY_MAX + 39):
        graph.add_edge(f"p{i}", f"p{i + 1}", key="knows", label="knows", evidence=[])
        graph.add_edge(f"p{i}", "p0", key="knows", label="knows", evidence=[])
    data = view_data(graph)
    first, more = split_data(data)
    count = data["meta"]["first"]
    assert count == len(data["meta"]["initial"]) == view_html.STORY_MAX
    assert [n["id"] for n in first["nodes"]] == data["meta"]["initial"]
    assert all("x" in n for n in first["nodes"]) and not any("x" in n for n in more["nodes"])
    assert first["edges"] and all(e["strong"] and e["from"] < count and e["to"] < count for e in first["edges"])
    assert len(first["edges"]) + len(more["edges"]) == len(data["edges"])


def test_policy_allows_exactly_the_two_page_scripts(page):
    elements = parse(page)
    csp = next(a["content"] for t, a in elements.tags if a.get("http-equiv") == "Content-Security-Policy")
    executable = elements.scripts[1:3]
    hashes = sorted(f"'sha256-{base64.b64encode(hashlib.sha256(s.encode()).digest()).decode()}'"
                    for s in executable)
    script_src = re.search(r"script-src ([^;]+);", csp).group(1).split()
    assert sorted(script_src) == hashes
    assert "default-src 'none'" in csp and "unsafe-inline" not in csp.split("style-src")[0]


def test_positions_come_from_python_and_no_two_nodes_overlap(sample_graph):
    data = view_data(sample_graph)
    assert data["options"]["physics"] == {"enabled": False}
    nodes = data["nodes"]
    assert all(isinstance(n["x"], float) and isinstance(n["y"], float) for n in nodes)
    for i, a in enumerate(nodes):
        for b in nodes[i + 1:]:
            gap = a["size"] + b["size"]
            assert abs(a["x"] - b["x"]) >= gap or abs(a["y"] - b["y"]) >= gap, (a["id"], b["id"])


def named(data: dict) -> list[dict]:
    """The edges of view data with their node numbers turned back into ids."""
    ids = [n["id"] for n in data["nodes"]]
    return [{**e, "from": ids[e["from"]], "to": ids[e["to"]], "events": [ids[i] for i in e.get("events", [])]}
            for e in data["edges"]]


def test_links_join_actors_through_statements_and_shared_events(sample_graph):
    edges = named(view_data(sample_graph))
    links = {tuple(sorted((e["from"], e["to"]))): e for e in edges if e["kind"] == "link"}
    mora = "https://kg.example.org/id/person/juan-carlos-mora"
    guard = "https://kg.example.org/id/organization/venezuelan-national-guard"
    cucuta = "https://kg.example.org/id/place/cucuta"
    member = links[tuple(sorted((mora, guard)))]
    assert member["text"] == "member of" and member["to"] == guard and member["arrow"] and member["events"] == []
    shared = links[tuple(sorted((mora, cucuta)))]
    assert shared["text"] == "defection" and shared["relations"] == [] and "arrow" not in shared
    assert shared["events"] == ["https://kg.example.org/doc/sample-article/event/E1"]
    assert len(links) == 7


def test_speculated_events_and_links_resting_on_them_are_dashed(sample_graph):
    event = "https://kg.example.org/doc/sample-article/event/E1"
    sample_graph.nodes[event]["props"]["speculated"] = "true"
    data = view_data(sample_graph)
    assert next(n for n in data["nodes"] if n["id"] == event)["uncertain"] == "speculated"
    assert data["nodeDetails"][event]["uncertain"] == "speculated"
    dashed = [e for e in named(data) if e.get("dashes")]
    assert len(dashed) == 3 and all(e["kind"] == "link" and e["events"] == [event] for e in dashed)


def test_layer_nodes_and_unlinked_actors_have_places_too():
    graph = nx.MultiDiGraph(labels={}, docs={}, sentences={})
    for name, family in (("a", "Person"), ("b", "Person"), ("lonely", "Place"), ("e", "Event"), ("f", "Figure")):
        graph.add_node(name, family=family, label=name, alt=[], hidden=[], wikidata=[], mentions=1, facts=[],
                       mention_sentences=[], type_labels=[family.lower()], props={})
    graph.add_edge("e", "a", key="agent", label="agent", evidence=[])
    graph.add_edge("e", "b", key="agent", label="agent", evidence=[])
    graph.add_edge("e", "f", key="agent", label="agent", evidence=[])
    data = view_data(graph)
    assert {n["id"] for n in data["nodes"]} == {"a", "b", "lonely", "e", "f"}
    assert [e["kind"] for e in data["edges"]].count("link") == 1
    assert data["meta"]["linked"] == 2 and data["meta"]["actors"] == 3


def test_legend_lists_every_family_with_its_count(sample_graph):
    legend = view_data(sample_graph)["legend"]
    assert [e["family"] for e in legend] == ["Person", "Group", "Organization", "Place", "Entity", "Event", "Date",
                                             "Figure", "Quote"]
    assert [e["family"] for e in legend if e["layer"]] == ["Event", "Date", "Figure", "Quote"]
    assert set(FAMILIES) == {e["family"] for e in legend}
    assert {e["family"]: e["count"] for e in legend}["Place"] == 3
    assert len({(e["color"], e["shape"]) for e in legend}) == len(FAMILIES)


@given(st.text())
def test_safe_json_cannot_break_out_of_a_script_element(text):
    encoded = safe_json({"label": text})
    assert not set("<>&\u2028\u2029") & set(encoded)
    assert json.loads(encoded) == {"label": text}


def test_assets_that_would_close_their_element_are_refused():
    with pytest.raises(KgError, match="asset contains"):
        _raw("var a = '</SCRIPT>';", "script")
    with pytest.raises(KgError, match="asset contains"):
        _raw("<!-- x", "script")
    assert _raw("a { color: red }", "style") == "a { color: red }"
