"""The store compacted in a process of its own (kg.store.compaction): a new build holding the same
graph and the same kept files, published only while the build it copied is current; `kg build`
starts it after compact_after incremental builds in a row, and counts them in the manifest."""

from __future__ import annotations

import fcntl
import json
import time
from pathlib import Path

import pytest

from kg.pipeline.builder import build
from kg.pipeline.survey.unchanged import kept_stamp
from kg.store import build_dirs, compaction
from kg.store.served import SERVED_FILE
from tests.helpers import ROOT, add_numbered_article, build_corpus, edit_npr, store_quads


def _manifest(build_dir: Path) -> dict:
    return json.loads((build_dir / build_dirs.MANIFEST_FILE).read_text(encoding="utf-8"))


def _edited_twice(corpus: Path, data: Path) -> Path:
    """A full build, then two incremental ones; the current build."""
    assert build(corpus, data).mode == "full"
    edit_npr(corpus)
    assert build(corpus, data).mode == "incremental"
    add_numbered_article(corpus, 1)
    assert build(corpus, data).mode == "incremental"
    return build_dirs.current_build(data)


def _files(build_dir: Path) -> set[str]:
    return {p.relative_to(build_dir).as_posix() for p in build_dir.rglob("*")
            if build_dirs.STORE_DIR not in p.relative_to(build_dir).parts}


def test_the_manifest_counts_incremental_builds_since_the_store_was_bulk_loaded(corpus_copy, tmp_path):
    data = tmp_path / "data"
    build(corpus_copy, data)
    assert _manifest(build_dirs.current_build(data))[compaction.STORE_EDITS] == 0
    current = _edited_twice(corpus_copy, tmp_path / "other")
    assert _manifest(current)[compaction.STORE_EDITS] == 2


def test_a_compaction_publishes_the_same_graph_and_files_and_the_next_build_counts_from_it(corpus_copy, tmp_path):
    data = tmp_path / "data"
    source = _edited_twice(corpus_copy, data)
    (source / SERVED_FILE).write_text("")  # a server's mark: the compacted build is served by none yet
    time.sleep(2.5)  # a corpus changed within two ticks of the clock before a build keeps no stamp
    assert build(corpus_copy, data).mode == "unchanged" and kept_stamp(data).build == source.name
    before = store_quads(data)

    said = compaction.compact(data)

    current = build_dirs.current_build(data)
    assert said == f"compacted {source.name} into {current.name}" and current != source
    assert store_quads(data) == before
    assert _files(current) == _files(source) - {SERVED_FILE}
    assert (current / "search-index.sqlite").stat().st_ino == (source / "search-index.sqlite").stat().st_ino
    manifest, old = _manifest(current), _manifest(source)
    assert manifest[compaction.STORE_EDITS] == 0 and manifest["compacted_from"] == source.name
    assert manifest["documents"] == old["documents"] and manifest["quads"] == old["quads"]
    assert kept_stamp(data).build == current.name  # a build now finds the corpus unchanged without a scan
    assert build(corpus_copy, data).mode == "unchanged"
    add_numbered_article(corpus_copy, 2)
    report = build(corpus_copy, data)
    assert report.mode == "incremental" and _manifest(report.build_dir)[compaction.STORE_EDITS] == 1
    assert _manifest(report.build_dir)["based_on"] == current.name


def test_a_build_that_ran_meanwhile_wins_over_the_compaction(corpus_copy, tmp_path):
    data = tmp_path / "data"
    source = _edited_twice(corpus_copy, data)
    clone = compaction._compacted_copy(data, source)
    add_numbered_article(corpus_copy, 2)
    newer = build(corpus_copy, data).build_dir

    said = compaction._publish_unless_superseded(data, source, clone)

    assert said.startswith("not published: a newer build is current")
    assert build_dirs.current_build(data) == newer and not clone.exists()
    assert compaction.compact(data, source.name) == "nothing to compact: the build asked for is not current"


def test_a_compaction_never_publishes_while_a_build_holds_the_lock(corpus_copy, tmp_path):
    data = tmp_path / "data"
    source = _edited_twice(corpus_copy, data)
    clone = compaction._compacted_copy(data, source)
    with open(data / build_dirs.LOCK_FILE, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        said = compaction._publish_unless_superseded(data, source, clone)
    assert said.startswith("not published: a build is running")
    assert build_dirs.current_build(data) == source and not clone.exists()


def test_kg_build_starts_a_compaction_after_compact_after_incremental_builds(corpus_copy, tmp_path, monkeypatch):
    data = tmp_path / "data"
    monkeypatch.setenv("KG_COMPACT_AFTER", "2")
    monkeypatch.setenv("PYTHONPATH", str(ROOT))  # the detached `kg compact` runs this checkout's kg

    def kg_build() -> None:
        build_corpus(corpus_copy, data)

    kg_build()
    edit_npr(corpus_copy)
    kg_build()
    once = build_dirs.current_build(data)
    time.sleep(1)
    assert build_dirs.current_build(data) == once  # one incremental build: no compaction
    add_numbered_article(corpus_copy, 1)
    kg_build()
    edited = build_dirs.current_build(data)
    before = store_quads(data)
    deadline = time.monotonic() + 120
    while build_dirs.current_build(data) == edited and time.monotonic() < deadline:
        time.sleep(0.2)
    current = build_dirs.current_build(data)
    assert current != edited, (data / compaction.COMPACT_LOG).read_text()
    assert _manifest(current)["compacted_from"] == edited.name
    assert store_quads(data) == before


@pytest.mark.parametrize("value", [None, "x", -1, 1.5])
def test_a_manifest_without_a_count_counts_as_compacted(value):
    assert compaction.store_edits({compaction.STORE_EDITS: value}) == 0
    assert compaction.store_edits(None) == 0
