"""The build on a Dask cluster, and a full build loaded into a remote store by its engine's own
bulk loader, side by side in one run (`python benchmarks/run.py --cluster local:N` runs it).

    python benchmarks/bench_cluster.py --docs 10000 --workers 2 [--work data/bench-cluster]
                                       [--results benchmarks/RESULTS-cluster.md] [--no-stores]

On one generated corpus (benchmarks/corpus/generate.py), one after the other: `kg build --workers 1`
(the process pool's path with one process: the documents read in the build's own process), then
`kg build --cluster local:1` ... `local:N` (N worker processes of a local Dask cluster), each in a
fresh data directory, timed from outside as a user waits for it. Then, from the last build's
kg.nq: `oxigraph load` into an empty directory (the floor) against kg's push into a fresh
`oxigraph serve` (one POST to its bulk loader), and Virtuoso's bulk loader run by hand through
isql (`ld_dir`, `rdf_loader_run`, `checkpoint`: the floor) against kg's push into a fresh
Virtuoso that reads the data directory (the same loader, driven by kg, after its manifest and
drops). `uptime` before and after says how loaded the shared machine was. Markdown on stdout
and in --results.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
if __package__ in (None, ""):
    sys.path.insert(0, str(REPO))

from benchmarks.corpus.generate import write_corpus
from benchmarks.measuring import machine, measure
from kg.store import build_dirs

TIMEOUT = 7200.0
TARGET_ONE_WORKER = 1.15  # 1 worker within this many times the local path with one process
TARGET_SPEED_UP = 1.6  # 2 workers at least this many times faster than 1
TARGET_OXIGRAPH = 1.5
TARGET_VIRTUOSO = 2.0


def kg_build(corpus: Path, data: Path, *args: str) -> measure.Measured:
    kg = Path(sys.executable).parent / "kg"
    # this checkout's kg, not the one the environment was installed from (a git worktree shares it)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    return measure.run([str(kg), "build", "--corpus", str(corpus), "--data", str(data), "--quiet", *args],
                       timeout=TIMEOUT, env=env).check()


def builds(corpus: Path, work: Path, workers: int, progress) -> tuple[list[dict], Path]:
    """The local build with one process, then the cluster with 1..`workers` workers; the last
    build's data directory is kept for the loaders."""
    rows, data = [], None
    for label, args in [("local, one process (`--workers 1`)", ["--workers", "1"]),
                        *[(f"Dask `--cluster local:{n}`", ["--cluster", f"local:{n}"]) for n in range(1, workers + 1)]]:
        if data is not None:
            shutil.rmtree(data, ignore_errors=True)
        data = work / "data"
        run = kg_build(corpus, data, *args)
        phases = dict(build_dirs.read_manifest(build_dirs.current_build(data)).get("phases", []))
        rows.append({"what": label, "seconds": run.seconds, "cpu": run.cpu_seconds, "peak": run.peak_bytes,
                     "read": phases.get("read", 0.0), "cluster": phases.get("cluster", 0.0)})
        print(f"{label}: {run.seconds:.1f} s", file=sys.stderr, flush=True)
        progress(rows)
    return rows, data


def oxigraph_loads(nquads: Path, work: Path) -> dict:
    """`oxigraph load` of kg.nq into an empty directory, against kg's push into `oxigraph serve`."""
    from kg.testing.sparql_servers import OxigraphServer, oxigraph_binary

    floor_dir = work / "oxigraph-load"
    run = measure.run([oxigraph_binary(), "load", "--location", str(floor_dir), "--file", str(nquads)],
                      timeout=TIMEOUT).check()
    shutil.rmtree(floor_dir, ignore_errors=True)
    served = work / "oxigraph-serve"
    served.mkdir()
    server = OxigraphServer(served)
    try:
        pushed = _push(nquads, server.url, {})
    finally:
        server.stop()
        shutil.rmtree(served, ignore_errors=True)
    return {"floor": run.seconds, "kg": pushed}


def virtuoso_loads(nquads: Path, work: Path) -> dict:
    """Virtuoso's bulk loader by hand through isql, against kg's push (the same loader, driven by kg)."""
    from kg.testing.sparql_servers import VirtuosoServer

    by_hand, pushed_into = work / "virtuoso-isql", work / "virtuoso-kg"
    by_hand.mkdir()
    server = VirtuosoServer(by_hand, reads=nquads.parent)
    try:
        started = time.perf_counter()
        server.isql(f"ld_dir('{nquads.parent}', '{nquads.name}', 'urn:kg:bulk-load-default');\n"
                    "rdf_loader_run();\ncheckpoint;", timeout=TIMEOUT)
        floor = time.perf_counter() - started
    finally:
        server.stop()
        shutil.rmtree(by_hand, ignore_errors=True)
    pushed_into.mkdir()
    server = VirtuosoServer(pushed_into, reads=nquads.parent)
    try:
        pushed = _push(nquads, server.url, {"STORE_ISQL": server.isql_address, "STORE_USER": "dba",
                                            "STORE_PASSWORD": "dba", "STORE_AUTH": "digest"})
    finally:
        server.stop()
        shutil.rmtree(pushed_into, ignore_errors=True)
    return {"floor": floor, "kg": pushed}


def _push(nquads: Path, url: str, settings: dict) -> float:
    """Seconds of kg's push of the build holding `nquads` into the store at `url` (a full push)."""
    from kg.store.remote.push import Pusher

    build = nquads.parent
    started = time.perf_counter()
    with build_dirs.under_build_base(build):
        Pusher(url, settings).push_build(build_dirs.store_path(build), build.name)
    return time.perf_counter() - started


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def render(docs: int, described: dict, before: str, after: str, rows: list[dict], loads: dict, command: str) -> str:
    local, *cluster = rows
    lines = [f"# The build on a Dask cluster, and bulk loading ({docs:,} generated articles)", "",
             f"`{command}`, {described['date']}, commit {described['commit']}; {described['cores']}, "
             f"{described['cpu']}, {described['memory']}.", "",
             f"- `uptime` before: {before}", f"- `uptime` after: {after}", "",
             "| build | wall | CPU (process tree) | reaching the cluster | read phase | peak memory "
             "| against the local path |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for row in rows:
        lines.append(f"| {row['what']} | {row['seconds']:.1f} s | {row['cpu']:.1f} s | {row['cluster']:.1f} s | "
                     f"{row['read']:.1f} s | {row['peak'] / 2**30:.2f} GiB | {row['seconds'] / local['seconds']:.2f}x |")
    lines += ["", "CPU counts the build's process and the processes it waits for; the workers of a local "
              "Dask cluster are started by a nanny and are not all counted.", ""]
    if not cluster:
        return "\n".join(lines) + "\n"
    one = cluster[0]["seconds"] / local["seconds"]
    lines.append(f"- 1 worker ÷ local with one process: {one:.2f}x (target ≤ {TARGET_ONE_WORKER}x: "
                 f"{_verdict(one <= TARGET_ONE_WORKER)})")
    if len(cluster) > 1:
        speed_up = cluster[0]["seconds"] / cluster[1]["seconds"]
        lines.append(f"- 2 workers against 1: {speed_up:.2f}x faster (target ≥ {TARGET_SPEED_UP}x: "
                     f"{_verdict(speed_up >= TARGET_SPEED_UP)})")
    if loads:
        lines += ["", "| store | its own loader (floor) | kg's push of the full build | push ÷ floor | target |",
                  "|---|---:|---:|---:|---|"]
        for name, floor_name, target in (("oxigraph", "`oxigraph load`", TARGET_OXIGRAPH),
                                         ("virtuoso", "`ld_dir` + `rdf_loader_run` + `checkpoint` (isql)",
                                          TARGET_VIRTUOSO)):
            if name in loads:
                got = loads[name]
                ratio = got["kg"] / got["floor"]
                lines.append(f"| {name}: {floor_name} | {got['floor']:.1f} s | {got['kg']:.1f} s | {ratio:.2f}x | "
                             f"≤ {target}x: {_verdict(ratio <= target)} |")
    return "\n".join(lines) + "\n"


def _verdict(met: bool) -> str:
    return "met" if met else "**missed**"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=10000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--work", type=Path, default=REPO / "data" / "bench-cluster")
    parser.add_argument("--results", type=Path, default=HERE / "RESULTS-cluster.md")
    parser.add_argument("--no-stores", action="store_true", help="skip the loaders")
    args = parser.parse_args(argv)
    command = "python benchmarks/bench_cluster.py " + " ".join(argv if argv is not None else sys.argv[1:])
    args.work.mkdir(parents=True, exist_ok=True)
    corpus = args.work / f"corpus-{args.docs}"
    if not (corpus / "annotation.conf").exists():
        write_corpus(corpus, args.docs, args.seed, force=True)
    described, before = machine.describe(), uptime()
    loads: dict = {}

    def progress(rows: list[dict]) -> None:  # a run stopped half-way keeps every figure it took
        args.results.write_text(render(args.docs, described, before, uptime() + " (unfinished run)", rows, loads,
                                       command.strip()), encoding="utf-8")

    rows, data = builds(corpus, args.work, args.workers, progress)
    nquads = build_dirs.export_path(build_dirs.current_build(data), "nq")
    if not args.no_stores:
        loads["oxigraph"] = oxigraph_loads(nquads, args.work)
        print(f"oxigraph: {json.dumps(loads['oxigraph'])}", file=sys.stderr, flush=True)
        progress(rows)
        loads["virtuoso"] = virtuoso_loads(nquads, args.work)
    markdown = render(args.docs, described, before, uptime(), rows, loads, command.strip())
    shutil.rmtree(data, ignore_errors=True)
    print(markdown)
    args.results.write_text(markdown, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
