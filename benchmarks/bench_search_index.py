"""The build's search index (SQLite FTS5, kg.publish.search_index) on a finished build: what it costs,
and whether it answers as the ranking's definition does.

    python benchmarks/bench_search_index.py BUILD_OR_DATA_DIR [--limit 20] [--four 200] [--seed 1]
                                            [--repeat 3] [--work DIR]

Measured with the code `kg build` and the endpoint run:

- build: the store's two queries (LABELS, SUMMARIES) and the file written whole (`make_index`);
- open: what the server does before its first search (`read_index`: the file checked, then opened),
  and the first search that reads the folded labels into memory (a one- or two-character needle
  that reaches the substring tier);
- patch: one incremental build's work for one article, the entities its graph refers to
  (kg.pipeline.reading.document_graph.canonical_keys, as `kg build` computes them): their rows read again
  from the store, the previous file copied and their rows deleted and inserted (`make_patched`);
- search: p50 and p99 of `search(needle, limit)` for each one-letter needle a..z, for four-letter
  needles sampled from the folded labels (the first four characters of a word), and for four
  letters inside a word (what only the substring tier finds), best of `--repeat` passes per needle;
- the file's size, and for every needle whether the hits are the definition's (every label
  scanned in Python: tests/publish/test_search_index.py's definition), and the patched file's rows equal
  to the whole one's.

The index this replaced (search-index.json, a hand-written file merged with numpy) measured, on
the same 10,000-article build: built in 5.54 s, patched in 0.72 s, p50 of a four-letter search
1.58 ms, p99 of a one-letter search 4.29 ms (docs/benchmarks.md keeps both runs' figures).
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from kg.model.iris import fold, graph_iri, resource_iri  # noqa: E402
from kg.pipeline.reading.document_graph import canonical_keys  # noqa: E402
from kg.publish.search import RANKS, read_index  # noqa: E402
from kg.publish.search_index import KINDS, Rows, label_rows, make_index, make_patched  # noqa: E402
from kg.store import build_dirs  # noqa: E402
from kg.store.embedded import EmbeddedStore  # noqa: E402


def timed(work: Callable[[], object]) -> tuple[float, object]:
    began = time.perf_counter()
    result = work()
    return time.perf_counter() - began, result


def latencies(search: Callable[[str], object], needles: list[str], repeat: int) -> list[float]:
    return [min(timed(lambda: search(needle))[0] for _ in range(repeat)) for needle in needles]


def quantiles(values: list[float]) -> str:
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return f"{cuts[49] * 1000:.2f} / {cuts[98] * 1000:.2f}"


def sampled(folded: list[str], count: int, seed: int, inside: bool) -> list[str]:
    """Four letters of words: their first four, or (inside) four from the second character on."""
    pool = set()
    for text in folded:
        for word in text.split():
            piece = word[1:5] if inside else word[:4]
            if len(word) >= (6 if inside else 4) and piece.isalpha():
                pool.add(piece)
    return random.Random(seed).sample(sorted(pool), min(count, len(pool)))


class Definition:
    """The ranking's definition, every label scanned: the hits a search must give."""

    def __init__(self, labels: Rows, summaries: Rows) -> None:
        self.entries = sorted((r["e"], KINDS.get(r["kind"], len(KINDS)), r["label"], fold(r["label"]))
                               for r in labels)
        self.mentions = {r["e"]: int(r.get("mentions") or 0) for r in summaries}

    def search(self, text: str, limit: int) -> list[tuple[str, str, str]]:
        needle = " ".join(fold(text).split())
        best: dict[str, tuple[int, str, str]] = {}
        for entity, _, label, folded in self.entries:
            at = folded.find(needle)
            if at < 0:
                continue
            rank = 0 if folded == needle else 1 if at == 0 else 2 if not folded[at - 1].isalnum() else 3
            if entity not in best or (rank, folded) < best[entity][:2]:
                best[entity] = (rank, folded, label)
        ordered = sorted(best.items(), key=lambda kv: (kv[1][0], -self.mentions.get(kv[0], 0), kv[1][1], kv[0]))
        return [(iri, label, RANKS[rank]) for iri, (rank, _, label) in ordered[:limit]]


def one_article(store: EmbeddedStore, seed: int) -> tuple[str, frozenset[str]]:
    """A document of the build and the entity records its graph refers to (what an edit of it touches)."""
    rows = store.select("SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }")
    prefix = graph_iri("")
    slugs = sorted(r["g"][len(prefix):] for r in rows if r["g"].startswith(prefix))
    slug = random.Random(seed).choice(slugs)
    keys = canonical_keys(store.dump_graph(graph_iri(slug)))
    return slug, frozenset(resource_iri(k) for k in keys)


def contents(path: Path) -> tuple[list, list]:
    db = sqlite3.connect(path)
    try:
        return (sorted(db.execute("SELECT iri, summary, label, types, mentions FROM entities")),
                sorted(db.execute("SELECT e.iri, l.label, l.kind, l.folded FROM labels l "
                                  "JOIN entities e ON e.id = l.entity")))
    finally:
        db.close()


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
    (work / "build").mkdir(parents=True, exist_ok=True)
    print(f"build {build}; SQLite {sqlite3.sqlite_version}; work {work}")
    with build_dirs.under_build_base(build):
        with EmbeddedStore(build_dirs.store_path(build), read_only=True) as store:
            run(store, work, args)


def run(store: EmbeddedStore, work: Path, args: argparse.Namespace) -> None:
    whole, patched = work / "build" / build_dirs.SEARCH_INDEX_FILE, work / "patched.sqlite"
    for path in (whole, patched):
        path.unlink(missing_ok=True)
    t_rows, (labels, summaries) = timed(lambda: label_rows(store.select))
    t_write, _ = timed(lambda: make_index(whole, labels, summaries))
    t_open, index = timed(lambda: read_index(whole.parent))
    print(f"{len(labels)} labels of {len(summaries)} entities with a summary")

    slug, touched = one_article(store, args.seed)
    t_patch_rows, (few_labels, few_summaries) = timed(lambda: label_rows(store.select, touched))
    t_patch_file, _ = timed(lambda: make_patched(whole, patched, touched, few_labels, few_summaries))
    print(f"patch: article {slug!r}, {len(touched)} entities")

    # a two-character needle no label holds reaches the substring tier: the labels joined are read once
    t_haystack, _ = timed(lambda: index.search("\u2603\u2603", args.limit))
    definition = Definition(labels, summaries)
    folded = [fold(r["label"]) for r in labels]
    needles = {"one letter": [chr(c) for c in range(ord("a"), ord("z") + 1)],
               "four letters, word start": sampled(folded, args.four, args.seed, inside=False),
               "four letters, inside a word": sampled(folded, 50, args.seed, inside=True)}
    print()
    print("| index | build s (store queries + file) | open s | one-article patch s (queries + copy, delete, insert) "
          "| 1-letter p50/p99 ms | 4-letter p50/p99 ms | size MB |")
    print("|---|---|---|---|---|---|---|")
    times = {name: latencies(lambda n: index.search(n, args.limit), group, args.repeat) for name, group in needles.items()}
    print(f"| SQLite FTS5 | {t_rows + t_write:.2f} ({t_rows:.2f} + {t_write:.2f}) | {t_open:.3f} "
          f"| {t_patch_rows + t_patch_file:.2f} ({t_patch_rows:.2f} + {t_patch_file:.2f}) "
          f"| {quantiles(times['one letter'])} | {quantiles(times['four letters, word start'])} "
          f"| {whole.stat().st_size / 1e6:.1f} |")
    print()
    print(f"the first one- or two-character search that reaches the substring tier (the folded labels "
          f"read into memory once): {t_haystack:.2f} s")
    print(f"four letters inside a word ({len(needles['four letters, inside a word'])} needles) p50/p99 ms: "
          f"{quantiles(times['four letters, inside a word'])}")
    for name, group in needles.items():
        same = sum([(h.entity, h.label, h.rank) for h in index.search(n, args.limit)] == definition.search(n, args.limit)
                   for n in group)
        print(f"{name}: the definition's top-{args.limit} (same entities, labels, ranks, order) {same}/{len(group)}")
    print(f"the patched file holds the whole one's rows: {contents(patched) == contents(whole)}")
    index.close()


if __name__ == "__main__":
    main()
