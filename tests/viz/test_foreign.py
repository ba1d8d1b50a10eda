"""The view of a corpus kg's authors did not write: brat's CoNLL-ST_2002 example collection,
whose entity types (PER, ORG, LOC, MISC) map to no family the view draws."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg.store import build_dirs
from kg.pipeline.builder import build
from tests.brat_reference import brat_source
from tests.helpers import view_file

pytestmark = pytest.mark.browser

CONLL = brat_source().parent.parent / "example-data" / "corpora" / "CoNLL-ST_2002"


def test_a_graph_with_nothing_to_draw_says_so(page, tmp_path: Path):
    data = tmp_path / "data"
    build(CONLL, data)
    page.open(view_file(build_dirs.current_build(data)).as_uri())
    assert page.page.evaluate("kgView.data.meta.nodes") == 0
    assert page.page.locator("#status").text_content().startswith("Nothing to draw")
    page.page.fill("#search", "Madrid")
    assert page.page.locator("#results").text_content() == "No match"
    page.page.click("#timeline-btn")
    assert page.page.locator("#timeline-body .tl-event").count() == 0
    assert page.errors == [] and page.blocked == []
