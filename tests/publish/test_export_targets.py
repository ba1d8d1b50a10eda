"""`kg export -o` never writes into the data directory or the corpus (links followed), writes a
file where a file may be and a directory where a directory may be, and replaces its target in one
step: a refused or failed export leaves everything as it was. Each through the real command."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from kg.atomic import PART_SUFFIX
from kg.store import build_dirs, checksums
from tests.helpers import TINY, export_file, run_kg, tree_digest


@pytest.fixture
def place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working directory holding corpus/ (the tiny corpus) and data/ (its build), as `make run` lays them out."""
    shutil.copytree(TINY, tmp_path / "corpus")
    monkeypatch.chdir(tmp_path)
    assert run_kg("build", "--quiet").exit_code == 0
    return tmp_path


def _refused(*args: str) -> str:
    """Run `kg export ARGS`, expecting exit 2 with one located error line; returns that line."""
    result = run_kg("export", *args)
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr, result.stderr
    return result.stderr


def _no_part_files(directory: Path) -> None:
    assert [p.name for p in directory.rglob(f"*{PART_SUFFIX}")] == []


def test_an_export_into_the_current_build_is_refused_and_the_build_keeps_its_export(place: Path) -> None:
    kept = export_file(place / "data", "nq").read_bytes()
    assert kept
    message = _refused("--format", "nq", "-o", "data/current/kg.nq")
    assert message == ("error: data/current/kg.nq: inside the data directory data (expected a path outside it: "
                       "an export must not overwrite what kg reads)\n")
    assert export_file(place / "data", "nq").read_bytes() == kept
    assert run_kg("export", "--format", "nq").stdout_bytes == kept


@pytest.mark.parametrize("fmt,target", [("ttl", "data/kg.ttl"), ("brat", "data/builds/backup"),
                                        ("xmi", "data"), ("nq", "data/current")])
def test_any_target_in_the_data_directory_is_refused(place: Path, fmt: str, target: str) -> None:
    before = tree_digest(place / "data")
    assert "data directory" in _refused("--format", fmt, "-o", target)
    assert tree_digest(place / "data") == before


@pytest.mark.parametrize("target,where", [("corpus/backup", "inside the corpus directory corpus"),
                                          ("corpus", "the corpus directory itself")])
def test_a_brat_export_into_the_corpus_is_refused(place: Path, target: str, where: str) -> None:
    before = tree_digest(place / "corpus")
    assert _refused("--format", "brat", "-o", target).startswith(f"error: {target}: {where} (expected")
    assert tree_digest(place / "corpus") == before
    assert not (place / "corpus" / "backup").exists()


def test_the_corpus_the_build_read_is_refused_whatever_the_corpus_setting(place: Path) -> None:
    """The build's manifest names its corpus: a later `--corpus` elsewhere does not open it."""
    before = tree_digest(place / "corpus")
    message = _refused("--format", "brat", "--corpus", "elsewhere", "-o", "corpus/backup")
    assert f"inside the corpus directory of the current build {place / 'corpus'}" in message
    assert tree_digest(place / "corpus") == before


def test_links_are_followed_before_comparing(place: Path) -> None:
    (place / "published").symlink_to(place / "data" / "current")
    (place / "annotations").symlink_to("corpus")
    assert "inside the data directory data" in _refused("--format", "ttl", "-o", "published/kg.ttl")
    assert "inside the corpus directory corpus" in _refused("--format", "xmi", "-o", "annotations/xmi")
    (place / "out.ttl").symlink_to(place / "data" / "current" / "kg.ttl")
    assert "inside the data directory data" in _refused("--format", "ttl", "-o", "out.ttl")


def test_a_file_where_a_directory_is_needed_and_a_directory_where_a_file_is(place: Path) -> None:
    (place / "notes.txt").write_text("mine\n", encoding="utf-8")
    (place / "exports").mkdir()
    assert _refused("--format", "brat", "-o", "notes.txt") == (
        "error: notes.txt: a file (expected a new or empty directory to write the export into)\n")
    assert _refused("--format", "nq", "-o", "exports") == (
        "error: exports: a directory (expected a file to write the export to)\n")
    assert _refused("--format", "nq", "-o", "notes.txt/kg.nq") == (
        f"error: notes.txt/kg.nq: {place / 'notes.txt'} is not a directory (expected the file to be in an "
        "existing directory)\n")
    assert _refused("--format", "xmi", "-o", "notes.txt/a/b").startswith(
        f"error: notes.txt/a/b: {place / 'notes.txt'} is a file (expected directories on the way)")
    assert _refused("--format", "ttl", "-o", "missing/kg.ttl").startswith(
        f"error: missing/kg.ttl: {place / 'missing'} does not exist")
    assert (place / "notes.txt").read_text(encoding="utf-8") == "mine\n"
    assert list((place / "exports").iterdir()) == []


@pytest.mark.parametrize("fmt", ["ttl", "brat"])
def test_a_dangling_link_is_refused(place: Path, fmt: str) -> None:
    (place / "out").symlink_to("gone/kg.out")
    assert _refused("--format", fmt, "-o", "out") == (
        "error: out: a link to gone/kg.out, which does not exist (expected a link to an existing file or "
        "directory, or a path that is no link)\n")
    assert os.readlink(place / "out") == "gone/kg.out" and not (place / "gone").exists()


def test_a_link_to_a_file_is_written_through(place: Path) -> None:
    (place / "real.trig").write_text("old\n", encoding="utf-8")
    (place / "link.trig").symlink_to("real.trig")
    assert run_kg("export", "--format", "trig", "-o", "link.trig").exit_code == 0
    assert (place / "link.trig").is_symlink()
    assert (place / "real.trig").read_bytes() == export_file(place / "data", "trig").read_bytes()
    _no_part_files(place)


def test_a_new_export_file_gets_the_permissions_of_any_new_file_a_replaced_one_keeps_its_own(place: Path) -> None:
    assert run_kg("export", "--format", "nq", "-o", "out.nq").exit_code == 0
    (place / "plain").write_bytes(b"")
    assert (place / "out.nq").stat().st_mode == (place / "plain").stat().st_mode
    (place / "out.nq").chmod(0o640)
    assert run_kg("export", "--format", "ttl", "-o", "out.nq").exit_code == 0
    assert (place / "out.nq").stat().st_mode & 0o777 == 0o640


def test_a_read_only_file_is_refused_and_left_as_it_is(place: Path) -> None:
    (place / "kept.ttl").write_text("mine\n", encoding="utf-8")
    (place / "kept.ttl").chmod(0o444)
    assert _refused("--format", "ttl", "-o", "kept.ttl") == (
        "error: kept.ttl: read-only (mode 444; expected a writable file: kg leaves its permissions as they are)\n")
    assert (place / "kept.ttl").read_text(encoding="utf-8") == "mine\n"
    assert (place / "kept.ttl").stat().st_mode & 0o777 == 0o444


def test_a_failed_file_export_leaves_the_old_file_whole(place: Path) -> None:
    """No build to read (exit 1): the file given keeps its content (it was emptied before the write was atomic)."""
    (place / "out.nq").write_text("yesterday's export\n", encoding="utf-8")
    result = run_kg("export", "--format", "nq", "-o", "out.nq", "--data", "nothing-built")
    assert result.exit_code == 1
    assert (place / "out.nq").read_text(encoding="utf-8") == "yesterday's export\n"
    _no_part_files(place)


def test_a_failed_directory_export_leaves_no_half_directory(place: Path) -> None:
    """The build's kept annotation.conf is broken after the schema was copied: the export stops
    half-way, and neither the target nor its temporary sibling is left."""
    conf = build_dirs.corpus_config_dir(build_dirs.current_build(place / "data")) / "annotation.conf"
    conf.write_text("declared before any section\n", encoding="utf-8")
    checksums.seal_tree(conf.parent)  # kept so by the build: not a damaged file, which would be made again
    (place / "empty").mkdir()
    for target in ("backup", "empty"):
        result = run_kg("export", "--format", "brat", "-o", target)
        assert result.exit_code == 2, result.output
        assert str(conf) in result.stderr
    assert not (place / "backup").exists() and list((place / "empty").iterdir()) == []
    _no_part_files(place)


def test_a_directory_export_fills_an_empty_directory_in_one_step(place: Path) -> None:
    (place / "out").mkdir()
    result = run_kg("export", "--format", "brat", "-o", "out/brat")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (place / "out" / "brat").glob("*.ann")) == ["alpha.ann", "beta.ann"]
    assert [p.name for p in (place / "out").iterdir()] == ["brat"]
