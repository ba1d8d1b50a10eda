"""Render a benchmark run as Markdown: the tables printed by `make bench` and saved as RESULTS.md."""

from __future__ import annotations

from benchmarks.measuring.results import (
    EXPORT_FORMATS,
    SizeResult,
    Step,
    Verdict,
    exponent,
    export_seconds,
    loop_verdicts,
    ratio,
    scale_verdicts,
    verdicts,
    view_verdicts,
)

MARK = {True: "met", False: "**missed**", None: "not measured"}


def seconds(value: float | None) -> str:
    if value is None:
        return "–"
    if value < 10:
        return f"{value:.2f} s"
    if value < 100:
        return f"{value:.1f} s"
    return f"{value:,.0f} s"


def memory(value: int | None) -> str:
    if not value:
        return "–"
    return f"{value / 2**30:.2f} GiB" if value >= 2**30 else f"{value / 2**20:,.0f} MiB"


def times(value: float | None) -> str:
    return "–" if value is None else f"{value:.1f}x"


def cell(step: Step, key: str | None = None) -> str:
    """A step's seconds (or one of its detail timings), marked when projected or missing."""
    value = step.detail.get(key) if key else step.seconds
    if value is None:
        return f"– ({step.note})" if step.note else "–"
    text = seconds(value)
    return f"~{text} (projected)" if step.projected else text


def peak_cell(step: Step) -> str:
    if step.peak is None:
        return "–"
    return f"~{memory(step.peak)} (projected)" if step.projected else memory(step.peak)


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---:" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def build_table(results: list[SizeResult]) -> str:
    rows = []
    for r in results:
        build, bulk, rdf = r.step("build"), r.step("bulk_load"), r.step("rdflib")
        rate = f"{r.quads / build.seconds:,.0f}" if r.quads and build.ok else "–"
        rows.append([f"{r.docs:,}", f"{r.quads:,}" if r.quads else "–", cell(build), seconds(build.cpu),
                     memory(build.peak), rate,
                     cell(bulk), memory(bulk.peak), times(ratio(r.seconds("build"), r.seconds("bulk_load"))),
                     cell(rdf, "parse_seconds"), peak_cell(rdf), per_article(build.detail.get("disk_bytes"), r.docs)])
    return table(["documents", "quads", "`kg build`", "CPU time", "peak memory", "quads/s", "Oxigraph bulk_load (floor)",
                  "floor peak", "build ÷ floor", "rdflib parse", "rdflib peak", "disk per article"], rows)


def per_article(total: int | None, docs: int) -> str:
    """A build's bytes on disk per article."""
    return "–" if not total or not docs else f"{total / docs / 2**10:,.0f} KiB"


def export_table(results: list[SizeResult]) -> str:
    rows = []
    for r in results:
        ours, floor, rdf = r.step("kg_turtle"), r.step("oxigraph_dump"), r.step("rdflib")
        rows.append([f"{r.docs:,}", cell(ours), cell(floor), times(ratio(r.seconds("kg_turtle"), r.seconds("oxigraph_dump"))),
                     cell(rdf, "serialize_seconds"), memory(ours.detail.get("bytes"))])
    return table(["documents", "kg Turtle export", "Oxigraph TriG dump (floor)", "kg ÷ floor",
                  "rdflib Turtle serialize", "kg.ttl size"], rows)


def user_export_table(results: list[SizeResult]) -> str:
    """The four exports as `kg export` writes them, after the full build and after the incremental
    build the rebuilds left (edit, add, remove), with Oxigraph's dump of each store beside them."""
    rows = []
    for r in results:
        cells = []
        for fmt in EXPORT_FORMATS:
            full, incremental = r.step(f"export_{fmt}"), r.step(f"export_{fmt}_incremental")
            written = " (by the build)" if full.detail.get("by_the_build") else ""
            cells.append(f"{cell(full)}{written} / {cell(incremental)}")
        total, total_incremental = export_seconds(r), export_seconds(r, "_incremental")
        dump, dump_incremental = r.step("oxigraph_dump"), r.step("oxigraph_dump_incremental")
        rows.append([f"{r.docs:,}", *cells, f"{seconds(total)} / {seconds(total_incremental)}",
                     times(ratio(total_incremental, total)), f"{cell(dump)} / {cell(dump_incremental)}",
                     times(ratio(dump_incremental.seconds if dump_incremental.ok else None,
                                 dump.seconds if dump.ok else None))])
    return table(["documents", *(f"{fmt}: full / incremental" for fmt in EXPORT_FORMATS), "all four",
                  "incremental ÷ full", "Oxigraph TriG dump of the store: full / incremental", "store read ÷"], rows)


def incremental_table(results: list[SizeResult]) -> str:
    rows = []
    for r in results:
        noop = r.step("noop")
        summary = noop.detail.get("summary", "")
        said = "says nothing to do" if "nothing to do" in summary else (summary.split(";")[0] or "–")
        rows.append([f"{r.docs:,}", cell(noop), said]
                    + [f"{cell(r.step(k))} / {cell(r.step(k + '_queryable'))}" for k in ("edit", "add", "remove")]
                    + [memory(r.step("edit").peak)])
    return table(["documents", "no-op rebuild", "no-op output", "edit 1 document: build / until queryable",
                  "add 1: build / until queryable", "remove 1: build / until queryable", "edit peak memory"], rows)


def watched_table(results: list[SizeResult]) -> str:
    """The loop under `kg serve --watch`: `kg build` of the unchanged corpus told by the watcher,
    and each change from its files written until the server answers from the watcher's build."""
    rows = []
    for r in results:
        cells = []
        for kind in ("edit", "add", "remove"):
            step = r.step(f"{kind}_watched")
            built = step.detail.get("build_seconds")
            cells.append(f"{cell(step)} (build {seconds(built)})" if step.ok else cell(step))
        rows.append([f"{r.docs:,}", cell(r.step("noop_watched")), *cells])
    return table(["documents", "no-op `kg build`, told by the watcher", "edit 1 until queryable",
                  "add 1 until queryable", "remove 1 until queryable"], rows)


def cores_table(results: list[SizeResult]) -> str:
    rows = []
    for r in results:
        one, two, every = r.step("build_1core"), r.step("build_2core"), r.step("build")
        two_seconds = two.seconds if two.ok else every.seconds
        rows.append([f"{r.docs:,}", cell(one), cell(two) if two.ok else f"{cell(every)} (all)", cell(every),
                     times(ratio(one.seconds if one.ok else None, two_seconds)), memory(one.peak), memory(every.peak)])
    return table(["documents", "1 core", "2 cores", "all cores", "speed-up 1 → 2", "peak on 1", "peak on all"], rows)


def phase_table(results: list[SizeResult]) -> str:
    """Where the largest full build and its one-document rebuilds spent their time (from their manifests)."""
    if not results:
        return "–"
    r = results[-1]
    steps = [(name, r.step(name)) for name in ("build", "edit", "add", "remove")]
    names: list[str] = []
    for _, step in steps:
        names += [n for n in step.detail.get("phases", {}) if n not in names]
    rows = [[name] + [seconds(step.detail.get("phases", {}).get(name)) for _, step in steps] for name in names]
    rows.append(["**wall time of the process**"] + [cell(step) for _, step in steps])
    return f"{r.docs:,} documents\n\n" + table(["phase", "full build", "edit 1", "add 1", "remove 1"], rows)


def growth_table(results: list[SizeResult]) -> str:
    rows = []
    for a, b in zip(results, results[1:]):
        ks = [exponent(a.docs, a.seconds(s), b.docs, b.seconds(s)) for s in ("build", "bulk_load", "kg_turtle", "edit")]
        peak = exponent(a.docs, a.step("build").peak, b.docs, b.step("build").peak)
        rows.append([f"{a.docs:,} → {b.docs:,}"] + ["–" if k is None else f"{k:.2f}" for k in ks + [peak]])
    return table(["documents", "build time", "bulk_load time", "Turtle export time", "edit rebuild time",
                  "build peak memory"], rows)


def corpus_table(results: list[SizeResult]) -> str:
    rows = []
    for r in results:
        s = r.shape
        if s is None:
            rows.append([f"{r.docs:,}"] + ["–"] * 7)
            continue
        rows.append([f"{r.docs:,}", seconds(r.generate_seconds), f"{s.characters / s.documents:,.0f}",
                     f"{s.per_document('T'):.1f}", f"{s.per_document('R'):.1f}", f"{s.per_document('E'):.1f}",
                     f"{len(s.surfaces):,}", f"{s.top_share():.0%}"])
    return table(["documents", "generated in", "characters/doc", "mentions/doc", "relations/doc", "events/doc",
                  "distinct entity spellings", "top-10 spellings' share"], rows)


README_START = "<!-- benchmark table: written by benchmarks/run.py from the run that wrote RESULTS.md -->"
README_END = "<!-- end of benchmark table -->"


def readme_table(machine: dict[str, str], results: list[SizeResult], command: str, unfinished: bool = False,
                 parts: int = 1) -> str:
    """The README's summary of a run: the same figures as RESULTS.md, never typed by hand (`unfinished`:
    written after each size, so that a run stopped half-way leaves both files from the same figures)."""
    rows = []
    for r in results:
        rows.append([f"{r.docs:,}", f"{r.quads:,}" if r.quads else "–", cell(r.step("build")), cell(r.step("bulk_load")),
                     times(ratio(r.seconds("build"), r.seconds("bulk_load"))), cell(r.step("edit_queryable")),
                     cell(r.step("noop")), memory(r.step("build").peak),
                     per_article(r.step("build").detail.get("disk_bytes"), r.docs),
                     times(ratio(r.seconds("build_1core"), r.seconds("build_2core") or r.seconds("build")))])
    body = table(["documents", "quads", "`kg build`", "bulk_load floor", "build ÷ floor", "edit 1 until queryable",
                  "no-op", "peak memory", "disk per article", "speed-up 1 → 2 cores"], rows)
    where = f"{machine.get('cores', '?')} cores, load average {machine.get('load average', '?').split(' ')[0]} at the start"
    state = " (the run was still going when this was written: sizes not listed were not measured)" if unfinished else ""
    if parts > 1:
        state += f" in {parts} parts (resumed with `--resume` on the same code; RESULTS.md says when each ran)"
    return (f"{README_START}\n{body}\n\nMeasured by `{command}` on {machine.get('date', '?')} ({where}){state}; the targets "
            f"and every other figure: [benchmarks/RESULTS.md](benchmarks/RESULTS.md).\n{README_END}")


def replace_readme_table(readme: str, block: str) -> str:
    """`readme` with its benchmark table replaced by `block` (added at the end of the Benchmarks
    section when it has none yet)."""
    start, end = readme.find(README_START), readme.find(README_END)
    if start >= 0 and end > start:
        return readme[:start] + block + readme[end + len(README_END):]
    heading = readme.find("## Benchmarks")
    after = readme.find("\n## ", heading + 1) if heading >= 0 else -1
    if after < 0:
        return readme.rstrip("\n") + "\n\n" + block + "\n"
    return readme[:after] + "\n" + block + "\n" + readme[after:]


def verdict_line(verdict: Verdict) -> str:
    figures = "" if verdict.figures == MARK[None] else f" ({verdict.figures})"
    return f"- {verdict.target}: {MARK[verdict.met]}{figures}"


def render(machine: dict[str, str], results: list[SizeResult], companions: list[tuple[str, str]],
           command: str, resumed: str = "") -> str:
    """The whole report (`resumed`: how the parts of a resumed run were made (saved.SavedRun.header))."""
    parts = [
        "# Benchmark results",
        f"Written by `{command}` on {machine['date']}. How to read it: docs/benchmarks.md.",
        *([resumed] if resumed else []),
        "## Machine\n\n" + "\n".join(f"- {k}: {v}" for k, v in machine.items()),
        "## Targets (issue 5), at the largest size\n\n"
        + "\n".join(verdict_line(v) for v in verdicts(results)),
        "## Targets of the annotation loop (issue 13)\n\n"
        + "\n".join(verdict_line(v) for v in loop_verdicts(results)),
        "## Targets of the loop at scale (issue 39)\n\n"
        + "\n".join(verdict_line(v) for v in scale_verdicts(results)),
        "## Targets of the network view (issue 39)\n\n"
        "From `benchmarks/bench_view_data.py`, run at every size (its tables are below).\n\n"
        + "\n".join(verdict_line(v) for v in view_verdicts(results)),
        "## Build, beside bulk-loading and parsing the same N-Quads\n\n" + build_table(results),
        "## Turtle export\n\n" + export_table(results),
        "## Rebuilds (incremental build)\n\n" + incremental_table(results),
        "## The loop under `kg serve --watch`\n\n"
        "The watcher (inotify) answers builds on the data directory's socket: the no-op `kg build` takes no "
        "stamp of every file, and a change is built from the paths it names; each change is timed from its "
        "files written until the server answers from the watcher's build (its half second of debounce "
        "included).\n\n" + watched_table(results),
        "## Exports after a full and after an incremental build\n\n"
        "Seconds of `kg export` (kg.publish.export.ensure_export) of each format in turn, N-Quads first, "
        "on the full build and on the build the rebuilds left; \"/dev/null\" where the disk holds no export "
        "beside the build.\n\n" + user_export_table(results),
        "## Where the time goes (phases of `kg build`, from its manifest)\n\n" + phase_table(results),
        "## Build time against cores (pinned with taskset)\n\n" + cores_table(results),
        "## Growth: k in cost ~ N^k between sizes (1.00 is linear)\n\n" + growth_table(results),
        "## Corpus (benchmarks/corpus/generate.py)\n\n" + corpus_table(results),
    ]
    notes = [f"- {r.docs:,} documents, {name}: {text}" for r in results for name, step in r.steps.items()
             for text in (step.note if not step.projected else "", step.detail.get("warning", "")) if text]
    if notes:
        parts.append("## Notes\n\n" + "\n".join(notes))
    for title, body in companions:
        parts.append(f"## {title}\n\n{body.strip()}")
    parts += companion_sections(results)
    return "\n\n".join(parts) + "\n"


def companion_sections(results: list[SizeResult]) -> list[str]:
    """Each companion script's Markdown, a section per script and a subsection per size."""
    titles: list[str] = []
    for r in results:
        titles += [title for title, _ in r.companions if title not in titles]
    return [f"## {title}\n\n" + "\n\n".join(f"### {r.docs:,} documents\n\n{body.strip()}"
                                                 for r in results for t, body in r.companions if t == title)
            for title in titles]
