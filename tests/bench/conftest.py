"""Fixtures for the benchmark tests: generated corpora and a build of one (made once per session)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.corpus.generate import write_corpus

REPO = Path(__file__).resolve().parents[2]
KG = Path(sys.executable).parent / "kg"


def run_cli(*argv: object, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run a command from the repository root, capturing text output."""
    return subprocess.run([str(a) for a in argv], cwd=REPO, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="session")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 60-document generated corpus (seed 3); tests must not modify it."""
    out = tmp_path_factory.mktemp("generated") / "corpus"
    write_corpus(out, 60, 3)
    return out


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(corpus, data): a 20-document generated corpus and `kg build` of it; do not modify."""
    root = tmp_path_factory.mktemp("built")
    corpus, data = root / "corpus", root / "data"
    write_corpus(corpus, 20, 11)
    done = run_cli(KG, "build", "--corpus", corpus, "--data", data, "--quiet", timeout=300)
    assert done.returncode == 0, done.stderr
    return corpus, data
