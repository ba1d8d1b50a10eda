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

from viz.html import _raw, render, safe_json, view_data
from viz.network import FAMILIES

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


def test_exactly_three_scripts_and_corpus_text_never_raw(page):
    elements = parse(page)
    assert [attrs for tag, attrs in elements.tags if tag == "script"] == [
        {"type": "application/json", "id": "kg-data"}, {}, {}]
    assert EVIL not in page and "<img src=x" not in page and "<em>cross" not in page
    assert "<title>Graph &lt;b&gt;&#34;x&#34;&lt;/b&gt;</title>" in page


def test_data_block_is_the_view_data(page, sample_graph):
    block = json.loads(parse(page).scripts[0])
    expected = view_data(sample_graph)
    assert block["nodes"] == expected["nodes"] and block["edges"] == expected["edges"]
    assert block["nodeDetails"]["https://kg.example.org/id/person/evil"]["label"].startswith(EVIL)
    assert len(block["nodes"]) == block["meta"]["nodes"] == 11
    assert all(e["arrows"] == "to" for e in block["edges"])


def test_policy_allows_exactly_the_two_page_scripts(page):
    elements = parse(page)
    csp = next(a["content"] for t, a in elements.tags if a.get("http-equiv") == "Content-Security-Policy")
    executable = elements.scripts[1:]
    hashes = sorted(f"'sha256-{base64.b64encode(hashlib.sha256(s.encode()).digest()).decode()}'"
                    for s in executable)
    script_src = re.search(r"script-src ([^;]+);", csp).group(1).split()
    assert sorted(script_src) == hashes
    assert "default-src 'none'" in csp and "unsafe-inline" not in csp.split("style-src")[0]


def test_physics_below_the_threshold_positions_above(sample_graph):
    small = view_data(sample_graph)
    assert small["meta"]["physics"] and small["options"]["physics"]["enabled"]
    assert all(isinstance(n["x"], float) for n in small["nodes"])  # physics starts from the Python layout
    fixed = view_data(sample_graph, physics=False)
    assert fixed["options"]["physics"] == {"enabled": False}
    assert all(isinstance(n["x"], float) and isinstance(n["y"], float) for n in fixed["nodes"])
    big = nx.MultiDiGraph(nx.path_graph(1000, create_using=nx.MultiDiGraph))
    for n in big:
        big.nodes[n].update(family="Person", label=f"n{n}", alt=[], hidden=[], wikidata=[], mentions=0,
                            facts=[], mention_sentences=[], type_labels=["person"])
    for u, v, k in big.edges(keys=True):
        big.edges[u, v, k].update(label="knows", evidence=[])
    data = json.loads(parse(render(big)).scripts[0])
    assert data["meta"]["physics"] is False and "x" in data["nodes"][0]


def test_parallel_edges_are_curved_apart(sample_graph):
    mora = "https://kg.example.org/id/person/juan-carlos-mora"
    guard = "https://kg.example.org/id/organization/venezuelan-national-guard"
    sample_graph.add_edge(guard, mora, key="https://kg.example.org/ontology#x", label="x", evidence=[])
    edges = [e for e in view_data(sample_graph)["edges"] if {e["from"], e["to"]} == {mora, guard}]
    assert len(edges) == 2 and [("smooth" in e) for e in edges] == [False, True]


def test_legend_lists_every_family_with_its_count(sample_graph):
    legend = view_data(sample_graph)["legend"]
    assert [e["family"] for e in legend] == list(FAMILIES)
    assert {e["family"]: e["count"] for e in legend}["Place"] == 3
    assert len({(e["color"], e["shape"]) for e in legend}) == len(FAMILIES)


@given(st.text())
def test_safe_json_cannot_break_out_of_a_script_element(text):
    encoded = safe_json({"label": text})
    assert not set("<>&\u2028\u2029") & set(encoded)
    assert json.loads(encoded) == {"label": text}


def test_assets_that_would_close_their_element_are_refused():
    with pytest.raises(ValueError):
        _raw("var a = '</SCRIPT>';", "script")
    with pytest.raises(ValueError):
        _raw("<!-- x", "script")
    assert _raw("a { color: red }", "style") == "a { color: red }"
