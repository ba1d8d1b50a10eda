"""Fixtures shared by every test folder: corpora copied to tmp dirs and builds of them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kg.build import build
from tests.helpers import CORPUS, TINY


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
    return target


@pytest.fixture
def tiny_copy(tmp_path: Path) -> Path:
    """A private copy of the two-document test corpus (tests/data/tiny)."""
    target = tmp_path / "tiny"
    shutil.copytree(TINY, target)
    return target
