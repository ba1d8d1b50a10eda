"""The services annotation tools speak, timed on a real `kg serve`: INCEpTION's knowledge-base searches
(tests/api/services/inception_queries.py, with and without Jena's full-text form) and the reconciliation
service's batches of 10 queries (0.2, as OpenRefine sends them). Markdown on stdout.

    python benchmarks/bench_services.py --data DIR            # a data directory already built
    python benchmarks/bench_services.py --docs 10000          # generate and build one (with the shipped corpus)
                                        [--samples 200] [--seed 1] [--work data/bench/services]
                                        [--without-fts N]                 # names timed without text:query (50)

Names are sampled from the build's search index (preferred names and aliases of entity records, and the first
four letters of a word of one for the prefix searches); every request goes over keep-alive HTTP, one at a time,
after one warm-up of each shape, `--settle` seconds (30) after the first search with and without the full-text form:
what the endpoint reads once a build in the background, to bind INCEpTION's lookups (api/sparql/record_lookups.py),
is read by then.
A request answered with an error (a 503 past the server's 30 s limit) is timed and counted in the table's `failed`
column, not fatal. Targets: p99 of each search shape under 200 ms, p99 of a batch of 10 reconciliation queries under
300 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import requests  # noqa: E402

from benchmarks.bench_load import percentile  # noqa: E402
from benchmarks.corpus.generate import write_corpus  # noqa: E402
from kg.model.entities.aliases import normalize  # noqa: E402
from kg.publish.search_index import index_path  # noqa: E402
from kg.store import build_dirs  # noqa: E402
from kg.testing.servers import Server  # noqa: E402
from tests.api.services import inception_queries as shapes  # noqa: E402

SEARCH_TARGET_MS, BATCH_TARGET_MS = 200.0, 300.0
BATCH = 10
WORK = ROOT / "data" / "bench" / "services"


def corpus_with_shipped(out: Path, docs: int, seed: int) -> Path:
    """A generated corpus of `docs` articles with the shipped corpus's four beside them (their alias table
    appended; a generated alias that names a shipped entity too is left out), so that Guaidó is in it."""
    write_corpus(out, docs, seed)
    shipped = ROOT / "corpus"
    for path in shipped.iterdir():
        if path.suffix in (".txt", ".ann", ".json") or path.name == "tools.conf":
            shutil.copy(path, out / path.name)
    _merge_aliases(out / "aliases.toml", shipped / "aliases.toml")
    return out


def _merge_aliases(generated: Path, shipped: Path) -> None:
    import tomllib

    theirs = tomllib.loads(shipped.read_text(encoding="utf-8"))["entity"]
    claimed = {normalize(s) for e in theirs for s in [e["label"], *e.get("aliases", []), *e.get("hidden", [])]}
    keys = {e["key"] for e in theirs}
    ours = [e for e in tomllib.loads(generated.read_text(encoding="utf-8"))["entity"] if e["key"] not in keys]
    for entry in ours:
        for field in ("aliases", "hidden"):
            if field in entry:
                entry[field] = [s for s in entry[field] if normalize(s) not in claimed]
    text = "\n\n".join("[[entity]]\n" + "\n".join(f"{k} = {json.dumps(v, ensure_ascii=False)}" for k, v in e.items())
                       for e in ours)
    generated.write_text(text + "\n\n" + shipped.read_text(encoding="utf-8"), encoding="utf-8")


def build(docs: int, seed: int, work: Path) -> Path:
    corpus, data = work / f"corpus-{docs}", work / f"data-{docs}"
    if not (data / "current").exists():
        shutil.rmtree(corpus, ignore_errors=True)
        corpus_with_shipped(corpus, docs, seed)
        subprocess.run([str(Path(sys.executable).parent / "kg"), "build", "--corpus", str(corpus), "--data",
                        str(data), "--quiet"], check=True, cwd=ROOT)
    return data


def sample_names(data: Path, count: int, seed: int) -> tuple[list[str], list[str]]:
    """(names, prefixes): names of entity records and the first four letters of one of their words."""
    db = sqlite3.connect(index_path(build_dirs.current_build(data)))
    labels = [row[0] for row in db.execute("SELECT label FROM labels WHERE kind IN ('pref', 'alt') ORDER BY row")]
    db.close()
    rng = random.Random(seed)
    names = rng.sample(labels, min(count, len(labels)))
    words = [w for w in (rng.choice(n.split()) for n in names) if len(w) >= 4 and w.isalpha()]
    return names, [w[:4] for w in words]


def attempt_ms(work: Callable[[], None]) -> tuple[float, int | None]:
    """(milliseconds, the HTTP status of an error answer or None)."""
    began = time.perf_counter()
    try:
        work()
    except requests.HTTPError as error:
        return (time.perf_counter() - began) * 1000, error.response.status_code
    return (time.perf_counter() - began) * 1000, None


def run(data: Path, samples: int, seed: int, without_fts: int | None = 50, settle: float = 30.0) -> str:
    """The table; `without_fts` names of each search shape without the full-text form (None: all, 0: none);
    `settle` seconds waited after the first searches, for what the endpoint reads once a build in the background
    (api/sparql/record_lookups.py: until then the engine does that work)."""
    names, prefixes = sample_names(data, samples, seed)
    server = Server(data, "--workers", "2", "--query-timeout", "30")
    session = requests.Session()

    def sparql(query: str) -> None:
        response = session.post(server.url + "sparql", data={"query": query}, timeout=60,
                                headers={"Accept": "application/sparql-results+json"})
        response.raise_for_status()

    def reconcile(batch: list[str]) -> None:
        queries = {f"q{i}": {"query": name} for i, name in enumerate(batch)}
        session.post(server.url + "reconcile", data={"queries": json.dumps(queries)}, timeout=60).raise_for_status()

    cases: list[tuple[str, Callable[[str], None], list[str]]] = []
    for fts in (True, False):
        mode = "text:query" if fts else "no full-text"
        count = None if fts else without_fts
        if count == 0:
            continue
        cases += [(f"exact name, instances ({mode})", lambda n, f=fts: sparql(shapes.exact_label("instances", n, f)),
                   names[:count]),
                  (f"starts with, instances ({mode})",
                   lambda n, f=fts: sparql(shapes.starting_with("instances", n, f)), prefixes[:count]),
                  (f"contains, instances ({mode})", lambda n, f=fts: sparql(shapes.containing("instances", n, f)),
                   prefixes[:count])]
    batches = [names[i:i + BATCH] for i in range(0, len(names) - BATCH + 1, BATCH)]
    lines = [f"Services on {data} ({build_dirs.read_manifest(build_dirs.current_build(data)).get('quads', '?')} "
             f"quads), {len(names)} names, {len(prefixes)} prefixes, sequential requests over HTTP; load average "
             f"{_load()} at the start:", "",
             "| what | requests | failed | p50 | p99 | max | target |", "|---|---|---|---|---|---|---|"]
    try:
        attempt_ms(lambda: sparql(shapes.starting_with("instances", prefixes[0], True)))
        if without_fts != 0:
            attempt_ms(lambda: sparql(shapes.starting_with("instances", prefixes[0], False)))
        time.sleep(settle)
        for label, work, needles in cases:
            attempt_ms(lambda w=work, n=needles[0]: w(n))  # warm-up
            timed = [attempt_ms(lambda w=work, n=n: w(n)) for n in needles]
            lines.append(_row(label, [ms for ms, _ in timed], SEARCH_TARGET_MS, [st for _, st in timed if st]))
        attempt_ms(lambda: reconcile(batches[0]))  # warm-up
        timed = [attempt_ms(lambda b=b: reconcile(b)) for b in batches]
        lines.append(_row(f"reconciliation batch of {BATCH} (0.2)", [ms for ms, _ in timed], BATCH_TARGET_MS,
                          [st for _, st in timed if st]))
    finally:
        server.stop()
    lines += ["", f"Load average at the end: {_load()} (the machine's {os.cpu_count()} cores); timed {settle:.0f} s "
              "after the first searches (what the endpoint reads once a build in the background)."]
    return "\n".join(lines)


def _load() -> str:
    """The 1-, 5- and 15-minute load averages: what else the machine's cores carried."""
    return " / ".join(f"{value:.1f}" for value in os.getloadavg())


def _row(label: str, times: list[float], target: float, failures: list[int] | None = None) -> str:
    p99 = percentile(times, 99)
    verdict = "met" if p99 < target and not failures else "**missed**"
    failed = ", ".join(f"{failures.count(st)} ({st})" for st in sorted(set(failures))) if failures else "0"
    return (f"| {label} | {len(times)} | {failed} | {statistics.median(times):.1f} ms | {p99:.1f} ms | "
            f"{max(times):.1f} ms | < {target:.0f} ms: {verdict} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, help="a data directory already built")
    parser.add_argument("--docs", type=int, default=10000, help="articles to generate when --data is not given")
    parser.add_argument("--samples", type=int, default=200, help="names sampled")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--work", type=Path, default=WORK)
    parser.add_argument("--without-fts", type=int, default=50,
                        help="names timed without the full-text form (default 50; 0: none; -1: all: on a large "
                             "build a contains search without it takes seconds)")
    parser.add_argument("--settle", type=float, default=30.0,
                        help="seconds waited after the first full-text search, before timing (default 30)")
    args = parser.parse_args()
    data = args.data or build(args.docs, args.seed, args.work)
    print(run(data, args.samples, args.seed, None if args.without_fts < 0 else args.without_fts, args.settle))


if __name__ == "__main__":
    main()
