"""Where a build spends its time: named phases with their wall-clock seconds.

A build records each step it takes (scan, read, load, records, ...) so the
manifest, `kg build --timings` and the benchmark can say what an edit or a
full build costs and where the time goes.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from typing import Iterator


class Phases:
    """Seconds per named phase, in the order the phases first ran (a repeated phase adds up)."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self.failed: str | None = None  # the innermost phase an exception left

    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        except BaseException:
            self.failed = self.failed or name
            raise
        finally:
            self.seconds[name] = self.seconds.get(name, 0.0) + time.perf_counter() - started

    def table(self) -> str:
        """One line per phase: name, seconds, share of the total."""
        total = sum(self.seconds.values()) or 1.0
        return "\n".join(f"  {name:<12} {secs:8.2f} s {100 * secs / total:5.1f} %"
                         for name, secs in self.seconds.items())

    def rounded(self) -> dict[str, float]:
        return {name: round(secs, 3) for name, secs in self.seconds.items()}
