"""What brat shows, kg builds: on real brat corpora with their annotation.conf, the annotations kg marks
(a warning ending "read as written") are those brat's own verifier marks, and the build keeps them.

brat's verdicts come from brat itself (tests/brat_reference.py runs its annotation.py and
verify_annotations.py on the corpus): each mark names an annotation (a T, E or R id). kg's warnings
name a line of the .ann file, read here back to the annotation brat would name (an attribute's
target, an equivalence's members). Two differences are kg's on purpose:

- a role annotation.conf declares with its digits (`Arg0`, `Arg1` of BECauSE's NonCausal) is that
  role; brat's verifier strips every role's digits as if it numbered repeats, and marks such an
  event ("NonCausal cannot take a Arg argument"). kg marks none of these;
- of two overlapping spans brat marks both, kg the one that starts later (or is inside): either
  is enough here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.brat_reference import brat_report
from tests.corpora.support import CORPORA, WITH_CONF
from tests.helpers import run_kg

MARKED = re.compile(r"^warning: (.+\.ann):(\d+): (.*); read as written")
OTHER_ID = re.compile(r"\(?([TER]\d+)\)?$")


def _annotation_at(path: Path, line: int) -> list[str]:
    """The annotations brat would name for a line of an .ann file."""
    fields = path.read_text(encoding="utf-8").splitlines()[line - 1].split("\t")
    if fields[0] == "*":
        return fields[1].split()[1:]
    if fields[0][0] in "AM":
        return [fields[1].split()[1]]
    return [fields[0]]


def _kg_marks(output: str) -> set[tuple[str, str]]:
    marks = set()
    for line in output.splitlines():
        found = MARKED.match(line)
        if found and not found.group(3).startswith("value "):  # attribute values: brat's verifier checks none
            path = Path(found.group(1))
            marks |= {(path.name, ann_id) for ann_id in _annotation_at(path, int(found.group(2)))}
    return marks


def _brat_marks(report: dict) -> tuple[set[tuple[str, str]], list[tuple[tuple[str, str], tuple[str, str]]]]:
    """brat's marks, and its overlap marks as pairs of which kg must mark one; the events brat marks
    only for stripping the digits of roles their type declares with them are left out."""
    declared_digits = {(Path(ann).name, eid) for ann, eid, written, allowed in report["events"]
                       if all(role in allowed for role in written) and any(r[-1].isdigit() for r in written)}
    marks, pairs = set(), []
    for ann, ann_id, description in report["marks"]:
        key = (Path(ann).name, ann_id)
        if key in declared_digits and re.search(r"cannot take (a|multiple) \S+ arguments?$", description):
            continue
        if re.search(r"cannot (be contained in|contain|have (identical|crossing) span)", description):
            pairs.append((key, (key[0], OTHER_ID.search(description).group(1))))
        else:
            marks.add(key)
    return marks, pairs


@pytest.mark.parametrize("name", WITH_CONF)
def test_kg_marks_what_brat_marks_and_builds_it(name: str, tmp_path: Path) -> None:
    corpus = CORPORA[name]()
    report = brat_report(corpus, tmp_path / "brat")
    assert not [p for p in report["problems"] if "could not parse" in p]  # brat displays every line
    result = run_kg("build", "--corpus", str(corpus), "--data", str(tmp_path / "data"), "--quiet")
    assert result.exit_code == 0, result.output
    kg_marks = _kg_marks(result.output)
    brat_marks, pairs = _brat_marks(report)
    for pair in pairs:
        assert set(pair) & kg_marks, f"brat marks an overlap of {pair}; kg marks neither"
    assert kg_marks - brat_marks - {k for pair in pairs for k in pair} == set()
    assert brat_marks - kg_marks == set()
    if kg_marks:  # --strict: what brat marks is an error
        strict = run_kg("check", "--strict", "--corpus", str(corpus))
        first = next(MARKED.match(line) for line in result.output.splitlines() if MARKED.match(line))
        assert strict.exit_code == 2 and f"{first.group(1)}:{first.group(2)}: {first.group(3)}" in strict.output
