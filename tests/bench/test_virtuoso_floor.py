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
    assert float(ratio) == pytest.approx(float(push) / float(loader), rel=0.2)  # the table rounds seconds to 0.1
