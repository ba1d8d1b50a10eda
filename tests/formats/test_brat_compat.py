"""brat's own parser and verifier accept the shipped corpus and what `kg export --format brat`
writes; corpus -> graph -> brat -> graph gives the same graph, on our corpus and on corpora
kg's authors did not write (brat's example collections)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kg.formats.brat.conf import load_config
from tests.brat_reference import brat_report, brat_source
from tests.helpers import CORPUS, TINY, assert_same_quads, run_kg, store_quads

EXAMPLES = brat_source().parent.parent / "example-data" / "corpora"


def test_brat_opens_and_verifies_every_shipped_document(tmp_path: Path) -> None:
    report = brat_report(CORPUS, tmp_path / "brat")
    assert report["documents"] == len(list(CORPUS.glob("*.ann")))
    assert report["problems"] == []
    # brat read our annotation.conf rather than falling back to its default configuration
    assert set(report["event_types"][str(CORPUS)]) == set(load_config(CORPUS / "annotation.conf").events)


def test_brat_refuses_what_kg_refuses_a_reference_to_a_trigger(tiny_copy: Path, tmp_path: Path) -> None:
    ann = tiny_copy / "alpha.ann"
    ann.write_text(ann.read_text().replace("N1\tReference T6", "N1\tReference T4"))  # T4 is E2's trigger
    assert brat_report(tiny_copy, tmp_path / "brat")["problems"]
    result = run_kg("build", "--corpus", str(tiny_copy), "--data", str(tmp_path / "data"), "--quiet")
    assert result.exit_code == 2
    assert "normalization refers to T4, the trigger of E2 (expected E2" in result.stderr


@pytest.mark.parametrize("corpus", [CORPUS, TINY, EXAMPLES / "CoNLL-ST_2002", EXAMPLES / "NCBI-disease",
                                    EXAMPLES / "TDT"], ids=lambda p: p.name)
def test_round_trip_through_brat_gives_the_same_graph(corpus: Path, tmp_path: Path) -> None:
    source = tmp_path / "source"
    shutil.copytree(corpus, source)
    first, exported, second = tmp_path / "first", tmp_path / "exported", tmp_path / "second"
    assert run_kg("build", "--corpus", str(source), "--data", str(first), "--quiet").exit_code == 0
    assert run_kg("export", "--data", str(first), "--format", "brat", "-o", str(exported)).exit_code == 0
    assert run_kg("build", "--corpus", str(exported), "--data", str(second), "--quiet").exit_code == 0
    assert_same_quads(store_quads(second), store_quads(first), "graph rebuilt from the brat export")
    report = brat_report(exported, tmp_path / "brat")
    assert report["documents"] == len(list(source.rglob("*.txt")))
    assert report["problems"] == []
    assert (exported / "tools.conf").read_text().startswith("[normalization]")


def test_export_refuses_a_directory_that_is_not_empty(shipped_data: Path, tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_text("mine")
    result = run_kg("export", "--data", str(shipped_data), "--format", "brat", "-o", str(tmp_path))
    assert result.exit_code == 2 and "not empty (expected a new or empty directory)" in result.stderr  # a target kg may not write: bad input
    assert (tmp_path / "keep.txt").read_text() == "mine"
