"""The view of the shipped corpus, as `kg build` writes it."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg.store import build_dirs
from kg.store.embedded import EmbeddedStore
from tests.helpers import view_file
from tests.viz.support import NODE_COUNT, page_data

GUAIDO = "https://kg.example.org/id/person/juan-guaido"


@pytest.fixture(scope="module")
def corpus_view(shipped_data: Path) -> tuple[Path, int, set[str]]:
    """The build's graph.html, the SPARQL count of entities and events, and the document titles."""
    build = build_dirs.current_build(shipped_data)
    store = EmbeddedStore(build_dirs.store_path(build), read_only=True)
    try:
        count = int(store.select(NODE_COUNT)[0]["n"])
        titles = {r["t"] for r in store.select(
            "SELECT ?t WHERE { ?d a <https://kg.example.org/ontology#NewsArticle> ; "
            "<http://purl.org/dc/terms/title> ?t }")}
    finally:
        store.close()
    return view_file(build), count, titles


def test_build_writes_the_view_with_every_entity_and_event(corpus_view):
    page, count, titles = corpus_view
    data = page_data(page)
    assert count > 100
    assert len(data["nodes"]) == count
    assert {d["title"] for d in data["docs"]} == titles
    assert all(r["sentences"] for r in data["relations"]), "a relation without a source sentence"


@pytest.mark.browser
def test_corpus_view_in_the_browser(page, corpus_view):
    path, count, titles = corpus_view
    page.open(path.as_uri())
    assert page.page.evaluate("kgView.data.nodes.length") == count
    page.page.fill("#search", "Guiado")
    page.page.locator(f'#results button[data-node="{GUAIDO}"]').click()
    panel = page.page.locator("#panel-body")
    assert panel.locator("h2").text_content() == "Juan Guaidó"
    cited = set(panel.locator(".relation cite").all_text_contents())
    assert cited and all(any(c.startswith(t) for t in titles) for c in cited)
    assert panel.locator(".relation blockquote").count() >= panel.locator(".relation").count() > 0
    page.page.locator("#panel-close").click()
    page.page.evaluate("network.fit({animation: false})")
    page.screenshot("viz-corpus.png")
    assert page.errors == [] and page.blocked == []
