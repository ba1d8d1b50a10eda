"""Point 1: valid annotations written out as .ann and read back give the same records and the same graph.

The annotations are generated over generated text (hostile characters
included) by tests/hardening/brat.py, written with a writer that follows the
brat format and not kg's reader, and read back with kg.formats.brat.ann.parse_ann.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pyoxigraph as ox
import pytest
from hypothesis import HealthCheck, given, settings

from kg.formats.brat.ann import parse_ann
from kg.formats.records import Document, Metadata
from kg.model.entities.aliases import load_aliases
from kg.model.schema.corpus_vocabulary import Vocabulary
from kg.pipeline.builder import build
from kg.pipeline.reading.document_graph import document_nquads
from tests.hardening.brat import CONFIG, ValidDocument, valid_document
from tests.helpers import CORPUS, TINY, assert_same_quads, store_quads

ALIASES = load_aliases(TINY / "aliases.toml", Vocabulary(CONFIG))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=valid_document())
def test_written_annotations_read_back_equal(doc: ValidDocument) -> None:
    parsed = parse_ann(Path("doc.ann"), doc.ann, doc.text, CONFIG)
    assert parsed == doc.expected
    graph = document_nquads(Document("doc", doc.text, Metadata(title="t"), parsed), Vocabulary(CONFIG), ALIASES)
    again = document_nquads(Document("doc", doc.text, Metadata(title="t"), doc.expected), Vocabulary(CONFIG), ALIASES)
    assert graph == again
    quads = list(ox.parse(graph.encode(), format=ox.RdfFormat.N_QUADS))
    anchors = {q.object.value for q in quads if q.predicate.value.endswith("#anchorOf") and "#T" in q.subject.value}
    assert anchors == {b.text for b in doc.expected.textbounds.values()}, "a span's text did not survive"


def _corpus(tmp_path: Path, doc: ValidDocument) -> Path:
    corpus = tmp_path / "corpus"
    shutil.rmtree(corpus, ignore_errors=True)
    corpus.mkdir()
    shutil.copy(CORPUS / "annotation.conf", corpus)
    shutil.copy(TINY / "aliases.toml", corpus)
    (corpus / "doc.txt").write_text(doc.text, encoding="utf-8", newline="")
    (corpus / "doc.ann").write_text(doc.ann, encoding="utf-8", newline="")
    return corpus


@pytest.fixture(scope="module")
def build_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("round-trip-builds")


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=valid_document())
def test_valid_annotations_build_and_twice_give_isomorphic_graphs(build_dir: Path, doc: ValidDocument) -> None:
    """A full build (SHACL validation on) accepts them, and a second build gives the same quads."""
    # a fresh directory per example: a store path reused within the same second could still be
    # locked by the previous example's store object, which the garbage collector has not closed
    root = Path(tempfile.mkdtemp(dir=build_dir))
    corpus = _corpus(root, doc)
    first, second = root / "first", root / "second"
    for data in (first, second):
        build(corpus, data, validate=True)
    assert_same_quads(store_quads(second), store_quads(first), "two builds of the same input")
    shutil.rmtree(root, ignore_errors=True)
