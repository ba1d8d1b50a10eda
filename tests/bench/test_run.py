"""`benchmarks/run.py --quick`: the whole benchmark on 20 and 100 documents, 100 taking the path of
the sizes above --full-steps-up-to (100,000 in a real run): no export floors, the bulk-load floor last."""

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
                   "--results", results, "--silent", "--full-steps-up-to", "20", timeout=1800)
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
    floors = re.findall(r"^\| (20|100) \| [\d,]+ \| [^|]+\|[^|]+\|[^|]+\|[^|]+\| ([^|]+) \|", text, re.M)
    assert [size for size, _ in floors[:2]] == ["20", "100"]
    assert all(re.fullmatch(r"[\d.]+ s", floor.strip()) for _, floor in floors[:2]), floors
    assert "100 documents, kg_turtle: not run above 20 articles" in text
    assert "Endpoint query latencies" in text and "not measured (--no-stock)" in text
    # the companions ran at each size, not only the largest
    for title in ("Endpoint query latencies", "Endpoint under load"):
        section = text.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]
        assert "### 20 documents" in section and "### 100 documents" in section, section[:500]
    # the four exports of the full and the incremental build at each size (above --full-steps-up-to, to /dev/null)
    exports = text.split("## Exports after a full and after an incremental build", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| (20|100) \| ([^|]+)\|([^|]+)\|([^|]+)\|([^|]+)\|", exports, re.M)
    assert [row[0] for row in rows] == ["20", "100"]
    assert all(re.fullmatch(r"[\d.]+ s \(by the build\) / [\d.]+ s", row[1].strip()) for row in rows), rows
    assert re.fullmatch(r"[\d.]+ s / [\d.]+ s", rows[0][2].strip()), rows[0]
    assert re.fullmatch(r"[\d.]+ s / – \(not run: .*\)", rows[1][2].strip()), rows[1]
    assert "## Targets of the loop at scale (issue 39)" in text
    # the loop under kg serve --watch: the no-op told by the watcher, each change until the server answers
    watched = text.split("## The loop under `kg serve --watch`", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| (20|100) \| ([\d.]+) s \| ([\d.]+) s \(build [\d.]+ s\) \| ([\d.]+) s \(build "
                      r"[\d.]+ s\) \| ([\d.]+) s \(build [\d.]+ s\) \|", watched, re.M)
    assert [row[0] for row in rows] == ["20", "100"], watched
    assert "`bench_endpoint.py` ended with" not in text and "`bench_view_data.py` ended with" not in text, text
    # the floor of the size above --full-steps-up-to ran after its data directory was removed
    assert not (tmp_path / "work" / "data-100").exists() and not (tmp_path / "work" / "scratch-100").exists()
