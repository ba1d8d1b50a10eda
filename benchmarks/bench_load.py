"""Load benchmark: N concurrent clients against a real `kg serve` on 127.0.0.1, mixing
typical SPARQL queries, JSON API calls, the query page and the network view.
Markdown on stdout: p50/p99 latency and errors per kind of request.

    python benchmarks/bench_load.py                      # shipped corpus, 20 clients, 2 x 60 s
    python benchmarks/bench_load.py --data DIR           # DIR's current build
    python benchmarks/bench_load.py --clients 5 --seconds 5

The clients run for 2 x --seconds; one more client sends only queries
running past the time limit (--query-timeout) in every other 10 s window, so
that the two conditions are measured side by side on a machine whose load
drifts. With the slow client the other clients' p99 must stay within 2x of
their p99 without it, and no request may fail (a status >= 400 other than the
slow client's 503s, or a failed connection). Exit status 1 when either fails.
Before anything is timed, each kind of request is sent once (the first
request of the network view draws it) and two clients run for 3 s.

Each client is a thread with its own keep-alive session, a fixed request mix
(seeded, so runs are comparable) and no think time: it sends its next request
when the last one is answered. An answer is timed to its last byte but not
inflated: the network view goes gzip-compressed (6 MB for 42 MB of HTML at
10,000 articles), which a browser inflates natively on the visitor's machine,
while these clients share the server's cores and would inflate it in Python. The server is `kg serve` (waitress and the
query worker processes) exactly as `make run` starts it.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable
from urllib.parse import quote

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import requests

from kg.testing.servers import Server

REPO = Path(__file__).resolve().parent.parent
REQUEST_TIMEOUT = 60.0
WARM_UP_TIMEOUT = 900.0  # the first request of the network view draws it (minutes at 10,000 articles)
P99_LIMIT = 2.0
SLOW_QUERY = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }"
PREFIXES = """PREFIX kgo: <https://kg.example.org/ontology#>
PREFIX kgg: <https://kg.example.org/graph/>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>
PREFIX nif: <http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#>
PREFIX prov: <http://www.w3.org/ns/prov#>
PREFIX dcterms: <http://purl.org/dc/terms/>
"""


# -- the request mix ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Targets:
    """What the requests ask about, read from the server before the run."""

    keys: list[str]
    needles: list[str]


Request = Callable[[requests.Session, str, random.Random, Targets], requests.Response]


def _sparql(session: requests.Session, base: str, query: str, accept: str = "application/sparql-results+json"):
    return session.get(base + "sparql", params={"query": PREFIXES + query}, headers={"Accept": accept},
                       timeout=REQUEST_TIMEOUT)


def _entity(rng: random.Random, targets: Targets) -> str:
    return "https://kg.example.org/id/" + rng.choice(targets.keys)


MIX: dict[str, Request] = {
    "sparql: labels": lambda s, b, r, t: _sparql(s, b, f"""
SELECT ?p ?label WHERE {{ <{_entity(r, t)}> ?p ?label . FILTER(isLiteral(?label)) }}"""),
    "sparql: statements": lambda s, b, r, t: _sparql(s, b, f"""
SELECT DISTINCT ?p ?o ?doc ?sentence WHERE {{
  ?st a kgo:Statement ; rdf:subject <{_entity(r, t)}> ; rdf:predicate ?p ; rdf:object ?o ; prov:wasDerivedFrom ?doc .
  OPTIONAL {{ ?st kgo:evidence/nif:anchorOf ?sentence }} }} LIMIT 200"""),
    "sparql: types": lambda s, b, r, t: _sparql(s, b, """
SELECT ?type (COUNT(DISTINCT ?e) AS ?n) WHERE { GRAPH kgg:entities { ?e a ?type } } GROUP BY ?type"""),
    "sparql: construct": lambda s, b, r, t: _sparql(s, b, f"""
CONSTRUCT {{ ?e ?p ?o }} WHERE {{ BIND(<{_entity(r, t)}> AS ?e) ?e ?p ?o }}""", "text/turtle"),
    "api: entities": lambda s, b, r, t: s.get(b + "api/entities", params={"limit": 20, "offset": r.randrange(50)},
                                              timeout=REQUEST_TIMEOUT),
    "api: entity": lambda s, b, r, t: s.get(b + "api/entities/" + quote(r.choice(t.keys)), timeout=REQUEST_TIMEOUT),
    "api: search": lambda s, b, r, t: s.get(b + "api/search", params={"q": r.choice(t.needles)},
                                            timeout=REQUEST_TIMEOUT),
    "api: documents": lambda s, b, r, t: s.get(b + "api/documents", params={"limit": 10}, timeout=REQUEST_TIMEOUT),
    "api: stats": lambda s, b, r, t: s.get(b + "api/stats", timeout=REQUEST_TIMEOUT),
    "query page": lambda s, b, r, t: s.get(b, timeout=REQUEST_TIMEOUT),
    "network view": lambda s, b, r, t: s.get(b + "graph", timeout=REQUEST_TIMEOUT),
}


def read_targets(base: str) -> Targets:
    """Entity keys and search words from the served graph."""
    items = _until_ready(lambda: requests.get(base + "api/entities", params={"limit": 200},
                                              timeout=REQUEST_TIMEOUT)).json()["items"]
    keys = [item["id"] for item in items if item.get("id")]
    needles = sorted({w[:4].lower() for item in items for w in str(item.get("label", "")).split() if len(w) >= 4})
    if not keys or not needles:
        raise RuntimeError("the served graph has no entities to ask about")
    return Targets(keys, needles)


# -- clients -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Sample:
    kind: str
    seconds: float
    status: int  # 0: no answer (connection failed or timed out)
    error: str = ""
    at: float = 0.0  # when it was sent, seconds from the start of the run


SlowOn = Callable[[float], bool]  # whether the slow client sends at this time of the run


def client(base: str, targets: Targets, seed: int, start: float, stop: float, out: list[Sample]) -> None:
    """Send the request mix, one request after the other, until `stop` (time.monotonic)."""
    rng = random.Random(seed)
    kinds = list(MIX)
    with requests.Session() as session:
        session.stream = True  # read below, to the last byte, without inflating it
        while time.monotonic() < stop:
            kind = rng.choice(kinds)
            at, began = time.monotonic() - start, time.perf_counter()
            try:
                response = MIX[kind](session, base, rng, targets)
                body = response.raw.read(decode_content=False)
                status = response.status_code
                error = "" if status < 400 else body[:200].decode("utf-8", "replace")
            except requests.RequestException as exc:
                status, error = 0, f"{type(exc).__name__}: {exc}"[:200]
            out.append(Sample(kind, time.perf_counter() - began, status, error, at))


def slow_client(base: str, slow_on: SlowOn, start: float, stop: float, out: list[Sample]) -> None:
    """While `slow_on`, send only a query that runs past the time limit; until `stop`."""
    with requests.Session() as session:
        while time.monotonic() < stop:
            at = time.monotonic() - start
            if not slow_on(at):
                time.sleep(0.05)
                continue
            began = time.perf_counter()
            try:
                status = session.get(base + "sparql", params={"query": SLOW_QUERY}, timeout=REQUEST_TIMEOUT).status_code
            except requests.RequestException:
                status = 0
            out.append(Sample("slow query", time.perf_counter() - began, status, at=at))


def run_load(base: str, clients: int, seconds: float, *, with_slow: bool | SlowOn = False, seed: int = 1,
             targets: Targets | None = None) -> tuple[list[Sample], list[Sample]]:
    """Run `clients` clients (and the slow one, always or when `with_slow(t)`) for `seconds`;
    returns (their samples, the slow client's)."""
    targets = targets or read_targets(base)
    start = time.monotonic()
    stop = start + seconds
    lists: list[list[Sample]] = [[] for _ in range(clients)]
    slow: list[Sample] = []
    threads = [threading.Thread(target=client, args=(base, targets, seed * 1000 + i, start, stop, lists[i]),
                                daemon=True) for i in range(clients)]
    if with_slow:
        slow_on = with_slow if callable(with_slow) else (lambda t: True)
        threads.append(threading.Thread(target=slow_client, args=(base, slow_on, start, stop, slow), daemon=True))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + REQUEST_TIMEOUT + 10)
    return [s for samples in lists for s in samples], slow


def run_ab(base: str, clients: int, seconds: float, *, window: float = 10.0, guard: float = 3.5,
           targets: Targets | None = None) -> tuple[list[Sample], list[Sample], list[Sample]]:
    """`clients` clients for 2 x `seconds`, the slow client sending in every other `window`
    (alone, slow, alone, slow...), so that a machine whose load drifts weighs on both sides alike.
    Returns (samples sent alone, samples sent while the slow client ran, the slow client's).
    Alone samples sent less than `guard` seconds into their window are left out: the slow
    query of the window before may still be running then."""
    def slow_on(t: float) -> bool:
        return int(t // window) % 2 == 1

    samples, slow = run_load(base, clients, 2 * seconds, with_slow=slow_on, targets=targets)
    alone = [s for s in samples if not slow_on(s.at) and s.at % window >= guard]
    loaded = [s for s in samples if slow_on(s.at)]
    return alone, loaded, slow


# -- figures ----------------------------------------------------------------------------------

def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0..100), nearest rank."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = max(1, -(-len(ordered) * q // 100))
    return ordered[int(rank) - 1]


def errors(samples: list[Sample]) -> list[Sample]:
    return [s for s in samples if s.status == 0 or s.status >= 400]


def table(samples: list[Sample], baseline: list[Sample] | None = None) -> str:
    """Markdown: requests, errors, p50 and p99 (ms) per kind and overall; p99 ratio to `baseline`."""
    head = "| request | count | errors | p50 ms | p99 ms |" + (" p99 vs alone |" if baseline else "")
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    groups = {kind: [s for s in samples if s.kind == kind] for kind in sorted({s.kind for s in samples})}
    groups["all"] = samples
    for kind, group in groups.items():
        times = [s.seconds for s in group]
        row = f"| {kind} | {len(group)} | {len(errors(group))} | {percentile(times, 50) * 1000:.1f} | " \
              f"{percentile(times, 99) * 1000:.1f} |"
        if baseline:
            alone = [s.seconds for s in baseline if kind == "all" or s.kind == kind]
            row += f" {percentile(times, 99) / percentile(alone, 99):.2f}x |" if alone else " |"
        lines.append(row)
    return "\n".join(lines)


def p99_ratio(loaded: list[Sample], alone: list[Sample]) -> float:
    return percentile([s.seconds for s in loaded], 99) / percentile([s.seconds for s in alone], 99)


# -- main ---------------------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, help="data directory with a build (default: build the shipped corpus)")
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--query-timeout", type=float, default=2.0, help="the server's time limit (s)")
    parser.add_argument("--workers", type=int, default=None, help="the server's query workers (default: its own)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="kg-load-") as scratch:
        data = args.data or _build_shipped(Path(scratch))
        extra = ["--query-timeout", str(args.query_timeout)] + (["--workers", str(args.workers)] if args.workers else [])
        server = Server(data, *extra)
        try:
            return _report(server.url, args)
        finally:
            server.stop()


def _build_shipped(scratch: Path) -> Path:
    from kg.pipeline.builder import build

    build(REPO / "corpus", scratch / "data")
    return scratch / "data"


def warm_up(base: str, targets: Targets) -> None:
    """Each kind of request once, one after the other, then two clients for 3 s: what the server
    makes once per build (the network view drawn and compressed, the stats, the entity keys) is
    made before anything is timed, not by whichever client comes first under load. An answer the
    server computes in the background (a 503 with Retry-After) is asked again until it is there."""
    rng = random.Random(0)
    with requests.Session() as session:
        try:  # a failure here is not counted: the timed requests of the same kinds will show it
            _ = session.get(base + "graph", timeout=WARM_UP_TIMEOUT).content
            for send in MIX.values():
                _until_ready(lambda: send(session, base, rng, targets))
        except requests.RequestException as exc:
            print(f"warm-up: {type(exc).__name__}: {exc}", file=sys.stderr)
    run_load(base, 2, 3.0, targets=targets)


def _until_ready(send) -> requests.Response:
    """Send until the answer is not "being computed" (503 with Retry-After), for WARM_UP_TIMEOUT at most."""
    give_up = time.monotonic() + WARM_UP_TIMEOUT
    answer = send()
    while answer.status_code == 503 and "Retry-After" in answer.headers and time.monotonic() < give_up:
        time.sleep(min(float(answer.headers["Retry-After"]), 2.0))
        answer = send()
    return answer


def _report(base: str, args: argparse.Namespace) -> int:
    targets = read_targets(base)
    warm_up(base, targets)
    alone, loaded, slow = run_ab(base, args.clients, args.seconds, guard=args.query_timeout + 1.5, targets=targets)
    ratio = p99_ratio(loaded, alone)
    slow_statuses = sorted({s.status for s in slow})
    print(f"{args.clients} clients for 2 x {args.seconds:.0f} s, no think time, on {base} (query time limit "
          f"{args.query_timeout:g} s). One more client sends only queries past the time limit in every other "
          f"10 s window; the first {args.query_timeout + 1.5:g} s of the windows without it are left out.\n")
    print(f"**{args.clients} clients alone**: {len(alone)} requests, {len(errors(alone))} errors.\n\n{table(alone)}\n")
    print(f"**With the slow client**: {len(loaded)} requests, {len(errors(loaded))} errors; the slow client sent "
          f"{len(slow)} queries, answered with {slow_statuses} in {percentile([s.seconds for s in slow], 50):.2f} s "
          f"(median).\n\n{table(loaded, alone)}\n")
    ok = not errors(alone) and not errors(loaded) and ratio <= P99_LIMIT
    print(f"Overall p99 with the slow client / alone: **{ratio:.2f}x** (limit {P99_LIMIT:g}x). "
          f"{'PASS' if ok else 'FAIL'}.")
    for sample in (errors(alone) + errors(loaded))[:5]:
        print(f"\n- error: {sample.kind}: status {sample.status} {sample.error.strip()}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
