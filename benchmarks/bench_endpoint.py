"""Endpoint benchmark: median latency of typical queries through our /sparql,
side by side with a stock `oxigraph serve` holding the same data and with
rdflib's in-memory engine. Markdown on stdout.

    python benchmarks/bench_endpoint.py                    # shipped corpus + ~1,000,000 triples
    python benchmarks/bench_endpoint.py --triples 200000   # a smaller synthetic graph
    python benchmarks/bench_endpoint.py --data DIR         # shipped corpus + DIR's current build

Our endpoint is the real server (`python -m kg.api serve`: waitress, query
worker processes, lexer guard, row cap) on 127.0.0.1. Oxigraph is
`oxigraph serve-read-only --union-default-graph` on a store loaded from the
same build's N-Quads export. rdflib is a `Dataset(default_union=True)` parsed
from that export, queried in its own process and serializing SPARQL JSON
like the servers do. Every query goes to both servers alternately (one
warm-up each) over keep-alive HTTP; the three engines must agree on the
number of rows. The synthetic graph is a corpus from benchmarks/corpus/generate.py
built with kg.pipeline.builder; work files live under data/bench/endpoint/.

Targets: our /sparql within 1.5x of oxigraph serve (median of the per-query
ratios) and at least 10x faster than rdflib.

With `--stores` a second table per graph compares the remote stores kg
supports: the build is pushed (timed) into a fresh `oxigraph serve` and a
fresh Virtuoso 7 (kg/testing/sparql_servers.py), and the same queries go through our
/sparql with `--store` on each, alternately. `--stores-only` skips the first
table.
"""

from __future__ import annotations

import argparse
import json
import os
import select
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kg.testing.servers import Process, Server, free_port

REPO = Path(__file__).resolve().parent.parent
WORK = REPO / "data" / "bench" / "endpoint"
QUADS_PER_DOC = 775  # what benchmarks/corpus/generate.py documents build to, on average
TARGET_OXIGRAPH = 1.5
TARGET_RDFLIB = 10.0
PREFIXES = """PREFIX kgo: <https://kg.example.org/ontology#>
PREFIX kgg: <https://kg.example.org/graph/>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX nif: <http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#>
PREFIX prov: <http://www.w3.org/ns/prov#>
PREFIX dcterms: <http://purl.org/dc/terms/>
"""
JSON = "application/sparql-results+json"


@dataclass(frozen=True)
class Query:
    name: str
    what: str
    text: str
    accept: str = JSON


def typical_queries(entity: str, needle: str) -> list[Query]:
    """The query mix: lookups, joins through provenance, aggregates, a scan."""
    return [
        Query("label", "one entity's labels", PREFIXES + f"""
SELECT ?p ?label WHERE {{ <{entity}> ?p ?label . FILTER(isLiteral(?label)) }}"""),
        Query("relations", "an entity's statements with document and sentence", PREFIXES + f"""
SELECT DISTINCT ?p ?o ?doc ?sentence WHERE {{
  ?st a kgo:Statement ; rdf:subject <{entity}> ; rdf:predicate ?p ; rdf:object ?o ; prov:wasDerivedFrom ?doc .
  OPTIONAL {{ ?st kgo:evidence/nif:anchorOf ?sentence }}
}}"""),
        Query("mentions", "an entity's mentions with sentence and title", PREFIXES + f"""
SELECT DISTINCT ?text ?sentence ?title WHERE {{
  ?m kgo:denotes <{entity}> ; nif:anchorOf ?text ; nif:referenceContext ?doc .
  OPTIONAL {{ ?m kgo:sentence/nif:anchorOf ?sentence }}
  OPTIONAL {{ ?doc dcterms:title ?title }}
}} LIMIT 500"""),
        Query("types", "entities per type (aggregate)", PREFIXES + """
SELECT ?type (COUNT(DISTINCT ?e) AS ?n) WHERE { GRAPH kgg:entities { ?e a ?type } }
GROUP BY ?type ORDER BY DESC(?n)"""),
        Query("search", "labels containing a string (scan)", PREFIXES + f"""
SELECT DISTINCT ?e ?label WHERE {{
  GRAPH kgg:entities {{ ?e skos:prefLabel|skos:altLabel ?label }}
  FILTER(CONTAINS(LCASE(STR(?label)), "{needle}"))
}} LIMIT 100"""),
        Query("members", "who belongs to which organization (join)", PREFIXES + """
SELECT DISTINCT ?member ?org ?label WHERE {
  ?member kgo:memberOf ?org .
  GRAPH kgg:entities { ?org skos:prefLabel ?label }
} LIMIT 1000"""),
        Query("documents", "latest documents with title", PREFIXES + """
SELECT ?doc ?title ?date WHERE { ?doc a kgo:NewsArticle ; dcterms:title ?title . OPTIONAL { ?doc dcterms:date ?date } }
ORDER BY DESC(?date) LIMIT 20"""),
        Query("describe", "CONSTRUCT of one entity (Turtle)", PREFIXES + f"""
CONSTRUCT {{ <{entity}> ?p ?o }} WHERE {{ <{entity}> ?p ?o }}""", accept="text/turtle"),
    ]


# -- servers ------------------------------------------------------------------------------

def _wait_http(url: str, timeout: float = 120.0) -> None:
    import requests

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            requests.get(url, params={"query": "ASK {}"}, timeout=5)
            return
        except requests.RequestException:
            time.sleep(0.2)
    raise RuntimeError(f"{url} did not come up")


def start_ours(data: Path, workers: int) -> tuple[Server, str]:
    server = Server(data, "--workers", str(workers), "--threads", "8", "--query-timeout", "600")
    url = server.url + "sparql"
    _wait_http(url)
    return server, url


def start_oxigraph(nquads: Path, store: Path) -> tuple[Process, str]:
    binary = str(Path(sys.executable).parent / "oxigraph")
    marker = store / ".loaded-from"
    source = f"{nquads} {nquads.stat().st_size} {nquads.stat().st_mtime_ns}"
    if not marker.exists() or marker.read_text() != source:
        subprocess.run(["rm", "-rf", str(store)], check=True)
        store.mkdir(parents=True)
        subprocess.run([binary, "load", "--location", str(store), "--file", str(nquads)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        marker.write_text(source)
    port = free_port()
    proc = Process([binary, "serve-read-only", "--location", str(store), "--bind", f"127.0.0.1:{port}",
                    "--union-default-graph"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/query"
    _wait_http(url)
    return proc, url


# -- rdflib in its own process ---------------------------------------------------------------

def rdflib_worker(nquads: str) -> None:
    """Load the export, then answer {"query", "runs"} lines with {"times", "rows"}."""
    import rdflib

    started = time.perf_counter()
    dataset = rdflib.Dataset(default_union=True)
    dataset.parse(nquads, format="nquads")
    print(json.dumps({"loaded": time.perf_counter() - started, "quads": len(dataset)}), flush=True)
    for line in sys.stdin:
        job = json.loads(line)
        times, rows = [], 0
        for _ in range(job["runs"]):
            begin = time.perf_counter()
            result = dataset.query(job["query"])
            fmt = "turtle" if result.type in ("CONSTRUCT", "DESCRIBE") else "json"
            body = result.serialize(format=fmt)
            times.append(time.perf_counter() - begin)
            rows = len(result) if result.type == "SELECT" else len(result.graph)
            del body
        print(json.dumps({"times": times, "rows": rows}), flush=True)


class Rdflib:
    """The rdflib worker process; a query over its time budget costs a reload."""

    def __init__(self, nquads: Path, budget: float) -> None:
        self.nquads, self.budget = nquads, budget
        self.proc: Process | None = None
        self.loaded = 0.0

    def _start(self) -> None:
        env = dict(os.environ, PYTHONPATH=str(REPO))
        self.proc = Process([sys.executable, __file__, "--rdflib-worker", str(self.nquads)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
        hello = self._read(3600)
        if hello is None:
            raise RuntimeError("rdflib could not load the export")
        self.loaded = hello["loaded"]

    def _read(self, timeout: float) -> dict | None:
        ready, _, _ = select.select([self.proc.process.stdout], [], [], timeout)
        if not ready:
            return None
        line = self.proc.process.stdout.readline()
        return json.loads(line) if line else None

    def run(self, query: Query, runs: int) -> tuple[list[float] | None, int | None]:
        if self.proc is None:
            self._start()
        self.proc.process.stdin.write(json.dumps({"query": query.text, "runs": runs}) + "\n")
        self.proc.process.stdin.flush()
        answer = self._read(self.budget * runs)
        if answer is None:  # over budget: kill, and reload for the next query
            self.stop()
            return None, None
        return answer["times"], answer["rows"]

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.stop()
            self.proc = None


# -- measuring ----------------------------------------------------------------------------

@dataclass
class Row:
    query: Query
    ours: float = 0.0
    oxigraph: float | None = None  # None: no stock Oxigraph was run (--no-stock)
    rdflib: float | None = None
    rows: dict[str, int | None] = field(default_factory=dict)

    @property
    def ratio(self) -> float | None:
        return self.ours / self.oxigraph if self.oxigraph else None

    @property
    def speedup(self) -> float | None:
        return self.rdflib / self.ours if self.rdflib else None


def _count(body: bytes, accept: str) -> int:
    import pyoxigraph as ox

    if accept == JSON:
        return len(json.loads(body)["results"]["bindings"])
    return len(list(ox.parse(body, format=ox.RdfFormat.TURTLE)))


def time_servers(query: Query, ours: str, oxigraph: str | None, runs: int) -> Row:
    """Median latency on both servers (ours alone when `oxigraph` is None), alternating, after one warm-up each."""
    urls = {"ours": ours, **({"oxigraph": oxigraph} if oxigraph else {})}
    medians, counts = time_urls(query, urls, runs)
    return Row(query, medians["ours"], medians.get("oxigraph"), rows=counts)


def time_urls(query: Query, urls: dict[str, str], runs: int) -> tuple[dict[str, float], dict[str, int | None]]:
    """Median latency of `query` at each URL, taking turns, after one warm-up each; and row counts."""
    import requests

    sessions = {name: (requests.Session(), url) for name, url in urls.items()}
    times: dict[str, list[float]] = {name: [] for name in urls}
    counts: dict[str, int | None] = {}
    for i in range(runs + 1):
        for name, (session, url) in sessions.items():
            begin = time.perf_counter()
            response = session.post(url, data={"query": query.text}, headers={"Accept": query.accept}, timeout=600)
            elapsed = time.perf_counter() - begin
            if response.status_code != 200:
                raise RuntimeError(f"{name} answered {response.status_code} to {query.name}: {response.text[:300]}")
            if i == 0:
                counts[name] = _count(response.content, query.accept)
            else:
                times[name].append(elapsed)
    return {name: statistics.median(values) for name, values in times.items()}, counts


# -- remote stores --------------------------------------------------------------------------

@dataclass
class StoreRun:
    """The remote-store comparison of one graph: push times and query medians per engine."""

    quads: int
    push: dict[str, float] = field(default_factory=dict)
    graphs: int = 0
    rows: list[tuple[Query, dict[str, float], dict[str, int | None]]] = field(default_factory=list)
    load: float = 0.0
    # the engine asked directly for every triple, without and with the LIMIT our row cap appends
    scan: dict[str, tuple[float, float]] = field(default_factory=dict)


def measure_stores(build: Path, args: argparse.Namespace) -> StoreRun:
    """Push `build` into a fresh server of each engine, then time the queries through our /sparql on each."""
    import shutil

    from kg.store import build_dirs
    from kg.store.embedded import EmbeddedStore
    from kg.store.remote import connect
    from kg.store.remote.push import push
    from kg.testing.sparql_servers import ENGINES

    run = StoreRun(sum(1 for _ in open(build_dirs.export_path(build, "nq"), "rb")))
    started: list = []
    urls: dict[str, str] = {}
    with EmbeddedStore(build_dirs.store_path(build), read_only=True) as local:
        for engine, (kind, _) in ENGINES.items():
            directory = args.work / f"store-{engine}"
            shutil.rmtree(directory, ignore_errors=True)
            directory.mkdir(parents=True)
            store = kind(directory)
            started.append(store)
            remote = connect(store.url, {"STORE_ENGINE": engine}, timeout=600)
            begin = time.perf_counter()
            run.graphs = push(remote, local, build.name)
            run.push[engine] = time.perf_counter() - begin
            log(f"  pushed {run.graphs:,} graphs to {engine} in {run.push[engine]:.1f} s")
            server = Server(args.work / f"ours-{engine}", "--store", store.url, "--query-timeout", "600",
                            "--threads", "8", env={"KG_STORE_ENGINE": engine})
            started.append(server)
            urls[engine] = server.url + "sparql"
        entity, needle = pick_entity(urls["oxigraph"])
        for query in typical_queries(entity, needle) + [SCAN]:
            medians, counts = time_urls(query, urls, args.runs)
            log(f"  {query.name}: " + ", ".join(f"{k} {v * 1000:.1f} ms" for k, v in medians.items()) + f", rows {counts}")
            run.rows.append((query, medians, counts))
        for store in (s for s in started if not isinstance(s, Server)):
            remote = connect(store.url, {"STORE_ENGINE": store.name})
            run.scan[store.name] = time_scan(remote.query_url, remote.engine.union_param, args.runs)
            log(f"  {store.name} directly, every triple: {run.scan[store.name][0]:.2f} s, "
                f"with LIMIT {SCAN_CAP + 1:,}: {run.scan[store.name][1]:.2f} s")
        for process in reversed(started):
            process.stop()
    run.load = os.getloadavg()[0]
    return run


SCAN_CAP = 10_000  # our default --max-rows
SCAN = Query("scan", "every triple (cut at the 10,000-row cap)", "SELECT ?s ?p ?o WHERE { ?s ?p ?o }")


def time_scan(query_url: str, union_param: str, runs: int) -> tuple[float, float]:
    """Median seconds for the engine to answer every triple of its union of all graphs, as
    asked without a LIMIT (what the row cap sent before) and with the LIMIT the cap now appends."""
    import requests

    times: tuple[list[float], list[float]] = ([], [])
    for i in range(min(runs, 5) + 1):
        for j, text in enumerate((SCAN.text, f"{SCAN.text}\nLIMIT {SCAN_CAP + 1}")):
            begin = time.perf_counter()
            form = {"query": text, **({union_param: ""} if union_param else {})}
            response = requests.post(query_url, data=form, headers={"Accept": JSON}, timeout=600)
            response.raise_for_status()
            if i:
                times[j].append(time.perf_counter() - begin)
    return statistics.median(times[0]), statistics.median(times[1])


def stores_markdown(name: str, run: StoreRun, runs: int) -> str:
    engines = list(run.push)
    lines = [f"**{name}, remote stores** ({run.quads:,} quads in {run.graphs:,} graphs; load average "
             f"{run.load:.1f} on {os.cpu_count()} cores). Push: "
             + ", ".join(f"{e} {run.push[e]:.1f} s" for e in engines)
             + f". Median latency in ms through our /sparql with `--store` ({runs} runs after a warm-up, "
               "taking turns):", "",
             "| query | rows | " + " | ".join(f"ours → {e}" for e in engines) + " | virtuoso / oxigraph |",
             "|---|---:|" + "---:|" * len(engines) + "---:|"]
    for query, medians, counts in run.rows:
        agree = len(set(counts.values())) == 1
        count = str(counts[engines[0]]) + ("" if agree else f" (!= {counts})")
        ratio = medians["virtuoso"] / medians["oxigraph"]
        lines.append(f"| {query.name} | {count} | " + " | ".join(_ms(medians[e]) for e in engines)
                     + f" | {ratio:.2f} |")
    if run.scan:
        lines += ["", "Each engine asked directly for every triple of its default graph (median s): "
                  + "; ".join(f"{e} {whole:.2f} without a LIMIT, {limited:.2f} with LIMIT {SCAN_CAP + 1:,}"
                              for e, (whole, limited) in run.scan.items()) + "."]
    return "\n".join(lines) + "\n"


def pick_entity(url: str) -> tuple[str, str]:
    """The most mentioned person, and a piece of its folded label to search for."""
    import requests

    from kg.model.iris import fold

    query = PREFIXES + """SELECT ?e ?label WHERE { GRAPH kgg:entities {
      ?e a kgo:Person ; skos:prefLabel ?label ; kgo:mentionCount ?n } } ORDER BY DESC(?n) ?e LIMIT 1"""
    row = requests.post(url, data={"query": query}, headers={"Accept": JSON}, timeout=600).json()
    binding = row["results"]["bindings"][0]
    folded = fold(binding["label"]["value"])
    return binding["e"]["value"], (folded.split()[-1] if folded.split() else folded)[:5]


def measure(name: str, build: Path, args: argparse.Namespace) -> tuple[str, list[Row], dict]:
    from benchmarks.run import build_quads
    from kg.store import build_dirs

    nquads = build_dirs.export_path(build, "nq")
    quads = build_quads(build)
    log(f"{name}: {quads:,} quads in {build}")
    ours_proc, oxi_proc, rdflib = None, None, None
    rows: list[Row] = []
    try:  # every server started is stopped, also when another fails to start
        ours_proc, ours = start_ours(build.parent.parent, args.workers)
        oxi_proc, oxigraph = (None, None) if args.no_stock else start_oxigraph(
            nquads, args.work / f"oxigraph-{build.parent.parent.name}")
        too_big = quads > args.rdflib_max_quads
        if too_big and not (args.skip_rdflib or args.no_stock):
            log(f"  rdflib not run: {quads:,} quads is over --rdflib-max-quads {args.rdflib_max_quads:,}")
        rdflib = None if args.skip_rdflib or args.no_stock or too_big else Rdflib(nquads, args.rdflib_budget)
        entity, needle = pick_entity(ours)
        for query in typical_queries(entity, needle):
            row = time_servers(query, ours, oxigraph, args.runs)
            if rdflib is not None:
                times, count = rdflib.run(query, args.rdflib_runs)
                row.rdflib = statistics.median(times) if times else None
                row.rows["rdflib"] = count
            log(f"  {query.name}: ours {row.ours * 1000:.1f} ms, oxigraph {_ms(row.oxigraph) if row.oxigraph else 'not run'}, "
                f"rdflib {'-' if row.rdflib is None else f'{row.rdflib * 1000:.0f} ms'}, rows {row.rows}")
            rows.append(row)
    finally:
        if ours_proc is not None:
            ours_proc.stop()
        if oxi_proc is not None:
            oxi_proc.stop()
        if rdflib is not None:
            rdflib.stop()
    info = {"quads": quads, "entity": entity, "rdflib_load": rdflib.loaded if rdflib else None,
            "load": os.getloadavg()[0], "rdflib": rdflib is not None}
    return name, rows, info


# -- the graphs ---------------------------------------------------------------------------

def shipped_build(work: Path) -> Path:
    from kg.pipeline.builder import build
    from kg.store import build_dirs

    data = work / "shipped"
    build(REPO / "corpus", data)
    return build_dirs.current_build(data)


def synthetic_build(work: Path, triples: int) -> Path:
    """A build of a generated corpus of about `triples` quads (reused when it exists)."""
    from benchmarks.corpus.generate import write_corpus
    from kg.pipeline.builder import build
    from kg.store import build_dirs

    docs = max(1, round(triples / QUADS_PER_DOC))
    corpus, data = work / f"corpus-{docs}", work / f"data-{docs}"
    if build_dirs.current_build(data) is None:
        if not (corpus / "annotation.conf").exists():
            log(f"generating {docs:,} documents into {corpus}")
            write_corpus(corpus, docs, 1, force=True)
        log(f"building {corpus} (this takes a while the first time)")
        build(corpus, data)
    return build_dirs.current_build(data)


# -- report -------------------------------------------------------------------------------

def _ms(seconds: float | None) -> str:
    if seconds is None:
        return "over budget"
    return f"{seconds * 1000:,.1f}" if seconds < 10 else f"{seconds * 1000:,.0f}"


def markdown(results: list[tuple[str, list[Row], dict]], args: argparse.Namespace) -> str:
    lines = [f"Median latency in ms of each query ({args.runs} runs after a warm-up; rdflib: "
             f"{args.rdflib_runs} runs, budget {args.rdflib_budget:g} s a run). Our /sparql is the real server "
             f"(waitress, {args.workers} query worker processes holding the graph in memory up to 1,500,000 quads, "
             f"lexer guard, 10,000-row cap); oxigraph is a stock "
             f"`oxigraph serve-read-only --union-default-graph` on the same quads; rdflib is an in-memory "
             f"`Dataset(default_union=True)`. Same Accept header (SPARQL JSON, Turtle for CONSTRUCT) everywhere.", ""]
    verdicts = []
    for name, rows, info in results:
        lines += [f"**{name}** ({info['quads']:,} quads; entity `{info['entity'].rsplit('/', 1)[-1]}`"
                  + (f"; rdflib took {info['rdflib_load']:.0f} s to load" if info.get("rdflib_load") else "")
                  + f"; load average {info['load']:.1f} on {os.cpu_count()} cores)",
                  "", "| query | what | rows | our /sparql | oxigraph serve | ours / oxigraph | rdflib | rdflib / ours |",
                  "|---|---|---:|---:|---:|---:|---:|---:|"]
        ran_rdflib = info["rdflib"]
        for row in rows:
            speed = f"{row.speedup:,.0f}x" if row.speedup else ("> budget" if ran_rdflib else "-")
            agree = len({v for v in row.rows.values() if v is not None}) == 1
            count = str(row.rows.get("ours")) + ("" if agree else f" (!= {row.rows})")
            lines.append(f"| {row.query.name} | {row.query.what} | {count} | {_ms(row.ours)} | {_ms(row.oxigraph) if row.oxigraph else 'not run'} | "
                         f"{_ratio(row.ratio)} | {_ms(row.rdflib) if ran_rdflib else '-'} | {speed} |")
        compared = [r for r in rows if r.ratio is not None]
        ratio = statistics.median(r.ratio for r in compared) if compared else None
        worst = max(compared, key=lambda r: r.ratio) if compared else None
        speeds = [r.speedup for r in rows if r.speedup]
        stock = [r.rdflib / r.oxigraph for r in rows if r.rdflib and r.oxigraph]
        verdicts.append((name, ratio, worst, speeds, stock))
        lines.append("")
    lines.append("| graph | median ours / oxigraph | worst query | target 1.5x | median rdflib / ours | least rdflib / ours "
                 "| target 10x | (median rdflib / oxigraph) |")
    lines.append("|---|---:|---|---|---:|---:|---|---:|")
    for name, ratio, worst, speeds, stock in verdicts:
        speed = statistics.median(speeds) if speeds else None
        least = min(speeds) if speeds else None
        lines.append(f"| {name} | {_ratio(ratio)} | {f'{worst.query.name} ({worst.ratio:.2f})' if worst else '-'} | "
                     f"{'not measured (--no-stock)' if ratio is None else 'met' if ratio <= TARGET_OXIGRAPH else 'MISSED'} | "
                     f"{'-' if speed is None else f'{speed:,.0f}x'} | {'-' if least is None else f'{least:,.0f}x'} | "
                     f"{'-' if speed is None else ('met' if speed >= TARGET_RDFLIB else 'MISSED')} | "
                     f"{f'{statistics.median(stock):,.0f}x' if stock else '-'} |")
    return "\n".join(lines) + "\n"


def _ratio(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, help="use this data directory's current build as the large graph")
    parser.add_argument("--triples", type=int, default=1_000_000, help="size of the synthetic graph (default 1e6)")
    parser.add_argument("--runs", type=int, default=15, help="timed runs per query and server")
    parser.add_argument("--rdflib-runs", type=int, default=3)
    parser.add_argument("--rdflib-budget", type=float, default=120.0, help="seconds one rdflib run may take")
    parser.add_argument("--rdflib-max-quads", type=int, default=2_000_000,
                        help="skip rdflib on bigger graphs (it holds everything in Python objects)")
    parser.add_argument("--workers", type=int, default=2, help="query workers of our server")
    parser.add_argument("--skip-rdflib", action="store_true")
    parser.add_argument("--no-stock", action="store_true",
                        help="ours alone: no stock `oxigraph serve` and no rdflib beside it (both load kg.nq; "
                             "at 100,000 articles Oxigraph's load is the bulk-load floor again)")
    parser.add_argument("--skip-shipped", action="store_true")
    parser.add_argument("--stores", action="store_true", help="also compare the remote stores (Oxigraph, Virtuoso)")
    parser.add_argument("--stores-only", action="store_true", help="only the remote-store comparison")
    parser.add_argument("--work", type=Path, default=WORK)
    parser.add_argument("--rdflib-worker", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.rdflib_worker:
        rdflib_worker(args.rdflib_worker)
        return 0
    args.work.mkdir(parents=True, exist_ok=True)
    from kg.store import build_dirs

    graphs = []
    if not args.skip_shipped:
        graphs.append(("Shipped corpus", shipped_build(args.work)))
    if args.data:
        build = build_dirs.current_build(args.data)
        if build is None:
            raise SystemExit(f"{args.data} holds no build")
        graphs.append((f"Build in {args.data.name}", build))
    else:
        graphs.append((f"Synthetic graph (~{args.triples:,} triples)", synthetic_build(args.work, args.triples)))
    if not args.stores_only:
        print(markdown([measure(name, build, args) for name, build in graphs], args))
    if args.stores or args.stores_only:
        for name, build in graphs:
            log(f"{name}: remote stores")
            print(stores_markdown(name, measure_stores(build, args), args.runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
