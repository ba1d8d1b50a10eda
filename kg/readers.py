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
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack
from typing import Callable

from tqdm import tqdm

from kg.corpus import DocumentFiles, read_document
from kg.errors import InputError, InputErrors, KgError
from kg.graph import canonical_keys, document_nquads
from kg.inputs import Inputs
from kg.validate import validate_nquads

PARALLEL_THRESHOLD = 200
# pySHACL needs about 0.2 s per document graph: past this many documents a build
# validates an evenly spread sample of this size (and the entity records they touch).
VALIDATE_ALL_LIMIT = 100
CHUNK = 32


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
        workers = usable_cores() if len(jobs) >= PARALLEL_THRESHOLD else 1
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
    except KgError as exc:
        return item.slug, None, [(f"{exc}", item.txt, None, None)]


def _error_args(exc: InputError) -> tuple:
    return (exc.reason, exc.path, exc.line, exc.column)


def usable_cores() -> int:
    """Cores this process may run on (its affinity), not all the machine has."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1
