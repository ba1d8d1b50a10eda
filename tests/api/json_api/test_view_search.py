"""The network view's search ranks as /api/search does: shared entities, then things local to one
document (descriptions such as "the Colombian police", which the API marks `local`), then events,
figures and quotes, then by how well a label matches, then by mentions. Typing "Guaido" and Enter
opens Juan Guaidó, not a quote that names him. Real `kg serve`, real Chromium."""

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


@pytest.mark.parametrize("text", ["Guaido", "mora", "national guard", "colombia", "unhcr", "military", "venezuelan"])
def test_view_ranks_as_the_api(view, server, text):
    hits = view.page.evaluate("q => kgView.search(q).map(id => [id, kgView.data.nodeDetails[id].family, "
                              "!!kgView.data.nodeDetails[id].local])", text)
    assert hits, text
    families = [family for _, family, _ in hits]
    entities = [i for i, family in enumerate(families) if family not in NOT_ENTITIES]
    others = [i for i, family in enumerate(families) if family in NOT_ENTITIES]
    assert not others or not entities or max(entities) < min(others), families  # entities first
    local = [i for i, (_, family, is_local) in enumerate(hits) if is_local and family not in NOT_ENTITIES]
    shared = [i for i in entities if i not in local]
    assert not local or not shared or max(shared) < min(local), hits  # shared entities before local ones
    api = requests.get(server.url + "api/search", params={"q": text, "limit": 100}, timeout=30).json()["items"]
    # entities compared: the view puts events after every entity (Enter opens the person, not an event
    # named after them), where the API ranks a canonical event among the shared things
    shown = {iri for iri, family, _ in hits if family not in NOT_ENTITIES}
    expected = [item["iri"] for item in api if item["iri"] in shown]  # the view draws fewer nodes than there are entities
    view_order = [iri for iri, _, _ in hits if iri in set(expected)]
    assert view_order[:3] == expected[:3], (view_order, expected)
    api_local = {item["iri"]: item.get("local", False) for item in api}
    assert {iri: is_local for iri, _, is_local in hits if iri in api_local} == \
        {iri: api_local[iri] for iri, _, _ in hits if iri in api_local}  # local to a document on both sides
