"""Fixtures shared by every test folder: corpora copied to tmp dirs and builds of them."""

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
