"""Point 2 (builder): a build SIGKILLed during parse, store write or export loses nothing.

A generated corpus (benchmarks/corpus/generate.py) is built once; each test copies
that data directory, starts a real `kg build` process over it, watches the
new build directory until the wanted phase has begun, and SIGKILLs the
process (only it: its reader workers must notice on their own). The
leftovers prove which phase was interrupted. Then: `data/current` still
names the old build, whose files are byte-identical, whose store opens and
answers, and the next build succeeds, removes the leftover, and holds
exactly the quads of the old one (same corpus).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import threading
import time
from pathlib import Path

import pyoxigraph as ox
import pytest

from kg.store import build_dirs
from kg.store.embedded import EmbeddedStore
from tests.hardening.procs import GENERATED_DOCS as DOCS, alive, kg_build, kill_group, run_build, wait_until
from tests.helpers import assert_same_quads, store_quads, tree_digest

PHASE_TIMEOUT = 120.0
EXPORTS = [build_dirs.EXPORT_FILES[f] for f in ("ttl", "trig", "jsonld")]


def _new_build(data: Path, old: Path) -> Path | None:
    fresh = [p for p in (data / "builds").iterdir() if p.resolve() != old]
    return fresh[0] if fresh else None


def _in_store_write(data: Path, old: Path) -> bool:
    new = _new_build(data, old)
    return bool(new and (new / build_dirs.STORE_DIR).is_dir() and not any((new / f).exists() for f in EXPORTS))


def _in_export(data: Path, old: Path) -> bool:
    new = _new_build(data, old)
    return bool(new and any((new / f).exists() for f in EXPORTS) and not (new / build_dirs.MANIFEST_FILE).exists())


class Progress:
    """Reads a build's progress bar (tqdm on stderr) in a thread: how many documents were read."""

    def __init__(self, process: subprocess.Popen) -> None:
        self.read = -1
        self.text = ""
        threading.Thread(target=self._pump, args=(process.stderr,), daemon=True).start()

    def _pump(self, stream) -> None:
        for chunk in iter(lambda: stream.read1(4096) if hasattr(stream, "read1") else stream.read(1), b""):
            self.text += chunk.decode("utf-8", "replace")
            counts = re.findall(r"reading:.*?(\d+)/\d+", self.text)
            if counts:
                self.read = int(counts[-1])


def _check_survival(data: Path, old: Path, link: str, digest: dict[str, str], quads: set) -> None:
    """`current` unchanged, its files byte-identical, its store opens and answers, its exports parse."""
    assert os.readlink(data / "current") == link
    assert tree_digest(old) == digest
    manifest = json.loads((old / build_dirs.MANIFEST_FILE).read_text())
    with EmbeddedStore(build_dirs.store_path(old), read_only=True) as store:
        rows = store.select("SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }")
        assert int(rows[0]["n"]) == manifest["quads"] == len(quads)
        articles = store.select("SELECT (COUNT(?d) AS ?n) WHERE { ?d a <https://kg.example.org/ontology#NewsArticle> }")
        assert int(articles[0]["n"]) == DOCS
    assert len(list(ox.parse(path=str(old / "kg.nq"), format=ox.RdfFormat.N_QUADS))) == len(quads)


def _check_recovery(corpus: Path, data: Path, old: Path, leftover: Path | None, quads: set | None,
                    *args: str) -> Path:
    """The next build (`args` as the killed one had) succeeds, removes the leftover and, when the
    corpus did not change (`quads` given), holds exactly the old quads."""
    result = run_build(corpus, data, "--no-validate", *args)
    assert result.returncode == 0, result.stderr[-2000:]
    new = build_dirs.current_build(data)
    assert new is not None and (new / build_dirs.MANIFEST_FILE).exists()
    if leftover is not None:
        assert not leftover.exists(), "the killed build's directory was not removed"
    assert sorted(p.name for p in (data / "builds").iterdir()) == sorted({old.name, new.name})
    if quads is not None:
        assert_same_quads(store_quads(data), quads, "rebuild after the kill vs the old build")
    return new


def _kill_when(process: subprocess.Popen, condition, what: str) -> None:
    reached = wait_until(lambda: condition() or process.poll() is not None, PHASE_TIMEOUT)
    if process.poll() is not None or not reached:
        kill_group(process)
        pytest.fail(f"the build ended before {what} could be interrupted (exit {process.returncode})")
    os.kill(process.pid, signal.SIGKILL)
    process.wait(10)


def _group(pid: int) -> set[int]:
    """Live processes of the process group `pid` leads (the build and its helpers), but the leader."""
    members = set()
    for proc in Path("/proc").iterdir():
        try:
            fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if proc.name.isdigit() and int(fields[3]) == pid and int(proc.name) != pid and fields[0] != "Z":
            members.add(int(proc.name))
    return members


class Steady:
    """A condition that has held for `seconds` in a row."""

    def __init__(self, condition, seconds: float) -> None:
        self.condition, self.seconds, self.since = condition, seconds, None

    def __call__(self) -> bool:
        if not self.condition():
            self.since = None
            return False
        self.since = self.since or time.monotonic()
        return time.monotonic() - self.since >= self.seconds


@pytest.mark.parametrize("workers", [1, 2])
def test_kill_during_parse(generated_copy: tuple[Path, Path], workers: int) -> None:
    """With --workers 2 the readers run in a pool: they must end with the build and not keep its lock."""
    corpus, data = generated_copy
    old, link = build_dirs.current_build(data), os.readlink(data / "current")
    digest, quads = tree_digest(old), store_quads(data)
    process = kg_build(corpus, data, "--full", "--workers", str(workers), progress=True)
    progress = Progress(process)
    if workers == 1:
        parsing = lambda: progress.read >= 1  # noqa: E731  (one document read, more to go)
    else:
        parsing = Steady(lambda: len(_group(process.pid)) >= 2, 0.5)  # the reader pool is up
    try:
        _kill_when(process, parsing, "parsing")
        helpers = _group(process.pid)
        assert wait_until(lambda: not any(alive(p) for p in helpers), 10, 0.1), "reader workers outlived the build"
    finally:
        kill_group(process)
    assert progress.read < DOCS, "the build was past parsing when killed"
    leftover = _new_build(data, old)  # documents are streamed to its load file and store as they are read
    assert leftover is None or not (leftover / build_dirs.MANIFEST_FILE).exists(), "the build had finished"
    _check_survival(data, old, link, digest, quads)
    assert _check_recovery(corpus, data, old, leftover, quads, "--full", "--workers", str(workers)) != old


def test_kill_during_store_write(generated_copy: tuple[Path, Path]) -> None:
    corpus, data = generated_copy
    old, link = build_dirs.current_build(data), os.readlink(data / "current")
    digest, quads = tree_digest(old), store_quads(data)
    process = kg_build(corpus, data, "--full", "--no-validate")
    try:
        _kill_when(process, lambda: _in_store_write(data, old), "the store write")
    finally:
        kill_group(process)
    leftover = _new_build(data, old)
    assert leftover and (leftover / build_dirs.STORE_DIR).is_dir()
    assert not any((leftover / f).exists() for f in EXPORTS), "the kill came after the store was written"
    _check_survival(data, old, link, digest, quads)
    assert _check_recovery(corpus, data, old, leftover, quads, "--full") != old


def test_kill_during_incremental_store_write(generated_copy: tuple[Path, Path]) -> None:
    """An incremental build starts from a copy (hard links) of the current store: the copy must not leak back."""
    corpus, data = generated_copy
    old, link = build_dirs.current_build(data), os.readlink(data / "current")
    digest, quads = tree_digest(old), store_quads(data)
    victim = sorted(corpus.glob("*.ann"))[0]
    victim.write_text("\n".join(victim.read_text(encoding="utf-8").splitlines()[:3]) + "\n", encoding="utf-8")
    process = kg_build(corpus, data, "--no-validate")
    try:
        _kill_when(process, lambda: _in_store_write(data, old), "the incremental store write")
    finally:
        kill_group(process)
    leftover = _new_build(data, old)
    assert leftover and not any((leftover / f).exists() for f in EXPORTS)
    _check_survival(data, old, link, digest, quads)
    new = _check_recovery(corpus, data, old, leftover, None)
    assert json.loads((new / build_dirs.MANIFEST_FILE).read_text())["mode"] == "incremental"
    assert len(store_quads(data)) < len(quads), "the shortened document was not rebuilt"


def test_kill_during_export(generated_copy: tuple[Path, Path]) -> None:
    """An eager build writes its exports before publishing (a lazy one writes none)."""
    corpus, data = generated_copy
    old, link = build_dirs.current_build(data), os.readlink(data / "current")
    digest, quads = tree_digest(old), store_quads(data)
    process = kg_build(corpus, data, "--full", "--no-validate", "--eager")
    try:
        _kill_when(process, lambda: _in_export(data, old), "the export")
    finally:
        kill_group(process)
    leftover = _new_build(data, old)
    assert leftover and any((leftover / f).exists() for f in EXPORTS)
    assert not (leftover / build_dirs.MANIFEST_FILE).exists(), "the kill came after the build was finished"
    _check_survival(data, old, link, digest, quads)
    # nothing changed in the corpus: the next plain build has nothing to do, but still clears the leftover
    assert _check_recovery(corpus, data, old, leftover, quads) == old
    assert tree_digest(old) == digest
