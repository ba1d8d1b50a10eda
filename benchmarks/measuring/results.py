"""What a benchmark run measured, per corpus size, and the targets checked against it: those of
issue 5 (the build at the largest size) and of issue 13 (the annotation loop at 1,000 and 10,000)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from benchmarks.corpus.check import Shape

GIB = 2**30
TARGET_BUILD_RATIO = 2.0       # kg build within 2x bare Oxigraph bulk_load
TARGET_PEAK_BYTES = 2 * GIB    # under 2 GiB peak memory
TARGET_EXPORT_RATIO = 3.0      # Turtle export within 3x Oxigraph's own serializer
TARGET_NOOP_SECONDS = 1.0      # an unchanged corpus: nothing done in under a second
LINEAR_EXPONENT = 1.15         # cost ~ N**k with k at most this counts as linear
# issue 13, by corpus size: (full build ÷ floor, one edit until a query sees it, no-op seconds)
# and of issue 28 at 100,000
LOOP_TARGETS = {1_000: (2.5, 3.0, None), 10_000: (2.0, 5.0, 0.5), 100_000: (2.0, 10.0, 1.0)}
# issue 39: peak memory of a full build (whole process tree) by size, and the exports of an
# incremental build against those of a full build of the same corpus
PEAK_TARGETS = {10_000: 2 * GIB, 100_000: 3 * GIB}
TARGET_INCREMENTAL_EXPORTS = 1.2
EXPORT_FORMATS = ("nq", "ttl", "trig", "jsonld")
TARGET_CORE_SPEEDUP = 1.6      # at 10,000: a build on 2 cores at least this much faster than on 1
# issue 39: the network view (benchmarks/bench_view_data.py's figures: seconds, and MiB for memory),
# each with what it is and the sizes its target is set at
VIEW_TARGETS = {"graph": 2.0, "edit_graph": 2.0, "neighbours": 0.5, "viz": 5.0, "first_frame": 1.0, "search": 0.3,
                "expand": 0.3, "memory_mib": 500.0}
VIEW_TARGETED = {
    "graph": ("`/graph`, first request of a fresh build", (10_000, 100_000)),
    "edit_graph": ("`/graph` after a one-article edit, first request", (10_000, 100_000)),
    "neighbours": ("neighbours of the most mentioned person, first request of a new server", (10_000, 100_000)),
    "viz": ("`kg viz`", (10_000, 100_000)),
    "first_frame": ("Chromium: first frame", (10_000, 100_000)),
    "search": ("Chromium: search to node on canvas", (10_000, 100_000)),
    "expand": ("Chromium: expand a node", (10_000, 100_000)),
    "memory_mib": ("the server's memory for the view (resident set)", (100_000,)),
}


@dataclass
class Step:
    """One measured operation: seconds of wall time and peak memory, or why it has none."""

    seconds: float | None = None
    peak: int | None = None
    detail: dict = field(default_factory=dict)
    note: str = ""
    projected: bool = False       # figures extrapolated from a smaller corpus, not measured
    cpu: float | None = None      # user + system seconds of the whole process tree
    skipped: bool = False         # not run at this size on purpose (the note says why)

    @property
    def ok(self) -> bool:
        return self.seconds is not None and not self.projected


@dataclass
class SizeResult:
    """Everything measured for one corpus size."""

    docs: int
    generate_seconds: float | None = None
    shape: Shape | None = None
    problems: int = 0
    quads: int | None = None
    steps: dict[str, Step] = field(default_factory=dict)
    companions: list[tuple[str, str]] = field(default_factory=list)  # (title, Markdown) of the companion scripts
    view: dict = field(default_factory=dict)  # the figures of benchmarks/bench_view_data.py (its --json)

    def step(self, name: str) -> Step:
        return self.steps.get(name, Step(note="not run"))

    def seconds(self, name: str) -> float | None:
        step = self.step(name)
        return step.seconds if step.ok else None


@dataclass(frozen=True)
class Verdict:
    """One target: met or not, with the figures that say so."""

    target: str
    met: bool | None          # None: not measured
    figures: str


def ratio(a: float | None, b: float | None) -> float | None:
    return a / b if a is not None and b else None


def exponent(n1: int, t1: float | None, n2: int, t2: float | None) -> float | None:
    """k in t ~ N**k between two sizes (1.0 is linear)."""
    if not t1 or not t2 or n1 == n2:
        return None
    return math.log(t2 / t1) / math.log(n2 / n1)


def verdicts(results: list[SizeResult]) -> list[Verdict]:
    """The targets of issue 5, judged at the largest size measured."""
    if not results:
        return []
    big = results[-1]
    n = f"{big.docs:,} documents"
    build_ratio = ratio(big.seconds("build"), big.seconds("bulk_load"))
    export_ratio = ratio(big.seconds("kg_turtle"), big.seconds("oxigraph_dump"))
    peak = big.step("build").peak
    noop = big.seconds("noop")
    out = [
        _at_most(f"build {n} within {TARGET_BUILD_RATIO:g}x the bulk-load floor", build_ratio,
                 TARGET_BUILD_RATIO, "x"),
        _at_most(f"build {n} under {TARGET_PEAK_BYTES / GIB:g} GiB peak memory",
                 None if peak is None else peak / GIB, TARGET_PEAK_BYTES / GIB, " GiB"),
        _at_most(f"Turtle export of {n} within {TARGET_EXPORT_RATIO:g}x Oxigraph's own serializer", export_ratio,
                 TARGET_EXPORT_RATIO, "x"),
        _at_most(f"no-op rebuild of {n} under {TARGET_NOOP_SECONDS:g} s", noop, TARGET_NOOP_SECONDS, " s"),
    ]
    out.append(_linearity(results))
    return out


def _linearity(results: list[SizeResult]) -> Verdict:
    if len(results) < 2:
        return Verdict("cost growing linearly with N", None, "needs two sizes")
    a, b = results[-2], results[-1]
    ks = {name: exponent(a.docs, a.seconds(name), b.docs, b.seconds(name))
          for name in ("build", "kg_turtle")}
    measured = {k: v for k, v in ks.items() if v is not None}
    if not measured:
        return Verdict("cost growing linearly with N", None, "not measured")
    figures = ", ".join(f"{name} ~ N^{k:.2f}" for name, k in measured.items())
    return Verdict(f"cost growing linearly with N ({a.docs:,} to {b.docs:,} documents)",
                   all(k <= LINEAR_EXPONENT for k in measured.values()), figures)


def loop_verdicts(results: list[SizeResult]) -> list[Verdict]:
    """The targets of issue 13 at each size they name; a size not run is said to be not measured."""
    out = []
    by_docs = {r.docs: r for r in results}
    for docs, (build_ratio, edit_seconds, noop_seconds) in LOOP_TARGETS.items():
        r = by_docs.get(docs)
        n = f"{docs:,} documents"
        measured = ratio(r.seconds("build"), r.seconds("bulk_load")) if r else None
        out.append(_at_most(f"full build of {n} within {build_ratio:g}x the bulk-load floor", measured,
                            build_ratio, "x"))
        edit = r.seconds("edit_queryable") if r else None
        out.append(_at_most(f"edit one of {n} until a query sees it under {edit_seconds:g} s", edit, edit_seconds, " s"))
        if noop_seconds is not None:
            out.append(_at_most(f"no-op rebuild of {n} under {noop_seconds:g} s", r.seconds("noop") if r else None,
                                noop_seconds, " s"))
        if docs == 10_000:
            peak = r.step("build").peak if r else None
            out.append(_at_most(f"peak memory of a full build of {n} under 2 GiB",
                                None if peak is None else peak / GIB, TARGET_PEAK_BYTES / GIB, " GiB"))
            speedup = ratio(r.seconds("build_1core"), r.seconds("build_2core") or r.seconds("build")) if r else None
            out.append(_at_least(f"a build of {n} on 2 cores at least {TARGET_CORE_SPEEDUP:g}x faster than on 1",
                                 speedup, TARGET_CORE_SPEEDUP, "x"))
    return out


def export_seconds(result: SizeResult, kind: str = "") -> float | None:
    """The four exports of a build, one after another (None unless all four were measured)."""
    values = [result.seconds(f"export_{fmt}{kind}") for fmt in EXPORT_FORMATS]
    return None if None in values else sum(values)


def scale_verdicts(results: list[SizeResult]) -> list[Verdict]:
    """Issue 39's targets of the loop at scale measured by this runner: peak memory at 10,000 and
    100,000, the no-op and the edit where `kg serve --watch` tells a build what changed, and the
    exports of an incremental build within 1.2x of a full build's, at each size."""
    out = []
    by_docs = {r.docs: r for r in results}
    for docs, limit in PEAK_TARGETS.items():
        r = by_docs.get(docs)
        peak = r.step("build").peak if r else None
        out.append(_at_most(f"peak memory of a full build of {docs:,} documents (process tree) under "
                            f"{limit / GIB:g} GiB", None if peak is None else peak / GIB, limit / GIB, " GiB"))
    for docs, (_, edit_seconds, noop_seconds) in LOOP_TARGETS.items():
        r = by_docs.get(docs)
        if noop_seconds is not None:
            out.append(_at_most(f"no-op rebuild of {docs:,} documents under {noop_seconds:g} s, told by `kg serve "
                                "--watch`", r.seconds("noop_watched") if r else None, noop_seconds, " s"))
        out.append(_at_most(f"edit one of {docs:,} documents until `kg serve --watch` answers from it under "
                            f"{edit_seconds:g} s", r.seconds("edit_watched") if r else None, edit_seconds, " s"))
    for r in results:
        target = (f"the four exports after an incremental build of {r.docs:,} documents within "
                  f"{TARGET_INCREMENTAL_EXPORTS:g}x those after a full build")
        skipped = [r.step(f"export_{fmt}{kind}") for kind in ("", "_incremental") for fmt in EXPORT_FORMATS
                   if r.step(f"export_{fmt}{kind}").skipped]
        if skipped:
            out.append(Verdict(target, None, skipped[0].note))
            continue
        out.append(_at_most(target, ratio(export_seconds(r, "_incremental"), export_seconds(r)),
                            TARGET_INCREMENTAL_EXPORTS, "x"))
    return out


def view_verdicts(results: list[SizeResult]) -> list[Verdict]:
    """Issue 39's targets of the network view at each size they name (bench_view_data.py's figures,
    run by run.py at every size); a size not run, or a figure its run did not give, is not measured."""
    by_docs = {r.docs: r for r in results}
    out = []
    for docs in sorted({docs for _, sizes in VIEW_TARGETED.values() for docs in sizes}):
        figures = by_docs[docs].view if docs in by_docs else {}
        for key, (what, sizes) in VIEW_TARGETED.items():
            if docs not in sizes:
                continue
            limit, unit = VIEW_TARGETS[key], " MiB" if key.endswith("_mib") else " s"
            out.append(_at_most(f"{what} at {docs:,} documents within {limit:g}{unit}", figures.get(key), limit, unit))
    return out


def _at_least(target: str, value: float | None, limit: float, unit: str) -> Verdict:
    if value is None:
        return Verdict(target, None, "not measured")
    under = "" if value >= limit else f", {value / limit:.2f}x the target"
    return Verdict(target, value >= limit, f"{value:.2f}{unit}{under}")


def _at_most(target: str, value: float | None, limit: float, unit: str) -> Verdict:
    if value is None:
        return Verdict(target, None, "not measured")
    over = "" if value <= limit else f", {value / limit:.2f}x the target"
    return Verdict(target, value <= limit, f"{value:.2f}{unit}{over}")
