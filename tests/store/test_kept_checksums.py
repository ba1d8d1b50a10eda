"""Kept files carry checksums (kg.store.checksums; issue 41: one flipped bit in a kept view segment
silently changed 27 of 217 neighbourhoods). Real builds, real files damaged on disk, read through
the library paths a server and `kg export` use: an export damaged is made again, a view index
damaged is not read (the store is) nor carried into the next build, a kept configuration damaged
is made again from the corpus or refused by name."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

from kg.pipeline.builder import build
from kg.publish.export import ensure_export
from kg.publish.view_index import open_index, tables
from kg.store import build_dirs, checksums
from kg.viz import build_index
from tests.helpers import CORPUS, MARK, assert_same_quads, damage, edit_npr, flip_a_letter_of, run_kg, store_quads


def copy_of(shipped_data: Path, tmp_path: Path) -> tuple[Path, Path]:
    data = tmp_path / "data"
    shutil.copytree(shipped_data, data, symlinks=True)
    return data, build_dirs.require_current_build(data)


def neighbourhoods(index) -> dict[str, list[str]]:
    return {node: sorted(index.neighbours(node)) for node in index.all_nodes()}


def test_a_damaged_export_is_made_again_not_served(shipped_data: Path, tmp_path: Path) -> None:
    data, build_dir = copy_of(shipped_data, tmp_path)
    turtle = ensure_export(build_dir, "ttl")
    whole = turtle.read_bytes()
    assert checksums.sidecar(turtle).is_file()
    damage(turtle)
    assert not checksums.intact(turtle)
    again = ensure_export(build_dir, "ttl")
    assert again.read_bytes() == whole
    assert checksums.intact(again)


def test_the_build_seals_its_nquads_and_a_damaged_one_is_not_read_by_sections(shipped_data: Path,
                                                                             tmp_path: Path) -> None:
    data, build_dir = copy_of(shipped_data, tmp_path)
    nquads = build_dirs.export_path(build_dir, "nq")
    whole = nquads.read_bytes()
    assert checksums.sidecar(nquads).is_file() and checksums.intact(nquads)
    assert build_dirs.read_sections(nquads)
    damage(nquads, 0.3)
    assert build_dirs.read_sections(nquads) is None  # nothing copies sections out of it any more
    made_again = ensure_export(build_dir, "nq").read_bytes()  # from the store: the same quads, in its order
    assert sorted(made_again.splitlines()) == sorted(whole.splitlines())
    assert build_dirs.read_sections(nquads) and checksums.intact(nquads)
    assert MARK not in ensure_export(build_dir, "trig").read_bytes()


def test_a_damaged_view_segment_is_not_read_the_store_is(shipped_data: Path, tmp_path: Path) -> None:
    data, build_dir = copy_of(shipped_data, tmp_path)
    sound = open_index(build_dir)
    assert sound is not None
    expected = neighbourhoods(sound)
    base = build_dir / build_dirs.VIEW_INDEX_DIR / tables.BASE_FILE
    flip_a_letter_of(base, b"/id/person/")
    assert open_index(build_dir) is None
    assert neighbourhoods(build_index(build_dir)) == expected


def test_an_incremental_build_does_not_carry_damaged_kept_files(corpus_copy: Path, tmp_path: Path) -> None:
    """The view segment, the evidence and the parsed inputs an incremental build starts from, each
    with one letter changed: the build reads the store or the corpus instead, and equals a full build."""
    data = tmp_path / "data"
    build(corpus_copy, data, validate=False)
    first = build_dirs.require_current_build(data)
    flip_a_letter_of(first / build_dirs.VIEW_INDEX_DIR / tables.BASE_FILE, b"/id/person/")
    flip_a_letter_of(first / build_dirs.EVIDENCE_FILE, b"person/")
    flip_a_letter_of(first / build_dirs.PARSED_INPUTS_FILE, b"Person")
    edit_npr(corpus_copy)
    build(corpus_copy, data, validate=False)
    second = build_dirs.require_current_build(data)
    kept = open_index(second)
    assert kept is not None and second != first
    full = tmp_path / "full"
    build(corpus_copy, full, validate=False)
    assert neighbourhoods(kept) == neighbourhoods(open_index(build_dirs.require_current_build(full)))
    assert_same_quads(store_quads(data), store_quads(full))


def test_a_damaged_kept_configuration_is_made_again_from_the_corpus(shipped_data: Path, tmp_path: Path) -> None:
    data, build_dir = copy_of(shipped_data, tmp_path)
    kept = build_dirs.corpus_config_dir(build_dir) / "annotation.conf"
    assert kept.read_bytes() == (CORPUS / "annotation.conf").read_bytes()
    damage(kept)
    result = run_kg("export", "--data", str(data), "--format", "brat", "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "annotation.conf").read_bytes() == (CORPUS / "annotation.conf").read_bytes()
    assert kept.read_bytes() == (CORPUS / "annotation.conf").read_bytes()


def test_a_damaged_kept_configuration_the_corpus_no_longer_holds_is_refused_by_name(corpus_copy: Path,
                                                                                   tmp_path: Path) -> None:
    data = tmp_path / "data"
    build(corpus_copy, data, validate=False)
    kept = build_dirs.corpus_config_dir(build_dirs.require_current_build(data)) / "annotation.conf"
    damage(kept)
    with open(corpus_copy / "annotation.conf", "a", encoding="utf-8") as conf:
        conf.write("# edited since the build\n")
    result = run_kg("export", "--data", str(data), "--format", "brat", "-o", str(tmp_path / "out"))
    assert result.exit_code != 0
    assert f"{kept}: damaged since the build" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists()


def test_a_sealed_file_with_the_status_it_was_sealed_with_is_not_read_again(tmp_path: Path) -> None:
    """The sidecar notes the file's status when its sum was taken: a later process trusts a file with
    that status without hashing it (any write through the file system moves its mtime), and hashes
    one whose status moved (a copy, a write in place), which finds the damage."""
    kept = tmp_path / "kept.nq"
    kept.write_bytes(b"<a> <b> <c> <g> .\n" * 1000)
    os.utime(kept, (time.time() - 10,) * 2)  # written before now: a write now moves its mtime however coarse the clock
    checksums.seal(kept)
    status = kept.stat()
    damage(kept)  # in place, then the status put back: what a fault below the file system would leave
    os.utime(kept, ns=(status.st_atime_ns, status.st_mtime_ns))
    assert checksums.intact(kept)  # not read: its status is the one sealed
    copy = tmp_path / "copy.nq"
    shutil.copy2(kept, copy)  # the same bytes and mtime, another inode: hashed, and found damaged
    checksums.copy_seal(kept, copy)
    assert not checksums.intact(copy)
    link = tmp_path / "link.nq"
    os.link(kept, link)  # a hard link is the same file: it keeps the status, and is trusted as the original
    checksums.copy_seal(kept, link)
    assert checksums.intact(link)
    damage(kept, 0.1)  # a write in place moves the mtime: hashed, and found damaged
    assert not checksums.intact(kept)
