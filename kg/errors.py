"""One exception tree for kg. Library code raises these; only the edges
(the CLI, the HTTP handlers) catch them and turn them into exit codes or
the JSON error shape.

    KgError
    ├── InputError            bad corpus or annotation input (exit code 2)
    │   ├── InputErrors       several InputErrors found together (one per line)
    │   ├── AnnotationError   a .ann line that is wrong; carries path, line, column
    │   ├── CorpusError       a missing, unreadable or non-UTF-8 file; metadata
    │   └── ConfigError       annotation.conf or aliases.toml that is wrong
    ├── ValidationError       a built graph that breaks the SHACL shapes
    ├── QueryError            a SPARQL query the engine rejects (message has line:column)
    ├── StoreError            the store cannot be opened, read or written
    └── BuildLockedError      another build holds the lock
"""

from __future__ import annotations

from pathlib import Path


class KgError(Exception):
    """Base of every error kg raises on purpose."""

    exit_code = 1


class InputError(KgError):
    """Bad input: the message says where and what was expected."""

    exit_code = 2

    def __init__(self, message: str, path: Path | str | None = None, line: int | None = None,
                 column: int | None = None) -> None:
        self.path = str(path) if path is not None else None
        self.line = line
        self.column = column
        self.reason = message
        super().__init__(self._render())

    def _render(self) -> str:
        where = self.path or ""
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return f"{where}: {self.reason}" if where else self.reason


class InputErrors(InputError):
    """Several input problems, reported together so that one run shows them all."""

    def __init__(self, errors: list[InputError]) -> None:
        self.errors = list(errors)
        first = self.errors[0]
        super().__init__(first.reason, first.path, first.line, first.column)

    def _render(self) -> str:
        return "\n".join(InputError._render(e) for e in self.errors)


class AnnotationError(InputError):
    """A .ann line that cannot be read or contradicts its text or the configuration."""


class CorpusError(InputError):
    """A corpus file that is missing, unreadable, not UTF-8, or with bad metadata."""


class ConfigError(InputError):
    """annotation.conf or aliases.toml that cannot be read."""


class ValidationError(KgError):
    """The built graph does not conform to the SHACL shapes."""

    exit_code = 3


class QueryError(KgError):
    """A SPARQL query the engine rejects; the message carries line and column."""

    exit_code = 2


class StoreError(KgError):
    """The store cannot be opened, read or written."""


class BuildLockedError(KgError):
    """Another build is running on the same data directory."""

    exit_code = 4
