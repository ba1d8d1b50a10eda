"""`kg build`: corpus -> checked documents -> named graphs -> store -> exports.

A build never touches the published one: it writes a new build directory and
swaps `data/current` at the very end (kg.build_dirs). When only some articles
changed since the current build, it starts from a copy of the current store
and replaces just their graphs and the entity records they touch; when
nothing changed it does nothing. Documents are read and checked on every
core when there are many.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import multiprocessing
import os
import threading
import time
import warnings
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack, contextmanager
from enum import StrEnum
from dataclasses import dataclass, field
from functools import cached_property
from importlib.metadata import entry_points
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping

from tqdm import tqdm

from kg import __version__, build_dirs
from kg.bratexport import SCHEMA_DIR, save_schema
from kg.conf import CONFIG_FILE, find_config, load_config
from kg.confwriter import save_document_configs, union_configs
from kg.corpus import (ALIASES_FILE, MAPPING_FILE, DocumentFiles, inception_config, not_read, read_document,
                       scan_corpus)
from kg.entities import rebuild_records
from kg.errors import BuildLockedError, ConfigError, CorpusError, InputError, InputErrors, ValidationError
from kg.export import write_exports
from kg.graph import canonical_keys, document_nquads
from kg.iris import ENTITIES_GRAPH, ONTOLOGY_GRAPH, graph_iri, resource_iri
from kg.aliases import AliasTable, load_aliases
from kg.schema import Alignment, Vocabulary, check_alignment_names, load_alignment
from kg.store import EmbeddedStore
from kg.validate import ONTOLOGY_FILE, SHAPES_FILE, validate_nquads

if TYPE_CHECKING:
    from kg.remote.push import Pusher

PARALLEL_THRESHOLD = 200
# pySHACL needs about 0.2 s per document graph: past this many documents a build
# validates an evenly spread sample of this size (and the entity records they touch).
VALIDATE_ALL_LIMIT = 100
LOAD_FILE = "load.nq"
CHUNK = 32


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

    def summary(self) -> str:
        return self._what() + self._not_read()

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


class Inputs:
    """What every document is read against. Configurations, alignment and the alias table are
    parsed only when there is work to do: a no-op build needs nothing but their fingerprint."""

    def __init__(self, corpus_dir: Path, configs: list[Path], documents: list[DocumentFiles]) -> None:
        self.corpus_dir = corpus_dir
        self.configs = configs
        self.inception = [d for d in documents if d.is_xmi]
        self.config_files = [p for p in configs if p.name == CONFIG_FILE]
        digest = hashlib.sha256(__version__.encode())
        for path in self.config_files:  # where each configuration applies (relative: a corpus may move)
            digest.update(path.relative_to(corpus_dir).as_posix().encode())
        for path in (*self.config_files, corpus_dir / ALIASES_FILE, corpus_dir / MAPPING_FILE, ONTOLOGY_FILE,
                     SHAPES_FILE, *sorted(Path(__file__).parent.glob("*.py"))):
            digest.update(path.read_bytes() if path.exists() else b"")
        self.fingerprint = digest.hexdigest()

    @cached_property
    def alignment(self) -> Alignment:
        return load_alignment(self.corpus_dir / MAPPING_FILE)

    @cached_property
    def vocabularies(self) -> dict[Path, Vocabulary]:
        """One per annotation.conf, and one per INCEpTION document (its layers are its schema, joined
        with the annotation.conf that applies to its directory: its hierarchy and types)."""
        vocabularies = {path: Vocabulary(load_config(path), self.alignment) for path in self.config_files}
        for item in self.inception:
            applies = find_config(item.txt.parent, self.corpus_dir)
            own = inception_config(item)
            config = union_configs([vocabularies[applies].config, own]) if applies in vocabularies else own
            vocabularies[Path(item.source)] = Vocabulary(config, self.alignment)
        return vocabularies

    @cached_property
    def vocabulary(self) -> Vocabulary:
        """Every type of the corpus (all its configurations): for the entity records and the ontology."""
        vocabularies = list(self.vocabularies.values())
        if not vocabularies:
            raise ConfigError(f"no {CONFIG_FILE} in the corpus (expected one at its root or beside its documents)",
                              self.corpus_dir)
        merged = Vocabulary(union_configs([v.config for v in vocabularies]), self.alignment)
        check_alignment_names(merged)
        return merged

    @cached_property
    def aliases(self) -> AliasTable:
        return load_aliases(self.corpus_dir / ALIASES_FILE, self.vocabulary)

    def vocabulary_of(self, item: DocumentFiles) -> Vocabulary:
        if item.is_xmi:
            return self.vocabularies[Path(item.source)]
        if item.config is None:
            raise CorpusError(f"no {CONFIG_FILE} for this document (expected one in its directory or a parent "
                              "directory of the corpus, as brat looks it up)", item.txt)
        return self.vocabularies[item.config]


def build(corpus_dir: Path, data_dir: Path, *, store_url: str | None = None, progress: bool = False,
          full: bool = False, validate: bool = True, workers: int | None = None,
          store_settings: Mapping[str, Any] | None = None) -> BuildReport:
    """Build the graph of `corpus_dir` into `data_dir`; raises KgError subclasses on bad input.

    With `store_url` the build is also pushed to that SPARQL store (configured by
    `store_settings`, see kg.remote.connect) before it is published: a failed push leaves the
    previous build current, so the next build tries again. An unchanged corpus is pushed
    when the store does not hold the current build."""
    started = time.perf_counter()
    corpus_dir, data_dir = Path(corpus_dir), Path(data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    with _lock(data_dir):
        listing = scan_corpus(corpus_dir)
        files = listing.documents
        inputs = Inputs(corpus_dir, listing.configs, files)
        previous = _previous_manifest(data_dir)
        plan = _plan(files, previous, inputs, full)
        pusher = _pusher(store_url, store_settings)
        if plan is None:
            build_dirs.prune(data_dir)  # what a killed build left goes too, even when nothing changed
            report = BuildReport(BuildMode.UNCHANGED, len(files), ignored=listing.ignored)
            current = build_dirs.current_build(data_dir)
            if pusher and current:
                report.pushed, report.store = pusher.push_if_missing(current), pusher.url
            report.seconds = time.perf_counter() - started
            return report
        check_metadata_keys(plan.todo, inputs.aliases.entries)
        report = _run(plan, files, inputs, data_dir, progress, validate, workers,
                      _push_step(pusher, plan) if pusher else None)
        report.ignored = listing.ignored
        report.seconds = time.perf_counter() - started
        return report


@contextmanager
def _lock(data_dir: Path) -> Iterator[None]:
    with open(data_dir / "build.lock", "w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            raise BuildLockedError(f"another build is running on {data_dir}") from exc
        yield


def check_metadata_keys(files: list[DocumentFiles], keys: set[str] | dict) -> None:
    """Publisher and author keys must be in the alias table (they have no mention to name them)."""
    errors: list[InputError] = []
    for item in files:
        if not item.meta.exists():
            continue
        try:
            data = json.loads(item.meta.read_bytes())
        except (ValueError, UnicodeDecodeError, RecursionError):
            continue  # reported with its line when the document is read
        for name in ("publisher", "author"):
            key = data.get(name) if isinstance(data, dict) else None
            if isinstance(key, str) and key not in keys:
                errors.append(CorpusError(f"{name} {key!r} is not in aliases.toml (expected a key of the alias table)",
                                          item.meta))
    if errors:
        raise InputErrors(errors)


def _previous_manifest(data_dir: Path) -> dict | None:
    current = build_dirs.current_build(data_dir)
    if current is None:
        return None
    try:
        return json.loads((current / build_dirs.MANIFEST_FILE).read_text()) | {"_dir": str(current)}
    except (OSError, ValueError):
        return None


@dataclass
class _Plan:
    mode: BuildMode
    todo: list[DocumentFiles]
    added: list[str]
    changed: list[str]
    removed: list[str]
    fingerprints: dict[str, dict]
    previous_dir: Path | None


def _plan(files: list[DocumentFiles], previous: dict | None, inputs: Inputs, full: bool) -> _Plan | None:
    """What to (re)build; None when nothing changed."""
    if full or previous is None or previous.get("inputs") != inputs.fingerprint:
        prints = {f.slug: {"stat": f.stat_key(), "sha256": f.fingerprint()} for f in files}
        return _Plan(BuildMode.FULL, files, [f.slug for f in files], [], [], prints, None)
    old = previous.get("documents", {})
    prints, todo, added, changed = {}, [], [], []
    for item in files:
        before = old.get(item.slug)
        stat = item.stat_key()
        if before and before["stat"] == stat:
            prints[item.slug] = before
            continue
        digest = item.fingerprint()
        prints[item.slug] = {"stat": stat, "sha256": digest}
        if before and before["sha256"] == digest:
            continue
        todo.append(item)
        (changed if before else added).append(item.slug)
    removed = sorted(set(old) - {f.slug for f in files})
    if not todo and not removed:
        return None
    return _Plan(BuildMode.INCREMENTAL, todo, added, changed, removed, prints, Path(previous["_dir"]))


def _run(plan: _Plan, files: list[DocumentFiles], inputs: Inputs, data_dir: Path, progress: bool,
         validate: bool, workers: int | None,
         before_publish: Callable[[Path, BuildReport], None] | None = None) -> BuildReport:
    build_dir = build_dirs.new_build_dir(data_dir)
    try:
        report, nquads_index = _write_store(plan, inputs, build_dir, progress, validate, workers)
        report.documents = len(files)
        if plan.mode is BuildMode.FULL:
            write_exports(build_dir, written={"nq": nquads_index})
        else:
            unchanged = {f.slug for f in files} - set(plan.added) - set(plan.changed)
            write_exports(build_dir, previous=plan.previous_dir,
                          unchanged=frozenset({graph_iri(s) for s in unchanged} | {ONTOLOGY_GRAPH}))
        save_schema(inputs.corpus_dir, inputs.configs, build_dir)
        save_document_configs(inputs.corpus_dir, build_dir / SCHEMA_DIR,
                              {item.slug: inputs.vocabulary_of(item).config for item in inputs.inception})
        _run_hooks(build_dir)
        _write_manifest(build_dir, plan, inputs, report)
        if before_publish:
            before_publish(build_dir, report)
    except BaseException:
        import shutil
        shutil.rmtree(build_dir, ignore_errors=True)
        raise
    build_dirs.publish(data_dir, build_dir)
    report.build_dir = build_dir
    return report


def read_all(todo: list[DocumentFiles], inputs: Inputs, progress: bool, validate: bool,
              workers: int | None, sink: Callable[[str, str], None]) -> set[str]:
    """Read every document to (re)build and hand its N-Quads to `sink`, in slug order, one at a
    time (memory stays flat however large the corpus). Every input error of every document is
    raised together at the end. Returns the canonical keys of the documents checked with SHACL."""
    sample = _validation_sample(todo) if validate else set()
    jobs = [(item, inputs.vocabulary_of(item), inputs.aliases, item.slug in sample) for item in todo]
    bar = tqdm(total=len(jobs), unit="doc", desc="reading", disable=not progress or len(jobs) < 2)
    errors: list[InputError] = []
    checked_keys: set[str] = set()
    if workers is None:
        workers = (os.cpu_count() or 1) if len(jobs) >= PARALLEL_THRESHOLD else 1
    with ExitStack() as stack:
        results = map(_read_one, jobs)
        if workers > 1 and len(jobs) > 1:
            # forkserver: workers do not inherit the build lock (a forked worker outliving a killed
            # build would hold it); _exit_with_build ends them when the build dies
            pool = stack.enter_context(ProcessPoolExecutor(
                max_workers=workers, mp_context=multiprocessing.get_context("forkserver"),
                initializer=_exit_with_build, initargs=(os.getpid(),)))
            results = pool.map(_read_one, jobs, chunksize=CHUNK)
        for slug, nquads, errs in results:
            errors += [InputError(*e) for e in errs]
            if nquads is not None and not errors:
                sink(slug, nquads)
                if slug in sample:
                    checked_keys |= canonical_keys(nquads)
            bar.update()
    bar.close()
    if errors:
        raise InputErrors(errors)
    return checked_keys


def _exit_with_build(build_pid: int) -> None:
    """Reader workers end when the build that started them dies (e.g. SIGKILL), instead of
    waiting forever on their task queue."""

    def watch() -> None:
        while True:
            time.sleep(0.5)
            try:
                os.kill(build_pid, 0)
            except ProcessLookupError:
                os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _validation_sample(todo: list[DocumentFiles]) -> set[str]:
    """Slugs whose graphs are checked with SHACL: all, or an evenly spread sample of a large build."""
    if len(todo) <= VALIDATE_ALL_LIMIT:
        return {item.slug for item in todo}
    step = len(todo) / VALIDATE_ALL_LIMIT
    return {todo[int(i * step)].slug for i in range(VALIDATE_ALL_LIMIT)}


def _read_one(job: tuple) -> tuple[str, str | None, list]:
    """Read, check, resolve and translate one document (runs in a worker process)."""
    item, vocab, aliases, validate = job
    try:
        doc = read_document(item, vocab.config)
        nquads = document_nquads(doc, vocab, aliases)
        if validate:
            validate_nquads(nquads.encode(), vocab.declared())
        return item.slug, nquads, []
    except InputErrors as exc:
        return item.slug, None, [_error_args(e) for e in exc.errors]
    except InputError as exc:
        return item.slug, None, [_error_args(exc)]
    except ValidationError as exc:  # the graph made from valid input breaks the shapes: not the input's fault
        raise ValidationError(f"the graph of document {item.slug}: {exc}") from None


def _error_args(exc: InputError) -> tuple:
    return (exc.reason, exc.path, exc.line, exc.column)


def _write_store(plan: _Plan, inputs: Inputs, build_dir: Path, progress: bool, validate: bool,
                 workers: int | None) -> tuple[BuildReport, dict[str, list[int]]]:
    """Fill the build's store; for a full build also return where each graph sits in kg.nq."""
    store_dir = build_dirs.store_path(build_dir)
    index: dict[str, list[int]] = {}
    if plan.mode is BuildMode.FULL:
        load_file = build_dir / LOAD_FILE
        with open(load_file, "wb") as out:
            _append_section(out, index, ONTOLOGY_GRAPH, _ontology_nquads(inputs.vocabulary))
            checked = read_all(plan.todo, inputs, progress, validate, workers,
                                lambda slug, text: _append_section(out, index, graph_iri(slug), text))
        store = EmbeddedStore(store_dir)
        store.bulk_load_file(load_file)
        touched = None
    else:
        graphs: dict[str, str] = {}
        checked = read_all(plan.todo, inputs, progress, validate, workers, graphs.__setitem__)
        EmbeddedStore(build_dirs.store_path(plan.previous_dir), read_only=True).backup(store_dir)
        store = EmbeddedStore(store_dir)
        touched = _replace_documents(store, plan, graphs)
    count, records = rebuild_records(store, inputs.vocabulary, inputs.aliases, touched)
    if plan.mode is BuildMode.FULL:
        _finish_nquads_export(build_dir, index, records)
    if validate:
        # the records of what the checked documents name, and of what removed documents named
        _validate_records(store, checked if touched is None else checked | touched, inputs.vocabulary)
    store.flush()
    report = BuildReport(plan.mode, 0, plan.added, plan.changed, plan.removed, len(store), count)
    store.close()
    return report, index


def _append_section(out, index: dict[str, list[int]], graph: str, nquads: str) -> None:
    """Append one graph's N-Quads to the load file and note where they are."""
    start = out.tell()
    out.write(nquads.encode())
    index[graph] = [start, out.tell()]


def _finish_nquads_export(build_dir: Path, index: dict[str, list[int]], records: str) -> None:
    """The load file, completed with the entity records, becomes the N-Quads export: the store
    holds exactly its quads, so there is no need to dump them again."""
    load_file = build_dir / LOAD_FILE
    with open(load_file, "ab") as out:
        _append_section(out, index, ENTITIES_GRAPH, records)
    os.replace(load_file, build_dirs.export_path(build_dir, "nq"))


def _ontology_nquads(vocab: Vocabulary) -> str:
    """kg's ontology and the corpus vocabulary minted from its annotation schema."""
    import pyoxigraph as ox

    quads = ox.parse(path=str(ONTOLOGY_FILE), format=ox.RdfFormat.TURTLE)
    dataset = ox.Dataset(ox.Quad(q.subject, q.predicate, q.object, ox.NamedNode(ONTOLOGY_GRAPH)) for q in quads)
    lines = ox.serialize(dataset, format=ox.RdfFormat.N_QUADS).decode().splitlines(keepends=True)
    lines += vocab.nquads(ONTOLOGY_GRAPH).splitlines(keepends=True)
    return "".join(sorted(set(lines)))  # a Dataset iterates in a hash order that changes from run to run


def _replace_documents(store: EmbeddedStore, plan: _Plan, graphs: dict[str, str]) -> set[str]:
    """Swap the graphs of changed documents; returns the canonical keys whose records may change."""
    touched: set[str] = set()
    for slug in plan.changed + plan.removed:
        old = store.dump_graph(graph_iri(slug))
        touched |= canonical_keys(old)
        store.drop_graph(graph_iri(slug))
    for slug, nquads in graphs.items():
        touched |= canonical_keys(nquads)
        store.load_nquads(nquads.encode())
    return touched


def _validate_records(store: EmbeddedStore, touched: set[str] | None, vocab: Vocabulary) -> None:
    subjects = None if touched is None else [resource_iri(k) for k in sorted(touched)]
    records = store.dump_graph(ENTITIES_GRAPH, subjects=subjects)
    validate_nquads(records.encode(), vocab.declared())


def _run_hooks(build_dir: Path) -> None:
    """Extra outputs registered by other packages (the network view writes graph.html)."""
    hooks: list[Callable] = []
    for ep in entry_points(group="kg.build_hooks"):
        try:
            hooks.append(ep.load())
        except ImportError as exc:  # an optional output whose package is not installed
            warnings.warn(f"build hook {ep.name!r} not run: {exc}", stacklevel=2)
    if not hooks:
        return
    store = EmbeddedStore(build_dirs.store_path(build_dir), read_only=True)
    try:
        for hook in hooks:
            hook(build_dir, store)
    finally:
        store.close()


def _write_manifest(build_dir: Path, plan: _Plan, inputs: Inputs, report: BuildReport) -> None:
    manifest = {
        "kg_version": __version__,
        "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "mode": plan.mode,
        "inputs": inputs.fingerprint,
        "quads": report.quads,
        "documents": plan.fingerprints,
    }
    (build_dir / build_dirs.MANIFEST_FILE).write_text(json.dumps(manifest, indent=1, sort_keys=True))


def _pusher(store_url: str | None, settings: Mapping[str, Any] | None) -> "Pusher | None":
    if not store_url:
        return None
    from kg.remote.push import Pusher  # HTTP libraries only for builds that push

    return Pusher(store_url, settings)


def _push_step(pusher: "Pusher", plan: _Plan) -> Callable[[Path, BuildReport], None]:
    """The step run before a new build is published: push it (only what changed when the store
    holds the build this one started from)."""
    changed = None if plan.mode is BuildMode.FULL else [graph_iri(s) for s in plan.added + plan.changed] + [ENTITIES_GRAPH]
    based_on = plan.previous_dir.name if plan.previous_dir else None

    def step(build_dir: Path, report: BuildReport) -> None:
        report.pushed, report.store = pusher.push_build(build_dir, based_on=based_on, changed=changed), pusher.url

    return step
