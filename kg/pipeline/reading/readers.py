"""Reading documents on every core: read, check, resolve and translate each to N-Quads.

Workers are separate processes (forkserver) fed in chunks; results come back
in slug order and are handed one at a time to a sink, so memory stays flat
however large the corpus. Small batches are read in the calling process.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections import deque
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator, Protocol

from tqdm import tqdm

from kg.errors import InputError, InputErrors, InputWarning, KgError, ValidationError
from kg.formats.corpus import DocumentFiles, read_document
from kg.model import iris
from kg.model.entities.evidence import Evidence, add_evidence, document_evidence
from kg.model.entities.identity import identity_warnings
from kg.model.view_parts import pack, view_part
from kg.pipeline.inputs import Inputs
from kg.pipeline.reading.document_graph import canonical_keys, document_nquads
from kg.pipeline.validation.shacl import validate_documents, validate_nquads

PARALLEL_THRESHOLD = 200
# pySHACL needs about 0.2 s per document graph: past this many documents a build
# validates an evenly spread sample of this size (and the entity records they touch).
VALIDATE_ALL_LIMIT = 100
VALIDATE_RUN = 10
CHUNK = 30  # documents a worker reads per task: a multiple of VALIDATE_RUN
IN_FLIGHT = 2  # tasks submitted per worker and not yet handed to the sink: bounds the results waiting


@dataclass
class Read:
    """What reading gave besides the N-Quads: the canonical keys of the documents checked with
    SHACL, the summed evidence of every document read (kg.model.entities.evidence) and each one's part of
    the network view (kg.model.view_parts), packed, by slug."""

    checked: set[str] = field(default_factory=set)
    evidence: Evidence = field(default_factory=dict)
    view_parts: dict[str, bytes] = field(default_factory=dict)
    warnings: list[InputError] = field(default_factory=list)
    by_document: dict[str, list[InputError]] = field(default_factory=dict)  # the same, per document slug


class ChunkReader(Protocol):
    """Where runs of documents are read when not on this machine (kg.pipeline.cluster): each run's
    results as _read_chunk gives them, in order. `shared`: (vocabularies, aliases, base IRI,
    view classes), what every document is read against."""

    threads: int  # runs read at once

    def read_chunks(self, chunks: Iterable[list], shared: tuple) -> Iterator[tuple[list, Evidence, dict]]: ...


def read_all(todo: list[DocumentFiles], inputs: Inputs, progress: bool, validate: bool,
             workers: int | None, sink: Callable[[str, str], None], view_classes: frozenset[str] = frozenset(),
             reader: ChunkReader | None = None) -> Read:
    """Read every document to (re)build and hand its N-Quads to `sink`, in slug order, one at a
    time (memory stays flat however large the corpus). Every input error of every document is
    raised together at the end. Each document's part of the view has the nodes of `view_classes`.
    With a `reader` the documents are read there (a Dask cluster), else on this machine's cores."""
    sample = _validation_sample(todo) if validate else set()
    jobs = [(item, inputs.vocabulary_key(item), item.slug in sample) for item in todo]
    if reader is not None:
        workers = reader.threads
    elif workers is None:
        workers = usable_cores() if len(jobs) >= PARALLEL_THRESHOLD else 1
    size = _chunk_size(len(jobs), workers)
    chunks = [jobs[i:i + size] for i in range(0, len(jobs), size)]
    shared = (os.getpid(), inputs.vocabularies, inputs.aliases, iris.BASE, view_classes)
    bar = tqdm(total=len(jobs), unit="doc", desc="reading", disable=not progress or len(jobs) < 2)
    errors: list[InputError] = []
    read = Read()
    with ExitStack() as stack:
        if reader is not None:
            results = reader.read_chunks(chunks, shared[1:])
        elif workers > 1 and len(chunks) > 1:
            # forkserver: workers do not inherit the build lock (a forked worker outliving a killed
            # build would hold it); they end when the build dies. What every document is read
            # against is sent once per worker, not with every chunk.
            pool = stack.enter_context(ProcessPoolExecutor(
                max_workers=workers, mp_context=multiprocessing.get_context("forkserver"),
                initializer=_start_worker, initargs=shared))
            results = _bounded_map(pool, chunks, IN_FLIGHT * workers)
        else:
            _SHARED.update(vocabularies=inputs.vocabularies, aliases=inputs.aliases, base=iris.BASE,
                           view_classes=view_classes)
            stack.callback(_SHARED.clear)
            results = map(_read_chunk, chunks)
        for chunk, evidence, parts in results:
            for slug, nquads, problems in chunk:
                errors += [InputError(*e[1:5]) for e in problems if not e[0]]
                found = [InputWarning(*e[1:]) for e in problems if e[0]]
                read.warnings += found
                if found:
                    read.by_document[slug] = found
                if nquads is not None and not errors:
                    sink(slug, nquads)
                    if slug in sample:
                        read.checked |= canonical_keys(nquads)
            if not errors:
                add_evidence(read.evidence, evidence)
                read.view_parts.update(parts)
            bar.update(len(chunk))
    bar.close()
    if errors:
        raise InputErrors(errors, read.warnings)
    return read


def _bounded_map(pool: Executor, chunks: Iterable, limit: int) -> Iterator:
    """pool.map(_read_chunk, chunks) with at most `limit` tasks submitted and not yet consumed:
    Executor.map submits every task at once, and when the consumer (the loader) is slower than the
    readers their results pile up in this process."""
    pending: deque = deque()
    for chunk in chunks:
        if len(pending) >= limit:
            yield pending.popleft().result()
        pending.append(pool.submit(_read_chunk, chunk))
    while pending:
        yield pending.popleft().result()


_SHARED: dict = {}  # in a worker: the vocabularies, the alias table, the base IRI and the view's classes, received once


def _start_worker(build_pid: int, vocabularies: dict, aliases, base: str, view_classes: frozenset[str]) -> None:
    _SHARED.update(vocabularies=vocabularies, aliases=aliases, base=base, view_classes=view_classes)
    _exit_with_build(build_pid)


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


def _chunk_size(jobs: int, workers: int) -> int:
    """Documents per task: a multiple of VALIDATE_RUN (a run of the SHACL sample stays in one
    task), at most CHUNK, few enough that every worker gets work; one run when reading in this
    process, so that the progress bar moves."""
    if workers <= 1:
        return VALIDATE_RUN
    runs = -(-jobs // (workers * VALIDATE_RUN))
    return VALIDATE_RUN * max(1, min(CHUNK // VALIDATE_RUN, runs))


def _validation_sample(todo: list[DocumentFiles]) -> set[str]:
    """Slugs whose graphs are checked with SHACL: all, or for a large build evenly spread runs of
    VALIDATE_RUN consecutive documents (pySHACL costs about half as much per document when a run
    is checked together)."""
    if len(todo) <= VALIDATE_ALL_LIMIT:
        return {item.slug for item in todo}
    slots = -(-len(todo) // VALIDATE_RUN)
    runs = -(-VALIDATE_ALL_LIMIT // VALIDATE_RUN)
    picked = {int(i * slots / runs) for i in range(runs)}
    return {item.slug for i, item in enumerate(todo) if i // VALIDATE_RUN in picked}


def _read_chunk(jobs: list[tuple[DocumentFiles, Path, bool]]) \
        -> tuple[list[tuple[str, str | None, list]], Evidence, dict[str, bytes]]:
    """Read a run of documents (in a worker process); those to check are checked with SHACL
    together, and one by one only when together they fail (to say which document is wrong).
    IRIs are minted under the build's base IRI. Returns each document's result, the summed
    evidence of those read without error and their parts of the view."""
    with iris.using_base(_SHARED["base"]):
        results = _read_run(jobs)
        evidence: Evidence = {}
        parts: dict[str, bytes] = {}
        for slug, nquads, _ in results:
            if nquads is not None:
                add_evidence(evidence, document_evidence(nquads))
                if _SHARED["view_classes"]:  # none: `kg check`, which keeps no view
                    parts[slug] = pack(view_part(nquads, _SHARED["view_classes"]))
        return results, evidence, parts


def _read_run(jobs: list[tuple[DocumentFiles, Path, bool]]) -> list[tuple[str, str | None, list]]:
    vocabularies, aliases = _SHARED["vocabularies"], _SHARED["aliases"]
    results = [_read_one(item, vocabularies[key], aliases) for item, key, _ in jobs]
    to_check: dict[Path, list[int]] = {}
    for i, (_item, key, validate) in enumerate(jobs):
        if validate and results[i][1] is not None:
            to_check.setdefault(key, []).append(i)
    for key, indexes in to_check.items():
        declared = vocabularies[key].declared()
        try:
            validate_documents([results[i][1].encode() for i in indexes], declared)
        except KgError:
            for i in indexes:
                results[i] = _checked(results[i], jobs[i][0], declared)
    return results


def _read_one(item: DocumentFiles, vocab, aliases) -> tuple[str, str | None, list]:
    """Read, check, resolve and translate one document."""
    try:
        doc = read_document(item, vocab.config)
        warnings = [*doc.annotations.warnings, *identity_warnings(doc, vocab)]
        return item.slug, document_nquads(doc, vocab, aliases), [_error_args(w) for w in warnings]
    except InputErrors as exc:
        return item.slug, None, [_error_args(e) for e in exc.errors + exc.warnings]
    except InputError as exc:
        return item.slug, None, [_error_args(exc)]
    except ValidationError as exc:  # the graph made from valid input breaks the shapes: not the input's fault
        raise ValidationError(f"the graph of document {item.slug}: {exc}") from None


def _checked(result: tuple[str, str | None, list], item: DocumentFiles, declared: frozenset[str]):
    """One document's result after SHACL validation on its own."""
    slug, nquads, _ = result
    try:
        validate_nquads(nquads.encode(), declared)
        return result
    except InputError as exc:
        return slug, None, [_error_args(exc)]
    except ValidationError as exc:
        raise ValidationError(f"the graph of document {slug}: {exc}") from None


def _error_args(exc: InputError) -> tuple:
    """A problem as it crosses from a worker: (is a warning, message, path, line, column, count)."""
    return (isinstance(exc, InputWarning), exc.reason, exc.path, exc.line, exc.column, getattr(exc, "count", 1))


def usable_cores() -> int:
    """Cores this process may run on (its affinity), not all the machine has."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1
