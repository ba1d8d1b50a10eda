"""Point 1: whatever bytes a .ann or .txt holds, the reader gives a graph or a located InputError.

Documents are read from real files with kg.formats.corpus.read_document (the path a
build takes), then turned into their named graph with kg.pipeline.reading.document_graph.document_nquads
and parsed back with Oxigraph: anything the reader accepts must become a
well-formed graph, and anything it rejects must be rejected with an
InputError naming the file and the line (and column) of the problem.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pyoxigraph as ox
import pytest
from hypothesis import HealthCheck, event, given, settings, strategies as st

from kg.errors import InputError
from kg.formats.corpus import DocumentFiles, read_document
from kg.model.entities.aliases import load_aliases
from kg.model.iris import document_iri
from kg.model.schema.corpus_vocabulary import Vocabulary
from kg.pipeline.builder import build
from kg.pipeline.reading.document_graph import document_nquads
from kg.store import build_dirs
from kg.store.embedded import EmbeddedStore
from tests.hardening.brat import CONFIG, HOSTILE_CHARS, VALID_ANN, VALID_TXT, ann_bytes, assert_located, near_valid_ann
from tests.helpers import CORPUS, TINY, tree_digest

ALIASES = load_aliases(TINY / "aliases.toml", Vocabulary(CONFIG))
FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


def read_or_error(workdir: Path, txt: bytes, ann: bytes | None) -> list[ox.Quad] | None:
    """Read the document from disk; return its graph's quads, or None after checking the error."""
    files = DocumentFiles("doc", workdir / "doc.txt", workdir / "doc.ann", workdir / "doc.json")
    files.txt.write_bytes(txt)
    if ann is None:
        files.ann.unlink(missing_ok=True)
    else:
        files.ann.write_bytes(ann)
    try:  # reading, or the model's checks of what was read (a normalization on a type read as written)
        doc = read_document(files, CONFIG)
        nquads = document_nquads(doc, Vocabulary(CONFIG), ALIASES)
    except InputError as exc:
        assert_located(exc, {files.txt: txt, files.ann: ann or b""})
        return None
    quads = list(ox.parse(nquads.encode(), format=ox.RdfFormat.N_QUADS))
    article = ox.NamedNode(document_iri("doc"))
    assert any(q.subject == article for q in quads), "the graph lacks the article node"
    mentions = {q.subject for q in quads if q.predicate.value.endswith("#anchorOf") and "#T" in q.subject.value}
    assert len(mentions) == len(doc.annotations.textbounds), "a text-bound annotation has no mention node"
    return quads


def outcome(quads: list[ox.Quad] | None) -> list[ox.Quad] | None:
    """Count outcomes (pytest --hypothesis-show-statistics) to see that both kinds are reached."""
    event("graph" if quads is not None else "located error")
    return quads


def near_valid_text() -> st.SearchStrategy[bytes]:
    """The valid text with characters inserted, replaced or removed (offsets no longer fit)."""
    @st.composite
    def edit(draw) -> bytes:
        at = draw(st.integers(0, len(VALID_TXT)))
        cut = draw(st.integers(0, 3))
        new = draw(st.sampled_from(HOSTILE_CHARS) | st.text(max_size=3))
        return (VALID_TXT[:at] + new + VALID_TXT[at + cut:]).encode("utf-8")
    return edit()


@FUZZ
@given(ann=ann_bytes())
def test_any_bytes_as_ann_give_a_graph_or_a_located_error(workdir: Path, ann: bytes) -> None:
    outcome(read_or_error(workdir, VALID_TXT.encode(), ann))


@FUZZ
@given(txt=st.binary(max_size=300) | st.text(max_size=200).map(str.encode) | near_valid_text(),
       with_ann=st.booleans())
def test_any_bytes_as_txt_give_a_graph_or_a_located_error(workdir: Path, txt: bytes, with_ann: bool) -> None:
    quads = outcome(read_or_error(workdir, txt, VALID_ANN.encode() if with_ann else None))
    if quads is not None and with_ann:
        assert txt.decode("utf-8")[4:12] == "Ana Ruiz", "annotations were accepted over a text they do not fit"


@FUZZ
@given(ann=near_valid_ann())
def test_mutated_annotations_give_a_graph_or_a_located_error(workdir: Path, ann: str) -> None:
    outcome(read_or_error(workdir, VALID_TXT.encode(), ann.encode("utf-8")))


def test_the_unmutated_file_gives_a_graph(workdir: Path) -> None:
    """The base of the mutations is itself valid, so mutations start from a graph."""
    quads = read_or_error(workdir, VALID_TXT.encode(), VALID_ANN.encode())
    assert quads is not None and len(quads) > 100


@pytest.fixture(scope="module")
def tiny_data(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A copy of the tiny corpus and a data directory with a build of it."""
    root = tmp_path_factory.mktemp("fuzz-build")
    shutil.copytree(TINY, root / "corpus")
    build(root / "corpus", root / "data")
    return root / "corpus", root / "data"


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ann=near_valid_ann())
def test_mutated_annotations_through_a_full_build(tiny_data: tuple[Path, Path], ann: str) -> None:
    """`kg build` (SHACL on) publishes a graph or raises a located InputError and leaves `current` as it was."""
    corpus, data = tiny_data
    (corpus / "alpha.ann").write_text(ann, encoding="utf-8", newline="")
    before = build_dirs.current_build(data)
    digest = tree_digest(before)
    try:
        report = build(corpus, data, full=True)
    except InputError as exc:
        event("located error")
        files = {p: p.read_bytes() for p in corpus.iterdir()}
        assert_located(exc, files)
        assert build_dirs.current_build(data) == before and tree_digest(before) == digest
        return
    event("graph")
    assert build_dirs.current_build(data) == report.build_dir.resolve() != before
    assert len(EmbeddedStore(build_dirs.store_path(report.build_dir), read_only=True)) == report.quads


@pytest.mark.parametrize("members,kinds,joins", [("T2 T9", "City and Person", True),
                                                 ("T7 T9", "City and Quote", True),
                                                 ("T2 T4", "", False)])
def test_equiv_across_kinds_is_read_as_written_with_a_located_warning(workdir: Path, members: str, kinds: str,
                                                                      joins: bool) -> None:
    """Found by the round trip: an Equiv joining a Quote to a Place made the place a quote without a
    location. brat shows such an Equiv and marks it against annotation.conf, so kg reads it as written
    (the entity mentions are one thing, of the type most frequent among them) with a warning at its
    line naming the conf's rule; an Equiv reaching an event's trigger joins no entity."""
    apart = read_or_error(workdir, VALID_TXT.encode(), VALID_ANN.encode())
    joined = read_or_error(workdir, VALID_TXT.encode(), (VALID_ANN + f"*\tEquiv {members}\n").encode())
    assert joined is not None and (set(joined) != set(apart)) == joins
    doc = read_document(DocumentFiles("doc", workdir / "doc.txt", workdir / "doc.ann", workdir / "doc.json"), CONFIG)
    [(line, reason)] = [(w.line, w.reason) for w in doc.annotations.warnings]
    conf_lines = (CORPUS / "annotation.conf").read_text(encoding="utf-8").splitlines()
    equiv_line = next(n for n, text in enumerate(conf_lines, start=1) if text.startswith("Equiv"))
    assert line == 22 and "is not declared" in reason and f"annotation.conf line {equiv_line}" in reason, reason
    assert not kinds or f"Equiv between {kinds} " in reason
    same_kind = (VALID_ANN + "*\tEquiv T2 T8\n").encode()
    assert read_or_error(workdir, VALID_TXT.encode(), same_kind) is not None
