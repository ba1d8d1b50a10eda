"""One exception tree for kg, api and viz. Library code raises these; only the
edges (the click commands, Flask's error handler) catch them and turn them
into an exit code or the JSON error shape. Every class carries both:

    KgError                        exit 1  HTTP 500
    ├── InputError                 exit 2  HTTP 400  bad corpus, annotation or setting input
    │   ├── InputErrors                              several found together, like grouped with like, with warnings
    │   ├── InputWarning                             what the annotation tool only warns about: counted, the
    │   │                                            build goes on (`--strict`: an error)
    │   ├── AnnotationError                          a .ann line that is wrong; carries path, line, column
    │   ├── CorpusError                              a missing, unreadable or non-UTF-8 file; metadata
    │   ├── ConfigError                              annotation.conf or aliases.toml that is wrong
    │   ├── SettingError                             a setting (KG_* variable, option) that is not valid
    │   └── OutsideTarget                            a name from a corpus that would become a path outside the
    │                                                directory kg writes into
    ├── ValidationError            exit 3  HTTP 500  a built graph that breaks the SHACL shapes
    ├── QueryError                 exit 2  HTTP 400  a SPARQL query the engine rejects (message has line:column)
    │   └── LexError                                 a query text the endpoint refuses to interpret
    ├── AnswerTooLarge             exit 2  HTTP 422  an answer past the byte cap (the engine was stopped)
    ├── Unavailable                exit 1  HTTP 503  try again later (Retry-After)
    │   ├── QueryTimeout                             a query ran out of time and was stopped
    │   ├── BeingMade                                a file another request is making was not ready by the deadline
    │   ├── IndexDamaged                             the search index was found damaged while read
    │   └── PoolBusy                                 no query worker became free in time, or the queue was full
    ├── WorkerCrashed              exit 1  HTTP 500  a query worker died: the engine crashed (its last words kept)
    │   └── WorkerOutOfMemory              HTTP 503  a query worker passed its memory cap (Retry-After)
    ├── StoreError                 exit 1  HTTP 503  the store cannot be opened, read or written
    │   └── DiskFull               exit 5  HTTP 507  no space left on the device (or the quota) for a file kg writes
    ├── ClusterError               exit 1  HTTP 503  the Dask cluster a build reads on cannot be reached or was lost
    ├── BuildLockedError           exit 4  HTTP 409  another build holds the lock
    └── ApiError                   exit 1  HTTP as given  an HTTP answer decided by the endpoint itself

Subclasses elsewhere stay in the tree: kg.store.sparql_lexer.TooDeep and kg.store.sparql_lexer.TooManyTokens (LexErrors),
api.backend.embedded.NoGraph, kg.store.remote.RemoteTimeout and kg.testing.servers.ServerDown (StoreErrors),
kg.publish.search.NeedleTooLong (an InputError).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any


class KgError(Exception):
    """Base of every error kg raises on purpose."""

    exit_code = 1
    http_status = 500
    retry_after: int | None = None  # seconds, sent as Retry-After with an HTTP answer


class InputError(KgError):
    """Bad input: the message says where and what was expected."""

    exit_code = 2
    http_status = 400

    def __init__(self, message: str, path: Path | str | None = None, line: int | None = None,
                 column: int | None = None) -> None:
        self.path = printable(str(path)) if path is not None else None
        self.line = line
        self.column = column
        self.reason = message
        super().__init__(self._render())

    def __reduce__(self):
        """Pickled as made (a build's parsed configurations keep their warnings, workers send errors)."""
        return type(self), (self.reason, self.path, self.line, self.column)

    def _render(self) -> str:
        where = self.path or ""
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return f"{where}: {self.reason}" if where else self.reason


def printable(name: str) -> str:
    """A file name as text that any output takes: the bytes of a name that were not UTF-8 (Python's
    surrogate escapes of them) written as \\xNN, so that a message naming the file never fails."""
    if not any("\udc80" <= c <= "\udcff" for c in name):
        return name
    return os.fsencode(name).decode("utf-8", "backslashreplace")


class InputWarning(InputError):
    """A problem the annotation tool (brat, INCEpTION) only warns about: the build goes on without
    what it concerns, and the report counts it with its like. `--strict` makes it an error.
    `count`: how many things found at one place it stands for (a layer not read: its annotations)."""

    def __init__(self, message: str, path: Path | str | None = None, line: int | None = None,
                 column: int | None = None, count: int = 1) -> None:
        self.count = count
        super().__init__(message, path, line, column)

    def __reduce__(self):
        return type(self), (self.reason, self.path, self.line, self.column, self.count)


class InputErrors(InputError):
    """Several input problems, reported together so that one run shows them all: like grouped with
    like (`report`), the warnings found beside them after the errors."""

    def __init__(self, errors: list[InputError], warnings: list[InputError] = ()) -> None:
        self.errors = list(errors)
        self.warnings = list(warnings)
        first = (self.errors or self.warnings)[0]
        super().__init__(first.reason, first.path, first.line, first.column)

    def __reduce__(self):
        return type(self), (self.errors, self.warnings)

    def _render(self) -> str:
        return report(self.errors, self.warnings)


EXAMPLES = 3  # locations shown for a kind of problem found many times
GROUP_FROM = 4  # a kind found this often is one line with its count


def report(errors: list[InputError], warnings: list[InputError] = ()) -> str:
    """The one report of a corpus's problems, printed by `kg check` and `kg build` alike: errors, then
    warnings (`warning: ...`), each kind (the same message) on one line with its count and first
    locations when it is found often, then the totals when there is more than one problem."""
    lines = [*_grouped(errors, ""), *_grouped(warnings, "warning: ")]
    if len(errors) + len(warnings) > 1:
        lines.append(", ".join(_count(found, word) for found, word in ((errors, "error"), (warnings, "warning")) if found))
    return "\n".join(lines)


def _grouped(problems: list[InputError], prefix: str) -> list[str]:
    kinds: dict[str, list[InputError]] = {}
    for problem in problems:
        kinds.setdefault(problem.reason, []).append(problem)
    lines = []
    for reason, found in kinds.items():
        times = sum(getattr(p, "count", 1) for p in found)
        if len(found) < GROUP_FROM and times == len(found):
            lines += [prefix + InputError._render(p) for p in found]
            continue
        files = len({p.path for p in found})
        examples = ", ".join(_where(p) for p in found[:EXAMPLES])
        lines.append(f"{prefix}{times:,} × {reason} in {files:,} file{'s' * (files != 1)}, e.g. {examples}")
    return lines


def _where(problem: InputError) -> str:
    return InputError._render(problem).removesuffix(f": {problem.reason}")


def _count(problems: list[InputError], word: str) -> str:
    kinds = len({p.reason for p in problems})
    return f"{len(problems):,} {word}{'s' * (len(problems) != 1)}" + (f" of {kinds} kinds" if kinds > 1 else "")


class AnnotationError(InputError):
    """A .ann line that cannot be read or contradicts its text or the configuration."""


class CorpusError(InputError):
    """A corpus file that is missing, unreadable, not UTF-8, or with bad metadata."""


class ConfigError(InputError):
    """annotation.conf or aliases.toml that cannot be read."""


class SettingError(InputError):
    """A setting's value (from the environment or an option) that is not of its kind."""


class OutsideTarget(InputError):
    """A file kg would write under a name from a corpus (a document id, a configuration's path) that
    resolves outside the directory it writes into: refused, nothing written there."""


class ValidationError(KgError):
    """The built graph does not conform to the SHACL shapes."""

    exit_code = 3


class QueryError(KgError):
    """A SPARQL query the engine rejects; the message carries line and column."""

    exit_code = 2
    http_status = 400


class LexError(QueryError):
    """A query text the endpoint refuses to interpret (e.g. a dataset clause spelt oddly)."""


class AnswerTooLarge(KgError):
    """The serialized answer passed the byte cap (the engine was stopped there)."""

    exit_code = 2
    http_status = 422

    def __init__(self, limit: int) -> None:
        super().__init__(limit)  # the only argument, so that it crosses from a worker intact
        self.limit = limit

    def __str__(self) -> str:
        return f"the answer is larger than {self.limit:,} bytes"


class Unavailable(KgError):
    """The server cannot answer now; the client may try again (503 with Retry-After)."""

    http_status = 503
    retry_after = 1


class QueryTimeout(Unavailable):
    """The query ran out of time."""


class BeingMade(Unavailable):
    """A file another request or process is making (an export, a page) was not finished by the
    request's deadline; the request stops waiting for it."""

    retry_after = 2


class IndexDamaged(Unavailable):
    """A file the server reads (the search index) turned out damaged while it was being read."""

    retry_after = 5


class PoolBusy(Unavailable):
    """No worker became free before the deadline, or the queue was full."""


class WorkerCrashed(KgError):
    """A worker died while running a job (it has been replaced). `last_words` is what it
    wrote on its standard error last (each worker writes into a memory file of its own)."""

    def __init__(self, message: str = "", last_words: str = "") -> None:
        super().__init__(message)
        self.last_words = last_words

    def __reduce__(self):  # crosses from a worker to the server with its last words
        return type(self), (str(self), self.last_words)


class WorkerOutOfMemory(WorkerCrashed):
    """A worker ran out of the address space it may take (Source.memory_mb): the engine's
    allocation failed or Python's (MemoryError). The client may try again."""

    http_status = 503
    retry_after = 1


class StoreError(KgError):
    """The store cannot be opened, read or written."""

    http_status = 503


class DiskFull(StoreError):
    """No space left on the device (or the quota) for a file being written: a build is abandoned
    and the current build stays; a request answers 507 (kg.store.disk_space)."""

    exit_code = 5
    http_status = 507
    retry_after = 30


class ClusterError(KgError):
    """The Dask cluster a build reads documents on cannot be reached, has no worker, or was lost
    mid-build (the build is abandoned; the previous one stays current)."""

    http_status = 503


class BuildLockedError(KgError):
    """Another build is running on the same data directory."""

    exit_code = 4
    http_status = 409


class ApiError(KgError):
    """An HTTP answer the endpoint decides itself (status, detail, extra members of the error shape)."""

    def __init__(self, status: int, detail: str, headers: dict[str, str] | None = None, **extra: Any) -> None:
        super().__init__(detail)
        self.http_status = status
        self.detail = detail
        self.headers = headers or {}
        self.extra = extra

    @property
    def status(self) -> int:
        return self.http_status
