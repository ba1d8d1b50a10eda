"""Fixtures of the hardening tests: a generated corpus and its build, a build of the hostile corpus,
`kg serve` on it, and Debian's Chromium."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Iterator
from urllib.parse import urlsplit

import pytest

from benchmarks.bench_load import Server
from kg.build import build
from tests.hardening.hostile import write_corpus
from tests.hardening.procs import GENERATED_DOCS
from tests.helpers import ROOT


@pytest.fixture(scope="session")
def generated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A generated corpus (benchmarks/generate.py) and a data directory with one finished build of it.
    Tests copy both before changing anything."""
    root = tmp_path_factory.mktemp("generated")
    corpus, data = root / "corpus", root / "data"
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "generate.py"), "--docs", str(GENERATED_DOCS),
                    "--seed", "11", "--out", str(corpus)], check=True, capture_output=True, timeout=120)
    build(corpus, data, validate=False)
    return corpus, data


@pytest.fixture(scope="session")
def hostile_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data directory with a validated build (view included) of the hostile corpus."""
    root = tmp_path_factory.mktemp("hostile")
    build(write_corpus(root / "corpus"), root / "data", validate=True)
    return root / "data"


@pytest.fixture(scope="session")
def hostile_server(hostile_data: Path) -> Iterator[Server]:
    """`kg serve` on the hostile build, 127.0.0.1, a free port."""
    server = Server(hostile_data, "--workers", "2", "--threads", "6", "--query-timeout", "30")
    yield server
    server.stop()


LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}
TIMEOUT_MS = 20_000




class WatchedPage:
    """A page with its dialogs, script errors and requests leaving this machine (refused) recorded."""

    def __init__(self, page) -> None:
        self.page = page
        self.dialogs: list[str] = []
        self.errors: list[str] = []
        self.outside: list[str] = []
        page.on("dialog", self._dialog)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.route("**/*", self._route)

    def _dialog(self, dialog) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def _route(self, route) -> None:
        parts = urlsplit(route.request.url)
        if parts.scheme in ("file", "data", "blob") or parts.hostname in LOOPBACK:
            route.continue_()
        else:
            self.outside.append(route.request.url)
            route.abort()


@pytest.fixture
def watched_page(browser) -> Iterator[WatchedPage]:
    """A fresh page that ignores Content-Security-Policy, so escaping alone must keep payloads inert."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    context.set_default_timeout(TIMEOUT_MS)
    yield WatchedPage(context.new_page())
    context.close()
