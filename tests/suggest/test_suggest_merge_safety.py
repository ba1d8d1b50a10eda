"""`kg suggest --merge` edits the user's .ann as a careful editor does (kg.atomic.edit_file): a
save another program makes between kg's reading and its writing is never lost, a read-only .ann
is refused and left as it is, a linked .ann is written through its link, its permissions kept.

The concurrent saves are made by a real second thread, at the one moment that matters (after
kg read the file, before it writes it): edit_file's `change` step hands over to the editor
thread and waits until it has saved, so every interleaving is the same on every run.
"""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest

from kg.atomic import EDIT_ATTEMPTS, PART_SUFFIX, edit_file
from kg.errors import CorpusError
from tests.helpers import CORPUS_2019, run_kg

TEXT = "Juan Guaidó met officials in Cúcuta on Feb. 23, 2019.\nMore than 1,400 soldiers fled, Guaidó said.\n"
HUMAN = "T1\tPerson 0 11\tJuan Guaidó\n"


class Editor:
    """Another program saving the file: a thread that saves when asked, as an editor does (write
    a temporary file and rename it over, or rewrite the file in place)."""

    def __init__(self, path: Path, in_place: bool) -> None:
        self.path, self.in_place = path, in_place
        self.saves: list[bytes] = []
        self._stopping = False
        self._asked, self._done = threading.Semaphore(0), threading.Semaphore(0)
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def save_now(self) -> bytes:
        """Have the thread save once, and wait until it has; returns what it saved."""
        self._asked.release()
        assert self._done.acquire(timeout=30), "the editor thread did not save"
        return self.saves[-1]

    def stop(self) -> None:
        self._stopping = True
        self._asked.release()
        self._thread.join(30)

    def _run(self) -> None:
        while True:
            self._asked.acquire()
            if self._stopping:
                return
            content = b"editor save %d\n" % (len(self.saves) + 1)
            if self.in_place:
                self.path.write_bytes(content)
            else:
                partial = self.path.with_name(self.path.name + ".editor")
                partial.write_bytes(content)
                os.replace(partial, self.path)
            self.saves.append(content)
            self._done.release()


@pytest.mark.parametrize("in_place", [False, True], ids=["renamed", "in-place"])
def test_a_save_between_reading_and_writing_is_kept_and_merged_again(tmp_path: Path, in_place: bool) -> None:
    path = tmp_path / "doc.ann"
    path.write_bytes(b"save 0\n")
    editor = Editor(path, in_place)
    seen: list[bytes] = []

    def change(content: bytes) -> bytes:  # runs between edit_file's read and its write
        seen.append(content)
        if len(seen) <= EDIT_ATTEMPTS - 2:
            editor.save_now()
        return content + b"suggested\n"

    try:
        written = edit_file(path, change)
    finally:
        editor.stop()
    assert seen == [b"save 0\n", *editor.saves]  # each attempt read the latest save
    assert written == path.read_bytes() == editor.saves[-1] + b"suggested\n"
    assert [p.name for p in tmp_path.iterdir()] == ["doc.ann"]


def test_a_file_that_keeps_changing_is_refused_and_holds_the_last_save(tmp_path: Path) -> None:
    path = tmp_path / "doc.ann"
    path.write_bytes(b"save 0\n")
    editor = Editor(path, in_place=False)
    calls = []

    def change(content: bytes) -> bytes:
        calls.append(content)
        editor.save_now()
        return content + b"suggested\n"

    try:
        with pytest.raises(CorpusError) as refused:
            edit_file(path, change)
    finally:
        editor.stop()
    assert len(calls) == EDIT_ATTEMPTS
    assert str(refused.value).startswith(f"{path}: changed {EDIT_ATTEMPTS} times while kg was adding to it")
    assert path.read_bytes() == editor.saves[-1]
    assert not list(tmp_path.glob(f"*{PART_SUFFIX}"))


def test_a_file_made_by_another_program_meanwhile_is_not_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "new.ann"
    editor = Editor(path, in_place=True)
    seen: list[bytes] = []

    def change(content: bytes) -> bytes:
        seen.append(content)
        if len(seen) == 1:
            editor.save_now()  # the file appears after kg found none
        return content + b"suggested\n"

    try:
        edit_file(path, change)
    finally:
        editor.stop()
    assert seen == [b"", b"editor save 1\n"]
    assert path.read_bytes() == b"editor save 1\nsuggested\n"


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    target = tmp_path / "corpus"
    target.mkdir()
    for name in ("annotation.conf", "aliases.toml"):
        shutil.copy(CORPUS_2019 / name, target / name)
    (target / "new.txt").write_text(TEXT, encoding="utf-8")
    (target / "new.ann").write_text(HUMAN, encoding="utf-8")
    return target


def _merge(corpus: Path):
    return run_kg("suggest", "--merge", "--corpus", str(corpus), str(corpus / "new.txt"))


def test_a_read_only_ann_is_refused_and_left_as_it_is(corpus: Path) -> None:
    ann = corpus / "new.ann"
    ann.chmod(0o444)
    result = _merge(corpus)
    assert result.exit_code == 2
    assert result.stderr == (f"error: {ann}: read-only (mode 444; expected a writable file: kg leaves its "
                             "permissions as they are and writes nothing)\n")
    assert ann.read_text(encoding="utf-8") == HUMAN and ann.stat().st_mode & 0o777 == 0o444


def test_a_linked_ann_is_written_through_its_link(corpus: Path, tmp_path: Path) -> None:
    kept = tmp_path / "annotations" / "new.ann"
    kept.parent.mkdir()
    (corpus / "new.ann").rename(kept)
    (corpus / "new.ann").symlink_to(kept)
    result = _merge(corpus)
    assert result.exit_code == 0, result.output
    assert (corpus / "new.ann").is_symlink() and os.readlink(corpus / "new.ann") == str(kept)
    merged = kept.read_text(encoding="utf-8")
    assert merged.startswith(HUMAN) and "\tDate 39 52\t" in merged
    assert sorted(p.name for p in kept.parent.iterdir()) == ["new.ann"]


def test_a_merged_ann_keeps_its_permissions(corpus: Path) -> None:
    ann = corpus / "new.ann"
    ann.chmod(0o640)
    assert _merge(corpus).exit_code == 0
    assert ann.stat().st_mode & 0o777 == 0o640 and ann.read_text(encoding="utf-8") != HUMAN
