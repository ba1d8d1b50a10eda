"""The query page in Debian's Chromium (Playwright, never a downloaded browser):
YASGUI loads from this server only, the prefixes are declared, and every
example query runs and shows rows. Any request that does not go to this
machine is recorded and refused."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from api.examples import EXAMPLES
from tests.browser import LOOPBACK, open_page

pytestmark = pytest.mark.browser


@pytest.fixture
def visit(browser, server):
    context, watched = open_page(browser, viewport=(1400, 900))
    watched.page.goto(server.url, wait_until="load")
    watched.page.wait_for_selector(".yasqe .CodeMirror")
    yield watched
    context.close()


def editor_text(page) -> str:
    return page.evaluate("kgYasgui.getTab().getYasqe().getValue()")


def test_page_loads_from_this_server_only(visit, server):
    import requests

    policy = requests.get(server.url, timeout=10).headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "connect-src 'self'" in policy
    assert visit.blocked == []
    assert visit.errors == []
    assert any(u.endswith("/static/yasgui/yasgui.min.js") for u in visit.requests)
    assert all(urlsplit(u).hostname in LOOPBACK for u in visit.requests if u.startswith("http"))
    text = editor_text(visit.page)
    assert "PREFIX kgo: <https://kg.example.org/ontology#>" in text
    assert "PREFIX kgr: <https://kg.example.org/id/>" in text


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.id)
def test_every_example_runs_and_shows_rows(visit, example):
    page = visit.page
    page.click(f"button[data-example='{example.id}']")
    page.wait_for_selector(".yasr table tbody tr")  # (no wait_for_function: the page's policy forbids eval)
    rows = page.locator(".yasr table tbody tr").count()
    assert rows >= 2
    assert editor_text(page).strip() == example.query.strip()
    assert "No results" not in page.inner_text(".yasr")
    assert visit.blocked == [] and visit.errors == []


def test_typing_a_query_and_running_it(visit):
    page = visit.page
    page.evaluate("kgYasgui.getTab().getYasqe().setValue("
                  "'SELECT ?label WHERE { <https://kg.example.org/id/person/juan-guaido> "
                  "<http://www.w3.org/2004/02/skos/core#prefLabel> ?label }')")
    page.click(".yasqe_queryButton")
    page.wait_for_selector(".yasr table tbody tr")
    assert "Juan Guaidó" in page.inner_text(".yasr table tbody")
    assert visit.blocked == []


def test_autocompletion_stays_local(visit):
    """Typing a prefix declaration asks /api/prefixes, never a web service."""
    page = visit.page
    page.evaluate("kgYasgui.getTab().getYasqe().setValue('')")
    page.click(".yasqe .CodeMirror")
    page.keyboard.type("PREFIX sk")
    page.keyboard.press("Control+Space")
    page.wait_for_timeout(800)
    assert visit.blocked == []
    assert any(u.endswith("/api/prefixes") for u in visit.requests)
