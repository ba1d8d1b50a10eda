"""kg.publish.search_index and kg.publish.search: the SQLite FTS5 index `kg build` writes for
/api/search, on the shipped corpus, a generated one, and labels of other scripts. SQLite finds the
candidates tier by tier (B-tree prefixes, FTS5 word prefixes, FTS5 trigrams or a scan): the hits
must be exactly those of the definition, every label scanned in Python; no text reaches FTS5 as
syntax; every build (full and incremental) writes the index of its own store, an incremental one by
deleting and inserting the rows of the entities it rewrote in a copy of the previous file. Things local
to one document rank after every shared entity, whatever their text."""

from __future__ import annotations

import random
import sqlite3
import sys
import unicodedata
from pathlib import Path

import pytest

from kg.model.iris import fold
from kg.pipeline.builder import build
from kg.publish import search
from kg.publish.search import RANKS, SearchIndex, read_index
from kg.publish.search_index import KINDS, Rows, index_path, label_rows, make_index, word_text
from kg.store import build_dirs
from tests.helpers import edit_npr, generated_build, remove_npr

Entry = tuple[str, str, str, str]  # entity, kind, label, folded


@pytest.fixture(scope="module")
def generated_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generated_build(tmp_path_factory.mktemp("search-generated"), 30, 5)


def _rows(data: Path) -> tuple[Rows, Rows]:
    with build_dirs.build_store(build_dirs.current_build(data)) as store:
        return label_rows(store.select)


def _entries(labels: Rows) -> list[Entry]:
    """Every label in entry order: entity, kind, label."""
    return sorted(((r["e"], r["kind"], r["label"], fold(r["label"])) for r in labels),
                  key=lambda e: (e[0], KINDS.get(e[1], len(KINDS)), e[2]))


def _in_word(char: str) -> bool:
    """A letter, digit or mark of any script: a Devanagari vowel sign is inside its word."""
    return char.isalnum() or unicodedata.category(char).startswith("M")


class Definition:
    """Every label scanned: shared entities before things local to a document (rows with a `doc`; left
    out when `local` is false), then whole label, prefix, word prefix (of the first occurrence),
    anywhere; then more mentions, then the matched label, then the IRI; one hit per entity, its first
    best label. The labels are put in entry order once, not once a search."""

    def __init__(self, labels: Rows, summaries: Rows) -> None:
        self.entries = _entries(labels)
        self.mentions = {r["e"]: int(r.get("mentions") or 0) for r in summaries}
        self.locals = {r["e"] for r in (*labels, *summaries) if r.get("doc")}

    def hits(self, text: str, limit: int, local: bool = True) -> list[tuple[str, str, str]]:
        needle = " ".join(fold(text).split())
        best: dict[str, tuple[int, str, str]] = {}
        for entity, _, label, folded in self.entries:
            position = folded.find(needle) if needle else -1
            if position < 0:
                continue
            rank = 0 if folded == needle else 1 if position == 0 else 2 if not _in_word(folded[position - 1]) else 3
            if entity not in best or (rank, folded) < best[entity][:2]:
                best[entity] = (rank, folded, label)
        ordered = sorted(((entity, found) for entity, found in best.items() if local or entity not in self.locals),
                         key=lambda kv: (kv[0] in self.locals, kv[1][0], -self.mentions.get(kv[0], 0), kv[1][1],
                                         kv[0]))
        return [(iri, label, RANKS[rank]) for iri, (rank, _, label) in ordered[:limit]]


def _found(index: SearchIndex, text: str, limit: int, local: bool = True) -> list[tuple[str, str, str]]:
    return [(hit.entity, hit.label, hit.rank) for hit in index.search(text, limit, local=local)]


def _needles(labels: Rows, count: int, seed: int = 7) -> list[str]:
    """Pieces of labels of every length, some with their accents and case, and a few oddities."""
    rng = random.Random(seed)
    pieces = [" ", "a", "e", "ó", "\x00", "zzzz-nothing", "  Juan  ", "GUAIDÓ", "-", "'", "\ud800", "\U0010ffff"]
    pieces += sorted({c for r in labels for c in fold(r["label"])})  # every one-letter search
    for r in rng.sample(labels, min(count, len(labels))):
        start = rng.randrange(max(1, len(r["label"])))
        pieces.append(r["label"][start:start + rng.choice([1, 2, 3, 4, 7, 40])])
    return pieces


def _assert_as_defined(index: SearchIndex, labels: Rows, summaries: Rows, needles: list[str]) -> None:
    definition = Definition(labels, summaries)
    for text in needles:
        for limit in (1, 20, 100):
            assert _found(index, text, limit) == definition.hits(text, limit), (text, limit)
        assert _found(index, text, 20, local=False) == definition.hits(text, 20, local=False), text


@pytest.mark.parametrize("which", ["shipped", "generated"])
@pytest.mark.parametrize("many", [search._MANY, 3])
def test_search_ranks_as_the_definition(which, many, shipped_data, generated_data, monkeypatch):
    """With `many` 3, every prefix of more than 3 labels takes the walk by mentions (at 10,000
    articles, a one-letter search does): it must rank alike, ties of mentions included."""
    monkeypatch.setattr(search, "_MANY", many)
    labels, summaries = _rows(shipped_data if which == "shipped" else generated_data)
    assert len(labels) > len(summaries) > 10
    assert any(r.get("doc") for r in summaries)  # things local to a document are among them
    _assert_as_defined(SearchIndex.of_rows(labels, summaries), labels, summaries, _needles(labels, 150))


def _label(entity: str, label: str, kind: str = "pref") -> dict[str, str]:
    return {"e": f"http://example.org/{entity}", "label": label, "kind": kind}


# words of other scripts, and what splits them: marks fold keeps (Devanagari vowel signs are
# no letter to str.isalnum, yet inside their word), no spaces (CJK), letters newer than SQLite's
# Unicode tables (Adlam), other digits, and FTS5's own syntax inside labels
SCRIPTS = ["Нарендра Моди", "Владимир Путин", "Санкт-Петербург", "नरेन्द्र मोदी", "मोदी सरकार", "दिल्ली",
           "习近平", "中华人民共和国", "北京市", "東京都", "ソニー株式会社", "서울특별시", "Αθήνα", "Ελλάδα",
           "𞤀𞤣𞤤𞤢𞤥 Adlam", "٣ ملايين", "محمد بن سلمان", "Zürich-Oerlikon", "U.N. agency", "l'Élysée",
           "AND Corp", "Star * Bar", "NEAR(x) ltd", 'say "hi" now', "col:umn", "^caret", "x OR y", "(NOT)"]


def test_other_scripts_rank_as_the_definition():
    """Every piece of every label (1 to 5 characters from every position), so that each tier, the
    word one above all, is asked where its tokens and the definition's words could part."""
    labels = [_label(f"e{i}", text) for i, text in enumerate(SCRIPTS)]
    labels += [_label(f"e{i}", text.upper(), "alt") for i, text in enumerate(SCRIPTS[:8])]
    summaries = [{"e": r["e"], "label": r["label"], "mentions": str(i % 4), "types": "http://example.org/T"}
                 for i, r in enumerate(labels[:len(SCRIPTS)])]
    for row in (*labels, *summaries):  # a quarter of them local to a document
        if int(row["e"].rsplit("/e", 1)[1]) % 4 == 1:
            row["doc"] = "http://example.org/doc/d"
    index = SearchIndex.of_rows(labels, summaries)
    needles = {text[i:i + n] for text in SCRIPTS for i in range(len(text)) for n in range(1, 6)}
    _assert_as_defined(index, labels, summaries, sorted(needles))
    assert [h.label for h in index.search("моди", 5)] == ["Нарендра Моди"]
    assert [(h.label, h.rank) for h in index.search("मोदी", 5)] == [("मोदी सरकार", "prefix"), ("नरेन्द्र मोदी", "word")]
    assert [(h.label, h.rank) for h in index.search("近", 5)] == [("习近平", "substring")]
    assert [(h.label, h.rank) for h in index.search("人民", 5)] == [("中华人民共和国", "substring")]


def test_a_local_thing_ranks_after_every_shared_entity():
    """A thing local to one document whose label is the needle itself ranks after a shared entity whose
    label only has it as a word, whatever its mentions; a caller wanting shared entities only (the
    reconciliation service, INCEpTION's full-text search) never gets it."""
    first, second = "http://example.org/doc/a", "http://example.org/doc/b"
    labels = [_label("place/police", "Colombian National Police"), {**_label("a/police", "police"), "doc": first},
              {**_label("b/police", "the police"), "doc": second}]
    summaries = [{**row, "mentions": str(mentions), "types": "http://example.org/T"}
                 for row, mentions in zip(labels, (1, 9, 1))]
    index = SearchIndex.of_rows(labels, summaries)
    hits = index.search("Police", 10)
    assert [(hit.label, hit.rank, hit.document) for hit in hits] == [
        ("Colombian National Police", "word", None), ("police", "exact", first), ("the police", "word", second)]
    assert [hit.label for hit in index.search("police", 1)] == ["Colombian National Police"]
    assert [hit.label for hit in index.search("police", 10, local=False)] == ["Colombian National Police"]
    assert [hit.label for hit in index.search("the police", 10, local=False)] == []
    assert [row[1] for row in index.names_with_words(("police",), (), ("pref",), 10)] == \
        ["Colombian National Police"]


@pytest.mark.parametrize("text", ['"', '""', "AND", "OR", "NOT", "*", "a*", "NEAR(", "NEAR(x", "NEAR(x) ltd", "(", ")",
                                  "^", "^caret", "col:", "col:umn", "-", "+", "{", "}", ":", 'say "hi', "Star *",
                                  '"hi" now', "x OR", "(NOT)", "\\", "'", "*", "AND Corp"])
def test_fts5_syntax_in_a_search_is_text(text):
    """FTS5 query syntax in the user's text neither raises nor acts: the hits are the definition's."""
    labels = [_label(f"e{i}", t) for i, t in enumerate(SCRIPTS)]
    index = SearchIndex.of_rows(labels, [])
    for limit in (1, 20):
        assert _found(index, text, limit) == Definition(labels, []).hits(text, limit)


def test_the_file_holds_the_same_index(generated_data):
    labels, summaries = _rows(generated_data)
    read = read_index(build_dirs.current_build(generated_data))
    assert read is not None
    assert read.count() == len(labels)
    _assert_as_defined(read, labels, summaries, _needles(labels, 40))
    hit = read.search(labels[0]["label"], 100)
    shown = {r["e"]: r for r in summaries}
    for h in hit:
        if h.entity in shown:
            assert (h.summary.label, str(h.summary.mentions)) == (shown[h.entity]["label"],
                                                                  shown[h.entity].get("mentions") or "0")
            assert h.summary.types == sorted(shown[h.entity]["types"].split())
        else:
            assert h.summary is None


def test_a_long_needle_anywhere_is_found_by_its_inner_words(generated_data, monkeypatch):
    """A needle of three words or more cut from inside labels (starting and ending inside a word) is found
    anywhere through the word index (its inner words whole, its last a word's start), never the trigrams,
    and the hits are the definition's: the label whose word the needle's first run ends is among them."""
    labels, summaries = _rows(generated_data)
    index = read_index(build_dirs.current_build(generated_data))
    long_labels = [r["label"] for r in labels if len(word_text(fold(r["label"])).split()) >= 4]
    assert len(long_labels) > 20
    needles = []
    for label in random.Random(3).sample(long_labels, 20):
        words = label.split()
        needles.append(" ".join([words[0][1:], *words[1:-1], words[-1][:2]]))  # "irector, Federal Party of Gu"
    needles += ["rector, Federal Party of", "Nothing Inside Here Anywhere"]
    definition = Definition(labels, summaries)
    for text in needles:
        for limit in (1, 100):
            assert _found(index, text, limit) == definition.hits(text, limit), (text, limit)
    monkeypatch.setattr(search, "_GRAMS", "SELECT * FROM no_such_table")  # a trigram phrase would now raise
    cut = next(n for n in needles if definition.hits(n, 100))
    found = _found(index, cut, 100)
    assert found == definition.hits(cut, 100) and found[0][2] in ("word", "substring")
    assert search._inner_words_query("irector, federal party of gu") == '"federal" AND "party" AND "of" AND "gu" *'
    assert search._inner_words_query("federal party") == ""


def test_a_one_letter_search_ranks_few_labels(generated_data, monkeypatch):
    """A common letter is in nearly every label: the search ranks those that start with it (or a
    word), not every label."""
    labels, _ = _rows(generated_data)
    index = read_index(build_dirs.current_build(generated_data))
    ranked: list[str] = []
    real_rank = search._rank
    monkeypatch.setattr(search, "_rank", lambda folded, needle: ranked.append(folded) or real_rank(folded, needle))
    folded = [fold(r["label"]) for r in labels]
    starting = {letter: {r["e"] for r, f in zip(labels, folded) if f.startswith(letter)} for letter in "abcdefghijklmnopqrstuvwxyz"}
    common = sorted(starting, key=lambda letter: -len(starting[letter]))[:4]
    for letter in common:
        ranked.clear()
        hits = index.search(letter, 20)
        containing = sum(letter in f for f in folded)
        assert len(hits) == 20 and len(starting[letter]) >= 20 and containing > 100
        assert len(ranked) < containing / 3, (letter, len(ranked), containing)


def test_no_file_an_earlier_kgs_file_or_a_damaged_one_is_no_index(tmp_path, generated_data):
    """A build of a kg before the SQLite index has search-index.json only; another SQLite database,
    a file cut short or not a database at all is no index either (the endpoint computes one)."""
    assert read_index(tmp_path) is None
    (tmp_path / build_dirs.OLD_SEARCH_INDEX_FILE).write_text('{"format": 2, "entities": 0}\n', encoding="utf-8")
    assert read_index(tmp_path) is None
    index_path(tmp_path).write_bytes(b"not a database at all" * 100)
    assert read_index(tmp_path) is None
    index_path(tmp_path).unlink()
    other = sqlite3.connect(index_path(tmp_path))
    other.execute("CREATE TABLE labels (x)")
    other.close()
    assert read_index(tmp_path) is None
    whole = index_path(build_dirs.current_build(generated_data)).read_bytes()
    for cut in (len(whole) // 2, len(whole) - 4096):
        index_path(tmp_path).write_bytes(whole[:cut])
        assert read_index(tmp_path) is None
    index_path(tmp_path).write_bytes(whole)
    assert read_index(tmp_path) is not None


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
    _assert_index_of_store(data)
    hits = second.search("ZACARIAS quintero", 5)
    assert [(h.label, h.rank) for h in hits] == [("Zacarías Quintero", "exact")]


def _add_article(corpus: Path) -> None:
    (corpus / "zz-new.txt").write_text("Zacarías Quintero and Juan Guaidó spoke in Cúcuta.\n", encoding="utf-8")
    (corpus / "zz-new.ann").write_text("T1\tPerson 0 17\tZacarías Quintero\nT2\tPerson 22 33\tJuan Guaidó\n",
                                       encoding="utf-8")


def test_an_incremental_build_patches_the_index_to_the_whole_one(tmp_path, corpus_copy):
    """Edit one article, add one, remove one: each build copies the previous file and replaces the
    rows of the entities whose records it rewrote (the other rows keep their numbers: patched, not
    written again), and the result holds what the index written whole holds and answers alike."""
    data = tmp_path / "data"
    build(corpus_copy, data)
    for change in (edit_npr, _add_article, remove_npr):
        before = _table_rows(build_dirs.current_build(data))
        change(corpus_copy)
        assert build(corpus_copy, data).mode == "incremental"
        after = _table_rows(build_dirs.current_build(data))
        kept = set(before) & set(after)
        assert len(kept) > len(before) / 2 and set(after) != set(before), change
        _assert_index_of_store(data)


def _table_rows(build_dir: Path) -> dict[int, tuple]:
    """The labels of a build's file by row number: (row, entity IRI, label, kind, folded)."""
    db = sqlite3.connect(index_path(build_dir))
    try:
        return {row[0]: row for row in db.execute(
            "SELECT l.row, e.iri, l.label, l.kind, l.folded FROM labels l JOIN entities e ON e.id = l.entity")}
    finally:
        db.close()


def _contents(path: Path) -> tuple[list, list]:
    db = sqlite3.connect(path)
    try:
        entities = sorted(db.execute("SELECT iri, summary, label, types, mentions FROM entities"))
        labels = sorted(db.execute("SELECT e.iri, l.label, l.kind, l.kind_order, l.folded FROM labels l "
                                   "JOIN entities e ON e.id = l.entity"))
        return entities, labels
    finally:
        db.close()


def _assert_index_of_store(data: Path) -> None:
    build_dir = build_dirs.current_build(data)
    labels, summaries = _rows(data)
    whole = make_index(data.parent / "whole.sqlite", labels, summaries)
    assert _contents(index_path(build_dir)) == _contents(whole)
    _assert_as_defined(read_index(build_dir), labels, summaries, _needles(labels, 60))
    for name in ("words", "grams"):  # FTS5's own check of its segments after the deletes and inserts
        db = sqlite3.connect(index_path(build_dir))
        db.execute(f"INSERT INTO {name} ({name}) VALUES ('integrity-check')")
        db.close()
    whole.unlink()


def test_a_build_after_one_of_an_earlier_kg_writes_the_index_whole(tmp_path, corpus_copy):
    """The previous build has search-index.json only (an earlier kg): the next build, incremental,
    writes its index whole from its store."""
    data = tmp_path / "data"
    build(corpus_copy, data)
    previous = build_dirs.current_build(data)
    index_path(previous).unlink()
    (previous / build_dirs.OLD_SEARCH_INDEX_FILE).write_text('{"format": 2}\n', encoding="utf-8")
    _add_article(corpus_copy)
    assert build(corpus_copy, data).mode == "incremental"
    _assert_index_of_store(data)


def test_the_word_text_splits_where_the_ranking_does():
    """`words` indexes letters and digits as str.isalnum counts them and marks (Unicode category M),
    every other character a space, on every code point (a regular expression does it, faster than
    asking each character)."""
    characters = "".join(chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF)
    assert word_text(characters) == "".join(c if _in_word(c) else " " for c in characters)


def test_a_sealed_index_is_trusted_by_its_seal_an_unsealed_one_is_quick_checked(tmp_path, generated_data, monkeypatch):
    """An incremental build reads its previous build's index, sealed with its checksum, without
    SQLite's quick_check (a read of every page: seconds at 100,000 articles); a file kept without a
    checksum, and a file damaged since its seal, are checked as before."""
    from kg.publish import search_index
    from kg.store import checksums

    asked: list[str] = []
    opened = search_index.open_read_only

    def traced(path):
        db = opened(path)
        db.set_trace_callback(asked.append)
        return db

    monkeypatch.setattr(search_index, "open_read_only", traced)
    sealed = tmp_path / "sealed.sqlite"
    sealed.write_bytes(index_path(build_dirs.current_build(generated_data)).read_bytes())
    checksums.seal(sealed)
    assert search_index.readable(sealed, trust_seal=True) and not any("quick_check" in sql for sql in asked)
    assert search_index.readable(sealed) and any("quick_check" in sql for sql in asked)
    asked.clear()
    unsealed = tmp_path / "unsealed.sqlite"
    unsealed.write_bytes(sealed.read_bytes())
    assert search_index.readable(unsealed, trust_seal=True) and any("quick_check" in sql for sql in asked)
    data = bytearray(sealed.read_bytes())
    data[-100] ^= 1
    sealed.write_bytes(bytes(data))
    assert not search_index.readable(sealed, trust_seal=True)
