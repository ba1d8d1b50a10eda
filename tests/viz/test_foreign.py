"""The view of a corpus kg's authors did not write: brat's CoNLL-ST_2002 example collection,
whose entity types PER, ORG and LOC the default alignment makes people, organizations and
places (MISC is none of the families the view draws)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pyoxigraph as ox
import pytest

from kg.store import build_dirs
from kg.pipeline.builder import build
from tests.brat_reference import brat_source
from tests.helpers import view_file

pytestmark = pytest.mark.browser

CONLL = brat_source().parent.parent / "example-data" / "corpora" / "CoNLL-ST_2002"


def test_the_usual_ner_types_are_drawn(page, tmp_path: Path):
    data = tmp_path / "data"
    build(CONLL, data)
    store = ox.Store.read_only(str(build_dirs.store_path(build_dirs.current_build(data))))
    kgo = "https://kg.example.org/ontology#"
    drawn = {r[0].value for c in ("Person", "Organization", "Place")
             for r in store.query(f"SELECT DISTINCT ?x WHERE {{ ?x a <{kgo}{c}> }}", use_default_graph_as_union=True)}
    page.open(view_file(build_dirs.current_build(data)).as_uri())
    assert page.page.evaluate("kgView.data.meta.nodes") == len(drawn) > 0
    page.page.fill("#search", "Madrid")
    assert page.page.locator("#results button").first.text_content().startswith("Madrid")
    assert page.errors == [] and page.blocked == []


def test_a_graph_with_nothing_to_draw_says_so(page, tmp_path: Path):
    corpus, data = tmp_path / "conll", tmp_path / "data"
    shutil.copytree(CONLL, corpus)
    (corpus / "kg.toml").write_text("[align]\ndefault = false\n")
    build(corpus, data)
    page.open(view_file(build_dirs.current_build(data)).as_uri())
    assert page.page.evaluate("kgView.data.meta.nodes") == 0
    assert page.page.locator("#status").text_content().startswith("Nothing to draw")
    page.page.fill("#search", "Madrid")
    assert page.page.locator("#results").text_content() == "No match"
    page.page.click("#timeline-btn")
    assert page.page.locator("#timeline-body .tl-event").count() == 0
    assert page.errors == [] and page.blocked == []
