"""INCEpTION documents go back out as brat: the build saves one annotation.conf per directory
holding them (the union of their layers' configurations), brat verifies the export, and building
the export again gives the same graph."""

from __future__ import annotations

from pathlib import Path

from tests.brat_reference import brat_report
from tests.helpers import assert_same_quads, inception_corpus, run_kg, store_quads


def test_inception_documents_go_out_as_brat_and_come_back_the_same(tmp_path: Path) -> None:
    source = inception_corpus(tmp_path / "source", with_brat=True)
    first, exported, second = tmp_path / "first", tmp_path / "exported", tmp_path / "second"
    assert run_kg("build", "--corpus", str(source), "--data", str(first), "--quiet").exit_code == 0
    assert run_kg("export", "--data", str(first), "--format", "brat", "-o", str(exported)).exit_code == 0
    confs = sorted(p.relative_to(exported).as_posix() for p in exported.rglob("annotation.conf"))
    assert confs == ["annotation.conf", "inception/annotation.conf", "loose/annotation.conf"]
    report = brat_report(exported, tmp_path / "brat")
    assert report["documents"] == 5
    assert report["problems"] == []
    assert "Claim" in report["event_types"][str(exported / "loose")]
    tools = (exported / "tools.conf").read_text()
    assert "geonames\tDB:none, <URL>:https://www.geonames.org/" in tools and "\ndbpedia\t" in tools
    assert run_kg("build", "--corpus", str(exported), "--data", str(second), "--quiet").exit_code == 0
    assert_same_quads(store_quads(second), store_quads(first), "graph rebuilt from the brat export")
