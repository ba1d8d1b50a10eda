"""`benchmarks/run.py --quick`: the whole benchmark on 20 and 100 documents."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .conftest import REPO, run_cli

PYTHON = REPO / ".venv" / "bin" / "python"


@pytest.mark.slow
def test_quick_run_prints_and_writes_every_table(tmp_path: Path) -> None:
    results = tmp_path / "RESULTS.md"
    done = run_cli(PYTHON, REPO / "benchmarks" / "run.py", "--quick", "--work", tmp_path / "work",
                   "--results", results, "--silent", timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    text = results.read_text(encoding="utf-8")
    assert done.stdout.strip() == text.strip()
    for heading in ("## Machine", "## Targets", "## Build", "## Turtle export", "## Rebuilds", "## Growth", "## Corpus"):
        assert heading in text
    assert re.search(r"- cores: \d+ usable", text) and "- pyoxigraph: 0.5" in text
    build_rows = re.findall(r"^\| (20|100) \| ([\d,]+) \| ([\d.]+) s \|", text, re.M)
    assert [row[0] for row in build_rows[:2]] == ["20", "100"]
    quads = [int(row[1].replace(",", "")) for row in build_rows[:2]]
    assert quads[1] > 3 * quads[0] > 0
    assert text.count("says nothing to do") == 2
    assert "(projected)" not in text
    assert not (REPO / "benchmarks" / "RESULTS-quick.md").exists()
