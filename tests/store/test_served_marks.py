"""kg.store.served: a build's cleanup (build_dirs.prune) passes over a build another process marks
as served, removes it at a later cleanup once the mark is given up or its holder is killed, and
a mark asked for a build the cleanup removed is refused. The holders are real processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from kg.pipeline.builder import build
from kg.store import build_dirs
from kg.store.served import mark_served, remove_unless_served
from tests.helpers import TINY

HOLDER = """
import sys
from pathlib import Path
from kg.store.served import mark_served
mark = mark_served(Path(sys.argv[1]))
print("marked" if mark else "gone", flush=True)
sys.stdin.read()  # until the test closes stdin (or kills the process)
mark and mark.release()
print("released", flush=True)
"""


class Holder:
    """Another process holding a mark on a build."""

    def __init__(self, build_dir: Path) -> None:
        self.process = subprocess.Popen([sys.executable, "-c", HOLDER, str(build_dir)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)
        self.said = self.process.stdout.readline().strip()

    def release(self) -> None:
        self.process.stdin.close()
        assert self.process.stdout.readline().strip() == "released"
        self.process.wait(30)

    def kill(self) -> None:
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(30)
        self.process.stdin.close()

    def close(self) -> None:
        if self.process.poll() is None:
            self.kill()
        self.process.stdout.close()


@pytest.fixture
def built(tmp_path: Path) -> tuple[Path, Path]:
    """A data directory and its first build; each test publishes the next ones (publish prunes)."""
    corpus, data = tmp_path / "corpus", tmp_path / "data"
    corpus.mkdir()
    for name in ("annotation.conf", "aliases.toml", "alpha.txt", "alpha.ann", "alpha.json"):
        (corpus / name).write_bytes((TINY / name).read_bytes())
    first = build(corpus, data, validate=False).build_dir
    return data, first


def _publish_new(data: Path) -> Path:
    """A finished build (a copy of the current build's manifest is enough for prune) made current."""
    new = build_dirs.new_build_dir(data)
    (new / build_dirs.MANIFEST_FILE).write_bytes((build_dirs.current_build(data) / build_dirs.MANIFEST_FILE).read_bytes())
    build_dirs.publish(data, new)
    return new


@pytest.mark.parametrize("ends", ["release", "kill"])
def test_a_marked_build_is_passed_over_and_removed_once_its_holder_lets_go(built, ends: str) -> None:
    data, first = built
    holder = Holder(first)
    try:
        assert holder.said == "marked"
        second, third = _publish_new(data), _publish_new(data)  # the third's cleanup would remove `first`
        assert first.is_dir() and second.is_dir() and third.is_dir()
        getattr(holder, ends)()
        fourth = _publish_new(data)
    finally:
        holder.close()
    assert sorted(p.name for p in (data / "builds").iterdir()) == sorted([third.name, fourth.name])


def test_a_removed_build_cannot_be_marked(built) -> None:
    data, first = built
    _publish_new(data)
    assert remove_unless_served(first)
    assert mark_served(first) is None
    holder = Holder(first)
    try:
        assert holder.said == "gone"
    finally:
        holder.close()


def test_a_build_marked_in_this_process_is_kept_until_released(built) -> None:
    data, first = built
    mark = mark_served(first)
    _publish_new(data)
    assert not remove_unless_served(first) and first.is_dir()
    mark.release()
    mark.release()  # a second time: nothing
    assert remove_unless_served(first) and not first.exists()
    assert [p.name for p in (data / "builds").iterdir() if p.name.startswith(".")] == []
