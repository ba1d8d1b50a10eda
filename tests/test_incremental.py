"""Incremental and parallel builds give exactly what a full, single-process build gives."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kg.builder import build
from kg.iris import PREFIXES
from tests.helpers import add_article as _add, assert_same_quads, edit_npr as _edit, remove_npr as _remove, store_quads



def _full(corpus: Path, tmp_path: Path) -> set:
    data = tmp_path / "full"
    shutil.rmtree(data, ignore_errors=True)
    build(corpus, data, full=True)
    return store_quads(data)


@pytest.mark.parametrize("change", [_edit, _add, _remove], ids=["edit", "add", "remove"])
def test_incremental_build_equals_full_rebuild(corpus_copy: Path, tmp_path: Path, change) -> None:
    data = tmp_path / "data"
    build(corpus_copy, data)
    change(corpus_copy)
    report = build(corpus_copy, data)
    assert report.mode == "incremental"
    assert len(report.added) + len(report.changed) + len(report.removed) == 1
    assert_same_quads(store_quads(data), _full(corpus_copy, tmp_path), f"incremental after {change.__name__}")


def test_entity_mentioned_nowhere_disappears(corpus_copy: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    build(corpus_copy, data)
    solano = PREFIXES["person"] + "harry-solano"
    assert any(q.subject.value == solano for q in store_quads(data))
    _remove(corpus_copy)
    build(corpus_copy, data)
    assert not any(solano in (q.subject.value, getattr(q.object, "value", "")) for q in store_quads(data))


def test_unchanged_corpus_does_nothing(corpus_copy: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = build(corpus_copy, data)
    for path in corpus_copy.glob("*.txt"):
        path.touch()
    again = build(corpus_copy, data)
    assert again.mode == "unchanged" and again.build_dir is None
    assert "nothing to do: 4 documents unchanged" in again.summary()
    assert (data / "current").resolve() == first.build_dir.resolve()


def test_parallel_build_equals_single_process(corpus_copy: Path, tmp_path: Path) -> None:
    build(corpus_copy, tmp_path / "one", workers=1)
    build(corpus_copy, tmp_path / "two", workers=2)
    assert_same_quads(store_quads(tmp_path / "two"), store_quads(tmp_path / "one"), "parallel vs serial")


def test_exports_after_an_incremental_build_hold_the_new_graph(corpus_copy: Path, tmp_path: Path) -> None:
    """Sections of unchanged documents are copied from the previous build: the result must still
    be exactly the new store, in every format."""
    import pyoxigraph as ox
    import rdflib

    from kg import build_dirs

    def quads(dataset: rdflib.Dataset) -> set:
        return {(s, p, o, str(g.identifier if hasattr(g, "identifier") else g))
                for s, p, o, g in dataset.quads((None, None, None, None))}

    data = tmp_path / "data"
    build(corpus_copy, data)
    _edit(corpus_copy)
    _add(corpus_copy)
    report = build(corpus_copy, data)
    assert report.mode == "incremental"
    reference = rdflib.Dataset()
    store = ox.Store.read_only(str(build_dirs.store_path(report.build_dir)))
    reference.parse(data=store.dump(format=ox.RdfFormat.N_QUADS), format="nquads")
    for fmt, parser in (("nq", "nquads"), ("trig", "trig"), ("jsonld", "json-ld")):
        dataset = rdflib.Dataset()
        dataset.parse(build_dirs.export_path(report.build_dir, fmt), format=parser)
        assert_same_quads(quads(dataset), quads(reference), f"{fmt} export after an incremental build")
    union = rdflib.Graph().parse(build_dirs.export_path(report.build_dir, "ttl"), format="turtle")
    assert_same_quads(set(union), {q[:3] for q in quads(reference)}, "ttl export after an incremental build")
