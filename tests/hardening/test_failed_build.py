"""A build that fails in this process releases everything it opened under the data directory.

RocksDB keeps one lock per store directory and process. A failed build whose
store stayed open (held by the traceback a caller keeps) made the next build in
the same process fail with "lock hold by current process" whenever it got the
same directory name (same second, same pid), as the reader fuzz does.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from kg.errors import InputError
from kg.pipeline.builder import build
from kg.store import build_dirs
from tests.helpers import TINY

OUT_OF_RANGE = "T99\tPerson 0 999999\tx\n"


def open_files_under(directory: Path) -> list[str]:
    """The files this process holds open under `directory` (from /proc/self/fd)."""
    root = str(directory.resolve())
    held = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:  # the directory's own descriptor, closed while listing
            continue
        if target.startswith(root + os.sep):
            held.append(target)
    return held


@pytest.fixture
def built_tiny(tmp_path: Path) -> tuple[Path, Path]:
    shutil.copytree(TINY, tmp_path / "corpus")
    build(tmp_path / "corpus", tmp_path / "data")
    return tmp_path / "corpus", tmp_path / "data"


@pytest.mark.parametrize("full", [True, False], ids=["full", "incremental"])
def test_a_failed_build_releases_its_store_and_the_next_build_works(built_tiny: tuple[Path, Path],
                                                                    full: bool) -> None:
    corpus, data = built_tiny
    ann = corpus / "alpha.ann"
    good = ann.read_text(encoding="utf-8")
    before = build_dirs.current_build(data)
    ann.write_text(good + OUT_OF_RANGE, encoding="utf-8")
    with pytest.raises(InputError) as failed:  # kept, as a caller that reports it later keeps it
        build(corpus, data, full=full)
    assert "999999" in str(failed.value)
    assert open_files_under(data) == [], "the failed build left files open (its store's LOCK among them)"
    ann.write_text(good + "T98\tPerson 4 7\tAna\n", encoding="utf-8")
    report = build(corpus, data, full=full)  # at once: often the same second, so the same directory name
    assert build_dirs.current_build(data) == report.build_dir.resolve() != before
    assert open_files_under(data) == []
