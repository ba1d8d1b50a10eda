"""Fixtures of the view's tests: the hand-written sample graph, its page, and headless Chromium
with every request that does not go to this machine blocked."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg.store.embedded import EmbeddedStore
from kg.viz import write_html
from kg.viz.network import load_graph
from tests.browser import WatchedPage, open_page
from tests.viz.support import SAMPLE, publish_sample

ARTIFACTS = Path(__file__).resolve().parent.parent.parent / "test-artifacts"
TIMEOUT_MS = 15_000


@pytest.fixture
def sample_store() -> EmbeddedStore:
    """An in-memory store holding tests/viz/sample.trig."""
    store = EmbeddedStore()
    store.load_file(SAMPLE, "trig")
    return store


@pytest.fixture
def sample_graph(sample_store):
    return load_graph(sample_store)


@pytest.fixture
def sample_page(tmp_path: Path, sample_store) -> Path:
    """The view of the sample graph written to a file."""
    path = tmp_path / "graph.html"
    write_html(sample_store, path)
    return path


class Watched(WatchedPage):
    """A watched page of the network view, with what the view's tests do to it."""

    def open(self, url: str) -> None:
        """Load a view and wait until it has drawn its first frame and read the rest of its data."""
        self.page.goto(url, wait_until="load", timeout=TIMEOUT_MS)
        self.page.wait_for_function("window.kgView && kgView.timings.firstDraw && kgView.timings.ready",
                                    timeout=TIMEOUT_MS)
        self.drawn()

    def drawn(self) -> None:
        """Wait until the canvas shows every change made so far (what vis-network reports of the
        nodes, their boxes and labels, is worked out when it draws)."""
        self.page.wait_for_selector('#network[data-drawn="true"]', state="attached", timeout=TIMEOUT_MS)

    def inline_script_runs(self) -> bool:
        """Whether an inline script added now, without the page's hash, runs."""
        return self.page.evaluate("""() => {
            const s = document.createElement('script'); s.textContent = 'window.__injected = 1';
            document.body.appendChild(s); return window.__injected !== undefined; }""")

    def settle(self) -> None:
        """Wait until physics has stopped, so node positions stay put."""
        self.page.wait_for_function(
            "!kgView.data.meta.physics || kgView.timings.stabilized !== undefined", timeout=TIMEOUT_MS)

    def click_node(self, node_id: str) -> None:
        """Click a node where it is drawn on the canvas."""
        x, y = self.page.evaluate(
            """id => { const p = network.getPositions([id])[id]; const d = network.canvasToDOM(p);
                      const r = document.querySelector('#network canvas').getBoundingClientRect();
                      return [r.left + d.x, r.top + d.y]; }""", node_id)
        self.page.mouse.click(x, y)

    def screenshot(self, name: str) -> Path:
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / name
        self.page.screenshot(path=str(path))
        return path


def _watched_page(browser, bypass_csp: bool):
    return open_page(browser, Watched, bypass_csp=bypass_csp)


@pytest.fixture
def page(browser):
    """A page that ignores the view's Content-Security-Policy, so that the escaping
    alone is what keeps injected markup from running (and tests may poll with eval)."""
    context, watched = _watched_page(browser, bypass_csp=True)
    yield watched
    context.close()


@pytest.fixture
def strict_page(browser):
    """A page under the view's own Content-Security-Policy."""
    context, watched = _watched_page(browser, bypass_csp=False)
    yield watched
    context.close()


@pytest.fixture
def sample_data(tmp_path: Path) -> Path:
    """A data directory whose current build is the sample graph, graph.html included."""
    data = tmp_path / "data"
    publish_sample(data, with_view=True)
    return data
