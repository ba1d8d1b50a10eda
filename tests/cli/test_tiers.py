"""The tiers of the suite (tests/conftest.py): a test that starts a server process without the
`servers` mark fails, so that `make check` cannot come to run one unseen; a marked one runs."""

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
