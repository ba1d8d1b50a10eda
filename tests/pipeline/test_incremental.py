"""Incremental, lazy and parallel builds give exactly what a full, eager, single-process build gives.

Every incremental path (edit, add, remove, several at once, a build killed
mid-way and run again) is compared with a full build of the same corpus:
the store and every export, on the shipped corpus and on a generated one
(benchmarks/corpus/generate.py). Exports of an incremental build are written
lazily and copy the unchanged sections of the previous build's exports:
they must be isomorphic to the exports an eager full build writes, and a
lazily written export of a build equals, byte for byte, an eager one.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

import pytest
import rdflib
from rdflib.compare import graph_diff, isomorphic, to_isomorphic

from benchmarks.corpus import mutate
from benchmarks.corpus.generate import Generator
from kg.model.iris import PREFIXES
from kg.pipeline.builder import build
from kg.publish.export import FORMATS, ensure_export, write_exports
from kg.store import build_dirs
from tests.helpers import (
    NPR,
    ROOT,
    add_article as _add,
    assert_same_quads,
    edit_npr as _edit,
    remove_npr as _remove,
    store_quads,
)

GENERATED = 30
PARSERS = {"nq": "nquads", "trig": "trig", "jsonld": "json-ld", "ttl": "turtle"}


# -- changes to a corpus --------------------------------------------------------------

def _several(corpus: Path) -> None:
    """An edit, an addition and a removal in one build."""
    _edit(corpus)
    _add(corpus)
    first = sorted(p.stem for p in corpus.glob("*.txt") if p.stem not in (NPR, "zz-new"))[0]
    for suffix in (".txt", ".ann", ".json"):
        (corpus / f"{first}{suffix}").unlink(missing_ok=True)


def _generated_changes(corpus: Path) -> None:
    """An edit, an addition and a removal in a generated corpus, as the benchmark makes them."""
    generator = Generator(5, GENERATED)
    slugs = sorted(p.stem for p in corpus.glob("*.txt"))
    mutate.edit_document(corpus, slugs[len(slugs) // 2], generator)
    mutate.add_document(corpus, generator, GENERATED)
    mutate.remove_document(corpus, slugs[0])


# -- comparisons ----------------------------------------------------------------------

def _dataset(path: Path, fmt: str) -> dict[str, rdflib.Graph]:
    """The graphs of an export file by name (kg.ttl: its union, under '')."""
    if fmt == "ttl":
        return {"": rdflib.Graph().parse(path, format="turtle")}
    dataset = rdflib.Dataset()
    dataset.parse(path, format=PARSERS[fmt])
    graphs: dict[str, rdflib.Graph] = {}
    for s, p, o, g in dataset.quads((None, None, None, None)):
        name = str(g.identifier if hasattr(g, "identifier") else g)
        graphs.setdefault(name, rdflib.Graph()).add((s, p, o))
    return graphs


def assert_isomorphic_exports(actual: Path, expected: Path, fmt: str, what: str) -> None:
    """Graph by graph isomorphism (rdflib.compare); the differing triples are printed on failure."""
    ours, theirs = _dataset(actual, fmt), _dataset(expected, fmt)
    assert sorted(ours) == sorted(theirs), f"{what}: named graphs differ"
    for name in theirs:
        if not isomorphic(ours[name], theirs[name]):
            _, only_ours, only_theirs = graph_diff(to_isomorphic(ours[name]), to_isomorphic(theirs[name]))
            lines = [f"{what}: graph <{name}> differs"]
            lines += [f"+ {t}" for t in sorted(map(str, only_ours))[:15]]
            lines += [f"- {t}" for t in sorted(map(str, only_theirs))[:15]]
            raise AssertionError("\n".join(lines))


def _full_eager(corpus: Path, data: Path) -> Path:
    """A full build whose exports are all written before anything else reads it (what --eager does,
    without drawing the view)."""
    shutil.rmtree(data, ignore_errors=True)
    report = build(corpus, data, full=True)
    write_exports(report.build_dir)
    return report.build_dir


def _assert_like_a_full_build(corpus: Path, data: Path, reference: Path, what: str) -> None:
    """Store and every (lazily written) export of `data`'s current build equal a full eager build's."""
    assert_same_quads(store_quads(data), store_quads(reference), f"{what}: store")
    expected = build_dirs.current_build(reference)
    current = build_dirs.current_build(data)
    for fmt in FORMATS:
        lazy = ensure_export(current, fmt)
        assert_isomorphic_exports(lazy, build_dirs.export_path(expected, fmt), fmt, f"{what}: {fmt} export")


# -- the incremental paths ------------------------------------------------------------

@pytest.mark.parametrize("change", [_edit, _add, _remove, _several], ids=["edit", "add", "remove", "several"])
def test_incremental_build_equals_full_build(corpus_copy: Path, tmp_path: Path, change: Callable) -> None:
    data = tmp_path / "data"
    first = build(corpus_copy, data)
    for fmt in ("ttl", "jsonld"):  # the previous build's exports exist for these two: their sections are copied
        ensure_export(first.build_dir, fmt)
    change(corpus_copy)
    report = build(corpus_copy, data)
    assert report.mode == "incremental"
    assert report.added or report.changed or report.removed
    assert report.quads == len(store_quads(data)), "the quad count kept from the previous build went wrong"
    _full_eager(corpus_copy, tmp_path / "full")
    _assert_like_a_full_build(corpus_copy, data, tmp_path / "full", change.__name__)


def test_incremental_builds_of_a_generated_corpus_equal_a_full_build(tmp_path: Path) -> None:
    corpus, data = tmp_path / "corpus", tmp_path / "data"
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "corpus" / "generate.py"), "--docs", str(GENERATED),
                    "--seed", "5", "--out", str(corpus)], check=True, capture_output=True, timeout=120)
    first = build(corpus, data)
    assert first.quads == len(store_quads(data))
    write_exports(first.build_dir)
    _generated_changes(corpus)
    report = build(corpus, data)
    assert (len(report.added), len(report.changed), len(report.removed)) == (1, 1, 1)
    assert report.quads == len(store_quads(data))
    assert report.build_dir != first.build_dir
    _full_eager(corpus, tmp_path / "full")
    _assert_like_a_full_build(corpus, data, tmp_path / "full", "generated corpus")


def test_a_build_killed_mid_way_then_run_again_equals_a_full_build(corpus_copy: Path, tmp_path: Path) -> None:
    """SIGKILL an incremental build once its new store exists: the old build stays current, and the
    next build is still incremental and gives what a full build gives."""
    data = tmp_path / "data"
    old = build(corpus_copy, data).build_dir
    _several(corpus_copy)
    kg = Path(sys.executable).parent / "kg"
    process = subprocess.Popen([str(kg), "build", "--corpus", str(corpus_copy), "--data", str(data), "--quiet"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        killed = _kill_once_store_exists(process, data, old)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)
    if killed:
        assert build_dirs.current_build(data) == old
    report = build(corpus_copy, data)
    assert report.mode == ("incremental" if killed else "unchanged")
    _full_eager(corpus_copy, tmp_path / "full")
    _assert_like_a_full_build(corpus_copy, data, tmp_path / "full", "after a killed build")
    if killed:  # the killed build's directory is gone
        assert sorted(p.name for p in (data / "builds").iterdir()) == sorted({old.name, report.build_dir.name})


def _kill_once_store_exists(process: subprocess.Popen, data: Path, old: Path) -> bool:
    """Kill the build when its new store directory appears; False if it finished first."""
    while process.poll() is None:
        builds = [p for p in (data / "builds").iterdir() if p != old] if (data / "builds").is_dir() else []
        if any((p / build_dirs.STORE_DIR).exists() for p in builds):
            os.killpg(process.pid, signal.SIGKILL)
            return True
        time.sleep(0.002)
    return False


# -- lazy and eager -------------------------------------------------------------------

def test_a_lazily_written_export_equals_an_eager_one(tiny_copy: Path, tmp_path: Path) -> None:
    eager = build(tiny_copy, tmp_path / "eager", eager=True).build_dir
    lazy = build(tiny_copy, tmp_path / "lazy").build_dir
    assert not build_dirs.export_path(lazy, "ttl").exists() and not (lazy / build_dirs.VIEW_FILE).exists()
    for fmt in FORMATS:
        assert ensure_export(lazy, fmt).read_bytes() == build_dirs.export_path(eager, fmt).read_bytes(), fmt
        assert ensure_export(lazy, fmt).stat().st_mtime_ns == build_dirs.export_path(lazy, fmt).stat().st_mtime_ns


def test_a_killed_export_writer_leaves_nothing_behind(tiny_copy: Path, tmp_path: Path) -> None:
    build_dir = build(tiny_copy, tmp_path / "data").build_dir
    (build_dir / ".kg.ttl.99999999.part").write_bytes(b"half an export")
    path = ensure_export(build_dir, "ttl")
    assert rdflib.Graph().parse(path, format="turtle")
    assert not list(build_dir.glob(".kg.ttl.*.part"))


# -- the rest -------------------------------------------------------------------------

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


def test_a_build_records_its_phases(corpus_copy: Path, tmp_path: Path) -> None:
    full = build(corpus_copy, tmp_path / "data")
    assert {"plan", "read", "load", "records", "publish"} <= set(full.phases)
    _edit(corpus_copy)
    edit = build(corpus_copy, tmp_path / "data")
    assert {"read", "checkpoint", "replace", "records"} <= set(edit.phases) and "load" not in edit.phases


# -- parsed inputs kept for the next build ------------------------------------------------

def test_parsed_inputs_are_reused_only_under_the_same_fingerprint(tmp_path: Path) -> None:
    """A build keeps its parsed alias table and vocabularies; the next build takes them only when
    it reads the same inputs, and parses again when the file is missing, foreign or corrupt."""
    from kg.formats.corpus import scan_corpus
    from kg.pipeline.inputs import Inputs

    corpus = tmp_path / "corpus"
    shutil.copytree(ROOT / "corpus", corpus)

    def fresh() -> Inputs:
        listing = scan_corpus(corpus)
        return Inputs(corpus, listing.configs, listing.documents)

    first = fresh()
    first.save_parsed(tmp_path)  # nothing parsed yet: nothing kept
    empty = fresh()
    empty.reuse_parsed(tmp_path)
    assert not empty.__dict__.keys() & {"aliases", "vocabulary"}
    entries = first.aliases.entries
    first.save_parsed(tmp_path)
    same = fresh()
    same.reuse_parsed(tmp_path)
    assert "aliases" in same.__dict__ and same.aliases.entries.keys() == entries.keys()

    with open(corpus / "aliases.toml", "a", encoding="utf-8") as handle:  # other inputs: parsed anew
        handle.write('\n[[entity]]\nkey = "person/new-person"\ntype = "Person"\nlabel = "New Person"\n')
    changed = fresh()
    changed.reuse_parsed(tmp_path)
    assert "aliases" not in changed.__dict__ and "person/new-person" in changed.aliases.entries

    (tmp_path / build_dirs.PARSED_INPUTS_FILE).write_bytes(b"not a pickle")
    broken = fresh()
    broken.reuse_parsed(tmp_path)
    assert "aliases" not in broken.__dict__ and "person/new-person" in broken.aliases.entries


def test_a_kept_alias_table_answers_as_the_parsed_one(tmp_path: Path) -> None:
    """The alias table a build keeps is read back with its entries as tuples, each made an entry when
    asked for: every entry, every lookup of a name and every Wikidata item answer as the table parsed
    from aliases.toml does, here and in a reader's process (the table pickled to it)."""
    import pickle

    from kg.formats.corpus import scan_corpus
    from kg.model.entities.aliases import normalize
    from kg.model.entities.knowledge_bases import Item
    from kg.pipeline.inputs import Inputs
    from kg.pipeline.kept_aliases import Entries

    corpus = tmp_path / "corpus"
    shutil.copytree(ROOT / "corpus", corpus)
    listing = scan_corpus(corpus)
    parsed = Inputs(corpus, listing.configs, listing.documents)
    expected = parsed.aliases
    parsed.save_parsed(tmp_path)
    kept = Inputs(corpus, listing.configs, listing.documents)
    kept.reuse_parsed(tmp_path)
    table = kept.__dict__["aliases"]
    assert isinstance(table.entries, Entries), "the kept table's entries were all made when read"
    items = [Item("Wikidata", e.wikidata, "") for e in expected.entries.values() if e.wikidata]
    assert items, "the shipped alias table links no entry to Wikidata (nothing compared)"
    for answer in (table, pickle.loads(pickle.dumps(table, pickle.HIGHEST_PROTOCOL))):
        assert dict(answer.entries) == expected.entries and answer.index == expected.index
        assert all(answer.lookup(family, name) == expected.lookup(family, name) for family, name in expected.index)
        assert [answer.with_item(item) for item in items] == [expected.with_item(item) for item in items]
    assert table.lookup("person", normalize("no such name anywhere")) is None


def test_parsed_inputs_taken_whole_from_the_previous_build_are_linked_not_written_again(corpus_copy: Path,
                                                                                         tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = build(corpus_copy, data).build_dir / build_dirs.PARSED_INPUTS_FILE
    _edit(corpus_copy)
    edited = build(corpus_copy, data).build_dir / build_dirs.PARSED_INPUTS_FILE
    assert edited.stat().st_ino == first.stat().st_ino
    with open(corpus_copy / "aliases.toml", "a", encoding="utf-8") as handle:  # other inputs: parsed and written
        handle.write('\n[[entity]]\nkey = "person/new-person"\ntype = "Person"\nlabel = "New Person"\n')
    reparsed = build(corpus_copy, data).build_dir / build_dirs.PARSED_INPUTS_FILE
    assert reparsed.stat().st_ino != edited.stat().st_ino
    _add(corpus_copy)
    added = build(corpus_copy, data)
    assert added.mode == "incremental"
    assert (added.build_dir / build_dirs.PARSED_INPUTS_FILE).stat().st_ino == reparsed.stat().st_ino


def test_a_corpus_and_data_moved_elsewhere_still_build_incrementally(tmp_path: Path, tiny_copy: Path) -> None:
    """The parsed inputs a build keeps are keyed by the corpus's paths: a corpus copied to another
    place (with its data directory) must not take them, or its vocabularies are looked up under the
    old paths (a KeyError in every reader)."""
    data = tmp_path / "data"
    build(tiny_copy, data)
    moved, moved_data = tmp_path / "moved", tmp_path / "moved-data"
    shutil.copytree(tiny_copy, moved)
    shutil.copytree(data, moved_data, symlinks=True)
    ann = sorted(moved.glob("*.ann"))[0]
    ann.write_text("\n".join(ann.read_text(encoding="utf-8").splitlines()[:3]) + "\n", encoding="utf-8")
    assert build(moved, moved_data).mode.value == "incremental"
    full = tmp_path / "full"
    build(moved, full)
    assert_same_quads(store_quads(moved_data), store_quads(full))


def test_a_corpus_named_by_another_path_still_builds_incrementally(tmp_path: Path, tiny_copy: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The same corpus named by its absolute path, then by a relative one: the vocabularies kept
    under the first spelling's keys are not taken (they were, and an edit's build failed with a
    ValueError from union_configs, handed none)."""
    data = tmp_path / "data"
    build(tiny_copy, data)
    ann = sorted(tiny_copy.glob("*.ann"))[0]
    ann.write_text("\n".join(ann.read_text(encoding="utf-8").splitlines()[:3]) + "\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert build(Path(tiny_copy.name), Path("data")).mode.value == "incremental"
    full = tmp_path / "full"
    build(tiny_copy, full)
    assert_same_quads(store_quads(data), store_quads(full))


def test_exports_after_builds_that_exported_nothing_copy_from_the_last_written_kg_nq(corpus_copy: Path,
                                                                                     tmp_path: Path) -> None:
    """Edit, add, remove, each built without an export asked for: the last build's kg.nq copies every
    section none of them remade from the full build's kg.nq (kept by each build as base.nq, a hard
    link), serializes the others from the store, and every export equals a full build's."""
    from kg.publish import export

    data = tmp_path / "data"
    first = build(corpus_copy, data)
    full_nq = build_dirs.export_path(first.build_dir, "nq").stat().st_ino  # the build itself is pruned later
    remade: set[str] = set()
    for change in (_edit, _add, _remove):
        change(corpus_copy)
        report = build(corpus_copy, data)
        assert report.mode == "incremental"
        remade |= set(build_dirs.read_manifest(report.build_dir)["remade_graphs"])
        base = report.build_dir / build_dirs.BASE_EXPORT
        assert base.stat().st_ino == full_nq, "the base export is not the full build's kg.nq"
        assert not build_dirs.export_path(report.build_dir, "nq").exists()
    reused = export._reusable(report.build_dir, "nq")
    assert reused is not None and reused[0] == base and reused[2] == frozenset(remade)
    assert len(set(reused[1]) - remade) >= 3, "no section left to copy"
    _full_eager(corpus_copy, tmp_path / "full")
    _assert_like_a_full_build(corpus_copy, data, tmp_path / "full", "three builds without exports")


def test_a_first_mention_removed_is_found_again(corpus_copy: Path, tmp_path: Path) -> None:
    """An entity's description quotes the sentence that names it first; when an incremental build removes the
    article of that sentence, the next first is asked of the store, as a full build finds it."""
    data = tmp_path / "data"
    build(corpus_copy, data)
    before = _description(data, "person/juan-guaido")
    assert "first named in france24-soldiers-desert-posts (2019-02-24)" in before  # the earliest article
    for suffix in (".txt", ".ann", ".json"):
        (corpus_copy / f"france24-soldiers-desert-posts{suffix}").unlink()
    assert build(corpus_copy, data).mode == "incremental"
    after = _description(data, "person/juan-guaido")
    assert after.startswith("Person, first named in ") and "france24" not in after
    _full_eager(corpus_copy, tmp_path / "full")
    assert _description(tmp_path / "full", "person/juan-guaido") == after


def _description(data: Path, key: str) -> str:
    quads = [q for q in store_quads(data) if q.subject.value == f"https://kg.example.org/id/{key}"
             and q.predicate.value == "http://www.w3.org/2000/01/rdf-schema#comment"]
    assert len(quads) == 1, quads
    return quads[0].object.value
