"""The view of the sample graph in headless Chromium: it draws, escapes, explains, searches,
filters and focuses, with no request leaving the machine."""

from __future__ import annotations

import networkx as nx
import pytest

from kg.model.iris import RESOURCE
from tests.viz.support import NODE_COUNT

pytestmark = pytest.mark.browser

MORA = RESOURCE + "person/juan-carlos-mora"
GUAIDO = RESOURCE + "person/juan-guaido"
EVIL = RESOURCE + "person/evil"
EVIL_LABEL = ("<script>window.__pwned=1</script><img src=x onerror=\"window.__pwned=2\"> "
              "O'Brien & \"Co\"")


ACTORS = {RESOURCE + k for k in ("person/juan-guaido", "person/juan-carlos-mora", "person/evil",
                                  "organization/venezuelan-national-guard", "place/venezuela",
                                  "place/colombia", "place/cucuta")}


def test_opens_on_the_actors_and_their_links(page, sample_page, sample_store):
    page.open(sample_page.as_uri())
    expected = int(sample_store.select(NODE_COUNT)[0]["n"])
    assert page.page.evaluate("kgView.data.nodes.length") == expected == 11
    assert set(page.page.evaluate("network.body.data.nodes.getIds()")) == ACTORS
    links = page.page.evaluate("network.body.data.edges.get().map(e => [e.from, e.to].sort().concat([e.text]).join(' '))")
    names = {k.rsplit("/", 1)[-1]: k for k in ACTORS}
    expected = [("evil", "venezuelan-national-guard", "member of"),
                ("juan-carlos-mora", "venezuelan-national-guard", "member of"),
                ("juan-guaido", "evil", "opposes"), ("cucuta", "colombia", "located in"),
                ("juan-carlos-mora", "cucuta", "defection"), ("cucuta", "venezuela", "defection"),
                ("juan-carlos-mora", "venezuela", "defection")]
    assert sorted(links) == sorted(" ".join(sorted([names[a], names[b]]) + [text]) for a, b, text in expected)
    assert page.page.locator("#counts").text_content() == "7 entities · 7 links drawn · 11 nodes in the page"
    assert page.page.evaluate("network.physics.options.enabled") is False
    assert page.errors == [] and page.blocked == [] and page.dialogs == []
    page.screenshot("viz-sample.png")


def test_nodes_are_drawn_where_python_put_them(page, sample_page):
    page.open(sample_page.as_uri())
    placed = page.page.evaluate("network.getPositions()")
    given = page.page.evaluate("Object.fromEntries(kgView.data.nodes.map(n => [n.id, [n.x, n.y]]))")
    assert placed and all(abs(placed[k]["x"] - given[k][0]) < 1 and abs(placed[k]["y"] - given[k][1]) < 1
                          for k in placed)


def test_view_runs_under_its_own_content_security_policy(strict_page, sample_page):
    strict_page.page.goto(sample_page.as_uri(), wait_until="load")
    for _ in range(100):  # polled from Python: the policy forbids the eval that wait_for_function uses
        if strict_page.page.evaluate("!!(window.kgView && kgView.timings.firstDraw)"):
            break
        strict_page.page.wait_for_timeout(50)
    assert strict_page.page.evaluate("network.body.data.nodes.length") == 7
    assert strict_page.errors == [] and strict_page.blocked == []
    assert not strict_page.inline_script_runs(), "the policy lets an inline script without the page's hash run"


def test_labels_with_markup_render_as_text_and_nothing_runs(page, sample_page):
    page.open(sample_page.as_uri())
    page.settle()
    page.click_node(EVIL)
    panel = page.page.locator("#panel-body")
    assert panel.locator("h2").text_content() == EVIL_LABEL
    assert "<b onmouseover=window.__pwned=3>bold</b>" in panel.text_content()
    page.page.mouse.move(5, 5)
    page.click_node(EVIL)  # hover tooltip of the node
    page.page.fill("#search", "script")
    assert EVIL_LABEL in page.page.locator("#results").text_content()
    page.page.locator("#panel-body .relation button.link").first.click()
    page.page.evaluate("kgView.openTab('figures'); kgView.openTab('timeline')")
    assert page.page.evaluate("window.__pwned") is None
    assert page.page.evaluate("document.querySelectorAll('img, b, i, em').length") == 0
    assert page.page.evaluate("document.scripts.length") == 4  # two data blocks, two scripts
    assert page.dialogs == [] and page.errors == [] and page.blocked == []


def test_hover_shows_a_plain_text_summary(page, sample_page):
    page.open(sample_page.as_uri())
    page.settle()
    x, y = page.page.evaluate(
        """id => { const d = network.canvasToDOM(network.getPositions([id])[id]);
                  const r = document.querySelector('#network canvas').getBoundingClientRect();
                  return [r.left + d.x, r.top + d.y]; }""", EVIL)
    page.page.mouse.move(x, y)
    tooltip = page.page.locator("div.vis-tooltip")
    tooltip.wait_for(state="visible")
    assert tooltip.text_content().startswith(EVIL_LABEL)
    assert page.page.evaluate("document.querySelectorAll('div.vis-tooltip *:not(br)').length") == 0
    assert page.page.evaluate("window.__pwned") is None


def test_clicking_a_node_shows_types_names_wikidata_relations_and_sources(page, sample_page):
    page.open(sample_page.as_uri())
    page.click_node(MORA)
    panel = page.page.locator("#panel-body")
    assert panel.locator("h2").text_content() == "Juan Carlos Mora"
    assert panel.locator(".types").first.text_content() == "person"
    assert panel.locator(".alt").text_content() == "Mora"
    assert panel.locator(".link-item").count() == 3  # the Guard, Venezuela, Cúcuta
    relations = panel.locator(".relation")
    assert relations.count() == 3  # member of, agent of the defection, said by of the quote
    assert panel.locator(".relation", has_text="← agent: Mora defects to Cúcuta").count() == 1
    assert panel.locator(".relation", has_text="← said by: We will not <i>go back</i>").count() == 1
    member = panel.locator(".relation", has_text="→ member of: Bolivarian National Guard")
    quotes = member.locator("blockquote").all_text_contents()
    assert quotes == ["Lt. Juan Carlos Mora of the National Guard fled to Cúcuta.",
                      "Mora, of the Guard, spoke in Cúcuta, Colombia."]
    assert member.locator("cite").all_text_contents() == [
        "Soldiers <em>cross</em> the border — 2019-02-24", "A second report — 2019-03"]
    page.click_node(RESOURCE + "place/venezuela")
    link = panel.locator("a.wikidata")
    assert link.text_content() == "Q717"
    assert link.get_attribute("href") == "https://www.wikidata.org/wiki/Q717"
    assert page.errors == [] and page.blocked == []


def _click_edge(page, edge):
    x, y = page.page.evaluate(
        """id => { const p = network.canvasToDOM(network.body.edges[id].edgeType.getPoint(0.5));
                  const r = document.querySelector('#network canvas').getBoundingClientRect();
                  return [r.left + p.x, r.top + p.y]; }""", edge)
    page.page.mouse.click(x, y)


def test_clicking_a_link_shows_the_sentences_that_state_it(page, sample_page):
    page.open(sample_page.as_uri())
    edge = page.page.evaluate(
        f"network.body.data.edges.get().find(e => e.from === '{GUAIDO}' && e.text === 'opposes').id")
    _click_edge(page, edge)
    panel = page.page.locator("#panel-body")
    assert panel.get_attribute("data-edge") == edge
    assert panel.locator("h3").text_content() == "Stated relations"
    assert panel.locator("blockquote").text_content() == (
        "\"We will not <i>go back</i>,\" said Mora; Guaidó opposes the <script>alert(1)</script> regime.")


def test_a_link_through_an_event_lists_the_event_and_its_sentences(page, sample_page):
    page.open(sample_page.as_uri())
    edge = page.page.evaluate(f"""network.body.data.edges.get().find(e =>
        e.to === '{RESOURCE}place/cucuta' && e.from === '{MORA}').id""")
    _click_edge(page, edge)
    panel = page.page.locator("#panel-body")
    assert panel.locator("h3").text_content() == "Both take part in 1 event"
    shared = panel.locator(".shared-event")
    assert shared.locator("button.link").text_content() == "Mora defects to Cúcuta"
    assert shared.locator("blockquote").all_text_contents() == [
        "Lt. Juan Carlos Mora of the National Guard fled to Cúcuta."]


def test_search_finds_any_alias_ignoring_accents_and_case(page, sample_page):
    page.open(sample_page.as_uri())
    for query in ["Guaido", "guiado", "GUAIDÓ", "juan guai"]:
        page.page.fill("#search", query)
        assert page.page.locator("#results button").first.get_attribute("data-node") == GUAIDO, query
    page.page.locator("#results button").first.click()
    assert page.page.locator("#results").is_hidden()
    assert page.page.locator("#panel-body h2").text_content() == "Juan Guaidó"
    assert page.page.evaluate("network.getSelectedNodes()") == [GUAIDO]
    page.page.fill("#search", "mora")
    page.page.press("#search", "Enter")
    assert page.page.locator("#panel-body h2").text_content() == "Juan Carlos Mora"


def test_search_matches_only_what_contains_the_text(page, sample_page):
    page.open(sample_page.as_uri())
    page.page.fill("#search", "cucuta")
    assert page.page.locator("#results button").evaluate_all("bs => bs.map(b => b.dataset.node)") == [
        RESOURCE + "place/cucuta", "https://kg.example.org/doc/sample-article/event/E1"]
    page.page.fill("#search", "zzz")
    assert page.page.locator("#results").text_content() == "No match"


def test_type_filters_hide_and_show_a_family(page, sample_page, sample_graph):
    page.open(sample_page.as_uri())
    people = {n for n, f in sample_graph.nodes(data="family") if f == "Person"}
    page.page.locator("#legend input[value=Person]").uncheck()
    visible = set(page.page.evaluate("kgView.state().visible"))
    assert visible == ACTORS - people - {RESOURCE + "organization/venezuelan-national-guard"}  # left unlinked
    page.page.locator("#legend input[value=Person]").check()
    assert set(page.page.evaluate("kgView.state().visible")) == ACTORS


@pytest.mark.parametrize("focus,depth", [("kgr:place/cucuta", 2), ("Guiado", 0)])
def test_focus_from_url_shows_the_neighbourhood(page, sample_page, sample_graph, focus, depth):
    page.open(f"{sample_page.as_uri()}?focus={focus}&depth={depth}")
    state = page.page.evaluate("kgView.state()")
    centre = state["focus"]["id"]
    links = nx.Graph((u, v) for u, v in sample_graph.to_undirected().edges() if u in ACTORS and v in ACTORS)
    links.add_edges_from([(RESOURCE + "person/juan-carlos-mora", RESOURCE + "place/venezuela"),
                          (RESOURCE + "place/venezuela", RESOURCE + "place/cucuta"),
                          (RESOURCE + "person/juan-carlos-mora", RESOURCE + "place/cucuta")])
    assert set(state["visible"]) == set(nx.ego_graph(links, centre, radius=depth))
    assert page.page.locator("#panel-body h2").text_content() == sample_graph.nodes[centre]["label"]
    assert page.errors == []


def test_focus_button_and_show_all(page, sample_page, sample_graph):
    page.open(sample_page.as_uri())
    page.click_node(GUAIDO)
    page.page.fill("#depth", "2")
    page.page.click("#focus-btn")
    assert set(page.page.evaluate("kgView.state().visible")) == {
        GUAIDO, EVIL, RESOURCE + "organization/venezuelan-national-guard"}
    assert "focus=" in page.page.url and "depth=2" in page.page.url
    page.page.click("#unfocus-btn")
    assert set(page.page.evaluate("kgView.state().visible")) == ACTORS


def test_unknown_focus_is_reported_not_fatal(page, sample_page):
    page.open(f"{sample_page.as_uri()}?focus=nobody")
    assert page.page.locator("#status").text_content() == "No entity or event named nobody"
    assert page.errors == []


def test_search_focus_and_tabs_work_from_the_keyboard(page, sample_page):
    page.open(sample_page.as_uri())
    page.page.focus("#search")
    page.page.keyboard.type("cuc")
    page.page.keyboard.press("ArrowDown")
    assert page.page.evaluate("document.activeElement.dataset.node") == RESOURCE + "place/cucuta"
    page.page.keyboard.press("Enter")
    assert page.page.locator("#panel-body h2").text_content() == "Cúcuta"
    page.page.focus("#focus-btn")
    page.page.keyboard.press("Enter")
    assert page.page.evaluate("kgView.state().focus.id") == RESOURCE + "place/cucuta"
    page.page.focus("#tab-timeline")
    page.page.keyboard.press("Enter")
    assert page.page.locator("#timeline-body").is_visible()
    page.page.locator("#timeline-body .tl-event button.link").first.focus()
    page.page.keyboard.press("Enter")
    assert page.page.evaluate("kgView.state().focus.id") == "https://kg.example.org/doc/sample-article/event/E1"
    assert page.errors == []


def test_each_relation_type_is_drawn_in_its_legend_colour_and_can_be_hidden(page, sample_page):
    page.open(sample_page.as_uri())
    page.page.click("#relation-legend summary")
    shown = page.page.locator("#relation-legend li").all_text_contents()
    legend = {entry["label"]: entry["color"] for entry in page.page.evaluate("kgView.data.relationLegend")}
    assert {"member of (2)", "opposes (1)", "located in (1)"} <= set(shown)
    drawn = page.page.evaluate("network.body.data.edges.get().map(e => [e.text, e.color.color])")
    colours = {text: {c for t, c in drawn if t == text} for text, _ in drawn}
    assert colours["member of"] == {legend["member of"]} and colours["opposes"] == {legend["opposes"]}
    assert colours["defection"] == {legend["shared event"]}
    assert len({legend["member of"], legend["opposes"], legend["located in"], legend["shared event"]}) == 4
    page.page.locator("#relation-legend label", has_text="member of").locator("input").uncheck()
    page.drawn()
    texts = page.page.evaluate("network.body.data.edges.get().map(e => e.text)")
    assert "member of" not in texts and texts.count("opposes") == 1 and "defection" in texts
    page.page.locator("#relation-legend label", has_text="member of").locator("input").check()
    page.drawn()
    assert page.page.evaluate("network.body.data.edges.get().map(e => e.text)").count("member of") == 2
