"""The annotator's loop: `kg check` without building, errors that say how to fix, and preferred
labels that are never a bare surname when the corpus names the person in full."""

from __future__ import annotations

import shutil
from pathlib import Path

import pyoxigraph as ox

from kg.store import build_dirs
from tests.helpers import TINY, run_kg


def test_check_reports_every_error_and_writes_nothing(tiny_copy: Path, tmp_path: Path) -> None:
    alpha = tiny_copy / "alpha.ann"
    text = alpha.read_text()
    text = text.replace("T2\tPerson 4 12\tAna Ruiz", "T2 Person 4 12 Ana Ruiz")       # spaces, not tabs
    text = text.replace("T9\tCity 101 107\tCúcuta", "T9\tCity 100 106\tCúcuta")      # off by one
    text = text.replace("T5\tCountry 43 51", "T5\tCountri 43 51")                     # a misspelt type
    alpha.write_text(text)
    before = sorted(p.name for p in tiny_copy.iterdir())
    result = run_kg("check", "--corpus", str(tiny_copy))
    assert result.exit_code == 2
    errors = result.stderr.splitlines()
    assert any("alpha.ann:2: spaces after the id T2 (expected a tab" in e for e in errors), errors
    assert any("alpha.ann:9: span text 'Cúcuta' differs from the text at 100 106" in e
               and "'Cúcuta' is at 101 107" in e for e in errors), errors
    assert any("alpha.ann:5: undeclared type 'Countri'" in e and "did you mean Country?" in e for e in errors), errors
    # no follow-on error from T2's line: the events and relations naming T2 are not reported again
    assert not any("T2" in e for e in errors if "alpha.ann:2:" not in e), errors
    assert sorted(p.name for p in tiny_copy.iterdir()) == before


def test_check_passes_a_good_corpus(tmp_path: Path) -> None:
    result = run_kg("check", "--corpus", str(TINY))
    assert result.exit_code == 0
    assert "\n2 documents checked, no problem found" in "\n" + result.stdout


def test_preferred_label_is_the_full_name(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    shutil.copy(TINY / "annotation.conf", corpus)
    text = "Maria Lopez arrived. Lopez spoke. Later Lopez left.\n"
    (corpus / "a.txt").write_text(text)
    (corpus / "a.ann").write_text("T1\tPerson 0 11\tMaria Lopez\nT2\tPerson 21 26\tLopez\nT3\tPerson 40 45\tLopez\n"
                                  "*\tEquiv T1 T2 T3\n")
    data = tmp_path / "data"
    assert run_kg("build", "--corpus", str(corpus), "--data", str(data), "--quiet").exit_code == 0
    store = ox.Store.read_only(str(build_dirs.store_path(build_dirs.current_build(data))))
    labels = {str(row[0].value) for row in store.query(
        "SELECT ?l WHERE { GRAPH <https://kg.example.org/graph/entities> "
        "{ ?e <http://www.w3.org/2004/02/skos/core#prefLabel> ?l } }")}
    assert labels == {"Maria Lopez"}


def test_an_ambiguous_focus_lists_the_candidates(tmp_path: Path) -> None:
    """Two people of one name, told apart by the knowledge-base items their annotators linked:
    a focus by that name lists both (the shipped corpus has no name two entities share)."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for doc, place, item in (("a", "Bogota", "Q111"), ("b", "Lima", "Q222")):
        (corpus / f"{doc}.txt").write_text(f"Ana Ruiz wrote from {place}.\n", encoding="utf-8")
        (corpus / f"{doc}.ann").write_text(f"T1\tPerson 0 8\tAna Ruiz\nN1\tReference T1 Wikidata:{item}\tAna Ruiz\n",
                                           encoding="utf-8")
    assert run_kg("build", "--corpus", str(corpus), "--data", str(tmp_path / "data"), "--quiet").exit_code == 0
    result = run_kg("viz", "--data", str(tmp_path / "data"), "--focus", "Ana Ruiz", "-o", str(tmp_path / "v.html"))
    assert result.exit_code == 2
    assert "focus 'Ana Ruiz' is ambiguous (expected one of: wikidata/q111, wikidata/q222)" in result.stderr
