"""The remote path at size: `kg build --store` into a real Virtuoso against Virtuoso's own bulk
loader of the same N-Quads, the floor.

    python benchmarks/bench_virtuoso.py --corpus data/bench/corpus-1000
    python benchmarks/bench_virtuoso.py --corpus data/bench/corpus-10000 --work /tmp/bench-virtuoso

Two fresh Virtuoso 7 servers (Debian's virtuoso-opensource, kg/testing/sparql_servers.py, the same
configuration): into the first, a full `kg build --corpus ... --store <its /sparql>` (the build's
"push" phase, from its manifest, is what the floor is set against; the whole command is shown
beside it); into the second, the N-Quads that build exported, loaded by `ld_dir` and
`rdf_loader_run` followed by a checkpoint, as Virtuoso's documentation says to bulk-load. Both
stores are then counted: the figures hold only if they hold the same number of quads.
Markdown on stdout.
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

REPO = Path(__file__).resolve().parent.parent
if __package__ in (None, ""):
    sys.path.insert(0, str(REPO))

from kg.store import build_dirs
from kg.testing.sparql_servers import VirtuosoServer

TARGET = 2.0  # the push within this many times the bulk loader (issue 28)
LOAD_TIMEOUT = 7200.0
COUNT = "SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g"


def push(corpus: Path, data: Path, server: VirtuosoServer) -> dict:
    """A full `kg build` pushed into `server`: the whole command's seconds and its push phase's."""
    kg = Path(sys.executable).parent / "kg"
    # this checkout's kg, not the one the environment was installed from (a git worktree shares it)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    started = time.perf_counter()
    subprocess.run([str(kg), "build", "--corpus", str(corpus), "--data", str(data), "--store", server.url, "--quiet"],
                   check=True, timeout=LOAD_TIMEOUT, stdout=subprocess.DEVNULL, env=env)
    whole = time.perf_counter() - started
    build = build_dirs.require_current_build(data)
    manifest = json.loads((build / build_dirs.MANIFEST_FILE).read_text())
    return {"whole": whole, "push": dict(manifest.get("phases", [])).get("push"), "quads": manifest.get("quads"),
            "nquads": build_dirs.export_path(build, "nq")}


def bulk_load(nquads: Path, server: VirtuosoServer) -> float:
    """Virtuoso's bulk loader on `nquads` (linked into the server's directory, the one DirsAllowed names)."""
    target = server.directory / "kg.nq"
    try:
        os.link(nquads, target)
    except OSError:
        shutil.copyfile(nquads, target)
    started = time.perf_counter()
    server.isql("ld_dir('.', 'kg.nq', 'urn:kg:bulk-load-default');\nrdf_loader_run();\ncheckpoint;",
                timeout=LOAD_TIMEOUT)
    return time.perf_counter() - started


def count(server: VirtuosoServer, graphs: set[str]) -> dict[str, int]:
    """Quads per named graph of `graphs` (Virtuoso holds graphs of its own besides)."""
    import requests

    answer = requests.get(server.url, params={"query": COUNT}, timeout=600,
                          headers={"Accept": "application/sparql-results+json"})
    answer.raise_for_status()
    rows = answer.json()["results"]["bindings"]
    return {r["g"]["value"]: int(r["n"]["value"]) for r in rows if r["g"]["value"] in graphs}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--work", type=Path, default=Path("data") / "bench-virtuoso")
    args = parser.parse_args(argv)
    shutil.rmtree(args.work, ignore_errors=True)
    (args.work / "push").mkdir(parents=True)
    (args.work / "bulk").mkdir()
    articles = len(list(args.corpus.glob("*.txt")))
    pushed_into = VirtuosoServer(args.work / "push")
    try:
        pushed = push(args.corpus, args.work / "data", pushed_into)
        graphs = set(json.loads(build_dirs.sections_path(pushed["nquads"]).read_text()))
        pushed_quads = count(pushed_into, graphs)
    finally:
        pushed_into.stop()
    loaded_into = VirtuosoServer(args.work / "bulk")
    try:
        loader = bulk_load(pushed["nquads"], loaded_into)
        loaded_quads = count(loaded_into, graphs)
    finally:
        loaded_into.stop()
    ratio = pushed["push"] / loader if pushed["push"] else None
    differ = sorted(g for g in graphs if pushed_quads.get(g) != loaded_quads.get(g))
    same = "yes" if not differ else (f"**no**: {len(differ)} graphs differ, e.g. {differ[0]} "
                                     f"({pushed_quads.get(differ[0], 0):,} pushed, {loaded_quads.get(differ[0], 0):,} loaded)")
    verdict = "not measured" if ratio is None else ("met" if ratio <= TARGET else "**missed**")
    print("| articles | quads (build) | `kg build --store`: push phase | whole build | Virtuoso bulk loader (floor) "
          "| push ÷ floor | same quads in both |")
    print("|---:|---:|---:|---:|---:|---:|---|")
    print(f"| {articles:,} | {pushed['quads']:,} | {pushed['push']:.1f} s | {pushed['whole']:.1f} s | {loader:.1f} s "
          f"| {ratio:.2f}x | {same} |" if ratio else f"| {articles:,} | – | – | {pushed['whole']:.1f} s | {loader:.1f} s | – | {same} |")
    print(f"\nTarget: the push within {TARGET:g}x the bulk loader: {verdict}.")
    return 0 if not differ else 1


if __name__ == "__main__":
    sys.exit(main())
