"""One report of a corpus's problems (kg.errors.report): errors, then warnings, each kind once with its
count and first locations when it is found often, then the totals; `kg check` and `kg build` print the
same warnings, and `--strict` makes them errors (exit 2, nothing built)."""

from __future__ import annotations

from pathlib import Path

from kg.errors import GROUP_FROM, AnnotationError, InputErrors, InputWarning, report
from tests.helpers import run_kg, shared_corpus

NULL = "bad Wikidata identifier 'NULL' (expected an item such as Q76)"


def _nulls(count: int, files: int) -> list[InputWarning]:
    return [InputWarning(NULL, f"doc{i % files}.ann", i + 1) for i in range(count)]


def test_a_kind_found_often_is_one_line_with_its_count_files_and_first_places():
    lines = report([], _nulls(568, 61)).splitlines()
    assert lines == [f"warning: 568 × {NULL} in 61 files, e.g. doc0.ann:1, doc1.ann:2, doc2.ann:3",
                     "568 warnings"]


def test_a_kind_found_rarely_keeps_a_line_per_place_and_errors_come_first():
    error = AnnotationError("span text 'Xyz' differs from the text at 0 3 (expected 'Abc')", "a.ann", 4)
    warnings = _nulls(GROUP_FROM - 1, 2) + [InputWarning("layer POS not read", "b.xmi")]
    lines = str(InputErrors([error], warnings)).splitlines()
    assert lines[0] == "a.ann:4: span text 'Xyz' differs from the text at 0 3 (expected 'Abc')"
    assert lines[1:GROUP_FROM] == [f"warning: doc{i % 2}.ann:{i + 1}: {NULL}" for i in range(GROUP_FROM - 1)]
    assert lines[GROUP_FROM] == "warning: b.xmi: layer POS not read"
    assert lines[-1] == f"1 error, {GROUP_FROM} warnings of 2 kinds"


def test_one_error_alone_reads_as_before():
    assert report([AnnotationError("bad (expected good)", "a.ann", 2)]) == "a.ann:2: bad (expected good)"


def _warning_lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith("warning: ")]


def test_check_and_build_print_the_same_warnings_and_strict_makes_them_errors(tmp_path: Path):
    corpus = shared_corpus("webanno-tsv3", "senticoref")  # some of its chains join mentions of several types
    checked = run_kg("check", "--corpus", str(corpus))
    assert checked.exit_code == 0, checked.output
    warnings = _warning_lines(checked.stdout)
    assert warnings and all("identity joins mentions of several types" in line for line in warnings)
    built = run_kg("build", "--corpus", str(corpus), "--data", str(tmp_path / "data"), "--quiet")
    assert built.exit_code == 0, built.output
    assert _warning_lines(built.stdout) == warnings
    strict = run_kg("build", "--strict", "--corpus", str(corpus), "--data", str(tmp_path / "strict"), "--quiet")
    assert strict.exit_code == 2 and _warning_lines(strict.output) == []
    assert [line.removeprefix("warning: ") for line in warnings][0] in strict.stderr
    assert not list((tmp_path / "strict").glob("builds/*"))
    assert run_kg("check", "--strict", "--corpus", str(corpus)).exit_code == 2
