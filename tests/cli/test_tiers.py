"""The tiers of the suite (tests/conftest.py): a test that starts a server process without the
`servers` mark fails, so that `make check` cannot come to run one unseen; a marked one runs. And
the quick tier's order: with files run whole on xdist's workers, the longest files start first."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.helpers import ROOT

STARTS = '''
import os
import sys

import pytest

from kg.testing.servers import Process


@pytest.fixture
def sleeper():
    process = Process([sys.executable, "-c", "import time; time.sleep(60)"])
    yield process
    process.stop()


def test_unmarked_in_its_body(tmp_path):
    process = Process([sys.executable, "-c", "import time; time.sleep(60)"])
    (tmp_path / "pid").write_text(str(process.process.pid))
    process.stop()


def test_unmarked_through_a_fixture(sleeper):
    pass


@pytest.mark.servers
def test_marked(sleeper):
    assert sleeper.process.poll() is None
'''


def test_a_server_process_started_by_a_test_without_the_servers_mark_fails(tmp_path: Path) -> None:
    (tmp_path / "test_starts.py").write_text(STARTS, encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "tests.conftest", "-p", "no:cacheprovider",
                          "-p", "no:xdist", "-p", "no:schemathesis", "-p", "no:hypothesispytest", "--rootdir", str(tmp_path), "-o", "markers=servers", "-rA", "-q",
                          str(tmp_path / "test_starts.py")],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    out = run.stdout + run.stderr
    assert run.returncode == 1, out
    # "OUTCOME node-id - message": the message is cut to the terminal's width, or given whole (CI=true)
    outcomes = {line.split()[1].rpartition("::")[2]: line.split()[0] for line in out.splitlines()
                if line.startswith(("PASSED ", "FAILED ", "ERROR "))}
    assert outcomes == {
        "test_unmarked_in_its_body": "FAILED", "test_unmarked_through_a_fixture": "ERROR", "test_marked": "PASSED"}, out
    said = {line.split("::", 1)[1].split()[0] for line in out.splitlines()
            if line.startswith("test_starts.py::") and "without the servers mark" in line}
    assert said == {"test_unmarked_in_its_body", "test_unmarked_through_a_fixture"}, out
    assert not (tmp_path / "pid").exists(), "the unmarked test started its process"


RECORDS = '''
from pathlib import Path


def test_{name}():
    with open(Path(__file__).parents[2] / "order.txt", "a", encoding="utf-8") as handle:
        handle.write("{path}\\n")
'''


def test_under_xdist_with_files_whole_the_longest_files_are_handed_out_first(tmp_path: Path) -> None:
    """xdist sets each worker's own `--dist` to `no`: the workers, whose collections are the order
    the run hands out files, must still sort by LONGEST_FIRST."""
    from tests.conftest import LONGEST_FIRST

    files = ["tests/aaa/test_alphabetically_first.py", LONGEST_FIRST[1], LONGEST_FIRST[0]]
    for path in files:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(RECORDS.format(name=Path(path).stem, path=path), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "tests.conftest", "-p", "no:cacheprovider",
                          "-p", "no:schemathesis", "-p", "no:hypothesispytest", "--rootdir", str(tmp_path),
                          "-n", "1", "--dist", "loadfile", "-q", *(str(tmp_path / path) for path in files)],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    ran = (tmp_path / "order.txt").read_text(encoding="utf-8").split()
    assert ran == [LONGEST_FIRST[0], LONGEST_FIRST[1], files[0]], ran
