"""The network view's search ranks as /api/search does: entities before events, figures and quotes,
then by how well a label matches, then by mentions. Typing "Guaido" and Enter opens Juan Guaidó, not
a quote that names him. Real `kg serve`, real Chromium."""

from __future__ import annotations

import pytest
import requests

from tests.browser import open_page

pytestmark = pytest.mark.browser
NOT_ENTITIES = {"Event", "Figure", "Quote"}


@pytest.fixture
def view(browser, server):
    context, watched = open_page(browser, viewport=(1400, 900))
    watched.page.goto(server.url + "graph", wait_until="load")
    watched.page.wait_for_selector("#search")
    yield watched
    context.close()


def test_enter_on_guaido_opens_the_person(view):
    page = view.page
    page.fill("#search", "Guaido")
    page.press("#search", "Enter")
    assert page.locator("#panel-body h2").text_content() == "Juan Guaidó"
    assert view.errors == [] and view.blocked == []


@pytest.mark.parametrize("text", ["Guaido", "mora", "national guard", "colombia", "unhcr"])
def test_view_ranks_as_the_api(view, server, text):
    hits = view.page.evaluate("q => kgView.search(q).map(id => [id, kgView.data.nodeDetails[id].family])", text)
    assert hits, text
    families = [family for _, family in hits]
    entities = [i for i, family in enumerate(families) if family not in NOT_ENTITIES]
    others = [i for i, family in enumerate(families) if family in NOT_ENTITIES]
    assert not others or not entities or max(entities) < min(others), families  # entities first
    api = requests.get(server.url + "api/search", params={"q": text, "limit": 100}, timeout=30).json()["items"]
    shown = {iri for iri, _ in hits}
    expected = [item["iri"] for item in api if item["iri"] in shown]  # the view draws fewer nodes than there are entities
    view_order = [iri for iri, family in hits if iri in set(expected)]
    assert view_order[:3] == expected[:3], (view_order, expected)
