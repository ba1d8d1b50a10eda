"""A build of an unchanged corpus answers from the corpus stamp the last build kept
(kg.pipeline.survey.unchanged) without scanning; any change to the corpus, to kg's inputs or to the base
IRI makes it scan, and what it reports is what the scan would have reported."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Callable

import pytest

from kg.formats import corpus_stamp
from kg.pipeline.builder import build
from kg.pipeline.survey import work
from kg.store import build_dirs
from tests.helpers import NPR, add_article, assert_same_quads, edit_npr, remove_npr, settle, store_quads


@pytest.fixture
def scans(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The corpus directories the builds of the test scanned (the real scan still runs)."""
    seen: list[Path] = []
    real = work.scan_corpus

    def counted(corpus_dir: Path, listed: bytes | None = None):
        seen.append(corpus_dir)
        return real(corpus_dir, listed)

    monkeypatch.setattr(work, "scan_corpus", counted)
    return seen


def test_an_unchanged_corpus_is_not_scanned_and_reports_what_a_scan_reports(corpus_copy: Path, tmp_path: Path,
                                                                          scans: list[Path]) -> None:
    (corpus_copy / "notes.md").write_text("not a document", encoding="utf-8")
    settle(corpus_copy)
    data = tmp_path / "data"
    first = build(corpus_copy, data)
    assert len(scans) == 1
    stamped = build(corpus_copy, data)
    assert len(scans) == 1, "the second build scanned an unchanged corpus"
    (data / build_dirs.STAMP_FILE).unlink()
    scanned = build(corpus_copy, data)
    assert len(scans) == 2
    assert stamped.mode == scanned.mode == "unchanged" and stamped.build_dir is None
    assert stamped.documents == scanned.documents == 4
    assert stamped.ignored == scanned.ignored == [corpus_copy / "notes.md"]
    assert _without_time(stamped.summary()) == _without_time(scanned.summary())
    assert (data / "current").resolve() == first.build_dir.resolve()
    build(corpus_copy, data)  # the scan that found nothing to do kept the stamp again
    assert len(scans) == 2


def _without_time(summary: str) -> str:
    return summary.split(" (", 1)[0] + summary.split(")", 1)[1]


def _touch(corpus: Path) -> None:
    path = corpus / f"{NPR}.txt"
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10**9))


def _same_size_same_time(corpus: Path) -> None:
    """An edit that keeps the file's size and sets its modification time back: only its change time differs."""
    path = corpus / f"{NPR}.json"
    before = path.stat()
    path.write_text(path.read_text(encoding="utf-8").replace("a", "b", 1), encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))


def _ignored_file(corpus: Path) -> None:
    (corpus / "notes.md").write_text("not a document", encoding="utf-8")


def _aliases(corpus: Path) -> None:
    with open(corpus / "aliases.toml", "a", encoding="utf-8") as handle:
        handle.write('\n[[entity]]\nkey = "person/new-person"\ntype = "Person"\nlabel = "New Person"\n')


@pytest.mark.parametrize("change, mode", [
    (edit_npr, "incremental"), (add_article, "incremental"), (remove_npr, "incremental"), (_aliases, "full"),
    (_touch, "unchanged"), (_same_size_same_time, "incremental"), (_ignored_file, "unchanged"),
], ids=["edit", "add", "remove", "aliases", "touch", "same-size-same-time", "ignored-file"])
def test_any_change_to_the_corpus_makes_the_build_scan(corpus_copy: Path, tmp_path: Path, scans: list[Path],
                                                       change: Callable[[Path], None], mode: str) -> None:
    data = tmp_path / "data"
    build(corpus_copy, data)
    change(corpus_copy)
    settle(corpus_copy)
    report = build(corpus_copy, data)
    assert len(scans) == 2 and report.mode == mode
    if change is _ignored_file:
        assert report.ignored == [corpus_copy / "notes.md"]
    again = build(corpus_copy, data)
    assert len(scans) == 2 and again.mode == "unchanged"
    assert again.ignored == report.ignored and again.documents == report.documents


def test_another_base_iri_is_a_full_build(corpus_copy: Path, tmp_path: Path, scans: list[Path]) -> None:
    data = tmp_path / "data"
    build(corpus_copy, data)
    assert build(corpus_copy, data, base_iri="https://example.org/other/").mode == "full"
    assert build(corpus_copy, data).mode == "full"


def test_a_change_made_after_the_scan_is_seen_by_the_next_build(corpus_copy: Path, tmp_path: Path,
                                                                scans: list[Path],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The stamp is taken before the scan: an article saved while a build runs, after the scan
    listed the corpus, must not let the next build take the corpus for unchanged without scanning."""
    data = tmp_path / "data"
    build(corpus_copy, data)
    counted = work.scan_corpus

    def scan_then_edit(corpus_dir: Path, listed: bytes | None = None):
        listing = counted(corpus_dir, listed)
        edit_npr(corpus_copy)
        return listing

    monkeypatch.setattr(work, "scan_corpus", scan_then_edit)
    _aliases(corpus_copy)  # so that the build runs
    assert build(corpus_copy, data).mode == "full"
    monkeypatch.setattr(work, "scan_corpus", counted)
    build(corpus_copy, data)
    assert len(scans) == 3
    assert_same_quads(store_quads(data), store_quads(_fresh(corpus_copy, tmp_path)), "after the edit")


def _fresh(corpus: Path, tmp_path: Path) -> Path:
    fresh = tmp_path / "fresh"
    build(corpus, fresh, full=True)
    return fresh


def test_without_gnu_find_every_build_scans(corpus_copy: Path, tmp_path: Path, scans: list[Path],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    bare = tmp_path / "bin"
    bare.mkdir()
    (bare / "find").write_text("#!/bin/sh\necho 'find: unknown primary or operator' >&2\nexit 1\n")
    (bare / "find").chmod(0o755)
    monkeypatch.setenv("PATH", f"{bare}{os.pathsep}{os.environ['PATH']}")
    assert corpus_stamp.corpus_stamp(corpus_copy) is None
    data = tmp_path / "data"
    build(corpus_copy, data)
    assert not (data / build_dirs.STAMP_FILE).exists()
    assert build(corpus_copy, data).mode == "unchanged" and len(scans) == 2


def test_a_link_loop_gives_no_stamp_and_the_scan_reports_it(corpus_copy: Path, tmp_path: Path) -> None:
    (corpus_copy / "loop").symlink_to(corpus_copy)
    assert corpus_stamp.corpus_stamp(corpus_copy) is None


def test_the_stamp_tells_a_moved_corpus_from_the_original(corpus_copy: Path, tmp_path: Path) -> None:
    moved = tmp_path / "moved"
    shutil.copytree(corpus_copy, moved, copy_function=shutil.copy2)
    assert corpus_stamp.corpus_stamp(moved) != corpus_stamp.corpus_stamp(corpus_copy)
    assert corpus_stamp.corpus_stamp(corpus_copy) == corpus_stamp.corpus_stamp(corpus_copy)


def test_kg_code_is_in_the_fingerprint_but_not_the_servers_tests_start(tmp_path: Path) -> None:
    from kg.pipeline.inputs import OWN_CODE, code_fingerprint

    package = tmp_path / "kg"
    shutil.copytree(OWN_CODE, package, ignore=shutil.ignore_patterns("__pycache__"))
    before = code_fingerprint(package)
    with open(package / "testing" / "servers.py", "a", encoding="utf-8") as handle:
        handle.write("\n# a test server changed\n")
    assert code_fingerprint(package) == before
    with open(package / "pipeline" / "plan.py", "a", encoding="utf-8") as handle:
        handle.write("\n# the planner changed\n")
    assert code_fingerprint(package) != before
