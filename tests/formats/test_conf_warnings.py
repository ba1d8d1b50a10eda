"""What brat only warns about in annotation.conf, kg warns about and builds: a type named in an argument
list but declared nowhere, a section brat does not know. Every such problem of a configuration is
reported in one run, at its line; an annotation of such a type is read as written (brat displays it),
with a warning at its own line."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg.model import iris
from tests.brat_reference import brat_report
from tests.helpers import run_kg, shared_corpus, store_quads

CONF = """[entities]
Person
Place
[relations]
Knows\tArg1:Person, Arg2:Ghost
LivesIn\tArg1:Persn, Arg2:Place
[events]
Visit\tAgent:Person, Goal:Place|Spirit
[attributes]
[labels]
Person | Person
"""
TEXT = "Ana meets Boo in Rome."
ANN = ("T1\tPerson 0 3\tAna\n"
       "T2\tGhost 10 13\tBoo\n"
       "R1\tKnows Arg1:T1 Arg2:T2\n"
       "T3\tPlace 17 21\tRome\n"
       "#1\tAnnotatorNotes T2\ta note on Boo\n")


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "annotation.conf").write_text(CONF, encoding="utf-8")
    (corpus / "a.txt").write_text(TEXT, encoding="utf-8")
    (corpus / "a.ann").write_text(ANN, encoding="utf-8")
    # brat looks for visual.conf up to the root to name an unknown type, and loops at '/' when there is none
    (corpus / "visual.conf").write_text("[labels]\n", encoding="utf-8")
    return corpus


def test_every_problem_of_the_configuration_is_a_warning_at_its_line(corpus, tmp_path):
    report = brat_report(corpus, tmp_path / "brat")  # brat serves this corpus
    assert report["documents"] == 1 and report["event_types"][str(corpus)] == ["Visit"]
    result = run_kg("check", "--corpus", str(corpus))
    assert result.exit_code == 0, result.output
    conf = corpus / "annotation.conf"
    for line, what in ((5, "Knows Arg2: undeclared type 'Ghost'"), (6, "LivesIn Arg1: undeclared type 'Persn'"),
                       (8, "Visit Goal: undeclared type 'Spirit'"), (10, "unknown section [labels]")):
        assert f"warning: {conf}:{line}: {what}" in result.output
    assert "did you mean 'Person'?" in result.output  # the case's own expected text


def test_annotations_of_a_type_declared_nowhere_are_read_as_written(corpus, tmp_path):
    """brat displays the span and marks it; kg builds it, its type declared in the document's graph."""
    result = run_kg("build", "--corpus", str(corpus), "--data", str(tmp_path / "data"), "--quiet")
    assert result.exit_code == 0, result.output
    ann = corpus / "a.ann"
    assert (f"warning: {ann}:2: type 'Ghost' is named in an argument list of annotation.conf but declared "
            "nowhere (expected Ghost in [entities] or [events]); read as written") in result.output
    assert f"{ann}:3" not in result.output and f"{ann}:5" not in result.output  # Knows takes a Ghost
    quads = store_quads(tmp_path / "data")
    anchors = {q.object.value for q in quads if q.predicate.value == iris.FIXED_PREFIXES["nif"] + "anchorOf"}
    assert {"Ana", "Boo", "Rome"} <= anchors
    assert any(q.subject.value == iris.VOCABULARY + "Ghost" and q.object.value == iris.FIXED_PREFIXES["owl"] + "Class"
               for q in quads)


def test_strict_makes_them_errors(corpus):
    result = run_kg("check", "--corpus", str(corpus), "--strict")
    assert result.exit_code == 2
    assert "undeclared type 'Ghost'" in result.output


def test_the_commodity_news_corpus_builds_unedited(tmp_path):
    corpus = shared_corpus("brat-commodity-news")
    result = run_kg("build", "--corpus", str(corpus), "--data", str(tmp_path / "data"), "--quiet")
    assert result.exit_code == 0, result.output
    assert f"warning: {corpus / 'annotation.conf'}:54: Cause-Precondition Arg1: undeclared type" in result.output
    assert iris.DOCUMENT + "Oil-drops-7%25-on-Europe-vaccine-snag-US" in {q.subject.value
                                                                           for q in store_quads(tmp_path / "data")}


def test_an_incremental_build_prints_every_warning_as_check_does(corpus, tmp_path):
    """Only the changed document is read again; the others' warnings and the configuration's are
    kept with the build (its manifest), so `kg build` says what `kg check` says, and so does a
    build with nothing to do."""
    (corpus / "b.txt").write_text("Rui stays.", encoding="utf-8")
    (corpus / "b.ann").write_text("T1\tPerson 0 3\tRui\n", encoding="utf-8")
    data = str(tmp_path / "data")
    warnings = [line for line in run_kg("check", "--corpus", str(corpus)).output.splitlines()
                if line.startswith("warning: ")]
    assert len(warnings) == 5
    assert run_kg("build", "--corpus", str(corpus), "--data", data, "--quiet").exit_code == 0
    (corpus / "b.txt").write_text("Rui stays!", encoding="utf-8")
    incremental = run_kg("build", "--corpus", str(corpus), "--data", data, "--quiet")
    unchanged = run_kg("build", "--corpus", str(corpus), "--data", data, "--quiet")
    assert "incremental build" in incremental.output and "1 changed" in incremental.output
    for result in (incremental, unchanged):
        assert result.exit_code == 0, result.output
        assert [line for line in result.output.splitlines() if line.startswith("warning: ")] == warnings
    assert run_kg("build", "--corpus", str(corpus), "--data", data, "--quiet", "--strict").exit_code == 2


def test_every_error_of_a_configuration_is_reported_once_in_one_run(corpus):
    conf = corpus / "annotation.conf"
    conf.write_text(CONF.replace("Person\nPlace\n", "Person\nPlace\n<ANY>=Person\n").replace("Agent:", "Agent{0}:"),
                    encoding="utf-8")
    result = run_kg("check", "--corpus", str(corpus))
    assert result.exit_code == 2
    for line, what in ((4, "<ANY> is reserved"), (9, "impossible repetition '{0}'")):
        assert result.output.count(f"{conf}:{line}: {what}") == 1, result.output
