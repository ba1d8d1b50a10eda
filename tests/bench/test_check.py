"""The benchmarks' corpus checker (kg check, the build's own reader) accepts real annotations and
catches each kind of broken one."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Callable

import pytest

from benchmarks.corpus.check import check_corpus
from benchmarks.corpus.generate import write_corpus
from tests.helpers import CORPUS


@pytest.fixture
def small(tmp_path: Path) -> Path:
    corpus = tmp_path / "corpus"
    write_corpus(corpus, 4, 21)
    assert check_corpus(corpus)[0] == []
    return corpus


def _first_doc(corpus: Path) -> Path:
    return sorted(corpus.glob("*.ann"))[0]


def _edit_ann(corpus: Path, change: Callable[[list[str]], None]) -> None:
    ann = _first_doc(corpus)
    lines = ann.read_text(encoding="utf-8").splitlines()
    change(lines)
    ann.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _ids_of(lines: list[str], type_: str) -> list[str]:
    return [line.split("\t")[0] for line in lines if line.startswith("T") and line.split("\t")[1].startswith(type_ + " ")]


def shift_offset(lines: list[str]) -> None:
    tid, middle, text = lines[0].split("\t")
    type_, begin, end = middle.split(" ")
    lines[0] = f"{tid}\t{type_} {int(begin) + 1} {int(end) + 1}\t{text}"


def dangling_argument(lines: list[str]) -> None:
    lines.append("R99\tLocatedIn Arg1:T1 Arg2:T999")


def undeclared_type(lines: list[str]) -> None:
    lines[0] = re.sub(r"^(T\d+\t)\w+", r"\1Spaceship", lines[0])


def wrong_argument_type(lines: list[str]) -> None:
    person = _ids_of(lines, "Person")[0]
    lines.append(f"R98\tSaidBy Arg1:{person} Arg2:{person}")


def date_value_on_a_person(lines: list[str]) -> None:
    person = _ids_of(lines, "Person")[0]
    lines.append(f"N99\tReference {person} ISO8601:2019-02-23\t2019-02-23")


def bad_qualifier(lines: list[str]) -> None:
    figure = _ids_of(lines, "Figure") or _ids_of(lines, "Person")
    lines.append(f"A99\tQualifier {figure[0]} Roughly")


BREAKAGES = [
    (shift_offset, "differs from the text at"),
    (dangling_argument, "refers to undefined id T999"),
    (undeclared_type, "undeclared type 'Spaceship'"),
    (wrong_argument_type, "a Person (expected Quote"),
    (date_value_on_a_person, "a Person (expected ISO8601 only on date mentions)"),
    (bad_qualifier, "value 'Roughly' of attribute Qualifier is not declared"),
]


@pytest.mark.parametrize(("breakage", "expected"), BREAKAGES, ids=[b.__name__ for b, _ in BREAKAGES])
def test_checker_reports_a_broken_annotation(small: Path, breakage, expected: str) -> None:
    _edit_ann(small, breakage)
    problems, _ = check_corpus(small)
    assert any(expected in p for p in problems), problems
    assert all(_first_doc(small).name in p for p in problems if not re.fullmatch(r"\d+ errors of \d+ kinds", p))


def test_checker_reports_an_event_without_its_required_role(small: Path) -> None:
    text = _first_doc(small).with_suffix(".txt").read_text(encoding="utf-8")

    def change(lines: list[str]) -> None:
        person = _ids_of(lines, "Person")[0]
        lines.append(f"T900\tMembership 0 4\t{text[:4]}")
        lines.append(f"E99\tMembership:T900 Organization:{person}")

    _edit_ann(small, change)
    problems, _ = check_corpus(small)
    assert any("Membership lacks its Member" in p for p in problems), problems
    assert any("Membership Organization is" in p and "a Person (expected Organization|" in p for p in problems), problems


def test_checker_reports_unknown_publishers_and_clashing_aliases(small: Path) -> None:
    meta_path = _first_doc(small).with_suffix(".json")
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    meta["publisher"] = "organization/nobody"
    meta_path.write_text(json.dumps(meta), encoding="utf-8")
    with open(small / "aliases.toml", "a", encoding="utf-8") as table:
        table.write('\n[[entity]]\nkey = "place/elsewhere"\ntype = "City"\nlabel = "Elsewhere"\n'
                    '\n[[entity]]\nkey = "place/elsewhere-too"\ntype = "Region"\nlabel = "ELSEWHERE"\n')
    problems, _ = check_corpus(small)
    assert any("publisher 'organization/nobody' is not in aliases.toml" in p for p in problems), problems
    assert any("names both place/elsewhere and place/elsewhere-too" in p for p in problems), problems


def test_the_annotated_corpus_passes_the_checker(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    problems, shape = check_corpus(corpus)
    assert problems == []
    assert shape.documents == len(list((CORPUS).glob("*.txt"))) >= 4
    assert shape.kinds["T"] > 100
