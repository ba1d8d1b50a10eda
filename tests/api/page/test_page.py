"""The query page in Debian's Chromium (Playwright, never a downloaded browser):
YASGUI loads from this server only, the predefined prefixes are listed and
folded away, every example query runs, shows rows and keeps its question,
IRIs link to this server's pages, and errors read well. Any request that
does not go to this machine is recorded and refused."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from kg.api.page.examples import EXAMPLES
from kg.model.iris import PREFIXES
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
    assert visit.errors == []  # no favicon 404 either
    assert any(u.endswith("/static/yasgui/yasgui.min.js") for u in visit.requests)
    assert all(urlsplit(u).hostname in LOOPBACK for u in visit.requests if u.startswith("http"))
    assert "PREFIX" not in editor_text(visit.page)  # the endpoint predefines them: the query stands alone
    listed = visit.page.locator("#prefixes dt")
    assert listed.count() == len(PREFIXES)
    assert not visit.page.is_visible("#prefixes dd")  # folded until asked for


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.id)
def test_every_example_runs_and_its_question_stays(visit, server, example):
    import requests

    page = visit.page
    page.click(f"button[data-example='{example.id}']")
    page.wait_for_selector(".yasr table tbody tr")  # (no wait_for_function: the page's policy forbids eval)
    page.wait_for_timeout(300)  # the answer has arrived: nothing may erase the question now
    assert page.locator(".yasr table tbody tr").count() >= 2
    assert "No results" not in page.inner_text(".yasr")
    assert page.is_visible("#question") and example.question in page.inner_text("#question")
    assert editor_text(page).strip() == example.portable.strip()
    folded = page.locator(".yasqe .CodeMirror-code .CodeMirror-line").first.inner_text()
    assert folded.startswith("PREFIX") and page.locator(".yasqe .CodeMirror-foldmarker").count() == 1
    # row numbers apart from the first column
    number = page.locator(".yasr table tbody tr td").first
    assert float(number.evaluate("td => getComputedStyle(td).paddingRight")[:-2]) >= 8
    # IRIs of the graph read as prefixed names and lead to this server's pages
    links = page.eval_on_selector_all(".yasr table tbody a", "els => els.map(a => [a.textContent, a.href])")
    assert all(not href.startswith("https://kg.example.org/") for _, href in links)
    local = [(text, href) for text, href in links if href.startswith(server.url)]
    assert all(not text.startswith("https://kg.example.org/") for text, _ in local)
    for _, href in local[:3]:
        assert requests.get(href, timeout=30).status_code == 200, href
    assert visit.blocked == [] and visit.errors == []


def test_the_corpus_examples_come_first_and_run(visit, server):
    """The examples made from the served corpus's schema are listed first, under their own heading,
    and each runs and keeps its question, as kg's own do."""
    import requests

    own = [e for e in requests.get(server.url + "examples.json", timeout=30).json() if e["group"] == "corpus"]
    page = visit.page
    assert own and page.locator("#examples h3").first.inner_text() == "From this corpus"
    listed = page.locator("#examples ul.examples-corpus button").all_inner_texts()
    assert listed == [e["title"] for e in own]
    assert page.locator("#examples ul").first.get_attribute("class") == "examples-corpus"
    for example in own:
        # the table of the previous example is still there: wait for this one's answer, or the next
        # click would cut a query still running (a slow machine aborted one, which the console reports)
        with page.expect_response(lambda r: urlsplit(r.url).path == "/sparql", timeout=60_000):
            page.click(f"button[data-example='{example['id']}']")
        page.wait_for_selector(f"#question[data-example='{example['id']}']")
        page.wait_for_selector(".yasr table tbody tr")
        assert example["question"] in page.inner_text("#question")
        assert editor_text(page).strip() == example["portable"].strip()
    assert visit.blocked == [] and visit.errors == []


def test_an_error_is_shown_readably(visit):
    page = visit.page
    page.click("button[data-example='offices']")
    page.wait_for_selector(".yasr table tbody tr")
    page.evaluate("kgYasgui.getTab().getYasqe().setValue('SELECT ?x WHERE {\\n  ?x persn:juan-guaido ?y }')")
    page.click(".yasqe_queryButton")
    page.wait_for_selector("#query-error pre")
    message = page.inner_text("#query-error")
    assert "line 2, column 6" in message and "'persn:' is not declared" in message
    assert "   2 |   ?x persn:juan-guaido ?y }\n     |      ^" in message  # the line and a caret under the name
    assert "did you mean person:?" in message
    box = page.locator("#query-error pre")
    assert box.evaluate("pre => getComputedStyle(pre).whiteSpace") == "pre-wrap"
    assert box.evaluate("pre => pre.scrollWidth <= pre.clientWidth")  # wrapped, not cut at the edge
    assert not page.is_visible("#question")  # the question was the example's, and the query is another now
    assert "{\"error\"" not in page.inner_text(".yasr")  # no raw JSON line
    # the only console error is the browser's own note of the 400
    assert all("status of 400" in e for e in visit.errors) and visit.blocked == []
    page.click("button[data-example='documents']")  # a good query clears the error
    page.wait_for_selector(".yasr table tbody tr")
    assert not page.is_visible("#query-error")


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
