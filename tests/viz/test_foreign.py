"""The view of corpora kg's authors did not write: brat's CoNLL-ST_2002 example collection (entity
types PER, ORG, LOC, MISC and no relation: the default alignment makes the first three people,
organizations and places; with it off, none is a kgo class) and brat's TDT collection (twelve
part-of-speech types, with dependency relations between them); and a graph with no entity."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pyoxigraph as ox
import pytest

from kg.model.iris import PREFIXES, VOCABULARY
from kg.pipeline.builder import build
from kg.store import build_dirs
from kg.viz.html import STORY_MAX, view_data
from kg.viz.legend import TYPE_COLOURS
from kg.viz.network import load_graph
from tests.brat_reference import brat_source
from tests.helpers import view_file
from tests.viz.support import publish_sample

EXAMPLES = brat_source().parent.parent / "example-data" / "corpora"
CONLL = EXAMPLES / "CoNLL-ST_2002"
TYPED = f"""PREFIX kgo: <{PREFIXES['kgo']}>
SELECT ?x ?t WHERE {{ ?m kgo:denotes ?x . ?x a ?t FILTER(STRSTARTS(STR(?t), "{VOCABULARY}")) }}"""


def _types(data: Path) -> dict[str, str]:
    """{entity: its corpus type's local name}, read from the build's store itself."""
    store = ox.Store.read_only(str(build_dirs.store_path(build_dirs.current_build(data))))
    return {row["x"].value: row["t"].value.removeprefix(VOCABULARY) for row in store.query(TYPED, use_default_graph_as_union=True)}


@pytest.fixture(scope="module")
def tdt(tmp_path_factory) -> Path:
    data = tmp_path_factory.mktemp("tdt") / "data"
    build(EXAMPLES / "TDT", data)
    return data


def test_many_corpus_types_get_the_most_frequent_a_colour_and_the_rest_one_entry(tdt):
    types = _types(tdt)
    store = build_dirs.build_store(build_dirs.current_build(tdt))
    try:
        data = view_data(load_graph(store), place=False)
    finally:
        store.close()
    counts = Counter(types.values())
    assert len(counts) > TYPE_COLOURS
    legend = {e["family"]: e for e in data["legend"] if e["count"]}
    ranked = sorted(counts, key=lambda t: (-counts[t], t))
    assert [legend[VOCABULARY + t]["count"] for t in ranked[:TYPE_COLOURS]] == [counts[t] for t in ranked[:TYPE_COLOURS]]
    assert legend["Entity"]["count"] == sum(counts[t] for t in ranked[TYPE_COLOURS:])
    assert legend["Entity"]["label"] == "other types"
    assert len({e["color"] for e in legend.values()}) == len(legend) == TYPE_COLOURS + 1
    assert {n["id"] for n in data["nodes"]} == set(types)
    assert all(n["family"] in legend for n in data["nodes"])


def test_relations_of_a_corpus_schema_are_told_apart_by_colour(tdt):
    store = build_dirs.build_store(build_dirs.current_build(tdt))
    try:
        graph = load_graph(store)
    finally:
        store.close()
    data = view_data(graph, place=False)
    relations = data["relationLegend"]
    assert len({r["color"] for r in relations}) == len(relations)
    links = [e for e in data["edges"] if e["kind"] == "link"]
    for edge in links:
        predicates = {data["relations"][i]["predicate"] for i in edge["relations"]}
        entry = relations[edge["rel"]]
        assert entry["predicate"] in predicates or entry["label"] == "other relations"
    assert len({e["rel"] for e in links}) == len(relations) - 1  # every colour but "shared event"


@pytest.mark.browser
def test_the_usual_ner_types_are_drawn(page, tmp_path: Path):
    data = tmp_path / "data"
    build(CONLL, data)
    store = ox.Store.read_only(str(build_dirs.store_path(build_dirs.current_build(data))))
    kgo = PREFIXES["kgo"]
    drawn = {r[0].value for c in ("Person", "Organization", "Place")
             for r in store.query(f"SELECT DISTINCT ?x WHERE {{ ?x a <{kgo}{c}> }}", use_default_graph_as_union=True)}
    page.open(view_file(build_dirs.current_build(data)).as_uri())
    assert page.page.evaluate("kgView.data.meta.nodes") >= len(drawn) > 0
    # no dated event and no figure: no empty "Timeline (0)" or "Figures (0)" to open
    assert page.page.evaluate("[kgView.data.meta.timelineEvents, kgView.data.meta.figureRows]") == [0, 0]
    for hidden in ("#timeline-btn", "#figures-btn", "#tab-timeline", "#tab-figures"):
        assert page.page.locator(hidden).is_hidden(), hidden
    page.page.fill("#search", "Madrid")
    assert "Madrid" in page.page.locator("#results").text_content()
    assert page.errors == [] and page.blocked == []


@pytest.mark.browser
def test_a_corpus_with_no_kgo_type_and_no_relation_draws_every_entity_by_type(page, tmp_path: Path):
    corpus, data = tmp_path / "conll", tmp_path / "data"
    shutil.copytree(CONLL, corpus)
    (corpus / "kg.toml").write_text("[align]\ndefault = false\n")
    build(corpus, data)
    types = _types(data)
    page.open(view_file(build_dirs.current_build(data)).as_uri())
    assert page.page.evaluate("kgView.data.meta.nodes") == len(types) > STORY_MAX
    # no entity is linked to another: the page opens on the most mentioned, and search reaches the rest
    drawn = page.page.evaluate("network.body.data.nodes.getIds()")
    mentions = page.page.evaluate("Object.fromEntries(kgView.data.nodes.map(n => [n.id, n.mentions]))")
    assert len(drawn) == STORY_MAX and min(mentions[n] for n in drawn) >= max(
        mentions[n] for n in types if n not in drawn)
    assert page.page.locator("#status").text_content().startswith(f"The {STORY_MAX} most mentioned entities")
    shown = page.page.locator("#legend-list label").all_text_contents()
    counts = Counter(types.values())
    assert [text for text in shown if "(" in text] == [f"{t} ({n})" for t, n in counts.most_common()]
    colours = page.page.evaluate("""Object.fromEntries(network.body.data.nodes.get().map(
        n => [n.id, n.color.background]))""")
    by_type: dict[str, set[str]] = {}
    for node, colour in colours.items():
        by_type.setdefault(types[node], set()).add(colour)
    assert all(len(c) == 1 for c in by_type.values()) and len(set().union(*by_type.values())) == len(counts)
    page.page.fill("#search", "Madrid")
    assert "Madrid" in page.page.locator("#results").text_content()
    rest = next(n for n in types if n not in drawn)
    page.page.evaluate("id => kgView.selectNode(id)", rest)
    page.drawn()
    assert rest in page.page.evaluate("network.body.data.nodes.getIds()")
    assert page.errors == [] and page.blocked == []


@pytest.mark.browser
def test_a_graph_with_no_entity_says_there_is_nothing_to_draw(page, tmp_path: Path):
    source = tmp_path / "articles-only.trig"
    source.write_text(f"""<{PREFIXES['kgg']}d1> {{
        <{PREFIXES['doc']}d1> a <{PREFIXES['kgo']}NewsArticle> ; <{PREFIXES['dcterms']}title> "Nothing annotated" . }}
        """, encoding="utf-8")
    build_dir = publish_sample(tmp_path / "data", with_view=True, source=source)
    page.open(view_file(build_dir).as_uri())
    assert page.page.evaluate("kgView.data.meta.nodes") == 0
    assert page.page.locator("#status").text_content().startswith("Nothing to draw")
    assert page.errors == [] and page.blocked == []
