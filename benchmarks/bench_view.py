"""Network view benchmark: time to the first drawn frame and label overlap in headless Chromium.

    python benchmarks/bench_view.py --data data                       # the current build of data/
    python benchmarks/bench_view.py --data data/bench/d100 --data data/bench/d1000 --runs 3
    python benchmarks/bench_view.py --data data/bench/data-10000 --articles 100,1000   # what run.py does

Each build's page is made from the view index it kept (`kg.viz.build_index`, its overview
above the `view_nodes` setting, as `/graph` draws it), rendered by `viz.html.render`, written to a temp directory and opened from
file:// in Debian's Chromium (1280 x 800, every other request blocked). Reported: the
Python time to read and render, the page size, the first frame (vis-network's first
`afterDrawing`, from navigation start, performance.now()), when the rest of the page's
data is read (`kgView.timings.ready`), what the settled view draws, and the overlap
figure of `viz.measure.OVERLAP` (share of drawn nodes whose node-and-label box overlaps
another's), then the same with every layer turned on. Markdown on stdout.

benchmarks/run.py runs this on its largest build only; so that one run gives the figures at
100, 1,000 and 10,000 articles, a build with more articles than an `--articles` size (default
100 and 1,000) is also measured on the part of its graph that its first N articles (by IRI)
state: the nodes they mention or state an edge of, the edges they state, their sentences.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kg.viz.html import render
from kg.viz.measure import OVERLAP

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TARGETS = {"first": 1.0, "overlap": 0.05}  # seconds at 1,000 articles; share of drawn nodes
TIMEOUT_MS = 120_000
ARTICLES = (100, 1_000)


class Browser:
    """One headless Chromium; each measurement opens a fresh page."""

    def __init__(self) -> None:
        from playwright.sync_api import sync_playwright

        self._pw = sync_playwright().start()
        self._browser = self._pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)

    def first_frame(self, url: str) -> dict:
        """Seconds from navigation start to the first drawn frame, and the overlap at that frame."""
        context = self._browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
        page = context.new_page()
        page.route("**/*", lambda r: r.continue_() if r.request.url.startswith("file:") else r.abort())
        try:
            page.goto(url, wait_until="load", timeout=TIMEOUT_MS)
            page.wait_for_function("window.kgView && kgView.timings.firstDraw && kgView.timings.ready",
                                   timeout=TIMEOUT_MS, polling=20)
            overlap = page.evaluate(OVERLAP)
            timings = page.evaluate("kgView.timings")
            measured = {"first": timings["firstDraw"] / 1000, "ready": timings["ready"] / 1000, **overlap,
                        "labelled": len(page.evaluate("kgView.state().labelled"))}
            page.evaluate("kgView.setLayers(['events', 'quotes', 'figures', 'dates']); kgView.fit()")
            layers = page.evaluate(OVERLAP)
            measured.update(layers_drawn=layers["drawn"], layers_overlapping=layers["overlapping"],
                            layers_share=layers["share"])
            return measured
        finally:
            context.close()

    def close(self) -> None:
        self._browser.close()
        self._pw.stop()


def load(data_dir: Path):
    """The view index of a build, as `/graph` makes it: from the view data the build kept (read
    from its store when it kept none)."""
    from kg.store.build_dirs import require_current_build
    from kg.viz import build_index

    return build_index(require_current_build(data_dir))


def first_articles(graph, count: int):
    """The part of `graph` its first `count` articles (by IRI) state: the nodes they mention or
    state an edge of, the edges they state (or that rest on no sentence), their sentences."""
    from kg.viz.network import ordered_subgraph

    docs = set(sorted(graph.graph.get("docs", {}))[:count])
    said = {s for s, d in graph.graph.get("sentences", {}).items() if d["doc"] in docs}

    def stated(evidence: list) -> bool:
        return not evidence or not said.isdisjoint(evidence)

    keep = {n for n, d in graph.nodes(data=True) if not said.isdisjoint(d["mention_sentences"])}
    keep |= {n for u, v, d in graph.edges(data=True) if d["evidence"] and stated(d["evidence"]) for n in (u, v)}
    part = ordered_subgraph(graph, keep)
    part.remove_edges_from([(u, v, k) for u, v, k, d in part.edges(keys=True, data=True) if not stated(d["evidence"])])
    for _, d in part.nodes(data=True):
        d["mention_sentences"] = [s for s in d["mention_sentences"] if s in said]
    part.graph.update(docs={k: v for k, v in graph.graph["docs"].items() if k in docs},
                      sentences={k: v for k, v in graph.graph["sentences"].items() if k in said})
    return part


def views(data_dir: Path, articles: tuple[int, ...]):
    """(name, the page's graph as `/graph` draws it, seconds to read it) for the build and, when it
    has more articles than a size of `articles`, for its first that many articles (their whole
    graph read from the index, cut to the `view_nodes` best by the index's score: mentions plus
    degree)."""
    import json

    from kg.settings import setting
    from kg.store.build_dirs import MANIFEST_FILE, require_current_build, under_build_base
    from kg.viz.network import graph_of
    from kg.viz.view_index import page_graph

    build = require_current_build(data_dir)
    size = int(setting("view_nodes"))
    started = time.perf_counter()
    index = load(data_dir)
    with under_build_base(build):
        page = page_graph(index, size)
    read = time.perf_counter() - started
    total = len(json.loads((build / MANIFEST_FILE).read_text()).get("documents", {}))
    smaller = sorted(a for a in articles if a < total)
    if smaller:
        with under_build_base(build):
            whole = graph_of(index.schema, index.rows(index.all_nodes(), cap=None), whole_ranks=index.ranks())
        for count in smaller:
            yield f"{data_dir.name}, first {count:,} articles", best_part(first_articles(whole, count), size), None
    yield f"{data_dir.name}, all {total:,} articles", page, read


def best_part(graph, size: int):
    """`graph` when it has at most `size` nodes, else its `size` best by mentions plus degree."""
    from kg.viz.network import ordered_subgraph

    if graph.number_of_nodes() <= size:
        return graph
    best = sorted(graph, key=lambda n: (-(graph.nodes[n]["mentions"] + graph.degree(n)), n))[:size]
    part = ordered_subgraph(graph, best)
    part.graph["total_nodes"] = graph.number_of_nodes()
    return part


def measure(browser: Browser, name: str, graph, read: float | None, workdir: Path, runs: int) -> dict:
    started = time.perf_counter()
    html = render(graph)
    rendered = time.perf_counter()
    path = workdir / "view.html"
    path.write_text(html, encoding="utf-8")
    samples = [browser.first_frame(path.as_uri()) for _ in range(runs)]
    print(f"[bench_view] {name}: {[round(s['first'], 2) for s in samples]}", file=sys.stderr, flush=True)
    firsts = [s["first"] for s in samples]
    readies = [s["ready"] for s in samples]
    docs = len(graph.graph.get("docs", {}))
    return {"name": name, "docs": docs, "nodes": graph.number_of_nodes(),
            "load": read, "render": rendered - started, "mib": len(html.encode()) / 2**20,
            "first": statistics.median(firsts), "first_min": min(firsts), "first_max": max(firsts),
            "ready": statistics.median(readies),
            **{k: samples[0][k] for k in ("drawn", "overlapping", "share", "labelled", "layers_drawn",
                                           "layers_overlapping", "layers_share")}}


def table(rows: list[dict], runs: int) -> str:
    lines = [
        f"First drawn frame and label overlap in headless Chromium, 1280 x 800 (median of {runs} page loads, "
        "min–max). Overlap: share of drawn nodes whose node-and-label box (vis-network getBoundingBox) "
        "overlaps another drawn node's box, once the page has read all its data; then with every layer on "
        "(events, quotes, figures, dates). All data: when the page has read the rest of its data. "
        "\"first N articles\": the part of the build's graph its first N articles state (read once, with the build).",
        "",
        "| build | articles | nodes in the page | read s | render s | page MiB | first frame s | all data s | drawn | "
        "labelled | overlapping | drawn, layers on | overlapping, layers on |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        read = "–" if r["load"] is None else f"{r['load']:.2f}"
        lines.append(f"| {r['name']} | {r['docs']:,} | {r['nodes']:,} | {read} | {r['render']:.2f} | "
                     f"{r['mib']:.1f} | {r['first']:.2f} ({r['first_min']:.2f}–{r['first_max']:.2f}) | "
                     f"{r['ready']:.2f} | {r['drawn']:,} | {r['labelled']:,} | "
                     f"{r['overlapping']} ({100 * r['share']:.1f} %) | {r['layers_drawn']:,} | "
                     f"{r['layers_overlapping']} ({100 * r['layers_share']:.1f} %) |")
    for r in rows:
        if r["docs"] == 1_000:
            lines += ["", f"Targets at 1,000 articles: first frame under {TARGETS['first']:.0f} s: "
                          f"{'met' if r['first'] < TARGETS['first'] else 'NOT met'} ({r['first']:.2f} s); "
                          f"at most {100 * TARGETS['overlap']:.0f} % overlapping: "
                          f"{'met' if r['share'] <= TARGETS['overlap'] else 'NOT met'} ({100 * r['share']:.1f} %)."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, action="append", required=True,
                        help="data directory whose current build is measured (repeatable)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--articles", type=lambda s: tuple(int(x) for x in s.split(",") if x), default=ARTICLES,
                        help="also measure the first N articles of a larger build (comma-separated; default 100,1000)")
    args = parser.parse_args(argv)
    if not Path(CHROMIUM).exists():
        print(f"Not run: {CHROMIUM} is missing (Debian package chromium).")
        return 0
    browser = Browser()
    try:
        with tempfile.TemporaryDirectory(prefix="bench-view-") as tmp:
            rows = [measure(browser, name, graph, read, Path(tmp), args.runs)
                    for data in args.data for name, graph, read in views(data, args.articles)]
    finally:
        browser.close()
    print(table(rows, args.runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
