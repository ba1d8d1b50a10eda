"""Network view benchmark: time to the first drawn frame in headless Chromium.

    python benchmarks/bench_view.py                 # synthetic graphs of 100, 1,000, 5,000 nodes
    python benchmarks/bench_view.py --data DIR      # also the view of DIR's current build
    python benchmarks/bench_view.py --sizes 100 --runs 1

Synthetic graphs have the shape `viz.network.load_graph` gives (families,
labels, one source sentence per edge, two edges per node, preferential
attachment). Each page is rendered by `viz.html.render`, written to a temp
directory and opened from file:// in Debian's Chromium (every other request
blocked); the first frame is vis-network's first `afterDrawing` event,
measured from navigation start with performance.now(). Markdown on stdout.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import networkx as nx

from viz.html import LAYOUT_THRESHOLD, render
from viz.network import FAMILIES

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SIZES = (100, 1_000, 5_000)
TARGET = (1_000, 2.0)  # nodes, seconds to the first frame
TIMEOUT_MS = 120_000


def synthetic_graph(n: int, seed: int = 1) -> nx.MultiDiGraph:
    """A view graph of `n` nodes and about 2n labelled, sourced edges."""
    rng = random.Random(seed)
    skeleton = nx.barabasi_albert_graph(n, 2, seed=seed) if n > 2 else nx.path_graph(n)
    graph = nx.MultiDiGraph(labels={}, docs={"doc:bench": {"title": "Benchmark", "date": "", "publisher": ""}},
                            sentences={})
    for i in skeleton:
        family = rng.choices(FAMILIES, weights=(5, 4, 3, 2, 1, 1, 1))[0]
        graph.add_node(f"n{i}", iri=f"n{i}", family=family, types=[], type_labels=[family.lower()],
                       label=f"{family} {i}", alt=[f"alias {i}"], hidden=[], wikidata=[],
                       mentions=rng.randint(1, 9), facts=[], mention_sentences=[])
    for k, (u, v) in enumerate(skeleton.edges):
        sentence = f"s{k}"
        graph.graph["sentences"][sentence] = {"text": f"Sentence {k} says that {u} relates to {v}.",
                                              "doc": "doc:bench"}
        graph.add_edge(f"n{u}", f"n{v}", key="p", predicate="p", label="relates to", evidence=[sentence])
    return graph


class Browser:
    """One headless Chromium; each measurement opens a fresh page."""

    def __init__(self) -> None:
        from playwright.sync_api import sync_playwright

        self._pw = sync_playwright().start()
        self._browser = self._pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)

    def first_frame(self, url: str) -> dict[str, float | None]:
        """Seconds from navigation start to the first drawn frame, and to physics stopping."""
        context = self._browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
        page = context.new_page()
        page.route("**/*", lambda r: r.continue_() if r.request.url.startswith("file:") else r.abort())
        try:
            page.goto(url, wait_until="load", timeout=TIMEOUT_MS)
            page.wait_for_function("window.kgView && kgView.timings.firstDraw", timeout=TIMEOUT_MS, polling=20)
            if page.evaluate("kgView.data.meta.physics"):
                page.wait_for_function("kgView.timings.stabilized", timeout=TIMEOUT_MS, polling=50)
            t = page.evaluate("kgView.timings")
            return {"first": t["firstDraw"] / 1000, "stopped": (t.get("stabilized") or 0) / 1000 or None}
        finally:
            context.close()

    def close(self) -> None:
        self._browser.close()
        self._pw.stop()


def measure(browser: Browser, graph: nx.MultiDiGraph, name: str, workdir: Path, runs: int,
            physics: bool | None = None) -> dict:
    started = time.perf_counter()
    html = render(graph, physics=physics)
    render_s = time.perf_counter() - started
    path = workdir / f"{len(list(workdir.iterdir()))}.html"
    path.write_text(html, encoding="utf-8")
    samples = [browser.first_frame(path.as_uri()) for _ in range(runs)]
    print(f"[bench_view] {name}, {graph.number_of_nodes()} nodes: {[round(s['first'], 2) for s in samples]}",
          file=sys.stderr, flush=True)
    firsts = [s["first"] for s in samples]
    stopped = [s["stopped"] for s in samples if s["stopped"]]
    physics_on = graph.number_of_nodes() < LAYOUT_THRESHOLD if physics is None else physics
    return {
        "name": name, "nodes": graph.number_of_nodes(), "total": graph.graph.get("total_nodes"), "edges": graph.number_of_edges(),
        "layout": "vis physics, stopped when stable" if physics_on else "networkx (Python), physics off",
        "mib": len(html.encode()) / 2**20, "render": render_s,
        "first": statistics.median(firsts), "first_min": min(firsts), "first_max": max(firsts),
        "stopped": statistics.median(stopped) if stopped else None,
    }


def table(rows: list[dict], runs: int) -> str:
    lines = [
        f"Time to the first drawn frame in headless Chromium (median of {runs} page loads, min–max), "
        "from navigation start to vis-network's first `afterDrawing`.",
        "",
        "| graph | nodes | edges | layout | page MiB | Python render s | first frame s | physics stopped s |",
        "|---|---:|---:|---|---:|---:|---:|---:|",
    ]
    for r in rows:
        stopped = f"{r['stopped']:.2f}" if r["stopped"] else "–"
        shown = f"{r['nodes']:,} of {r['total']:,}" if r.get("total") else f"{r['nodes']:,}"
        lines.append(f"| {r['name']} | {shown} | {r['edges']:,} | {r['layout']} | {r['mib']:.2f} | "
                     f"{r['render']:.2f} | {r['first']:.2f} ({r['first_min']:.2f}–{r['first_max']:.2f}) | "
                     f"{stopped} |")
    target = [r for r in rows if r["nodes"] == TARGET[0] and r["name"].startswith("synthetic")]
    if target:
        verdict = "met" if target[0]["first"] < TARGET[1] else "NOT met"
        lines += ["", f"Target: first frame under {TARGET[1]:.0f} s at {TARGET[0]:,} nodes: {verdict} "
                      f"({target[0]['first']:.2f} s)."]
    return "\n".join(lines)


def build_graph(data_dir: Path) -> nx.MultiDiGraph:
    from viz.hooks import MAX_NODES, open_current_store
    from viz.network import cap_nodes, load_graph

    store = open_current_store(data_dir)
    try:
        return cap_nodes(load_graph(store), MAX_NODES)
    finally:
        store.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--data", type=Path, help="also measure the view of this data directory's current build")
    args = parser.parse_args(argv)
    if not Path(CHROMIUM).exists():
        print(f"Not run: {CHROMIUM} is missing (Debian package chromium).")
        return 0
    browser = Browser()
    rows = []
    try:
        with tempfile.TemporaryDirectory(prefix="bench-view-") as tmp:
            for n in args.sizes:
                graph = synthetic_graph(n)
                rows.append(measure(browser, graph, "synthetic", Path(tmp), args.runs))
                if n == TARGET[0]:
                    rows.append(measure(browser, graph, "synthetic, physics forced", Path(tmp), args.runs,
                                        physics=True))
            if args.data:
                started = time.perf_counter()
                graph = build_graph(args.data)
                load_s = time.perf_counter() - started
                row = measure(browser, graph, f"build in {args.data}", Path(tmp), args.runs)
                row["render"] += load_s
                rows.append(row)
    finally:
        browser.close()
    print(table(rows, args.runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
