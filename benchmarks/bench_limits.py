"""Two limits that sat at their edge (issue 41), probed against a real `kg serve` on 127.0.0.1.

    python benchmarks/bench_limits.py [--rounds 5] [--flood 60] [--articles 300] [--rebuilds 6]

- /health under a lexer flood: `--flood` clients at once each POST a 20 KB query that is all
  lexing (10,000 `a.`, then an escape the parser refuses: a 400), while one client asks
  /health every 0.1 s; the slowest /health of each round (limit 1 s). The server on the shipped
  corpus's build, its default threads and workers.
- /export.ttl across back-to-back rebuilds: a generated corpus of `--articles` articles, built,
  served; then `--rebuilds` times an article is added and `kg build` runs, while one client asks
  /export.ttl again as soon as it has an answer; the longest a request waited for its answer and
  the longest time without an answer (limit 5 s), and the statuses (503 with Retry-After is an
  answer: the export is being made and the client is told when to come back).

Prints Markdown with the load average at the start and end of each part.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import requests

from kg.pipeline.builder import build
from kg.testing.servers import Server

ROOT = Path(__file__).resolve().parent.parent
LEXING = "ASK { " + "a." * 10_000 + " \\u0041 }"  # 20 KB: 10,000 tokens to lex, then a syntax error


def load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def health_under_flood(data: Path, flood: int, rounds: int) -> list[float]:
    """The slowest /health of each round of `flood` lexing queries at once."""
    server = Server(data)
    worst = []
    try:
        for _ in range(rounds):
            stop = threading.Event()
            times: list[float] = []

            def poll() -> None:
                with requests.Session() as session:
                    while not stop.is_set():
                        began = time.monotonic()
                        session.get(server.url + "health", timeout=60)
                        times.append(time.monotonic() - began)
                        time.sleep(0.1)

            def lex() -> None:
                requests.post(server.url + "sparql", data=LEXING.encode(), timeout=120,
                              headers={"Content-Type": "application/sparql-query"})

            poller = threading.Thread(target=poll)
            poller.start()
            clients = [threading.Thread(target=lex) for _ in range(flood)]
            for client in clients:
                client.start()
            for client in clients:
                client.join(180)
            stop.set()
            poller.join(60)
            worst.append(max(times))
    finally:
        server.stop()
    return worst


def export_across_rebuilds(work: Path, articles: int, rebuilds: int) -> tuple[float, float, Counter]:
    """(longest wait for one answer, longest time without an answer, statuses) of /export.ttl."""
    corpus, data = work / "corpus", work / "data"
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "corpus" / "generate.py"), "--docs", str(articles),
                    "--seed", "7", "--out", str(corpus)], check=True, capture_output=True)
    build(corpus, data, validate=False)
    server = Server(data)
    statuses: Counter = Counter()
    waits: list[float] = []
    answered_at = [time.monotonic()]
    gaps: list[float] = []
    stop = threading.Event()

    def ask() -> None:
        answered_at[:] = [time.monotonic()]
        with requests.Session() as session:
            while not stop.is_set():
                began = time.monotonic()
                try:
                    status = session.get(server.url + "export.ttl", timeout=120).status_code
                except requests.RequestException:
                    status = 0
                now = time.monotonic()
                statuses[status] += 1
                waits.append(now - began)
                if status in (200, 503):
                    gaps.append(now - answered_at[-1])
                    answered_at.append(now)

    try:
        requests.get(server.url + "export.ttl", timeout=300)
        client = threading.Thread(target=ask)
        client.start()
        for n in range(rebuilds):
            (corpus / f"zz-added-{n}.txt").write_text(f"Added article {n}: Ana Ruiz met Pedro Ruiz in Cucuta.\n",
                                                      encoding="utf-8")
            subprocess.run([str(Path(sys.executable).with_name("kg")), "build", "--corpus", str(corpus), "--data", str(data),
                            "--quiet", "--no-validate"], check=True, capture_output=True, cwd=ROOT)
        time.sleep(10)
        stop.set()
        client.join(300)
    finally:
        server.stop()
    return max(waits), max(gaps), statuses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--flood", type=int, default=60)
    parser.add_argument("--articles", type=int, default=300)
    parser.add_argument("--rebuilds", type=int, default=6)
    parser.add_argument("--work", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.work, prefix="kg-limits-") as temporary:
        work = Path(temporary)
        before = load()
        shipped = work / "shipped"
        build(ROOT / "corpus", shipped, validate=False)
        worst = health_under_flood(shipped, args.flood, args.rounds)
        print(f"/health under {args.flood} lexing queries of {len(LEXING.encode()):,} bytes, {args.rounds} rounds: "
              f"slowest {max(worst):.2f} s (each round's slowest: {', '.join(f'{w:.2f}' for w in worst)}; "
              f"limit 1 s); load {before} -> {load()}")
        shutil.rmtree(shipped)
        before = load()
        wait, gap, statuses = export_across_rebuilds(work, args.articles, args.rebuilds)
        shown = ", ".join(f"{status}: {count}" for status, count in sorted(statuses.items()))
        print(f"/export.ttl across {args.rebuilds} back-to-back rebuilds of {args.articles} articles: longest wait "
              f"{wait:.2f} s, longest without an answer {gap:.2f} s (limit 5 s); answers {shown}; "
              f"load {before} -> {load()}")


if __name__ == "__main__":
    main()
