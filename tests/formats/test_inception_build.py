"""INCEpTION's UIMA CAS XMI documents build like brat ones, beside them in one corpus, and
kg.toml aligns their NamedEntity values with kg's ontology."""

from __future__ import annotations

import shutil
from pathlib import Path

import pyoxigraph as ox

from kg.store import build_dirs
from tests.helpers import TINY, run_kg

INCEPTION = Path(__file__).parents[1] / "data" / "inception"


def _rows(data: Path, sparql: str) -> list[tuple[str, ...]]:
    store = ox.Store.read_only(str(build_dirs.store_path(build_dirs.current_build(data))))
    prefixes = "PREFIX kgo: <https://kg.example.org/ontology#> PREFIX kgv: <https://kg.example.org/vocab#> "
    rows = store.query(prefixes + sparql, use_default_graph_as_union=True)
    return sorted(tuple(str(v.value) for v in row) for row in rows)


def test_xmi_documents_build_beside_brat_ones_and_align(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    shutil.copytree(TINY, corpus)
    (corpus / "inception").mkdir()
    for name in ("TypeSystem.xml", "bogota.xmi"):
        shutil.copy(INCEPTION / name, corpus / "inception" / name)
    (corpus / "kg.toml").write_text('[align]\nPER = "Person"\nLOC = "Place"\n')
    data = tmp_path / "data"
    result = run_kg("build", "--corpus", str(corpus), "--data", str(data), "--quiet")
    assert result.exit_code == 0, result.output
    assert "3 documents" in result.stdout
    people = _rows(data, "SELECT DISTINCT ?e WHERE { GRAPH <https://kg.example.org/graph/inception/bogota> "
                         "{ ?m kgo:denotes ?e } ?e a kgo:Person }")
    assert ("https://kg.example.org/id/wikidata/q5",) in people  # her NamedEntity identifier is Wikidata's Q5
    # the mention keeps its document, offsets (code points of the CAS text) and sentence
    assert _rows(data, "SELECT ?b ?e ?t WHERE { ?m kgo:annotationId 'T3' ; "
                       "<http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#beginIndex> ?b ; "
                       "<http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#endIndex> ?e ; "
                       "<http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#anchorOf> ?t ; "
                       "<http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#referenceContext> "
                       "<https://kg.example.org/doc/inception/bogota> }") == [("51", "57", "Bogotá")]


def test_an_xmi_without_its_type_system_is_a_located_error(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    shutil.copy(INCEPTION / "bogota.xmi", corpus / "bogota.xmi")
    result = run_kg("build", "--corpus", str(corpus), "--data", str(tmp_path / "data"), "--quiet")
    assert result.exit_code == 2
    assert "bogota.xmi: no TypeSystem.xml beside the .xmi" in result.stderr


def test_an_export_archive_gives_one_document_per_xmi(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    shutil.copy(INCEPTION / "inception.zip", corpus / "project.zip")
    data = tmp_path / "data"
    result = run_kg("build", "--corpus", str(corpus), "--data", str(data), "--quiet")
    assert result.exit_code == 0, result.output
    graphs = _rows(data, "SELECT DISTINCT ?g WHERE { GRAPH ?g { ?d a kgo:NewsArticle } }")
    assert graphs == [("https://kg.example.org/graph/project/bogota",), ("https://kg.example.org/graph/project/lisbon",)]


def test_a_broken_archive_is_a_located_error(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "export.zip").write_bytes(b"PK\x03\x04 not really a zip")
    result = run_kg("build", "--corpus", str(corpus), "--data", str(tmp_path / "data"), "--quiet")
    assert result.exit_code == 2
    assert "export.zip: cannot read the archive" in result.stderr
