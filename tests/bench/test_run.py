"""`benchmarks/run.py --quick`: the whole benchmark on 20 and 100 documents, 100 taking the path of
the sizes above --full-steps-up-to (100,000 in a real run): no export floors, the bulk-load floor last."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

from benchmarks.measuring import measure, report
from benchmarks.measuring.results import Step
from benchmarks.measuring.saved import STATE_FILE
from kg.testing.servers import process_tree

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


def test_a_killed_run_resumes_with_the_sizes_it_had_not_measured(tmp_path: Path) -> None:
    """Sizes 20 and 40 (both above --full-steps-up-to: their bulk-load floors wait for the end of the
    run), the run stopped by SIGTERM once 20 is saved (every process it started goes with it);
    `--resume` measures 40 alone and the floor 20 was waiting for, and writes RESULTS.md as one run
    of two parts."""
    work, results = tmp_path / "work", tmp_path / "RESULTS.md"
    argv = [PYTHON, REPO / "benchmarks" / "run.py", "--sizes", "20,40", "--work", work, "--results", results,
            "--no-companions", "--full-steps-up-to", "10"]
    first = subprocess.Popen([str(a) for a in argv], cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)
    state = work / STATE_FILE
    try:
        deadline = time.monotonic() + 900
        while "20" not in _saved_sizes(state) and first.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
        while len(process_tree(first.pid)) < 2 and first.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)  # until it measures a command of size 40
        started = process_tree(first.pid)[1:]
        first.send_signal(signal.SIGTERM)
        assert first.wait(120) == 128 + signal.SIGTERM
        time.sleep(1)
        assert started and not [pid for pid in started if _alive(pid)], started
    finally:
        measure.kill_tree(first.pid)
        first.wait()
    saved = json.loads(state.read_text())
    assert list(saved["sizes"]) == ["20"] and saved["sizes"]["20"]["floor_pending"], saved["sizes"].keys()
    build_20 = report.cell(Step(**saved["sizes"]["20"]["result"]["steps"]["build"]))
    assert re.search(rf"^\| 20 \| [\d,]+ \| {re.escape(build_20)} \|", results.read_text(), re.M)
    assert "This run is still going." in results.read_text()

    done = run_cli(*argv, "--resume", timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "20 documents: measured by part 1 of this run (its bulk-load floor runs last)" in done.stderr
    assert "20 documents: generating" not in done.stderr and "40 documents: generating" in done.stderr
    text = results.read_text(encoding="utf-8")
    assert done.stdout.strip() == text.strip()
    assert text.startswith("# Benchmark results\n\nWritten by `python benchmarks/run.py --sizes 20,40 ")
    assert "\n\nResumed: this run was made in 2 parts on the same code" in text
    assert re.search(r"^- disk: [\d.]+ GiB free of [\d.]+ GiB where the run writes, at start$", text, re.M)
    assert re.search(r"^- part 1: .* sizes measured: 20; ", text, re.M)
    assert re.search(r"^- part 2: `python benchmarks/run.py .* --resume`, from .* sizes measured: 40, the bulk-load floor "
                     r"of 20; ", text, re.M)
    rows = re.findall(r"^\| (20|40) \| [\d,]+ \| ([^|]+) \|[^|]+\|[^|]+\|[^|]+\| ([^|]+) \|", text, re.M)
    assert rows[0][:2] == ("20", build_20) and rows[1][0] == "40", rows
    assert all(re.fullmatch(r"[\d.]+ s", floor.strip()) for _, _, floor in rows[:2]), rows  # both floors ran
    assert "This run is still going." not in text
    assert not json.loads(state.read_text())["sizes"]["20"]["floor_pending"]

    # the saved run as if measured on another commit: refused, nothing measured or written
    saved = json.loads(state.read_text())
    saved["code"]["commit"] = "0" * 40
    state.write_text(json.dumps(saved))
    refused = run_cli(*argv, "--resume", timeout=120)
    assert refused.returncode == 2
    assert re.search(r"was measured on commit 000000000000( with uncommitted changes)?, and this checkout is at",
                     refused.stderr), refused.stderr
    assert "a resumed run must measure the same code" in refused.stderr
    assert results.read_text(encoding="utf-8") == text and len(json.loads(state.read_text())["parts"]) == 2


def _saved_sizes(state: Path) -> dict:
    try:
        return json.loads(state.read_text())["sizes"]
    except (OSError, ValueError, KeyError):
        return {}


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False
