"""Builds told by a corpus watcher (kg.pipeline.survey.watched) what changed: a real inotify watch
(kg.formats.corpus_watch) answering on a real Unix socket, and real builds asking it.

With a watcher, a build of an unchanged corpus neither stamps the corpus (no `find`) nor scans
it, and a build after an edit, an addition or a removal reads the named documents alone; every
such build ends with the quads a fresh full build of the same corpus makes. What the watcher
cannot vouch for (a configuration, a new directory, a file that is no document's) makes the build
scan, as without a watcher."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from kg.formats import corpus_stamp
from kg.formats.corpus_watch import CorpusWatch
from kg.pipeline.builder import build
from kg.pipeline.survey import unchanged, work
from kg.pipeline.survey.watched import WatchService, ask_watcher
from tests.helpers import NPR, add_article, assert_same_quads, edit_npr, remove_npr, settle, store_quads


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How often builds scanned the corpus and stamped it with `find` (the real functions still run)."""
    calls = {"scan": 0, "find": 0}
    real_scan, real_stamp = work.scan_corpus, unchanged.stamp_listing

    def scan(corpus_dir: Path, listed: bytes | None = None):
        calls["scan"] += 1
        return real_scan(corpus_dir, listed)

    def stamp(corpus_dir: Path):
        calls["find"] += 1
        return real_stamp(corpus_dir)

    monkeypatch.setattr(work, "scan_corpus", scan)
    monkeypatch.setattr(unchanged, "stamp_listing", stamp)
    return calls


@pytest.fixture
def watcher(corpus_copy: Path, tmp_path: Path):
    """A watch over the corpus copy answering builds on tmp_path/data's socket."""
    data = tmp_path / "data"
    data.mkdir()
    watch = CorpusWatch.open(corpus_copy)
    assert watch is not None, "inotify is not available on this machine"
    service = WatchService(watch, data, threading.Lock())
    assert service.start()
    yield service
    service.stop()
    watch.close()


def _fresh(corpus: Path, tmp_path: Path, name: str) -> Path:
    data = tmp_path / name
    build(corpus, data, full=True)
    return data


def test_an_unchanged_corpus_is_neither_stamped_nor_scanned(corpus_copy: Path, tmp_path: Path, watcher,
                                                            counted: dict[str, int]) -> None:
    data = tmp_path / "data"
    first = build(corpus_copy, data)
    assert counted == {"scan": 1, "find": 0}, "the first build stamped the corpus though a watcher answered"
    again = build(corpus_copy, data)
    assert again.mode == "unchanged" and again.documents == first.documents
    assert counted == {"scan": 1, "find": 0}


@pytest.mark.parametrize("change, graphs", [
    (edit_npr, {"changed": [NPR]}), (add_article, {"added": ["zz-new"]}), (remove_npr, {"removed": [NPR]}),
], ids=["edit", "add", "remove"])
def test_a_named_change_is_built_without_a_scan(corpus_copy: Path, tmp_path: Path, watcher, counted: dict[str, int],
                                                change, graphs: dict[str, list[str]]) -> None:
    data = tmp_path / "data"
    build(corpus_copy, data)
    change(corpus_copy)
    report = build(corpus_copy, data)
    assert report.mode == "incremental" and counted["scan"] == 1, "the build scanned a corpus whose changes it was told"
    assert {k: getattr(report, k) for k in graphs} == graphs
    assert report.documents == (5 if change is add_article else 3 if change is remove_npr else 4)
    assert build(corpus_copy, data).mode == "unchanged" and counted == {"scan": 1, "find": 0}
    assert_same_quads(store_quads(data), store_quads(_fresh(corpus_copy, tmp_path, "fresh")), "after the change")


def test_an_edit_in_place_that_keeps_size_and_time_is_built(corpus_copy: Path, tmp_path: Path, watcher,
                                                            counted: dict[str, int]) -> None:
    """The same number of bytes written into the same file, its modification time set back: the
    watcher names it, and the build compares its content, not its stat."""
    data = tmp_path / "data"
    build(corpus_copy, data)
    meta = corpus_copy / f"{NPR}.json"
    before = meta.stat()
    text = meta.read_text(encoding="utf-8")
    assert '"1,000 Venezuelan' in text
    with open(meta, "r+", encoding="utf-8") as handle:  # in place: same inode, same size
        handle.write(text.replace('"1,000 Venezuelan', '"9,000 Venezuelan'))
    os.utime(meta, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert (meta.stat().st_size, meta.stat().st_mtime_ns, meta.stat().st_ino) == (
        before.st_size, before.st_mtime_ns, before.st_ino)
    report = build(corpus_copy, data)
    assert report.mode == "incremental" and report.changed == [NPR] and counted["scan"] == 1
    assert_same_quads(store_quads(data), store_quads(_fresh(corpus_copy, tmp_path, "fresh")), "after the edit")


def _configuration(corpus: Path) -> None:
    with open(corpus / "aliases.toml", "a", encoding="utf-8") as handle:
        handle.write('\n[[entity]]\nkey = "person/new-person"\ntype = "Person"\nlabel = "New Person"\n')


def _new_folder(corpus: Path) -> None:
    (corpus / "more").mkdir()
    (corpus / "more" / "zz-late.txt").write_text("Harry Solano left.\n", encoding="utf-8")
    (corpus / "more" / "zz-late.ann").write_text("T1\tPerson 0 12\tHarry Solano\n", encoding="utf-8")


def _not_a_document(corpus: Path) -> None:
    (corpus / "notes.md").write_text("not a document", encoding="utf-8")


def _orphan_annotations(corpus: Path) -> None:
    (corpus / f"{NPR}.txt").unlink()


@pytest.mark.parametrize("change, mode", [
    (_configuration, "full"), (_new_folder, "incremental"), (_not_a_document, "unchanged"),
], ids=["configuration", "new-folder", "not-a-document"])
def test_what_the_watcher_cannot_vouch_for_is_scanned(corpus_copy: Path, tmp_path: Path, watcher,
                                                      counted: dict[str, int], change, mode: str) -> None:
    data = tmp_path / "data"
    build(corpus_copy, data)
    change(corpus_copy)
    report = build(corpus_copy, data)
    assert report.mode == mode and counted["scan"] == 2
    if change is _not_a_document:
        assert report.ignored == [corpus_copy / "notes.md"]
    again = build(corpus_copy, data)
    assert again.mode == "unchanged" and counted == {"scan": 2, "find": 0}
    assert again.ignored == report.ignored and again.documents == report.documents
    assert_same_quads(store_quads(data), store_quads(_fresh(corpus_copy, tmp_path, "fresh")), "after the change")


def test_a_text_removed_under_its_annotations_is_reported_as_a_scan_reports_it(corpus_copy: Path, tmp_path: Path,
                                                                               watcher) -> None:
    from kg.errors import InputErrors

    data = tmp_path / "data"
    build(corpus_copy, data)
    _orphan_annotations(corpus_copy)
    with pytest.raises(InputErrors, match="annotation file without its text"):
        build(corpus_copy, data)


def test_the_watcher_names_every_kind_of_change(corpus_copy: Path, tmp_path: Path) -> None:
    """Writes in place, a time set back, a file created, removed and renamed, a folder made, a link's
    target edited elsewhere, a file edited through another of its names."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "linked.txt").write_text("A linked text.\n", encoding="utf-8")
    (corpus_copy / "linked.txt").symlink_to(elsewhere / "linked.txt")
    os.link(corpus_copy / f"{NPR}.ann", elsewhere / "other-name.ann")
    watch = CorpusWatch.open(corpus_copy)
    assert watch is not None
    try:
        assert watch.drain() == 0 and watch.changes_since(0) == []
        meta = corpus_copy / f"{NPR}.json"
        stat = meta.stat()
        with open(meta, "r+b") as handle:
            handle.write(b"{")
        os.utime(meta, ns=(stat.st_atime_ns, stat.st_mtime_ns))
        watch.drain()
        assert watch.changes_since(0) == [f"{NPR}.json"]
        first = watch.seq
        (corpus_copy / "new.txt").write_text("x", encoding="utf-8")
        (corpus_copy / "new.txt").rename(corpus_copy / "renamed.txt")
        (corpus_copy / "renamed.txt").unlink()
        (corpus_copy / "folder").mkdir()
        (elsewhere / "linked.txt").write_text("Edited where it lives.\n", encoding="utf-8")
        with open(elsewhere / "other-name.ann", "a", encoding="utf-8") as handle:
            handle.write("#1\tAnnotatorNotes T1\tthrough another name\n")
        watch.drain()
        named = watch.changes_since(first)
        assert named is not None
        assert {"new.txt", "renamed.txt", "folder/", "linked.txt", f"{NPR}.ann"} <= set(named), named
        assert watch.changes_since(watch.seq) == []
    finally:
        watch.close()


def test_a_moved_away_folder_makes_the_changes_unknown(corpus_copy: Path, tmp_path: Path) -> None:
    (corpus_copy / "folder").mkdir()
    (corpus_copy / "folder" / "a.txt").write_text("x", encoding="utf-8")
    watch = CorpusWatch.open(corpus_copy)
    assert watch is not None
    try:
        (corpus_copy / "folder").rename(tmp_path / "gone")
        watch.drain()
        assert watch.changes_since(0) is None
        assert watch.changes_since(watch.seq) == []
    finally:
        watch.close()


def test_the_watchers_stamp_is_the_find_stamp_until_a_change(corpus_copy: Path, tmp_path: Path, watcher) -> None:
    """A build without a watcher and one with it recognise each other's stamp; any change gives another."""
    data = tmp_path / "data"
    told = ask_watcher(data, corpus_copy, None)
    assert told is not None and told.stamp == corpus_stamp.corpus_stamp(corpus_copy) and told.changed is None
    assert ask_watcher(data, corpus_copy, told.stamp).changed == []
    edit_npr(corpus_copy)
    later = ask_watcher(data, corpus_copy, told.stamp)
    assert later.stamp != told.stamp and set(later.changed) == {f"{NPR}.ann", f"{NPR}.json"}
    assert ask_watcher(data, tmp_path, None) is None, "a watcher answered for another corpus"


def test_without_a_watcher_builds_stamp_and_scan_as_before(corpus_copy: Path, tmp_path: Path,
                                                            counted: dict[str, int]) -> None:
    data = tmp_path / "data"
    build(corpus_copy, data)
    assert build(corpus_copy, data).mode == "unchanged"
    assert counted == {"scan": 1, "find": 2}
    edit_npr(corpus_copy)
    settle(corpus_copy)
    assert build(corpus_copy, data).mode == "incremental" and counted == {"scan": 2, "find": 3}
