"""Documents no annotation.conf covers (corpora published without it): brat serves them with its default
configuration; kg reads them with the configuration their own annotations imply, and warns once."""

from __future__ import annotations

from pathlib import Path

import pyoxigraph as ox

from kg.formats.brat.conf import parse_config
from kg.formats.brat.infer import infer_config
from kg.store import build_dirs
from tests.helpers import run_kg

TEXT = "Anna met Boris in Kyiv. She left.\n"
ANN = ("T1\tPERS 0 4\tAnna\nT2\tPERS 9 14\tBoris\nT3\tLOC 18 22\tKyiv\nT4\tMeet 5 8\tmet\n"
       "E1\tMeet:T4 Agent:T1 Agent2:T2 Place:T3\nR1\tNEAR Arg1:T1 Arg2:T3\nT5\tPERS 24 27\tShe\n"
       "*\tCoref T1 T5\nA1\tCertain E1\nA2\tSource T2 press\n")


def _corpus(root: Path) -> Path:
    corpus = root / "corpus"
    corpus.mkdir()
    (corpus / "doc.txt").write_text(TEXT, encoding="utf-8")
    (corpus / "doc.ann").write_text(ANN, encoding="utf-8")
    return corpus


def test_the_inferred_configuration_declares_what_the_annotations_use():
    config = infer_config([ANN], "annotation.conf")
    assert sorted(config.entities) == ["LOC", "PERS"] and sorted(config.events) == ["Meet"]
    assert sorted(config.relations) == ["Coref", "NEAR"] and config.equiv_types() == ["Coref"]
    assert all(config.overlap_allowed("LOC", "PERS", kind) for kind in ("contain", "equal", "cross"))
    assert sorted(config.attributes) == ["Certain", "Source"]
    assert config.attributes["Source"].values == ("press",) and config.attributes["Certain"].values is None
    roles = {role.name: role.types for role in config.events["Meet"].roles}
    assert roles == {"Agent": ("PERS",), "Place": ("LOC",)}


def test_a_corpus_without_annotation_conf_builds_and_says_where_its_types_come_from(tmp_path: Path):
    corpus = _corpus(tmp_path)
    checked = run_kg("check", "--corpus", str(corpus))
    assert checked.exit_code == 0, checked.output
    warning = [line for line in checked.stdout.splitlines() if line.startswith("warning: ")]
    assert len(warning) == 1 and "no annotation.conf covers 1 document(s)" in warning[0]
    built = run_kg("build", "--corpus", str(corpus), "--data", str(tmp_path / "data"), "--quiet")
    assert built.exit_code == 0, built.output
    store = ox.Store.read_only(str(build_dirs.store_path(build_dirs.current_build(tmp_path / "data"))))
    labels = {s["l"].value for s in store.query(
        "SELECT ?l WHERE { GRAPH ?g { ?m <http://www.w3.org/2000/01/rdf-schema#label> ?l } }")}
    assert {"Anna", "Boris", "Kyiv"} <= labels
    assert run_kg("build", "--strict", "--corpus", str(corpus), "--data", str(tmp_path / "strict")).exit_code == 2


def test_an_edited_annotation_with_a_new_type_is_read_with_it(tmp_path: Path):
    corpus = _corpus(tmp_path)
    assert run_kg("build", "--corpus", str(corpus), "--data", str(tmp_path / "data"), "--quiet").exit_code == 0
    with open(corpus / "doc.ann", "a", encoding="utf-8") as ann:
        ann.write("T6\tTIME 28 32\tleft\n")
    rebuilt = run_kg("build", "--corpus", str(corpus), "--data", str(tmp_path / "data"), "--quiet")
    assert rebuilt.exit_code == 0, rebuilt.output


def test_a_document_under_an_annotation_conf_keeps_it(tmp_path: Path):
    corpus = _corpus(tmp_path)
    (corpus / "annotation.conf").write_text("[entities]\nPERS\n[relations]\n[events]\n[attributes]\n")
    checked = run_kg("check", "--corpus", str(corpus))  # its own configuration still rules: LOC is marked
    assert checked.exit_code == 0 and "undeclared type 'LOC' (expected one of annotation.conf: PERS)" in checked.output
    assert parse_config((corpus / "annotation.conf").read_text()).entity_types == ["PERS"]


def test_the_export_of_a_corpus_without_annotation_conf_carries_the_inferred_one(tmp_path: Path):
    corpus = _corpus(tmp_path)
    assert run_kg("build", "--corpus", str(corpus), "--data", str(tmp_path / "data"), "--quiet").exit_code == 0
    exported = run_kg("export", "--format", "brat", "--data", str(tmp_path / "data"), "-o", str(tmp_path / "out"))
    assert exported.exit_code == 0, exported.output
    config = parse_config((tmp_path / "out" / "annotation.conf").read_text(encoding="utf-8"))
    assert sorted(config.entity_types) == ["LOC", "PERS"] and sorted(config.events) == ["Meet"]
    assert sorted(config.relations) == ["Coref", "NEAR"]
    again = run_kg("check", "--strict", "--corpus", str(tmp_path / "out"))  # no warning left to give
    assert again.exit_code == 0, again.output
