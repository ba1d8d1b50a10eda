"""The story view of the shipped corpus in headless Chromium: labels that do not cover each
other, layers, the timeline against the store's event dates, the figures table against a
SPARQL query, and shareable links that round-trip."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg.store import build_dirs
from kg.store.embedded import EmbeddedStore
from kg.viz.measure import OVERLAP
from tests.helpers import view_file

pytestmark = pytest.mark.browser

PREFIXES = """PREFIX kgo: <https://kg.example.org/ontology#>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX nif: <http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#>
"""
EVENT_DATES = PREFIXES + "SELECT ?e ?d WHERE { ?e a kgo:Event ; kgo:date ?d }"
FIGURES = PREFIXES + """SELECT ?f ?label ?value ?qualifier ?source ?date ?doc WHERE {
  ?f a kgo:Figure ; rdfs:label ?label ; kgo:mention/nif:referenceContext ?doc .
  OPTIONAL { ?f kgo:value ?value } OPTIONAL { ?f kgo:qualifier ?qualifier }
  OPTIONAL { ?f kgo:reportedBy ?source }
  OPTIONAL { ?f kgo:asOf ?d . OPTIONAL { ?d kgo:dateValue ?v } OPTIONAL { ?d skos:prefLabel ?p }
             OPTIONAL { ?d rdfs:label ?l } BIND(COALESCE(?v, ?p, ?l) AS ?date) } }"""
GROUP_MEMBERSHIPS = PREFIXES + """SELECT ?g ?label ?body ?title WHERE {
  ?g a kgo:Group ; skos:prefLabel ?label ; kgo:memberOf ?body ; kgo:mention/nif:referenceContext ?doc .
  ?doc <http://purl.org/dc/terms/title> ?title }"""
GROUPS = PREFIXES + "SELECT (COUNT(DISTINCT ?g) AS ?n) WHERE { ?g a kgo:Group }"
EVENT_KINDS = PREFIXES + """SELECT ?label (COUNT(DISTINCT ?e) AS ?n) WHERE {
  ?e a ?kind . ?kind rdfs:subClassOf kgo:Event ; rdfs:label ?label } GROUP BY ?label"""
GUAIDO = "https://kg.example.org/id/person/juan-guaido"


@pytest.fixture(scope="module")
def corpus(shipped_data: Path) -> dict:
    """The shipped corpus build's page and what SPARQL says about its events and figures."""
    build = build_dirs.current_build(shipped_data)
    store = EmbeddedStore(build_dirs.store_path(build), read_only=True)
    try:
        dates = {r["e"]: r["d"] for r in store.select(EVENT_DATES)}
        figures = store.select(FIGURES)
        groups = int(store.select(GROUPS)[0]["n"])
        memberships = store.select(GROUP_MEMBERSHIPS)
        kinds = {r["label"]: int(r["n"]) for r in store.select(EVENT_KINDS)}
    finally:
        store.close()
    return {"page": view_file(build).as_uri(), "dates": dates, "figures": figures, "groups": groups,
            "memberships": memberships, "kinds": kinds}


def test_at_most_5_percent_of_drawn_nodes_overlap_at_the_first_frame(page, corpus):
    page.open(corpus["page"])
    measured = page.page.evaluate(OVERLAP)
    assert measured["drawn"] > 50
    assert measured["share"] <= 0.05, measured
    labelled = page.page.evaluate("kgView.state().labelled")
    assert GUAIDO in labelled and len(labelled) >= measured["drawn"] // 2
    assert page.errors == [] and page.blocked == []


def test_the_story_first_then_layers_on_demand(page, corpus):
    page.open(corpus["page"])
    families = lambda: set(page.page.evaluate(  # noqa: E731
        "network.body.data.nodes.get().map(n => n.family)"))
    assert families() == {"Person", "Group", "Organization", "Place"}
    page.page.locator("#legend input[value=Event]").check()
    assert families() == {"Person", "Group", "Organization", "Place", "Event"}
    assert "layer=events" in page.page.url
    events = page.page.evaluate("network.body.data.nodes.get().filter(n => n.family === 'Event').length")
    # events linked to no actor and no other event (a claim links to the events it states) stay hidden
    assert events == page.page.evaluate("""kgView.data.nodes.filter(n => n.family === 'Event' &&
        kgView.data.nodeDetails[n.id].relations.some(i => {
            const r = kgView.data.relations[i], other = r.to === n.id ? r.from : r.to;
            return other !== n.id && !kgView.data.nodeDetails[other].family.match(/Date|Figure|Quote/); })).length""")
    dashed = page.page.evaluate("network.body.data.nodes.get().filter(n => n.shapeProperties).map(n => n.id)")
    assert dashed and all(page.page.evaluate(f"kgView.data.nodeDetails['{d}'].uncertain") for d in dashed)
    page.page.locator("#legend input[value=Event]").uncheck()
    page.page.locator("#legend input[value=Quote]").check()
    assert families() == {"Person", "Group", "Organization", "Place", "Quote"}
    unlinked = page.page.evaluate("kgView.data.meta.actors - kgView.data.meta.linked")
    before = len(page.page.evaluate("kgView.state().visible"))
    page.page.locator("#legend input[value=isolated]").check()
    assert unlinked and len(page.page.evaluate("kgView.state().visible")) > before
    assert page.errors == []


def test_timeline_lists_the_dated_events_in_the_order_of_the_store(page, corpus):
    page.open(corpus["page"])
    page.page.click("#timeline-btn")
    items = page.page.locator("#timeline-body .tl-event")
    shown = items.evaluate_all("els => els.map(e => [e.dataset.node, e.closest('.day').dataset.date])")
    assert {node for node, _ in shown} == set(corpus["dates"])
    assert all(corpus["dates"][node] == day for node, day in shown)
    days = [day for _, day in shown]
    assert days == sorted(days) and len(shown) == len(corpus["dates"])
    assert all(items.nth(i).locator(".from").text_content().startswith("Sources: ") for i in range(len(shown)))
    actors = page.page.evaluate("""() => Object.fromEntries(kgView.data.timeline.flatMap(d => d.events).map(e =>
        [e.id, e.participants.filter(p => /Person|Organization|Place/.test(kgView.data.nodeDetails[p].family))]))""")
    at, first = next((i, node) for i, (node, _) in enumerate(shown) if actors[node])
    items.nth(at).locator("button.link").click()
    state = page.page.evaluate("kgView.state()")
    assert state["focus"]["id"] == first and set(actors[first]) <= set(state["visible"])
    page.screenshot("viz-timeline.png")
    assert page.errors == []


def test_figures_table_shows_every_figure_as_the_store_has_it(page, corpus):
    page.open(corpus["page"])
    page.page.click("#figures-btn")
    rows = page.page.locator("#figures-body tbody tr").evaluate_all("""trs => trs.map(tr => {
        const d = kgView.data; const id = tr.dataset.node;
        const row = d.figures.flatMap(g => g.rows).find(r => r.id === id);
        return {id, label: tr.querySelector('td button').textContent, value: row.value,
                qualifier: row.qualifier, sources: [...tr.querySelectorAll('.source button')].map(b => b.dataset.node),
                date: tr.querySelector('.date').textContent, doc: d.docs[row.doc].iri}; })""")
    expected: dict[str, dict] = {}
    for r in corpus["figures"]:
        got = expected.setdefault(r["f"], {"label": r["label"], "value": r.get("value", ""),
                                           "qualifier": r.get("qualifier", ""), "sources": set(),
                                           "date": r.get("date", ""), "doc": r["doc"]})
        if r.get("source"):
            got["sources"].add(r["source"])
    shown = {r["id"]: {**{k: r[k] for k in ("label", "value", "qualifier", "date", "doc")},
                       "sources": set(r["sources"])} for r in rows}
    assert set(shown) == set(expected) and len(expected) >= 40
    for figure, row in shown.items():
        want = expected[figure]
        assert row["label"] == want["label"] and row["doc"] == want["doc"], figure
        assert row["qualifier"] == want["qualifier"] and row["sources"] == want["sources"], figure
        number = lambda v: float(v) if v != "" else None  # noqa: E731 (a vague figure has no value)
        assert row["date"] == want["date"] and number(row["value"]) == number(want["value"]), figure
    groups = page.page.locator("#figures-body h3").all_text_contents()
    counts = [int(g.rsplit("(", 1)[1].rstrip(")")) for g in groups[:-1]]  # "flight, agent (7)"
    assert counts == sorted(counts, reverse=True) and groups[-1].startswith("other figures")  # largest first
    assert any(g.startswith("flight, agent (") for g in groups)
    page.screenshot("viz-figures.png")
    assert page.errors == []


def test_a_focus_link_round_trips(page, corpus, browser):
    page.open(corpus["page"] + "?focus=Guaido&depth=1&layer=quotes")
    first = page.page.evaluate("kgView.state()")
    assert first["focus"]["id"] == GUAIDO and first["layers"] == ["Quote"]
    url = page.page.url
    assert "focus=https" in url and "layer=quotes" in url
    page.page.goto("about:blank")
    page.open(url)
    again = page.page.evaluate("kgView.state()")
    assert again["focus"] == first["focus"] and set(again["visible"]) == set(first["visible"])
    page.page.evaluate("kgView.clearFocus()")
    assert "focus=" not in page.page.url and "layer=quotes" in page.page.url


def test_a_date_link_opens_the_timeline_on_that_day(page, corpus):
    day = sorted(corpus["dates"].values())[-1]
    page.open(f"{corpus['page']}?date={day}")
    state = page.page.evaluate("kgView.state()")
    assert state["focus"]["date"] == day and f"date={day}" in page.page.url
    current = page.page.locator("#timeline-body .tl-event.current").evaluate_all("els => els.map(e => e.dataset.node)")
    assert set(current) == {e for e, d in corpus["dates"].items() if d == day}
    assert page.page.locator("#timeline-body").is_visible()


def test_groups_are_actors_with_their_bodies_and_sources(page, corpus):
    """Groups (several people an article speaks of together) are drawn as actors in their own
    colour, in the legend, and their panel names the body they come from, the sentences and the
    one article they belong to."""
    page.open(corpus["page"])
    assert corpus["groups"] > 10 and corpus["memberships"]
    assert page.page.evaluate("kgView.data.nodes.filter(n => n.family === 'Group').length") == corpus["groups"]
    legend = page.page.evaluate("kgView.data.legend")
    group = next(entry for entry in legend if entry["family"] == "Group")
    assert not group["layer"] and group["count"] == corpus["groups"]
    assert group["color"] not in {entry["color"] for entry in legend if entry["family"] != "Group"}
    assert page.page.locator("#legend input[value=Group]").is_checked()
    assert "Group" in page.page.evaluate("network.body.data.nodes.get().map(n => n.family)")
    row = corpus["memberships"][0]
    page.page.evaluate("id => kgView.selectNode(id)", row["g"])
    panel = page.page.locator("#panel-body")
    assert panel.locator("h2").text_content() == row["label"]
    member_of = panel.locator(".relation", has_text="member of")
    body = page.page.evaluate("id => kgView.data.nodeDetails[id].label", row["body"])
    assert body in member_of.first.text_content() and member_of.first.locator("blockquote").count() >= 1
    assert panel.locator(".group-note").count() == 1
    assert row["g"] in page.page.evaluate("kgView.state().visible")
    page.page.locator("#panel-close").click()
    page.page.locator("#legend input[value=Group]").uncheck()
    assert "Group" not in page.page.evaluate("network.body.data.nodes.get().map(n => n.family)")
    assert page.errors == []


def test_each_kind_of_event_is_drawn_in_its_own_colour(page, corpus):
    """The ten most frequent kinds of event get a colour each, listed under the events' entry with
    their counts; each drawn event wears its kind's colour (a speculated or negated one stays white)."""
    page.open(corpus["page"])
    assert page.page.locator("#legend .legend-kinds").is_hidden()  # listed while events are drawn
    page.page.locator("#legend input[value=Event]").check()
    assert page.page.locator("#legend .legend-kinds").is_visible()
    ranked = sorted(corpus["kinds"].items(), key=lambda kv: -kv[1])
    rows = page.page.locator("#legend .legend-kind").all_inner_texts()
    assert len(rows) == min(10, len(ranked)) > 3
    shown = {row.rsplit(" (", 1)[0]: int(row.rsplit(" (", 1)[1].rstrip(")")) for row in rows}
    assert all(corpus["kinds"][label] == n for label, n in shown.items())  # counted as the store counts
    left_out = [n for label, n in ranked if label not in shown]
    assert not left_out or min(shown.values()) >= max(left_out)  # the most frequent (ties either way)
    legend = {entry["label"]: entry["color"] for entry in page.page.evaluate("kgView.data.eventLegend")}
    assert len(set(legend.values())) == len(legend)
    drawn = page.page.evaluate("""network.body.data.nodes.get().filter(n => n.family === 'Event').map(
        n => [kgView.data.nodeDetails[n.id].types[0], n.color.background, kgView.data.nodeDetails[n.id].uncertain])""")
    assert drawn and all(colour == (legend.get(kind, "#CC79A7") if not doubt else "#ffffff")
                         for kind, colour, doubt in drawn)
    assert page.errors == [] and page.blocked == []
