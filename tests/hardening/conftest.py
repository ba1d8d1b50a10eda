"""Fixtures of the hardening tests: a generated corpus and its build, a build of the hostile corpus,
`kg serve` on it, and Debian's Chromium."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest

from kg.pipeline.builder import build
from kg.testing.servers import Server
from tests.browser import WatchedPage, open_page
from tests.hardening.hostile import write_corpus
from tests.hardening.procs import GENERATED_DOCS
from tests.helpers import ROOT


@pytest.fixture(scope="session")
def generated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A generated corpus (benchmarks/corpus/generate.py) and a data directory with one finished build of it.
    Tests copy both before changing anything."""
    root = tmp_path_factory.mktemp("generated")
    corpus, data = root / "corpus", root / "data"
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "corpus" / "generate.py"), "--docs", str(GENERATED_DOCS),
                    "--seed", "11", "--out", str(corpus)], check=True, capture_output=True, timeout=120)
    build(corpus, data, validate=False)
    return corpus, data


@pytest.fixture
def generated_copy(generated: tuple[Path, Path], tmp_path: Path) -> tuple[Path, Path]:
    """A private copy of the generated corpus and of the data directory with its finished build."""
    corpus, data = tmp_path / "corpus", tmp_path / "data"
    shutil.copytree(generated[0], corpus)
    shutil.copytree(generated[1], data, symlinks=True)
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


@pytest.fixture
def watched_page(browser) -> Iterator[WatchedPage]:
    """A fresh page that ignores Content-Security-Policy, so escaping alone must keep payloads inert."""
    context, page = open_page(browser, bypass_csp=True)
    yield page
    context.close()
