"""`kg build`: corpus -> checked documents -> named graphs -> store, published atomically.

The steps live in modules with one job each: kg.pipeline.inputs (what documents are
read against), kg.pipeline.plan (what changed since the current build; the manifest),
kg.pipeline.reading.readers (reading on every core), kg.pipeline.fill (loading or patching the store),
kg.pipeline.load_file (the N-Quads a full build loads and keeps as kg.nq), kg.publish.export
(the other exports, written on first request), kg.pipeline.push (the remote
push). This module runs them in order under the build lock.

A build never touches the published one: it writes a new build directory and
swaps `data/current` at the very end (kg.store.build_dirs), so a build that fails or
is killed at any moment leaves the previous build current. Exports other
than kg.nq and the network view are not written here but on first request
(`eager=True` writes them before publishing). Each build also keeps its parsed
inputs (kg.store.build_dirs.PARSED_INPUTS_FILE) so that the next incremental build, reading the
same inputs, does not parse the alias table again.
"""

from __future__ import annotations

import json
import shutil
import time
import warnings
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping

from kg.errors import CorpusError, InputError, InputErrors, report
from kg.formats.corpus import DocumentFiles, not_read
from kg.formats.positions import json_key_line
from kg.model import iris
from kg.pipeline.inputs import Inputs
from kg.pipeline.phases import Phases
from kg.pipeline.plan import Plan, keep_warnings, previous_manifest, stored_warnings, write_manifest
from kg.pipeline.push import make_pusher, push_step
from kg.pipeline.survey.unchanged import Unchanged, keep_stamp, kept_stamp, take_stamp, unchanged_since
from kg.pipeline.survey.watched import ask_watcher
from kg.pipeline.survey.work import survey
from kg.settings import setting
from kg.store import build_dirs, checksums
from kg.store.compaction import start_compaction
from kg.store.disk_space import disk_full_error, is_disk_full

if TYPE_CHECKING:
    from kg.pipeline.fill import Options

# What only a build with work needs (the store, the readers, rdflib, pySHACL) is imported by
# _run: a build that finds nothing to do must answer in a fraction of a second.


class BuildMode(StrEnum):
    """What a build did: everything, only the documents that changed, or nothing."""

    FULL = "full"
    INCREMENTAL = "incremental"
    UNCHANGED = "unchanged"


@dataclass
class BuildReport:
    """What a build did."""

    mode: BuildMode
    documents: int
    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    quads: int = 0
    entities: int = 0
    seconds: float = 0.0
    build_dir: Path | None = None
    ignored: list[Path] = field(default_factory=list)
    pushed: int | None = None  # graphs sent to the remote store (None: no store)
    store: str = ""
    phases: dict[str, float] = field(default_factory=dict)  # seconds per phase
    warnings: list[InputError] = field(default_factory=list)  # of the configurations and the documents read

    def summary(self) -> str:
        return warnings_first(self.warnings) + self._what() + self._not_read()

    def _what(self) -> str:
        pushed = "" if self.pushed is None else f"; {self.pushed} graphs pushed to {self.store}"
        if self.mode is BuildMode.UNCHANGED:
            return (f"nothing to do: {self.documents} documents unchanged since the last build{pushed} "
                    f"({self.seconds:.2f} s)")
        what = (f"{len(self.added)} added, {len(self.changed)} changed, {len(self.removed)} removed"
                if self.mode is BuildMode.INCREMENTAL else f"{self.documents} documents")
        return (f"{self.mode} build: {what}; {self.quads} quads, {self.entities} entity records "
                f"updated{pushed}, in {self.seconds:.2f} s -> {self.build_dir}")

    def _not_read(self) -> str:
        """Files of the corpus that are no document's: said, never skipped silently."""
        return "\n" + not_read(self.ignored) if self.ignored else ""


def _allowed(warnings: list[InputError], strict: bool) -> list[InputError]:
    """The build's warnings, or with `strict` (and any warning) InputErrors raised with them as errors."""
    if strict and warnings:
        raise InputErrors(warnings)
    return warnings


def warnings_first(warnings: list[InputError]) -> str:
    """The report of what only warns, as `kg check` prints it, above a summary."""
    return report([], warnings) + "\n" if warnings else ""


def build(corpus_dir: Path, data_dir: Path, *, store_url: str | None = None, progress: bool = False,
          full: bool = False, validate: bool = True, workers: int | None = None,
          store_settings: Mapping[str, Any] | None = None, eager: bool = False,
          base_iri: str | None = None, strict: bool = False, cluster: str | None = None) -> BuildReport:
    """Build the graph of `corpus_dir` into `data_dir`; raises KgError subclasses on bad input.

    With `store_url` the build is also pushed to that SPARQL store (configured by
    `store_settings`, see kg.store.remote.connect) before it is published: a failed push leaves the
    previous build current, so the next build tries again. An unchanged corpus is pushed
    when the store does not hold the current build. `eager` writes every export and the
    view before publishing instead of on first request.

    Every IRI is minted under `base_iri` (None: the base_iri setting); the base is part of the
    inputs' fingerprint, so changing it rebuilds everything. Warnings (what brat or INCEpTION only
    warn about) are in the report; `strict` makes them errors.

    With `cluster` (tcp://HOST:PORT of a Dask scheduler, or local:N) the documents are read on that
    cluster's workers instead of `workers` processes here (kg.pipeline.cluster); the corpus and
    data directories are then taken as absolute paths, which every worker must see too."""
    corpus_dir, data_dir = Path(corpus_dir), Path(data_dir)
    if cluster:
        corpus_dir, data_dir = corpus_dir.absolute(), data_dir.absolute()
    with iris.using_base(base_iri):
        return _build(corpus_dir, data_dir, store_url, progress, full, validate, workers,
                      store_settings, eager, strict, cluster)


def _build(corpus_dir: Path, data_dir: Path, store_url: str | None, progress: bool, full: bool, validate: bool,
           workers: int | None, store_settings: Mapping[str, Any] | None, eager: bool, strict: bool,
           cluster: str | None) -> BuildReport:
    started = time.perf_counter()
    phases = Phases()
    with _disk_full_located(data_dir, phases):
        data_dir.mkdir(parents=True, exist_ok=True)
        with build_dirs.build_lock(data_dir):
            before = kept_stamp(data_dir)
            told = None if full else ask_watcher(data_dir, corpus_dir, before.corpus_stamp if before else None)
            taken = None if full else take_stamp(corpus_dir, told)  # before the scan: what changes after it is seen next time
            stamp = taken.stamp if taken is not None else None
            kept = unchanged_since(before, stamp)
            if kept is not None and not (strict and kept.warnings):
                report = _unchanged(data_dir, kept.documents, make_pusher(store_url, store_settings))
                report.ignored = kept.ignored_paths(corpus_dir)
                report.warnings = _kept_warnings(data_dir, corpus_dir, kept)
                report.seconds = time.perf_counter() - started
                return report
            with phases.phase("plan"):
                found = survey(corpus_dir, data_dir, full, told, before, taken.listed if taken is not None else None)
                plan = found.plan
            pusher = make_pusher(store_url, store_settings)
            if plan is None:
                report = _unchanged(data_dir, found.documents, pusher)
                report.warnings = _allowed(stored_warnings(found.previous or {}, corpus_dir), strict)
            else:
                inputs = found.inputs
                with phases.phase("inputs"):  # configurations, alias table: parsed only when there is work
                    if plan.previous_dir:
                        inputs.reuse_parsed(plan.previous_dir, plan.todo)
                    check_metadata_keys(plan.todo, inputs.aliases.entries)
                before_publish = push_step(pusher, plan) if pusher else None
                from kg.pipeline.fill import Options

                report = _run(plan, inputs, data_dir, Options(progress, validate, workers, strict, cluster), phases, eager,
                              before_publish)
                report.documents = found.documents
            keep_stamp(data_dir, stamp, found.documents, found.ignored, corpus_dir, len(report.warnings), found.configs,
                       found.plain)
            report.ignored = found.ignored
            report.seconds = time.perf_counter() - started
            return report


@contextmanager
def _disk_full_located(data_dir: Path, phases: Phases) -> Iterator[None]:
    """A full disk ends the build with DiskFull naming the file, the step and the build still
    current (the new build's directory is already removed), not with a traceback."""
    try:
        yield
    except Exception as exc:
        if not is_disk_full(exc):
            raise
        step = f'the build\'s "{phases.failed}" step' if phases.failed else "the new build's first files"
        current = build_dirs.current_build(data_dir)
        kept = f"the build was abandoned; {current} is still the current build" if current else "nothing was built"
        raise disk_full_error(exc, data_dir, step, kept=kept) from exc


def _kept_warnings(data_dir: Path, corpus_dir: Path, kept: Unchanged) -> list[InputError]:
    """The warnings of the unchanged build: from its manifest, read only when it has any."""
    return stored_warnings(previous_manifest(data_dir) or {}, corpus_dir) if kept.warnings else []


def _unchanged(data_dir: Path, documents: int, pusher) -> BuildReport:
    build_dirs.prune(data_dir)  # what a killed build left goes too, even when nothing changed
    report = BuildReport(BuildMode.UNCHANGED, documents)
    current = build_dirs.current_build(data_dir)
    if pusher and current:
        report.pushed, report.store = pusher.push_if_missing(build_dirs.store_path(current), current.name), pusher.url
    return report


def check_metadata_keys(files: list[DocumentFiles], keys: set[str] | dict) -> None:
    """Publisher and author keys must be in the alias table (they have no mention to name them)."""
    errors: list[InputError] = []
    for item in files:
        if not item.meta.exists():
            continue
        try:
            raw = item.meta.read_bytes().decode("utf-8")
            data = json.loads(raw)
        except (ValueError, UnicodeDecodeError, RecursionError):
            continue  # reported with its line when the document is read
        for name in ("publisher", "author"):
            key = data.get(name) if isinstance(data, dict) else None
            if isinstance(key, str) and key not in keys:
                errors.append(CorpusError(f"{name} {key!r} is not in aliases.toml (expected a key of the alias table)",
                                          item.meta, json_key_line(raw, name)))
    if errors:
        raise InputErrors(errors)


def _run(plan: Plan, inputs: Inputs, data_dir: Path, options: Options, phases: Phases, eager: bool,
         before_publish: Callable[[Path], tuple[int, str]] | None) -> BuildReport:
    from kg.formats.brat.conf_writer import save_document_configs
    from kg.pipeline.fill import fill_store
    from kg.publish.export import keep_base_export, write_exports
    from kg.publish.search_index import write_build_index

    build_dir = build_dirs.new_build_dir(data_dir)
    report = BuildReport(BuildMode(plan.mode), 0, plan.added, plan.changed, plan.removed)
    try:
        try:
            filled = fill_store(plan, inputs, build_dir, options, phases)
        except InputErrors as exc:  # the configurations' warnings belong to the same report
            raise InputErrors(exc.errors, inputs.warnings + exc.warnings) from None
        report.quads, report.entities = filled.quads, filled.entities
        report.warnings = _allowed(keep_warnings(plan, filled.warnings, inputs.warnings, inputs.corpus_dir),
                                   options.strict)
        if plan.mode != "full":  # a full build wrote its search index while its store was loading
            with phases.phase("search index"):  # the endpoint reads it, never builds it in a request
                write_build_index(build_dir, plan.previous_dir, filled.touched,
                                  frozenset(iris.document_iri(s) for s in plan.added + plan.changed + plan.removed))
        if plan.previous_dir:
            keep_base_export(build_dir, plan.previous_dir, plan.remade_graphs() or [])
        with phases.phase("schema"):
            from kg.formats.brat.corpus_writer import save_schema  # brat's rendering code: only when there is work

            save_schema(inputs.corpus_dir, inputs.configs, build_dirs.corpus_config_dir(build_dir))
            # documents that bring their configuration, and those no annotation.conf covers (their
            # inferred one): an export of the build must be read with the types it was read with
            save_document_configs(inputs.corpus_dir, build_dirs.corpus_config_dir(build_dir),
                                  {item.slug: inputs.vocabulary_of(item).config
                                   for item in [*inputs.converted, *inputs.unconfigured]})
            checksums.seal_tree(build_dirs.corpus_config_dir(build_dir))
        if eager:
            with phases.phase("outputs"):
                write_exports(build_dir)
                run_hooks(build_dir)
        if before_publish:
            with phases.phase("push"):
                report.pushed, report.store = before_publish(build_dir)
        with phases.phase("inputs"):
            inputs.save_parsed(build_dir)
        with phases.phase("manifest"):  # last: a build directory without one is unfinished
            write_manifest(build_dir, plan, inputs.fingerprint, filled.quads, phases.rounded(),
                           inputs.corpus_dir)
    except BaseException:
        shutil.rmtree(build_dir, ignore_errors=True)
        raise
    with phases.phase("publish"):
        build_dirs.publish(data_dir, build_dir)
    if 0 < setting("compact_after") <= plan.store_edits:
        start_compaction(data_dir, build_dir)
    report.build_dir, report.phases = build_dir, phases.rounded()
    return report


def run_hooks(build_dir: Path) -> None:
    """Extra outputs registered by other packages (the network view writes graph.html): run by an
    eager build; otherwise each output is made on first request."""
    from importlib.metadata import entry_points

    from kg.store.embedded import EmbeddedStore

    hooks: list[Callable] = []
    for ep in entry_points(group="kg.build_hooks"):
        try:
            hooks.append(ep.load())
        except ImportError as exc:  # an optional output whose package is not installed
            warnings.warn(f"build hook {ep.name!r} not run: {exc}", stacklevel=2)
    if not hooks:
        return
    with EmbeddedStore(build_dirs.store_path(build_dir), read_only=True) as store:
        for hook in hooks:
            hook(build_dir, store)
