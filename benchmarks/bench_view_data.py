"""The network view's cost to its first visitor: drawn from the view data the build kept, against
the whole-store SPARQL read it replaced, side by side on the same build.

    python benchmarks/bench_view_data.py --data data/bench/data-1000 --corpus data/bench/corpus-1000
    python benchmarks/bench_view_data.py --data ... --corpus ... --no-sparql   # skip the old path (minutes at 10,000)

On a real `kg serve` of the build: `/graph` (the first request of a fresh build merges the view
graph and draws graph.html), then `/graph/neighbours` of the most mentioned person (the server
keeps the merged graph for it), and `/graph/neighbours` alone on a second server (which merges it);
then one article edited (benchmarks/mutate.py), `kg build`, and the same requests on the new build.
Beside them, in this process, the path they replaced on the same build: the view graph read from
the store with SPARQL (kg.viz.network.load_graph), capped and rendered as graph.html was.
The data directory's current build must be a fresh one (no graph.html yet); the corpus is edited.
Markdown on stdout.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

import requests

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import mutate
from benchmarks.generate import Generator
from kg.store import build_dirs
from kg.testing.servers import Server

TIMEOUT = 3600.0
TARGETS = {"graph": 5.0, "edit": 2.0, "neighbours": 1.0}  # seconds at 10,000 articles (issue 28)


def timed_get(url: str, **params) -> float:
    started = time.perf_counter()
    answer = requests.get(url, params=params, timeout=TIMEOUT)
    answer.raise_for_status()
    return time.perf_counter() - started


def busiest_actor(data: Path) -> str:
    """A person with the most mentions, from the kept records (what a visitor clicks first)."""
    from kg.model.view_parts import unpack
    from kg.publish.view_data import load_parts
    from kg.viz.network import LABEL_PREDICATES

    mentions = next(p for p, kind in LABEL_PREDICATES.items() if kind == "mentions")
    parts = load_parts(build_dirs.require_current_build(data))
    records = [unpack(part) for part in parts.records.values()]
    counts = {s: int(o.split('"')[1]) for part in records for s, p, o in part.triples if p == mentions}
    people = {x for part in records for x, c in part.types if c.endswith("#Person")}
    return max(sorted(people), key=lambda x: counts.get(x, 0))


def served(data: Path, node: str) -> dict[str, float]:
    """First /graph then first /graph/neighbours of the current build, on a fresh server (the
    server merges the view graph once for both); then /graph/neighbours alone on another one."""
    server = Server(data)
    try:
        times = {"graph": timed_get(server.url + "graph"), "neighbours": timed_get(server.url + "graph/neighbours", node=node)}
    finally:
        server.stop()
    server = Server(data)
    try:
        times["neighbours_alone"] = timed_get(server.url + "graph/neighbours", node=node)
    finally:
        server.stop()
    return times


def sparql_path(data: Path) -> dict[str, float]:
    """The old path on the same build: whole-store SPARQL, then cap and render."""
    from kg.viz import MAX_NODES
    from kg.viz.html import render
    from kg.viz.network import cap_nodes, load_graph

    build = build_dirs.require_current_build(data)
    with build_dirs.build_store(build) as store:
        with build_dirs.under_build_base(build):
            started = time.perf_counter()
            graph = load_graph(store)
            read = time.perf_counter() - started
            render(cap_nodes(graph, MAX_NODES))
            return {"read": read, "page": time.perf_counter() - started}


def edit_and_build(data: Path, corpus: Path) -> float:
    slugs = sorted(p.stem for p in corpus.glob("*.txt"))
    mutate.edit_document(corpus, slugs[len(slugs) // 2], Generator(1, len(slugs)), salt=int(time.time()))
    started = time.perf_counter()
    subprocess.run([str(Path(sys.executable).parent / "kg"), "build", "--corpus", str(corpus), "--data", str(data), "--quiet"],
                   check=True, timeout=TIMEOUT, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def log(what: str, measured):
    print(f"[bench_view_data] {what}: {measured}", file=sys.stderr, flush=True)
    return measured


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--corpus", type=Path, required=True, help="the corpus of --data (one article is edited)")
    parser.add_argument("--no-sparql", action="store_true", help="do not time the whole-store SPARQL path")
    args = parser.parse_args(argv)
    build = build_dirs.require_current_build(args.data)
    if (build / build_dirs.VIEW_FILE).exists():
        print(f"Not run: {build} already has its graph.html (expected a build whose view nobody asked for yet)")
        return 0
    docs = len(list(args.corpus.glob("*.txt")))
    node = busiest_actor(args.data)
    fresh = log("fresh build", served(args.data, node))
    old = None if args.no_sparql else log("whole-store SPARQL", sparql_path(args.data))
    build_seconds = log("edit build", edit_and_build(args.data, args.corpus))
    edited = log("after the edit", served(args.data, node))
    print(table(docs, fresh, edited, build_seconds, old))
    return 0


def table(docs: int, fresh: dict, edited: dict, build_seconds: float, old: dict | None) -> str:
    rows = [
        ("`/graph`, fresh build, first request", fresh["graph"], old["page"] if old else None, TARGETS["graph"]),
        ("`/graph` after a one-article edit, first request", edited["graph"], old["page"] if old else None,
         TARGETS["edit"]),
        ("`/graph/neighbours`, first request after `/graph`", fresh["neighbours"], old["read"] if old else None,
         TARGETS["neighbours"]),
        ("`/graph/neighbours`, first request of a new server", fresh["neighbours_alone"], old["read"] if old else None,
         TARGETS["neighbours"]),
        ("`/graph/neighbours` after the edit, first request after `/graph`", edited["neighbours"],
         old["read"] if old else None, None),
    ]
    lines = [f"{docs:,} articles; the edit's `kg build` took {build_seconds:.2f} s. Old path: the whole-store "
             "SPARQL read (neighbours), then cap and render (`/graph`), in one process on the same build.", "",
             "| request | kept view data | whole-store SPARQL (old) | old ÷ new | target at 10,000 |",
             "|---|---:|---:|---:|---:|"]
    for name, new, before, target in rows:
        lines.append(f"| {name} | {new:.2f} s | {'–' if before is None else f'{before:.2f} s'} | "
                     f"{'–' if before is None else f'{before / new:.0f}x'} | {'–' if target is None else f'<= {target:.0f} s'} |")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
