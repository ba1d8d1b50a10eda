"""kg.publish.search_index: the index `kg build` writes for /api/search, on the shipped corpus and on a
generated one. Its fast search (sorted prefix and word-start orders, then one str.find pass over
every folded label) must rank exactly as the definition does, scanning every label; the file must
give back the same index; every build (full and incremental) writes the index of its own store,
an incremental one by merging, equal to the index computed whole."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from kg.store import build_dirs
from kg.pipeline.builder import build
from kg.model.iris import fold
from kg.publish import search_index
from kg.publish.search_index import RANKS, SearchIndex, index_path, read_index
from kg.store.embedded import EmbeddedStore
from tests.helpers import ROOT, edit_npr, remove_npr


@pytest.fixture(scope="module")
def generated_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("search-generated")
    corpus = root / "corpus"
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "generate.py"), "--docs", "30", "--seed", "5",
                    "--out", str(corpus)], check=True, capture_output=True, timeout=120)
    build(corpus, root / "data", validate=False)
    return root / "data"


def _from_store(data: Path) -> SearchIndex:
    store = EmbeddedStore(build_dirs.store_path(build_dirs.current_build(data)), read_only=True)
    try:
        return SearchIndex.compute(store.select)
    finally:
        store.close()


def _by_definition(index: SearchIndex, text: str, limit: int) -> list[tuple[str, str, str]]:
    """Every label scanned: whole label, prefix, word prefix (of the first occurrence), anywhere;
    then more mentions, then the matched label; one hit per entity, its best label."""
    needle = " ".join(fold(text).split())
    best: dict[str, tuple[int, str, object]] = {}
    for entry in index.entries:
        position = entry.folded.find(needle) if needle else -1
        if position < 0:
            continue
        rank = (0 if entry.folded == needle else 1 if position == 0
                else 2 if not entry.folded[position - 1].isalnum() else 3)
        if entry.entity not in best or (rank, entry.folded) < best[entry.entity][:2]:
            best[entry.entity] = (rank, entry.folded, entry)
    mentions = {iri: s.mentions for iri, s in index.summaries.items()}
    ordered = sorted(best.items(), key=lambda kv: (kv[1][0], -mentions.get(kv[0], 0), kv[1][1]))
    return [(iri, held[2].label, RANKS[held[0]]) for iri, held in ordered[:limit]]


def _needles(index: SearchIndex, count: int) -> list[str]:
    """Pieces of labels of every length, some with their accents and case, and a few oddities."""
    rng = random.Random(7)
    pieces = [" ", "a", "e", "ó", "\x00", "zzzz-nothing", "  Juan  ", "GUAIDÓ", "-", "'"]
    pieces += sorted({c for entry in index.entries for c in entry.folded})  # every one-letter search
    for entry in rng.sample(index.entries, min(count, len(index.entries))):
        start = rng.randrange(len(entry.label))
        pieces.append(entry.label[start:start + rng.choice([1, 2, 3, 4, 7, 40])])
    return pieces


@pytest.mark.parametrize("which", ["shipped", "generated"])
def test_search_ranks_as_the_definition(which, shipped_data, generated_data):
    index = _from_store(shipped_data if which == "shipped" else generated_data)
    assert len(index.entries) > len(index.summaries) > 10
    for text in _needles(index, 150):
        for limit in (1, 20, 100):
            found = [(hit.entity, hit.entry.label, hit.rank) for hit in index.search(text, limit)]
            assert found == _by_definition(index, text, limit), (text, limit)


def test_the_file_holds_the_same_index(generated_data):
    build_dir = build_dirs.current_build(generated_data)
    computed, read = _from_store(generated_data), read_index(build_dir)
    assert read is not None
    assert read.entries == computed.entries and read.summaries == computed.summaries
    for text in _needles(computed, 40):
        assert read.search(text, 20) == computed.search(text, 20)


def test_a_one_letter_search_ranks_few_labels(generated_data, monkeypatch):
    """A common letter is in nearly every label: the search ranks those that start with it (or a
    word), not every label (it used to rank them all, in Python, in the request's thread)."""
    index = _from_store(generated_data)
    ranked: list[str] = []
    real_rank = search_index._rank
    monkeypatch.setattr(search_index, "_rank", lambda folded, needle: ranked.append(folded) or real_rank(folded, needle))
    starting = {letter: {e.entity for e in index.entries if e.folded.startswith(letter)} for letter in "abcdefghijklmnopqrstuvwxyz"}
    common = sorted(starting, key=lambda letter: -len(starting[letter]))[:4]
    for letter in common:
        ranked.clear()
        hits = index.search(letter, 20)
        containing = sum(letter in f for f in index.folded)
        assert len(hits) == 20 and len(starting[letter]) >= 20 and containing > 100
        assert len(ranked) < containing / 3, (letter, len(ranked), containing)


def test_a_file_of_the_format_before_is_read(tmp_path, generated_data):
    """Builds made before format 2 wrote one JSON document; their index is read, not computed again."""
    computed = _from_store(generated_data)
    number = {iri: i for i, iri in enumerate(computed.entities)}
    summaries = [computed.summaries.get(iri) for iri in computed.entities]
    old = {"format": 1, "entities": computed.entities,
           "summaries": [[s.label, s.mentions, s.types] if s else None for s in summaries],
           "labels": [[number[e.entity], e.label, e.kind, e.folded] for e in computed.entries]}
    index_path(tmp_path).write_text(json.dumps(old), encoding="utf-8")
    read = read_index(tmp_path)
    assert read is not None and read.entries == computed.entries and read.summaries == computed.summaries


def test_a_damaged_file_is_no_index(tmp_path, generated_data):
    index_path(tmp_path).write_text('{"format": 1, "entities": [], "labels": [[3, "x"', encoding="utf-8")
    assert read_index(tmp_path) is None
    index_path(tmp_path).write_text('{"format": 999}', encoding="utf-8")
    assert read_index(tmp_path) is None
    assert read_index(tmp_path / "nothing") is None
    whole = index_path(build_dirs.current_build(generated_data)).read_text(encoding="utf-8")
    for cut in (len(whole) // 2, len(whole) - 3):
        index_path(tmp_path).write_text(whole[:cut], encoding="utf-8")
        assert read_index(tmp_path) is None


def test_every_build_writes_the_index_of_its_store(tmp_path, corpus_copy):
    data = tmp_path / "data"
    build(corpus_copy, data)
    first = read_index(build_dirs.current_build(data))
    assert first is not None and first.search("zacarias quintero", 5) == []
    (corpus_copy / "zz-new.txt").write_text("Zacarías Quintero spoke in Cúcuta.\n", encoding="utf-8")
    (corpus_copy / "zz-new.ann").write_text("T1\tPerson 0 17\tZacarías Quintero\n", encoding="utf-8")
    report = build(corpus_copy, data)
    assert report.mode == "incremental"
    second = read_index(build_dirs.current_build(data))
    _assert_index_of_store(second, data)
    hits = second.search("ZACARIAS quintero", 5)
    assert [(h.entry.label, h.rank) for h in hits] == [("Zacarías Quintero", "exact")]


def _add_article(corpus: Path) -> None:
    (corpus / "zz-new.txt").write_text("Zacarías Quintero and Juan Guaidó spoke in Cúcuta.\n", encoding="utf-8")
    (corpus / "zz-new.ann").write_text("T1\tPerson 0 17\tZacarías Quintero\nT2\tPerson 22 33\tJuan Guaidó\n",
                                       encoding="utf-8")


def test_an_incremental_build_patches_the_index_to_the_whole_one(tmp_path, corpus_copy):
    """Edit one article, add one, remove one: each build patches the previous index (only the
    entities whose records it rewrote are read again, merged into the sorted orders kept), and
    the result is the index read whole, sorted orders included."""
    data = tmp_path / "data"
    build(corpus_copy, data)
    before = read_index(build_dirs.current_build(data))
    for change in (edit_npr, _add_article, remove_npr):
        change(corpus_copy)
        assert build(corpus_copy, data).mode == "incremental"
        _assert_index_of_store(read_index(build_dirs.current_build(data)), data)
    after = read_index(build_dirs.current_build(data))
    assert after.summaries != before.summaries  # the removal changed mention counts: a real patch


def _assert_index_of_store(index: SearchIndex | None, data: Path) -> None:
    whole = _from_store(data)
    assert index is not None
    assert index.entries == whole.entries
    assert index.summaries == whole.summaries
    assert index.entities == whole.entities and index.entity_of == whole.entity_of
    assert list(index.by_folded) == list(whole.by_folded) and list(index.word_starts) == list(whole.word_starts)
