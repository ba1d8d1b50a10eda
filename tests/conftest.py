"""Fixtures shared by every test folder: corpora copied to tmp dirs and builds of them; and the
tiers of the suite (`make check` runs the quick one, `make test` all but `slow`), set here from
what a test needs, so that a new test falls in its tier without a mark of its own:

- `servers`: it starts server processes (`kg serve`, `oxigraph serve`, Virtuoso, a Dask
  cluster): every test of tests/remote and tests/hardening, and elsewhere those using a fixture of
  SERVER_FIXTURES;
- `browser`: it drives headless Chromium (the `browser` fixture);
- `bench`: the benchmarks' own tests (tests/bench)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from kg.pipeline.builder import build
from tests.helpers import BROWSER_TIMEOUT_MS, CHROMIUM, CHROMIUM_ARGS, CORPUS, TINY, settle


@pytest.fixture(scope="session")
def shipped_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data directory holding a build of the shipped corpus (built once per session; do not modify)."""
    data = tmp_path_factory.mktemp("shipped-data")
    build(CORPUS, data)
    return data


@pytest.fixture
def corpus_copy(tmp_path: Path) -> Path:
    """A private copy of the shipped corpus that a test may edit."""
    target = tmp_path / "corpus"
    shutil.copytree(CORPUS, target, ignore=shutil.ignore_patterns("README.md"))
    settle(target)
    return target


@pytest.fixture
def tiny_copy(tmp_path: Path) -> Path:
    """A private copy of the two-document test corpus (tests/data/tiny)."""
    target = tmp_path / "tiny"
    shutil.copytree(TINY, target)
    settle(target)
    return target


@pytest.fixture(scope="session")
def browser():
    """Debian's headless Chromium through Playwright (never a downloaded browser), one per test
    process: Playwright's sync API allows a single running instance per thread.

    Missing Chromium skips the browser tests, except under CI=true, where it fails them."""
    if not CHROMIUM.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{CHROMIUM} is missing (install the Debian package chromium)")
        pytest.skip(f"{CHROMIUM} is missing: install the Debian package chromium to run the browser tests")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS,
                                      timeout=BROWSER_TIMEOUT_MS)
        yield chromium
        chromium.close()


TESTS = Path(__file__).resolve().parent
SERVER_FOLDERS = ("remote", "hardening")
SERVER_FIXTURES = frozenset({"server", "kg_endpoint", "watched", "store_server", "served", "limited", "roomy",
                             "hostile_server", "cluster", "own_cluster"})


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Put each test in its tiers (the module docstring says which)."""
    for item in items:
        folder = Path(str(item.path)).resolve().relative_to(TESTS).parts[0]
        fixtures = set(getattr(item, "fixturenames", ()))
        if folder in SERVER_FOLDERS or fixtures & SERVER_FIXTURES:
            item.add_marker(pytest.mark.servers)
        if "browser" in fixtures:
            item.add_marker(pytest.mark.browser)
        if folder == "bench":
            item.add_marker(pytest.mark.bench)
