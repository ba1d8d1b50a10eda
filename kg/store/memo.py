"""The one caching convention for values computed from data that can change: a `Memo` keeps the
newest value of each named computation with the version of the data it came from.

A value is reused while the same version is served and it is younger than the caller's
`max_age` (a remote store's data can change under one version; a build's cannot, so its
values live as long as the build is served). A Memo belongs to the object whose lifetime bounds
its values (an app, a backend, a store), never to a module. Pure functions of immutable
arguments use functools.lru_cache, and values of an object for its whole life
functools.cached_property.
"""

from __future__ import annotations

import math
import threading
import time
from typing import Any


class Memo:
    """Named values, each with the version it was computed from and when (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._values: dict[str, tuple[str, float, Any]] = {}

    def get(self, name: str, version: str, max_age: float = math.inf) -> Any | None:
        """The value of `name` computed from `version` less than `max_age` seconds ago, else None."""
        with self._lock:
            held = self._values.get(name)
        if held is not None and held[0] == version and time.monotonic() - held[1] < max_age:
            return held[2]
        return None

    def put(self, name: str, version: str, value: Any) -> Any:
        """Keep `value` as the one value of `name` (the value of an older version is dropped)."""
        with self._lock:
            self._values[name] = (version, time.monotonic(), value)
        return value

    def forget(self) -> None:
        """Drop every value (the data changed under the same version)."""
        with self._lock:
            self._values.clear()
