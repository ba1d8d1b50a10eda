"""The SPARQL lexer guard's time on hostile texts, 10,000 against 100,000 repeats.

    python benchmarks/bench_lexer.py [--runs 3]

The endpoint lexes every query in its request thread before any engine sees it
(kg/store/sparql_lexer.py). Each text below once made it rescan: a run of escaped quotes after a
quote that never closes (0.21 / 0.77 / 3.07 / 13.65 s for 5k / 10k / 20k / 50k
repeats, issue 29), relative BASEs each longer than the one before, a long base or
namespace used by many declarations. Linear means 100,000 repeats take about 10 times
as long as 10,000; the verdict allows 15 (timing noise on a shared machine). Markdown
on stdout. The deterministic check is tests/store/test_sparql_lexer.py (it counts the scans).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kg.store import sparql_lexer as lexer

TEXTS = {
    'unclosed " then \\" runs': lambda n: 'SELECT * { ?s ?p "' + '\\"' * n + " }",
    "unclosed ' then \\' runs": lambda n: "SELECT * { ?s ?p '" + "\\'" * n + " }",
    'unclosed """ then \\" runs': lambda n: 'SELECT * { ?s ?p """' + '\\"' * n + " }",
    '"\\ repeated': lambda n: "ASK { " + '"\\' * n + " }",
    "a. repeated": lambda n: "ASK { " + "a." * n + " }",
}
# Classified whole (analyze: refused past MAX_RESOLVED); the texts above are only split into
# tokens, without the token bound, which would stop the larger ones at 50,000 tokens.
ANALYZED = {
    "relative BASEs (n / 10)": lambda n: "BASE <http://x/> " + "BASE <a/> " * (n // 10) + "ASK {}",
}
SIZES = (10_000, 100_000)
TARGET = 15.0  # most 100k / 10k ratio still called linear


def _split(text: str) -> None:
    lexer.lex(text, limit=10**9)


def _classify(text: str) -> None:
    lexer.analyze.cache_clear()
    try:
        lexer.analyze(text)
    except lexer.LexError:
        pass


def seconds(work, text: str, runs: int) -> float:
    """The least time of `runs` calls of work(text)."""
    best = float("inf")
    for _ in range(runs):
        began = time.perf_counter()
        work(text)
        best = min(best, time.perf_counter() - began)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print("| text | 10,000 repeats | 100,000 repeats | ratio | linear (<= 15x) |")
    print("|---|---:|---:|---:|---|")
    failed = 0
    cases = [(name, make, _split) for name, make in TEXTS.items()]
    for name, make, work in cases + [(name, make, _classify) for name, make in ANALYZED.items()]:
        small, large = (seconds(work, make(n), args.runs) for n in SIZES)
        ratio = large / small
        failed += ratio > TARGET
        print(f"| {name} | {small * 1000:.1f} ms | {large * 1000:.1f} ms | {ratio:.1f} | "
              f"{'yes' if ratio <= TARGET else 'NO'} |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
