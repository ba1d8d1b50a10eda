"""Run every benchmark in one go, print the tables and write benchmarks/RESULTS.md.

    python benchmarks/run.py               # N = 100, 1,000, 10,000, 100,000 (what `make bench` runs)
    python benchmarks/run.py --sizes 100000   # one size alone
    python benchmarks/run.py --quick       # N = 20, 100: a smoke test in seconds

For each N: generate a corpus, `kg build` it in a fresh data directory (a
subprocess: wall time and peak memory of its process tree), the bare
Oxigraph bulk_load of the N-Quads that build exported (the floor), the
rebuilds (nothing changed, one document edited, added, removed), the four
exports a user asks for (N-Quads, Turtle, TriG, JSON-LD, as `kg export` writes
them) of the full build and of the incremental build the rebuilds left, the
build on 1 core, then the Turtle exports beside Oxigraph's own serializer and
rdflib's, and rdflib's parse. Every figure is written out as soon as it is
measured. Above 10,000 articles the floor runs last, once the build's data
directory is removed: at 100,000 the build (53 GB) and the floor's store
(28 GB) do not fit on disk together. Then, at every size, the
view's first requests (bench_view_data.py, first: it needs a build nobody drew the view of yet),
endpoint, load and view benchmarks (bench_endpoint.py, bench_load.py,
bench_view.py) run on that size's graph, and their Markdown is appended. Work files live under
data/bench/ (see docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import sys
import time
from pathlib import Path

import requests

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.corpus import mutate
from benchmarks.corpus.check import check_corpus
from benchmarks.corpus.generate import Generator
from benchmarks.measuring import machine, measure, report
from benchmarks.measuring.results import SizeResult, Step
from benchmarks.measuring.saved import CannotResume, SavedRun
from kg.model.iris import graph_iri
from kg.store import build_dirs
from kg.testing.servers import Server

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
SIZES = (100, 1_000, 10_000, 100_000)
QUICK_SIZES = (20, 100)
# Above this size the build on 1 core and the export floors (Oxigraph's dump, kg's Turtle, rdflib)
# are not run: each is an hour or more at 100,000 articles, and no target is set on them there.
FULL_STEPS_UP_TO = 10_000
QUERYABLE_TIMEOUT = 300.0  # seconds a running server may take to answer from a new build
COMPANIONS = (("Network view: first request, from the kept view data", "bench_view_data.py"),
              ("Endpoint query latencies", "bench_endpoint.py"), ("Endpoint under load", "bench_load.py"),
              ("Network view", "bench_view.py"))
VIEW_DATA = "bench_view_data.py"  # its figures (--json) are judged against issue 39's view targets
NEEDS_CORPUS = {VIEW_DATA}  # edits an article of the corpus and builds again
EXPORT_FORMATS = ("nq", "ttl", "trig", "jsonld")  # N-Quads first: the others are made from it
INCREMENTAL = "_incremental"  # the suffix of the steps measured on the build the rebuilds left
BUILD_COPY = "build"  # the kept copy of a full build's directory (its exports' sources, its store)


class Runner:
    """Runs the measurements of one benchmark session."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.work: Path = args.work
        self.python = sys.executable
        self.kg = _kg_command()
        self.rdflib_limit = min(args.rdflib_max_gib * 2**30, machine.available_memory() // 2 or 2**62)
        self.progress = None  # set by main: writes the partial report
        self.deferred: list[SizeResult] = []  # sizes whose bulk-load floor runs after everything else

    def on_step(self, result: SizeResult) -> None:
        """Called as each figure is measured: RESULTS.md and the README table are rewritten."""
        if self.progress:
            self.progress(result)

    def log(self, message: str) -> None:
        if not self.args.silent:
            print(f"[bench] {message}", file=sys.stderr, flush=True)

    def measure(self, argv: list, timeout: float | None = None) -> measure.Measured:
        return measure.run([str(a) for a in argv], timeout=timeout or self.args.timeout, cwd=REPO)

    # -- one size -------------------------------------------------------------------------

    def size(self, docs: int, earlier: list[SizeResult]) -> SizeResult:
        result = SizeResult(docs)
        corpus, data, scratch = (self.work / f"{kind}-{docs}" for kind in ("corpus", "data", "scratch"))
        self.log(f"{docs:,} documents: generating {corpus}")
        generated = self.measure([self.python, HERE / "corpus" / "generate.py", "--docs", docs, "--seed", self.args.seed,
                                  "--out", corpus, "--force"]).check()
        result.generate_seconds = generated.seconds
        problems, result.shape = check_corpus(corpus)
        result.problems = len(problems)
        for path in (data, scratch):
            shutil.rmtree(path, ignore_errors=True)
        scratch.mkdir(parents=True)
        result.steps = _Steps(lambda: self.on_step(result))  # every figure is written as soon as it is measured
        self.log(f"{docs:,} documents: kg build on every core ({machine.usable_cores()})")
        result.steps["build"] = build = self.kg_build(corpus, data)
        self.log(f"{docs:,} documents: built in {report.seconds(build.seconds)} ({build.note or 'ok'})")
        build_dir = build_dirs.current_build(data)
        if build.seconds is None or build_dir is None:
            self.cores(result, corpus, scratch)
            return result
        result.quads = build_quads(build_dir)
        build.detail["disk_bytes"] = _disk_bytes(build_dir)
        full = docs <= self.args.full_steps_up_to
        # the rebuilds replace the build the floors are measured on; only the floors up to
        # full_steps_up_to read its store
        kept = _keep(build_dir, scratch / "kept", store=full)
        if full:
            self.bulk_load(result, scratch)
        else:
            self.deferred.append(result)
        if not full:  # the full build's exports now: the rebuilds prune it, and no copy of its store is kept
            self.exports(result, kept / BUILD_COPY, "", null=True)
        self.rebuilds(result, corpus, data)
        self.exports(result, build_dirs.current_build(data), INCREMENTAL, null=not full)
        if not full:
            skip(result, ("build_1core", "rdflib", "oxigraph_dump", "kg_turtle", "oxigraph_dump" + INCREMENTAL),
                 self.args.full_steps_up_to)
            self.size_companions(result, data, corpus)
            return result
        self.exports(result, kept / BUILD_COPY, "")
        self.cores(result, corpus, scratch)
        self.floors(result, kept, scratch, earlier)
        result.steps["oxigraph_dump" + INCREMENTAL] = self.floor(
            "oxigraph-dump", build_dirs.store_path(build_dirs.current_build(data)), scratch / "oxigraph.trig")
        (scratch / "oxigraph.trig").unlink(missing_ok=True)
        self.size_companions(result, data, corpus)
        shutil.rmtree(scratch, ignore_errors=True)
        return result

    def exports(self, result: SizeResult, build_dir: Path | None, kind: str, null: bool = False) -> None:
        """The four exports of a build as a user asks for them (N-Quads first: the others read it),
        each in its own process; those not kept by the build are removed once timed. With `null`
        they go to /dev/null (above full_steps_up_to: the disk holds the build and no export beside
        it), and those that would first write an incremental build's kg.nq are not run."""
        if build_dir is None:
            return
        self.log(f"{result.docs:,} documents: the four exports of the {'incremental' if kind else 'full'} build")
        for fmt in EXPORT_FORMATS:
            name = f"export_{fmt}{kind}"
            if build_dirs.export_path(build_dir, fmt).is_file():  # a full build's kg.nq: written as it loaded
                result.steps[name] = Step(0.0, detail={"by_the_build": True})
                continue
            if null and kind and fmt != "nq":
                result.steps[name] = Step(note="not run: it would first write the incremental build's kg.nq "
                                               "beside the build (23 GB at 100,000 articles)", skipped=True)
                continue
            result.steps[name] = self.floor("kg-export", build_dir, f"{fmt}:null" if null else fmt)
            export = build_dirs.export_path(build_dir, fmt)
            if fmt != "nq" and not null:
                export.unlink(missing_ok=True)
                build_dirs.sections_path(export).unlink(missing_ok=True)
        for index in build_dir.glob(".kg.*.null*"):
            index.unlink(missing_ok=True)

    def size_companions(self, result: SizeResult, data: Path, corpus: Path) -> None:
        """The view, endpoint and load benchmarks on this size's graph (the rebuilds' last build)."""
        if not self.args.no_companions:
            result.companions, result.view = self.companions(data, result.docs, corpus)

    def bulk_load(self, result: SizeResult, scratch: Path) -> None:
        """The floor: Oxigraph's bulk_load of the N-Quads the first build exported (kept in scratch)."""
        self.log(f"{result.docs:,} documents: bulk_load floor on {result.quads:,} quads")
        result.steps["bulk_load"] = self.floor("bulk-load", scratch / "kept" / "kg.nq", scratch / "store")
        shutil.rmtree(scratch / "store", ignore_errors=True)

    def deferred_floors(self, keep: bool, done=None) -> None:
        """The floors of the sizes above full_steps_up_to, last: each size's data directory is
        removed first (unless --keep), so that its floor's store has the disk the build had;
        `done(result)` is called as each ends."""
        for result in self.deferred:
            scratch = self.work / f"scratch-{result.docs}"
            if not keep:
                self.log(f"{result.docs:,} documents: removing its data directory to make room for the floor")
                shutil.rmtree(self.work / f"data-{result.docs}", ignore_errors=True)
            self.bulk_load(result, scratch)
            shutil.rmtree(scratch, ignore_errors=True)
            if done:
                done(result)

    def kept_for_floor(self, docs: int) -> bool:
        """Whether a size's N-Quads wait for its deferred floor in the work directory (a resumed run
        runs the floor of a size whose part ended before it)."""
        return (self.work / f"scratch-{docs}" / "kept" / "kg.nq").is_file()

    def kg_build(self, corpus: Path, data: Path, cores: int | None = None) -> Step:
        """`kg build` in its own process (pinned to the first `cores` cores when given); the
        phases it spent its time in come from its manifest."""
        before = build_dirs.current_build(data)
        pin = ["taskset", "-c", f"0-{cores - 1}"] if cores else []
        run = self.measure([*pin, *self.kg, "build", "--corpus", corpus, "--data", data, "--quiet"])
        lines = [line for line in run.stdout.strip().splitlines() if line.strip()]
        summary = next((line for line in lines if " build" in line or "nothing to do" in line), "")
        if run.returncode != 0:
            return Step(peak=run.peak_bytes, note=_failure(run))
        after = build_dirs.current_build(data)
        phases = dict(_manifest(after).get("phases", [])) if after and after != before else {}
        return Step(run.seconds, run.peak_bytes, {"summary": summary, "phases": phases}, cpu=run.cpu_seconds)

    def until_queryable(self, build: Step, server: Server, sparql: str, expected: bool) -> Step:
        """The researcher's loop: the rebuild, then a running `kg serve` asked until it answers
        from the new build (it follows data/current) and sees the change."""
        if not build.ok:
            return Step(note=build.note or "the build failed")
        started = time.perf_counter()
        while time.perf_counter() - started < QUERYABLE_TIMEOUT:
            try:
                answer = requests.get(server.url + "sparql", params={"query": sparql}, timeout=30,
                                      headers={"Accept": "application/sparql-results+json"})
                if answer.status_code == 200 and answer.json().get("boolean") is expected:
                    waited = time.perf_counter() - started
                    return Step(build.seconds + waited, build.peak, {"build_seconds": build.seconds,
                                                                      "server_seconds": waited})
            except (requests.RequestException, ValueError):
                pass
            time.sleep(0.02)
        return Step(note=f"the server did not see the change within {QUERYABLE_TIMEOUT:g} s")

    def floor(self, operation: str, *paths: Path) -> Step:
        run = self.measure([self.python, HERE / "measuring" / "floors.py", operation, *paths])
        if run.returncode != 0:
            return Step(peak=run.peak_bytes, note=_failure(run))
        detail = json.loads(run.stdout.strip().splitlines()[-1])
        return Step(detail.get("seconds", detail.get("parse_seconds")), run.peak_bytes, detail, cpu=run.cpu_seconds)

    def floors(self, result: SizeResult, kept: Path, scratch: Path, earlier: list[SizeResult]) -> None:
        """rdflib, Oxigraph's dump and kg's Turtle export on the first build's N-Quads and store (kept)."""
        nquads, store = kept / "kg.nq", kept / BUILD_COPY / build_dirs.STORE_DIR
        self.log(f"{result.docs:,} documents: export floors and rdflib on {result.quads:,} quads")
        result.steps["rdflib"] = self.rdflib(result, nquads, scratch, earlier)
        result.steps["oxigraph_dump"] = self.floor("oxigraph-dump", store, scratch / "oxigraph.trig")
        result.steps["kg_turtle"] = self.floor("kg-turtle", store, scratch / "kg.ttl")

    def rdflib(self, result: SizeResult, nquads: Path, scratch: Path, earlier: list[SizeResult]) -> Step:
        """rdflib on the same N-Quads, unless projected from a smaller run to need too much memory."""
        measured = [r for r in earlier if r.step("rdflib").ok and r.quads]
        if measured and result.quads:
            last = measured[-1]
            scale = result.quads / last.quads
            step = last.step("rdflib")
            projected_peak = int(step.peak * scale)
            if projected_peak > self.rdflib_limit:
                detail = {k: v * scale for k, v in step.detail.items() if k.endswith("seconds")}
                return Step(detail.get("parse_seconds"), projected_peak, detail, projected=True,
                            note=f"not run: projected from {last.docs:,} documents to need "
                                 f"{report.memory(projected_peak)}, over the {report.memory(self.rdflib_limit)} limit")
        step = self.floor("rdflib", nquads, scratch / "rdflib.ttl")
        (scratch / "rdflib.ttl").unlink(missing_ok=True)
        return step

    def cores(self, result: SizeResult, corpus: Path, scratch: Path) -> None:
        """The same full build pinned to 1 core and to 2 (when there are more than 2, "all" is the main build)."""
        for cores in (1, 2):
            if cores > machine.usable_cores() or (cores == machine.usable_cores() and cores > 1):
                continue
            self.log(f"{result.docs:,} documents: kg build on {cores} core(s)")
            result.steps[f"build_{cores}core"] = self.kg_build(corpus, scratch / f"cores-{cores}", cores=cores)
            shutil.rmtree(scratch / f"cores-{cores}", ignore_errors=True)

    def rebuilds(self, result: SizeResult, corpus: Path, data: Path) -> None:
        """Nothing changed, then one document edited, one added, one removed: a build after each,
        then a query that must see the change. Then the same loop under `kg serve --watch`."""
        self.log(f"{result.docs:,} documents: rebuilds")
        inputs = _inputs_fingerprint(data)
        result.steps["noop"] = noop = self.kg_build(corpus, data)
        if inputs != _inputs_fingerprint(data):
            noop.detail["warning"] = ("kg's code, ontology, shapes or configuration changed between the first "
                                      "build and the no-op rebuild, so the rebuild was rightly a full one")
        server = Server(data, "--workers", "1")
        try:
            self.loop(result, corpus, data, server)
        finally:
            server.stop()
        self.watched_loop(result, corpus, data)

    def loop(self, result: SizeResult, corpus: Path, data: Path, server: Server) -> None:
        """Edit, add, remove one document while `kg serve` runs: each build, then until it answers."""
        generator = Generator(self.args.seed, result.docs)
        slugs = sorted(p.stem for p in corpus.glob("*.txt"))
        for kind, change in _changes(corpus, generator, slugs, result.docs, salt=0):
            result.steps[kind] = built = self.kg_build(corpus, data)
            result.steps[f"{kind}_queryable"] = self.until_queryable(built, server, *change)

    def watched_loop(self, result: SizeResult, corpus: Path, data: Path) -> None:
        """The loop under `kg serve --watch`: a `kg build` of the unchanged corpus (the watcher tells
        it nothing changed: no stat of every file), then an edit, an addition and a removal, each
        timed from the moment its files are written until the server answers from the build the
        watcher made of it (its debounce of half a second included)."""
        self.log(f"{result.docs:,} documents: the loop under kg serve --watch")
        server = Server(data, "--corpus", corpus, "--watch", "--workers", "1")
        try:
            if not _wait_until(lambda: "Watching" in server.stderr() and build_dirs.WATCH_SOCKET in
                               os.listdir(data), QUERYABLE_TIMEOUT):
                result.steps["noop_watched"] = Step(note="the watcher did not start")
                return
            _wait_until(lambda: _settled_watcher(server), QUERYABLE_TIMEOUT)  # its catch-up build, if any
            result.steps["noop_watched"] = self.kg_build(corpus, data)
            generator = Generator(self.args.seed, result.docs)
            slugs = sorted(p.stem for p in corpus.glob("*.txt"))
            for kind, change in _changes(corpus, generator, slugs, result.docs + 1, salt=1):
                result.steps[f"{kind}_watched"] = self.until_watched(server, change)
        finally:
            server.stop()

    def until_watched(self, server: Server, change: tuple[str, bool]) -> Step:
        """Seconds from a change written to the corpus until the watching server answers from it;
        the watcher's build time from its log (written once the build process has ended, which
        may be after the server answers from the build it published)."""
        started, said = time.perf_counter(), server.stderr().count("kg serve --watch: ")
        step = self.until_queryable(Step(0.0), server, *change)
        if not step.ok:
            return step
        seconds = time.perf_counter() - started

        def built() -> list[float]:
            logged = server.stderr().split("kg serve --watch: ")[said + 1:]
            return [float(m) for line in logged for m in re.findall(r" in ([\d.]+) s -> ", line)]

        _wait_until(lambda: bool(built()), 60.0)
        times = built()
        return Step(seconds, detail={"build_seconds": times[-1] if times else None, "builds": len(times)})

    # -- companions -----------------------------------------------------------------------

    def companions(self, data: Path, docs: int, corpus: Path) -> tuple[list[tuple[str, str]], dict]:
        """Markdown from the endpoint and view benchmarks, run on one size's build, and the figures
        of the view's (bench_view_data.py), which the view's targets are judged on."""
        out = []
        view_figures = self.work / f"view-{docs}.json"
        view_figures.unlink(missing_ok=True)
        for title, script in COMPANIONS:
            path = HERE / script
            if not path.exists():
                out.append((title, f"Not run: benchmarks/{script} does not exist yet."))
                continue
            self.log(f"{script} on {data}")
            current = build_dirs.current_build(data)  # bench_view_data.py builds an edit: the current build moves
            # an incremental build writes kg.nq on first request; bench_endpoint's stock Oxigraph reads it,
            # which is not run above full_steps_up_to
            if current is not None and docs <= self.args.full_steps_up_to:
                from kg.publish.export import ensure_export

                ensure_export(current, "nq")
            needs = ["--corpus", corpus] if script in NEEDS_CORPUS else []
            options = _companion_options(script, docs, self.args.full_steps_up_to)
            if script == VIEW_DATA:
                options += ["--json", view_figures]
            run = self.measure([self.python, path, "--data", data, *needs, *options])
            body = run.stdout.strip()
            if run.returncode != 0:      # keep what it measured; say how it ended
                body += f"\n\n`{script}` ended with {_failure(run)}"
            out.append((title, body))
        return out, _read_view_figures(view_figures)


def _read_view_figures(path: Path) -> dict:
    """bench_view_data.py's figures of one build (none when it ended before writing them)."""
    try:
        measured = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    finally:
        path.unlink(missing_ok=True)
    return measured[0] if isinstance(measured, list) and measured and isinstance(measured[0], dict) else {}


def _changes(corpus: Path, generator: Generator, slugs: list[str], new_index: int, salt: int):
    """One document edited, one added, one removed (each written as it is asked for), with the ASK
    query that sees each change and the answer it must give."""
    edited = slugs[len(slugs) // 2 + salt]
    mutate.edit_document(corpus, edited, generator, salt=salt)
    text = (corpus / f"{edited}.txt").read_text(encoding="utf-8").rstrip().rsplit("\n", 1)[-1][-40:]
    yield "edit", (f"ASK {{ GRAPH <{graph_iri(edited)}> {{ ?d ?p ?text FILTER(CONTAINS(?text, "
                   f"{_sparql_string(text)})) }} }}", True)
    added = mutate.add_document(corpus, generator, new_index)
    yield "add", (f"ASK {{ GRAPH <{graph_iri(added)}> {{ ?s ?p ?o }} }}", True)
    mutate.remove_document(corpus, slugs[salt])
    yield "remove", (f"ASK {{ GRAPH <{graph_iri(slugs[salt])}> {{ ?s ?p ?o }} }}", False)


def _wait_until(condition, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


def _settled_watcher(server: Server) -> bool:
    """Whether the watcher has no catch-up build running (each "building" line is followed by the
    build's own report)."""
    lines = [line for line in server.stderr().splitlines() if line.startswith("kg serve --watch: ")]
    return not lines or "building" not in lines[-1] and "rebuilding" not in lines[-1]


def _write_readme(args: argparse.Namespace, described: dict, results: list[SizeResult], command: str,
                  unfinished: bool = False, parts: int = 1) -> None:
    """Rewrite the README's benchmark table from the figures RESULTS.md was just written from."""
    if args.readme:
        readme = args.readme.read_text(encoding="utf-8")
        block = report.readme_table(described, results, command, unfinished, parts)
        args.readme.write_text(report.replace_readme_table(readme, block), encoding="utf-8")


class _Steps(dict):
    """A size's measured steps, reported to `on_change` as each is added (a run stopped half-way
    keeps what it measured)."""

    def __init__(self, on_change) -> None:
        super().__init__()
        self.on_change = on_change

    def __setitem__(self, key, value) -> None:
        super().__setitem__(key, value)
        self.on_change()


def _keep(build_dir: Path, kept: Path, store: bool = True) -> Path:
    """Hard-linked copies of a build's N-Quads, and of the files its exports are made from (in
    kept/BUILD_COPY, with its store as a checkpoint when `store`), which later builds cannot prune."""
    from kg.store.embedded import EmbeddedStore

    copy = kept / BUILD_COPY
    copy.mkdir(parents=True, exist_ok=True)
    nquads = build_dirs.export_path(build_dir, "nq")
    os.link(nquads, kept / "kg.nq")
    for path in (nquads, build_dirs.sections_path(nquads), build_dir / build_dirs.MANIFEST_FILE):
        os.link(path, copy / path.name)
    if not store:
        return kept
    with EmbeddedStore(build_dirs.store_path(build_dir), read_only=True) as store:
        store.backup(build_dirs.store_path(copy))
    return kept


def _kg_command() -> list[str]:
    """The `kg` console script of this interpreter's environment."""
    script = Path(sys.executable).parent / "kg"
    if script.exists():
        return [str(script)]
    found = shutil.which("kg")
    if found is None:
        raise SystemExit("the kg command is not installed (expected `pip install -e .` in this environment)")
    return [found]


def skip(result: SizeResult, names: tuple[str, ...], full_steps_up_to: int = FULL_STEPS_UP_TO) -> None:
    """Steps not run at this size, said so in the tables."""
    for name in names:
        result.steps[name] = Step(note=f"not run above {full_steps_up_to:,} articles", skipped=True)


def _companion_options(script: str, docs: int, full_steps_up_to: int = FULL_STEPS_UP_TO) -> list[str]:
    """Above full_steps_up_to the page of the first 10,000 articles is drawn beside those of 100
    and 1,000, and no stock Oxigraph is loaded beside our endpoint (its load is the bulk-load floor again: 28 GB and half an hour at
    100,000)."""
    if docs <= full_steps_up_to:
        return []
    return {"bench_endpoint.py": ["--no-stock"],
            "bench_view.py": ["--articles", f"100,1000,{FULL_STEPS_UP_TO}"]}.get(script, [])


def _disk_bytes(build_dir: Path) -> int:
    """Bytes a build takes on disk (every file under its directory, each hard link once)."""
    seen, total = set(), 0
    for path in Path(build_dir).rglob("*"):
        info = path.lstat()
        if path.is_file() and (info.st_dev, info.st_ino) not in seen:
            seen.add((info.st_dev, info.st_ino))
            total += info.st_blocks * 512
    return total


def _inputs_fingerprint(data: Path) -> str | None:
    """The builder's fingerprint of everything but the documents (its code included), from the manifest."""
    build_dir = build_dirs.current_build(data)
    try:
        return json.loads((build_dir / build_dirs.MANIFEST_FILE).read_text()).get("inputs") if build_dir else None
    except (OSError, ValueError):
        return None


def _manifest(build_dir: Path) -> dict:
    try:
        return json.loads((build_dir / build_dirs.MANIFEST_FILE).read_text())
    except (OSError, ValueError):
        return {}


def _sparql_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def build_quads(build_dir: Path) -> int:
    """The build's quads, from its manifest (counting kg.nq's lines when the manifest lacks them)."""
    quads = build_dirs.read_manifest(build_dir).get("quads")
    if isinstance(quads, int):
        return quads
    with open(build_dirs.export_path(build_dir, "nq"), "rb") as handle:
        return sum(1 for _ in handle)


def _failure(run: measure.Measured) -> str:
    lines = [line for line in run.stderr.strip().splitlines() if line.strip()]
    return f"exit {run.returncode}: {lines[-1] if lines else 'no message'}".replace("|", "/")


def resumed_sizes(saved: SavedRun, runner: Runner, sizes: tuple[int, ...]) -> list[SizeResult]:
    """The sizes an earlier part of the run measured (none for a new run). A size whose part
    ended before its deferred floor ran gets the floor now if its N-Quads are still kept, else
    is measured again."""
    results = []
    for result in saved.results(sizes):
        if saved.floor_pending(result.docs):
            if not runner.kept_for_floor(result.docs):
                continue
            runner.deferred.append(result)
        runner.log(f"{result.docs:,} documents: measured by part {saved.sizes[result.docs]['part']} of this run"
                   + (" (its bulk-load floor runs last)" if saved.floor_pending(result.docs) else ""))
        results.append(result)
    return results


def _docs(result: SizeResult) -> int:
    return result.docs


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="N = 20, 100 (a smoke test)")
    parser.add_argument("--sizes", type=lambda s: tuple(int(x) for x in s.split(",")), default=None,
                        help="comma-separated corpus sizes, e.g. 100,1000")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--work", type=Path, default=REPO / "data" / "bench", help="work directory")
    parser.add_argument("--results", type=Path, default=None,
                        help="Markdown file to write (default benchmarks/RESULTS.md; with --quick, "
                             "data/bench/RESULTS-quick.md)")
    parser.add_argument("--rdflib-max-gib", type=float, default=6.0,
                        help="skip rdflib (and project its figures) when it would need more memory")
    parser.add_argument("--timeout", type=float, default=3600.0, help="seconds allowed per command")
    parser.add_argument("--full-steps-up-to", type=int, default=FULL_STEPS_UP_TO,
                        help="largest size given the build on 1 core, the export floors and the bulk-load floor "
                             "before its rebuilds; above it the bulk-load floor runs last (default %(default)s)")
    parser.add_argument("--no-companions", action="store_true", help="skip bench_endpoint.py and bench_view.py")
    parser.add_argument("--keep", action="store_true",
                        help="keep the data directory of every size (default: only the largest, unless it is "
                             "above --full-steps-up-to: its floor needs the disk)")
    parser.add_argument("--silent", action="store_true", help="no progress lines on stderr")
    parser.add_argument("--resume", action="store_true",
                        help="continue the run saved in --work (killed or stopped after some sizes): measure only "
                             "the sizes it has no figures of, then write RESULTS.md as one run would; refused "
                             "when the saved run was measured on other code, seed or --full-steps-up-to")
    parser.add_argument("--cluster", default=None, metavar="local:N",
                        help="instead of the size runs: the build with one process against a local Dask cluster "
                             "of 1..N workers, and the bulk loaders, at the largest size (bench_cluster.py, "
                             "written to benchmarks/RESULTS-cluster.md)")
    parser.add_argument("--readme", type=Path, default=None,
                        help="README whose benchmark table to rewrite from this run (default: README.md when "
                             "writing benchmarks/RESULTS.md, none otherwise)")
    args = parser.parse_args(argv)
    args.sizes = tuple(sorted(args.sizes or (QUICK_SIZES if args.quick else SIZES)))
    if args.results is None:
        args.results = args.work / "RESULTS-quick.md" if args.quick else HERE / "RESULTS.md"
    if args.readme is None and args.results.resolve() == (HERE / "RESULTS.md").resolve():
        args.readme = REPO / "README.md"
    return args


def _stopped(signum: int, _frame) -> None:
    """SIGTERM or SIGHUP: end as Ctrl-C does, through every `finally` (the command being measured and
    the servers started are stopped), keeping the sizes saved for --resume."""
    raise SystemExit(128 + signum)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.cluster:
        from benchmarks import bench_cluster

        workers = args.cluster.removeprefix("local:")
        return bench_cluster.main(["--docs", str(args.sizes[-1]), "--workers", workers, "--seed", str(args.seed)])
    args.work.mkdir(parents=True, exist_ok=True)
    runner = Runner(args)
    command = ("python benchmarks/run.py " + " ".join(argv if argv is not None else sys.argv[1:])).strip()
    try:
        saved = SavedRun.start(args.work, machine.code_identity(tuple(p for p in (args.results, args.readme) if p)),
                               {"seed": args.seed, "full_steps_up_to": args.full_steps_up_to}, command,
                               machine.describe(args.work), resume=args.resume)
    except CannotResume as exc:
        print(f"benchmarks/run.py --resume: {exc}", file=sys.stderr)
        return 2
    described, command = saved.parts[0]["machine"], saved.parts[0]["command"]  # a resumed run reads as one
    results = resumed_sizes(saved, runner, args.sizes)
    args.results.parent.mkdir(parents=True, exist_ok=True)

    def partial(current: SizeResult) -> None:  # a killed run leaves every figure it measured
        done = results if any(r is current for r in results) else sorted(results + [current], key=_docs)
        args.results.write_text(report.render(described, done, [("Unfinished", "This run is still going.")], command,
                                              saved.header()), encoding="utf-8")
        _write_readme(args, described, done, command, unfinished=True, parts=len(saved.parts))

    runner.progress = partial
    for docs in args.sizes:
        if any(r.docs == docs for r in results):
            continue
        result = runner.size(docs, [r for r in results if r.docs < docs])
        results = sorted(results + [result], key=_docs)
        saved.size_done(result, floor_pending=any(r is result for r in runner.deferred))
        if docs != args.sizes[-1] and not args.keep:
            shutil.rmtree(args.work / f"data-{docs}", ignore_errors=True)   # gigabytes at 1,000 and up
    runner.deferred_floors(keep=args.keep, done=saved.size_done)
    saved.finish()
    markdown = report.render(described, results, [], command, saved.header())
    print(markdown)
    args.results.write_text(markdown, encoding="utf-8")
    runner.log(f"wrote {args.results}")
    _write_readme(args, described, results, command, parts=len(saved.parts))
    runner.log(f"wrote the benchmark table of {args.readme}" if args.readme else "no README table written")
    failed = any(s.note and not (s.projected or s.skipped) for r in results for s in r.steps.values()) or any(r.problems for r in results)
    return 1 if failed else 0


if __name__ == "__main__":
    for stop in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(stop, _stopped)
    sys.exit(main())
