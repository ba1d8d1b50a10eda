"""A SPARQL server whose start fails leaves nothing running: a Virtuoso that misses its deadline
(it once took 92 s on a loaded machine, past the 60 s it was given, and the failed fixture left
its `virtuoso-t` running) or whose set-up fails once it answers is stopped, with its whole
process group, before the error reaches the test. And a server outlives no test run, however the
run ends."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kg.testing.servers import ROOT, ServerDown
from kg.testing.sparql_servers import ENGINES, VirtuosoServer, virtuoso_binary


def _command_lines() -> dict[int, str]:
    """pid -> command line of every process of this machine that can be read."""
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                found[int(entry)] = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
    return found


def _running_in(directory: Path) -> list[str]:
    """The processes whose command line names `directory` (a server's configuration or data)."""
    return [line for line in _command_lines().values() if str(directory) in line]


class _Late(VirtuosoServer):
    """A Virtuoso given no time at all: its process runs, and the deadline has passed."""

    start_timeout = 0.0


class _BadSetUp(VirtuosoServer):
    """A Virtuoso that answers, then fails its set-up (an SQL statement Virtuoso refuses); what
    ran when it answered is noted in `answered`."""

    answered: list[list[str]] = []

    def ready(self) -> None:
        _BadSetUp.answered.append(_running_in(self.directory))
        self.isql("THIS IS NOT SQL;")


def _need_virtuoso() -> None:
    if not virtuoso_binary():
        message = "virtuoso-t is not installed (Debian package virtuoso-opensource)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)


def test_a_virtuoso_past_its_deadline_is_stopped(tmp_path: Path) -> None:
    _need_virtuoso()
    with pytest.raises(ServerDown, match="did not start within 0 s"):
        _Late(tmp_path)
    assert _running_in(tmp_path) == []


def test_a_virtuoso_whose_set_up_fails_is_stopped(tmp_path: Path) -> None:
    _need_virtuoso()
    _BadSetUp.answered.clear()
    with pytest.raises(ServerDown, match="isql failed"):
        _BadSetUp(tmp_path)
    assert any("virtuoso-t" in line for line in _BadSetUp.answered[0])  # it was up when the set-up failed
    assert _running_in(tmp_path) == []


@pytest.mark.parametrize("name", list(ENGINES))
def test_every_engine_past_its_deadline_is_stopped(name: str, tmp_path: Path) -> None:
    kind, binary = ENGINES[name]
    if not binary():
        pytest.skip(f"the {name} server is not installed")
    late = type(f"Late{kind.__name__}", (kind,), {"start_timeout": 0.0})
    with pytest.raises(ServerDown):
        late(tmp_path)
    assert _running_in(tmp_path) == []


_STARTER = """
import sys, time
from kg.testing.servers import Process
child = Process([sys.executable, "-c", "import time; time.sleep(120)"])
print(child.process.pid, flush=True)
time.sleep(120)
"""


def test_a_server_dies_with_the_test_run_that_started_it() -> None:
    """A test run killed by a time-out (SIGKILL: no fixture tear-down runs) leaves no server behind:
    the child, in a session of its own so that stop() can signal its whole group, is sent SIGTERM by
    Linux when its parent dies."""
    starter = subprocess.Popen([sys.executable, "-c", _STARTER], stdout=subprocess.PIPE, text=True,
                               env=dict(os.environ, PYTHONPATH=str(ROOT)))
    child = int(starter.stdout.readline())
    try:
        assert _alive(child)
        starter.kill()
        starter.wait(10)
        deadline = time.monotonic() + 30
        while _alive(child) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(child), "the child outlived the process that started it"
    finally:
        starter.kill()
        starter.wait()
        if _alive(child):
            os.kill(child, signal.SIGKILL)


def _alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie, dead but not yet reaped by init, counts as gone)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
