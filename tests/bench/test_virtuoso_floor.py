"""benchmarks/bench_virtuoso.py: `kg build --store` into a real Virtuoso beside Virtuoso's own bulk
loader of the same N-Quads; both stores must hold the same quads, graph by graph."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from kg.testing.sparql_servers import virtuoso_binary

from .conftest import REPO, run_cli

PYTHON = REPO / ".venv" / "bin" / "python"


def test_the_push_and_the_bulk_loader_fill_virtuoso_with_the_same_quads(built, tmp_path: Path) -> None:
    if not virtuoso_binary():
        message = "Virtuoso is not installed (Debian package virtuoso-opensource)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    corpus, _ = built
    done = run_cli(PYTHON, REPO / "benchmarks" / "bench_virtuoso.py", "--corpus", corpus, "--work", tmp_path / "work",
                   timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    row = re.search(r"^\| 20 \| ([\d,]+) \| ([\d.]+) s \| ([\d.]+) s \| ([\d.]+) s \| ([\d.]+)x \| yes \|$", done.stdout, re.M)
    assert row, done.stdout
    quads, push, whole, loader, ratio = row.groups()
    assert int(quads.replace(",", "")) > 10_000 and 0 < float(push) < float(whole) and float(loader) > 0
    assert ratio_within_rounding(float(ratio), float(push), float(loader))


def ratio_within_rounding(ratio: float, push: float, loader: float) -> bool:
    """The table rounds seconds to 0.1 and the ratio to 0.01, so the ratio must lie between the ratios
    of the interval ends: a loader printed as 0.4 s may have taken anywhere from 0.35 to 0.45 s."""
    low = (push - 0.05) / (loader + 0.05) - 0.005
    high = (push + 0.05) / max(loader - 0.05, 0.001) + 0.005
    return low <= ratio <= high


def test_the_ratio_check_allows_the_rounding_and_no_more() -> None:
    assert ratio_within_rounding(3.7, 0.3, 0.1)       # 0.3 / 0.1 is 3.0, but 0.33 / 0.089 is 3.7
    assert not ratio_within_rounding(3.7, 1.2, 0.4)   # 1.25 / 0.35 is at most 3.57
    assert not ratio_within_rounding(2.0, 1.2, 0.4)
