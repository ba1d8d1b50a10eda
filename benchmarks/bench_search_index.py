"""The search index of a build against SQLite FTS5, side by side, on the same rows.

    python benchmarks/bench_search_index.py BUILD_OR_DATA_DIR [--limit 20] [--four 200] [--seed 1]
                                            [--repeat 3] [--work DIR]

Both indexes are made from the answers of kg.publish.search_index's LABELS and SUMMARIES on
the build's store (the rows `kg build` reads), and measured for:

- build: the current index as `kg build` makes it (`SearchIndex.compute` on the store, then
  `dump`); the SQLite one from the same query answers (the labels folded by kg.model.iris.fold,
  bulk-inserted, FTS5 tables rebuilt and optimized, committed);
- load: what the server does before its first search (`read_index`; for SQLite, opening the file);
- patch: one incremental build's work for one article, the entities its graph refers to
  (kg.pipeline.document_graph.canonical_keys, as `kg build` computes them): the current path
  (`read_index` of the previous build's file, `patched`, `dump`, as `write_build_index` does),
  and for SQLite a copy of the previous build's file (each build has its own directory) then
  DELETE and INSERT of the touched entities' rows, read again by the same restricted queries;
- search: p50 and p99 of `search(needle, limit)` for each one-letter needle a..z and for
  four-letter needles sampled from the folded labels (their first four characters, or the
  first four of a later word), best of `--repeat` passes per needle;
- sizes of the files, and the overlap of both top-`limit` entity sets for every four-letter
  needle (and how many answers are the same list in the same order).

The SQLite ranking follows the current one: exact (folded label equal), prefix (a B-tree range
on the folded label), word (FTS5 `unicode61 remove_diacritics 2` with prefix indexes, a phrase
query whose last token is a prefix), substring (FTS5 `trigram`, or a scan of the labels for a
needle shorter than three characters); best label per entity, then more mentions, then the
matched folded label, then the entity IRI; the same tiers (word and substring rows are only
looked at when the tiers before give fewer than `limit` entities). What differs: an FTS5 word
match ranks "word" whenever some word starts with the needle (the current index looks at the
needle's first occurrence), and FTS5 tokens split the needle on what is not a letter or digit
(a phrase of tokens, not the needle's exact characters).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from kg.model.iris import fold, graph_iri, resource_iri  # noqa: E402
from kg.pipeline.document_graph import canonical_keys  # noqa: E402
from kg.publish.search_index import (LABELS, SUMMARIES, SearchIndex, _KINDS, _load, _only, dump,  # noqa: E402
                                     read_index)
from kg.publish.search_index_merge import patched  # noqa: E402
from kg.store import build_dirs  # noqa: E402
from kg.store.embedded import EmbeddedStore  # noqa: E402

RANKS = ("exact", "prefix", "word", "substring")

SCHEMA = """
PRAGMA journal_mode = WAL;
CREATE TABLE entities (id INTEGER PRIMARY KEY, iri TEXT NOT NULL UNIQUE, label TEXT, types TEXT,
                       mentions INTEGER NOT NULL DEFAULT 0);
CREATE TABLE labels (row INTEGER PRIMARY KEY, entity INTEGER NOT NULL, label TEXT NOT NULL, kind TEXT NOT NULL,
                     kind_order INTEGER NOT NULL, folded TEXT NOT NULL);
-- covering: a whole-label or prefix search never reads the table
CREATE INDEX labels_folded ON labels (folded, entity, kind_order, label, kind);
CREATE INDEX labels_entity ON labels (entity);
CREATE VIRTUAL TABLE words USING fts5 (folded, content = 'labels', content_rowid = 'row',
                                       tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3');
CREATE VIRTUAL TABLE grams USING fts5 (folded, content = 'labels', content_rowid = 'row', tokenize = 'trigram');
"""

TRIGGERS = ("""
CREATE TRIGGER labels_in AFTER INSERT ON labels BEGIN
  INSERT INTO words (rowid, folded) VALUES (new.row, new.folded);
  INSERT INTO grams (rowid, folded) VALUES (new.row, new.folded);
END""", """
CREATE TRIGGER labels_out AFTER DELETE ON labels BEGIN
  INSERT INTO words (words, rowid, folded) VALUES ('delete', old.row, old.folded);
  INSERT INTO grams (grams, rowid, folded) VALUES ('delete', old.row, old.folded);
END""")

# per tier, the candidate labels with their rank; the best (rank, folded, kind, label) per entity
_COLUMNS = "l.entity, l.folded, l.kind_order, l.label, l.kind"
_PREFIX = f"SELECT {_COLUMNS}, CASE WHEN l.folded = :n THEN 0 ELSE 1 END AS rank FROM labels l " \
          "WHERE l.folded >= :n AND l.folded < :hi"
_WORD = f"SELECT {_COLUMNS}, 2 AS rank FROM words w JOIN labels l ON l.row = w.rowid WHERE words MATCH :words"
_GRAMS = f"SELECT {_COLUMNS}, 3 AS rank FROM grams g JOIN labels l ON l.row = g.rowid WHERE grams MATCH :grams"
_SCAN = f"SELECT {_COLUMNS}, 3 AS rank FROM labels l WHERE instr(l.folded, :n) > 0"
_RANKED = """
WITH candidates AS ({union})
SELECT e.iri, c.rank, c.label, c.kind FROM candidates c JOIN entities e ON e.id = c.entity
ORDER BY c.rank, e.mentions DESC, c.folded, e.iri, c.kind_order, c.label
"""  # an entity's first row is its best label (its mentions and IRI are the same on all its rows)


class FtsIndex:
    """The same labels and summaries in one SQLite file, searched by SQL."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.execute("PRAGMA query_only = 1")

    def close(self) -> None:
        self.db.close()

    @staticmethod
    def build(path: Path, label_rows: list[dict[str, str]], summary_rows: list[dict[str, str]]) -> None:
        db = sqlite3.connect(path, isolation_level=None)
        db.executescript(SCHEMA)
        db.execute("BEGIN")
        _insert(db, label_rows, summary_rows)
        db.execute("INSERT INTO words (words) VALUES ('rebuild')")
        db.execute("INSERT INTO grams (grams) VALUES ('rebuild')")
        db.execute("INSERT INTO words (words) VALUES ('optimize')")
        db.execute("INSERT INTO grams (grams) VALUES ('optimize')")
        for trigger in TRIGGERS:
            db.execute(trigger)
        db.execute("COMMIT")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.close()

    @staticmethod
    def patch(path: Path, touched: frozenset[str], label_rows: list[dict[str, str]],
              summary_rows: list[dict[str, str]]) -> None:
        """The rows of `touched` replaced by theirs read again (the triggers keep FTS5 in step)."""
        db = sqlite3.connect(path, isolation_level=None)
        db.execute("BEGIN")
        db.execute("CREATE TEMP TABLE touched (iri TEXT PRIMARY KEY)")
        db.executemany("INSERT INTO touched VALUES (?)", [(iri,) for iri in touched])
        db.execute("DELETE FROM labels WHERE entity IN (SELECT e.id FROM entities e JOIN touched USING (iri))")
        db.execute("DELETE FROM entities WHERE iri IN (SELECT iri FROM touched)")
        _insert(db, label_rows, summary_rows)
        db.execute("COMMIT")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.close()

    def search(self, text: str, limit: int) -> list[tuple[str, str, str, str]]:
        """(entity IRI, rank, matched label, kind), best first."""
        needle = " ".join(fold(text).split())
        if not needle:
            return []
        words = _phrase(needle)
        params = {"n": needle, "hi": needle + "\U0010ffff", "words": words,
                  "grams": '"' + needle.replace('"', '""') + '"'}
        tiers = [[_PREFIX]]
        if words:
            tiers.append([_PREFIX, _WORD])
        tiers.append([*tiers[-1], _GRAMS if len(needle) >= 3 else _SCAN])
        for parts in tiers:
            found: dict[str, tuple[str, str, str, str]] = {}
            for iri, rank, label, kind in self.db.execute(_RANKED.format(union=" UNION ALL ".join(parts)), params):
                if iri not in found:
                    found[iri] = (iri, RANKS[rank], label, kind)
                    if len(found) == limit:
                        return list(found.values())
        return list(found.values())


def _insert(db: sqlite3.Connection, label_rows: list[dict[str, str]], summary_rows: list[dict[str, str]]) -> None:
    summaries = {r["e"]: r for r in summary_rows}
    iris = sorted({r["e"] for r in label_rows} | set(summaries))
    db.executemany("INSERT INTO entities (iri, label, types, mentions) VALUES (?, ?, ?, ?)",
                   [(iri, summaries.get(iri, {}).get("label", ""),
                     " ".join(sorted(summaries.get(iri, {}).get("types", "").split())),
                     int(summaries.get(iri, {}).get("mentions") or 0)) for iri in iris])
    number = dict(db.execute("SELECT iri, id FROM entities WHERE iri IN (SELECT value FROM json_each(?))",
                             (_json_list(iris),)))
    rows = sorted((r["e"], _KINDS.get(r["kind"], len(_KINDS)), r["label"], r["kind"]) for r in label_rows)
    db.executemany("INSERT INTO labels (entity, label, kind, kind_order, folded) VALUES (?, ?, ?, ?, ?)",
                   [(number[iri], label, kind, order, fold(label)) for iri, order, label, kind in rows])


def _json_list(values: list[str]) -> str:
    return json.dumps(values)


def _phrase(needle: str) -> str:
    """The FTS5 query for labels with a word starting with `needle`: a phrase, its last token a prefix
    ('' when the needle has no letter or digit)."""
    if not any(c.isalnum() for c in needle):
        return ""
    return '"' + needle.replace('"', '""') + '" *'


def timed(work: Callable[[], object]) -> tuple[float, object]:
    began = time.perf_counter()
    result = work()
    return time.perf_counter() - began, result


def latencies(search: Callable[[str], object], needles: list[str], repeat: int) -> list[float]:
    out = []
    for needle in needles:
        best = min(timed(lambda: search(needle))[0] for _ in range(repeat))
        out.append(best)
    return out


def quantiles(values: list[float]) -> tuple[float, float]:
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return cuts[49] * 1000, cuts[98] * 1000


def four_letter_needles(folded: list[str], count: int, seed: int) -> list[str]:
    pool = set()
    for text in folded:
        for word in text.split():
            if len(word) >= 4 and word[:4].isalpha():
                pool.add(word[:4])
    return random.Random(seed).sample(sorted(pool), min(count, len(pool)))


def inner_needles(folded: list[str], count: int, seed: int) -> list[str]:
    """Four characters from inside a word (not its start): what only the substring tier finds."""
    pool = set()
    for text in folded:
        for word in text.split():
            if len(word) >= 6 and word[1:5].isalpha():
                pool.add(word[1:5])
    return random.Random(seed).sample(sorted(pool), min(count, len(pool)))


def one_article(store: EmbeddedStore, seed: int) -> tuple[str, frozenset[str]]:
    """A document of the build and the entity records its graph refers to (what an edit of it touches)."""
    rows = store.select("SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }")
    prefix = graph_iri("")
    slugs = sorted(r["g"][len(prefix):] for r in rows if r["g"].startswith(prefix))
    slug = random.Random(seed).choice(slugs)
    keys = canonical_keys(store.dump_graph(graph_iri(slug)))
    return slug, frozenset(resource_iri(k) for k in keys)


def size_mb(*paths: Path) -> float:
    return sum(p.stat().st_size for p in paths if p.exists()) / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("build", type=Path, help="a build directory, or a data directory (its current build)")
    parser.add_argument("--limit", type=int, default=20, help="results per search (the API's default: 20)")
    parser.add_argument("--four", type=int, default=200, help="four-letter needles sampled")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="passes per needle (the best is kept)")
    parser.add_argument("--work", type=Path, default=None, help="where the index files go (a temporary directory)")
    args = parser.parse_args()
    build = args.build
    if not build_dirs.store_path(build).exists():
        build = build_dirs.require_current_build(build)
    work = Path(args.work or tempfile.mkdtemp(prefix="bench-search-"))
    work.mkdir(parents=True, exist_ok=True)
    print(f"build {build}; SQLite {sqlite3.sqlite_version}; work {work}")

    with build_dirs.under_build_base(build):
        store = EmbeddedStore(build_dirs.store_path(build), read_only=True)
        try:
            run(store, build, work, args)
        finally:
            store.close()


def run(store: EmbeddedStore, build: Path, work: Path, args: argparse.Namespace) -> None:
    limit = args.limit
    cur_file, fts_file = work / "search-index.json", work / "search-index.sqlite"
    for path in (cur_file, fts_file, work / "patched.json", work / "patched.sqlite"):
        path.unlink(missing_ok=True)

    # build
    def build_current() -> SearchIndex:
        index = SearchIndex.compute(store.select)
        dump(index, cur_file)
        return index
    t_cur_build, index = timed(build_current)

    def build_fts() -> None:
        FtsIndex.build(fts_file, store.select(_only(LABELS, None)), store.select(_only(SUMMARIES, None)))
    t_fts_build, _ = timed(build_fts)
    t_rows, _ = timed(lambda: (store.select(_only(LABELS, None)), store.select(_only(SUMMARIES, None))))
    t_cur_load, index = timed(lambda: read_index(work))
    t_fts_open, fts = timed(lambda: FtsIndex(fts_file))
    print(f"{len(index.labels)} labels of {len(index.entities)} entities; "
          f"the store's two queries alone: {t_rows:.2f} s")

    # one-article patch
    slug, touched = one_article(store, args.seed)
    print(f"patch: article {slug!r}, {len(touched)} entities")

    def patch_current() -> tuple[float, float, float]:
        t_read, previous = timed(lambda: read_index(work))
        t_merge, new = timed(lambda: patched(previous, touched, store.select))
        t_dump, _ = timed(lambda: dump(new, work / "patched.json"))
        return t_read, t_merge, t_dump
    t_cur_patch, cur_parts = timed(patch_current)

    def patch_fts() -> tuple[float, float]:
        t_copy, _ = timed(lambda: shutil.copyfile(fts_file, work / "patched.sqlite"))
        t_rows, _ = timed(lambda: FtsIndex.patch(work / "patched.sqlite", touched, store.select(_only(LABELS, touched)),
                                                 store.select(_only(SUMMARIES, touched))))
        return t_copy, t_rows
    t_fts_patch, fts_parts = timed(patch_fts)
    patched_fts = FtsIndex(work / "patched.sqlite")

    # searches
    ones = [chr(c) for c in range(ord("a"), ord("z") + 1)]
    fours = four_letter_needles(index.folded, args.four, args.seed)
    cur_search = lambda n: index.search(n, limit)  # noqa: E731
    fts_search = lambda n: fts.search(n, limit)  # noqa: E731
    cur1, fts1 = latencies(cur_search, ones, args.repeat), latencies(fts_search, ones, args.repeat)
    cur4, fts4 = latencies(cur_search, fours, args.repeat), latencies(fts_search, fours, args.repeat)

    inner = inner_needles(index.folded, 50, args.seed)
    curi, ftsi = latencies(cur_search, inner, args.repeat), latencies(fts_search, inner, args.repeat)

    # answers
    overlaps, same_order, same_ranks = [], 0, 0
    for needle in fours + inner:
        a = [(h.entity, h.rank) for h in index.search(needle, limit)]
        b = [(iri, rank) for iri, rank, _, _ in fts.search(needle, limit)]
        sa, sb = {e for e, _ in a}, {e for e, _ in b}
        overlaps.append(len(sa & sb) / max(len(sa), len(sb)) if (sa or sb) else 1.0)
        same_order += [e for e, _ in a] == [e for e, _ in b]
        same_ranks += a == b
    ones_same = sum([h.entity for h in index.search(n, limit)] == [r[0] for r in fts.search(n, limit)] for n in ones)
    # the patched files answer alike
    patched_index = _load((work / "patched.json").read_text(encoding="utf-8"))
    patched_agree = sum([h.entity for h in patched_index.search(n, limit)]
                        == [r[0] for r in patched_fts.search(n, limit)] for n in fours)

    # memory the server holds per served version (the SQLite file is paged in by the OS, shared)
    del index, patched_index
    tracemalloc.start()
    held = read_index(work)
    memory = tracemalloc.get_traced_memory()[0] / 1e6
    tracemalloc.stop()
    del held

    p = lambda xs: "%.2f / %.2f" % quantiles(xs)  # noqa: E731
    print()
    print(f"| index | build s | load s | patch s | 1-letter p50/p99 ms | 4-letter p50/p99 ms | size MB |")
    print("|---|---|---|---|---|---|---|")
    print(f"| current (search-index.json) | {t_cur_build:.2f} | {t_cur_load:.2f} | {t_cur_patch:.2f} "
          f"(read {cur_parts[0]:.2f}, merge {cur_parts[1]:.2f}, write {cur_parts[2]:.2f}) | {p(cur1)} | {p(cur4)} "
          f"| {size_mb(cur_file):.1f} |")
    print(f"| SQLite FTS5 | {t_fts_build:.2f} | {t_fts_open:.3f} | {t_fts_patch:.2f} "
          f"(copy {fts_parts[0]:.2f}, delete+insert {fts_parts[1]:.2f}) | {p(fts1)} | {p(fts4)} "
          f"| {size_mb(fts_file):.1f} |")
    print()
    print(f"the current index read into memory: {memory:.0f} MB of Python objects")
    print(f"four letters inside a word ({len(inner)} needles) p50/p99 ms: current {p(curi)}, SQLite FTS5 {p(ftsi)}")
    print(f"four-letter needles: {len(fours)} word starts + {len(inner)} inside words; "
          f"top-{limit} entity sets overlap (shared / larger set) mean "
          f"{100 * statistics.mean(overlaps):.1f} %, min {100 * min(overlaps):.1f} %; "
          f"same entities in the same order {same_order}/{len(overlaps)}, "
          f"with the same ranks {same_ranks}/{len(overlaps)}")
    print(f"one-letter needles: same top-{limit} in the same order {ones_same}/{len(ones)}")
    print(f"after the patch: same top-{limit} for {patched_agree}/{len(fours)} four-letter needles")
    fts.close()
    patched_fts.close()


if __name__ == "__main__":
    main()
