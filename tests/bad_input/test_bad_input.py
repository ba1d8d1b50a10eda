"""Every kind of bad input: a located message, exit code 2, and the previous build untouched."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from kg.store import build_dirs
from tests.helpers import run_kg, tree_digest


def _replace_line(path: Path, number: int, new: str) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[number - 1] = new
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _append(path: Path, line: str) -> None:
    with open(path, "a", encoding="utf-8") as out:
        out.write(line + "\n")


def malformed_line(corpus: Path) -> None:
    _replace_line(corpus / "alpha.ann", 2, "T2\tPerson 4 12")


def offsets_out_of_range(corpus: Path) -> None:
    _replace_line(corpus / "alpha.ann", 2, "T2\tPerson 4 9000\tAna Ruiz")


def span_text_differs(corpus: Path) -> None:
    _replace_line(corpus / "alpha.ann", 2, "T2\tPerson 4 12\tAnna Ruiz")


def relation_to_undefined_id(corpus: Path) -> None:
    _append(corpus / "alpha.ann", "R9\tSaidBy Arg1:T7 Arg2:T99")


def event_argument_undefined(corpus: Path) -> None:
    _append(corpus / "alpha.ann", "E9\tFlight:T4 Agent:T77")


def undeclared_type(corpus: Path) -> None:
    _replace_line(corpus / "alpha.ann", 2, "T2\tWizard 4 12\tAna Ruiz")


def undeclared_relation(corpus: Path) -> None:
    _append(corpus / "alpha.ann", "R9\tMarriedTo Arg1:T2 Arg2:T8")


def txt_not_utf8(corpus: Path) -> None:
    (corpus / "beta.txt").write_bytes(b"Ana Ruiz met\nPedro \xff\xfe Ruiz in Cucuta.\n")


def ann_without_txt(corpus: Path) -> None:
    (corpus / "gamma.ann").write_text("T1\tPerson 0 3\tAna\n", encoding="utf-8")


CASES = {
    malformed_line: (r"alpha\.ann:2: malformed text-bound line \(expected ID<TAB>TYPE START END<TAB>TEXT\)"),
    offsets_out_of_range: (r"alpha\.ann:2: offsets 4 9000 out of range \(expected 0 <= start < end <= \d+"),
    span_text_differs: (r"alpha\.ann:2: span text 'Anna Ruiz' differs from the text at 4 12: 'Ana Ruiz' \(expected"),
    relation_to_undefined_id: (r"alpha\.ann:22: SaidBy Arg2 refers to undefined id T99 \(expected a T id"),
    event_argument_undefined: (r"alpha\.ann:22: Flight Agent refers to undefined id T77 \(expected a T id"),
    txt_not_utf8: (r"beta\.txt:2:7: not UTF-8: byte 0xff cannot be decoded \(expected UTF-8 text\)"),
    ann_without_txt: (r"gamma\.ann: annotation file without its text \(expected gamma\.txt beside it\)"),
}


@pytest.mark.parametrize("break_input", list(CASES), ids=lambda f: f.__name__)
def test_bad_input_is_located_and_changes_nothing(tiny_copy: Path, tmp_path: Path, break_input) -> None:
    data = tmp_path / "data"
    assert run_kg("build", "--corpus", str(tiny_copy), "--data", str(data), "--quiet").exit_code == 0
    before_target = os.readlink(data / "current")
    before_files = tree_digest(build_dirs.current_build(data))

    break_input(tiny_copy)
    result = run_kg("build", "--corpus", str(tiny_copy), "--data", str(data), "--quiet")

    assert result.exit_code == 2, result.output
    assert re.search(CASES[break_input], result.stderr), result.stderr
    assert os.readlink(data / "current") == before_target
    assert tree_digest(build_dirs.current_build(data)) == before_files
    assert [p.name for p in (data / "builds").iterdir()] == [Path(before_target).name]


def test_every_problem_of_a_file_is_reported_at_once(tiny_copy: Path, tmp_path: Path) -> None:
    span_text_differs(tiny_copy)
    _append(tiny_copy / "alpha.ann", "R9\tSaidBy Arg1:T7 Arg2:T99")
    result = run_kg("build", "--corpus", str(tiny_copy), "--data", str(tmp_path / "d"), "--quiet")
    assert result.exit_code == 2
    assert "alpha.ann:2: span text" in result.stderr
    assert "alpha.ann:22: duplicate id" not in result.stderr
    assert re.search(r"alpha\.ann:2[12]: ", result.stderr)


def wrong_argument_type(corpus: Path) -> None:
    _append(corpus / "alpha.ann", "R9\tSaidBy Arg1:T2 Arg2:T8")


# What brat displays and its verifier marks: built as written with a located warning; --strict refuses it,
# and a refused build changes nothing.
MARKED = {
    undeclared_type: r"alpha\.ann:2: undeclared type 'Wizard' \(expected one of annotation\.conf: Person, ",
    undeclared_relation: r"alpha\.ann:22: undeclared relation 'MarriedTo' \(expected one of MemberOf, ",
    wrong_argument_type: r"alpha\.ann:22: SaidBy Arg1 is a Person \(expected Quote: annotation\.conf line \d+\)",
}


@pytest.mark.parametrize("mark_input", list(MARKED), ids=lambda f: f.__name__)
def test_what_brat_marks_builds_with_a_warning_and_strict_refuses_it(tiny_copy: Path, tmp_path: Path,
                                                                     mark_input) -> None:
    data = tmp_path / "data"
    assert run_kg("build", "--corpus", str(tiny_copy), "--data", str(data), "--quiet").exit_code == 0
    before_target = os.readlink(data / "current")
    before_files = tree_digest(build_dirs.current_build(data))
    mark_input(tiny_copy)
    strict = run_kg("build", "--corpus", str(tiny_copy), "--data", str(data), "--quiet", "--strict")
    assert strict.exit_code == 2 and re.search(MARKED[mark_input], strict.output), strict.output
    assert os.readlink(data / "current") == before_target
    assert tree_digest(build_dirs.current_build(data)) == before_files
    built = run_kg("build", "--corpus", str(tiny_copy), "--data", str(data), "--quiet")
    assert built.exit_code == 0 and re.search("warning: .*" + MARKED[mark_input] + ".*; read as written",
                                              built.output), built.output
    assert os.readlink(data / "current") != before_target


def test_bad_metadata_and_alias_table_are_located(tiny_copy: Path, tmp_path: Path) -> None:
    (tiny_copy / "alpha.json").write_text('{"title": "x",\n "date": "yesterday"}', encoding="utf-8")
    result = run_kg("build", "--corpus", str(tiny_copy), "--data", str(tmp_path / "d"), "--quiet")
    assert result.exit_code == 2
    assert "alpha.json:2: bad date 'yesterday' (expected YYYY-MM-DD, YYYY-MM or YYYY)" in result.stderr

    (tiny_copy / "alpha.json").unlink()
    _append(tiny_copy / "aliases.toml", '[[entity]]\nkey = "person/x"\ntype = "Person"\nlabel = "Ruiz"')
    result = run_kg("build", "--corpus", str(tiny_copy), "--data", str(tmp_path / "d"), "--quiet")
    assert result.exit_code == 2
    assert "aliases.toml:" in result.stderr and "'Ruiz' names both person/ana-ruiz and person/x" in result.stderr


def test_control_characters_are_refused_with_their_place(tiny_copy: Path, tmp_path: Path) -> None:
    (tiny_copy / "beta.txt").write_text("Ana Ruiz met\nPedro\x07 Ruiz in Cucuta.\n", encoding="utf-8")
    result = run_kg("build", "--corpus", str(tiny_copy), "--data", str(tmp_path / "d"), "--quiet")
    assert result.exit_code == 2
    assert "beta.txt:2:6: control character U+0007 (expected text without control characters" in result.stderr
