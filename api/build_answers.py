"""Answers that describe a whole build (the JSON API's stats and list orders, the VoID counts),
computed once per served version in the background and kept (app_state().answers).

Counting the quads of 100,000 articles takes minutes, past any request's time limit: such an
answer is computed in a background thread with CACHED_BUDGET seconds of its own, one answer at a
time. A request waits for it until its own deadline, then gets a 503 with Retry-After saying it is
being computed; a later request gets it from memory. An answer whose computation failed is that
failure, once, to the request waiting for it; the next request computes it again.
"""

from __future__ import annotations

import logging
import time
from typing import Any, Callable

from flask import current_app, g

from kg.api.app_state import KeptAnswers, app_state
from kg.api.request_life import detached, pinned_backend
from kg.errors import ApiError
from kg.settings import limit

CACHED_BUDGET = limit("answer_budget")
RETRY_AFTER = limit("answer_retry")
log = logging.getLogger(__name__)


def cached(name: str, compute: Callable[[float], Any]) -> Any:
    """`compute(deadline)` once per served version (and per backend.max_age for a remote store)."""
    backend, kept = pinned_backend(), app_state().answers
    version = backend.version()
    hit = kept.memo.get(name, version, backend.max_age)
    if hit is not None:
        return hit
    key = (name, version)
    _started(name, version, compute).join(max(0.0, g.deadline - time.monotonic()))
    hit = kept.memo.get(name, version, backend.max_age)
    if hit is not None:
        return hit
    failure = None if kept.jobs.running(key) else kept.failed.pop(key, None)
    if failure is not None:
        raise failure
    raise ApiError(503, f"the {name} of this graph are being computed, which takes long on a large graph; "
                        f"try again in {RETRY_AFTER} s", {"Retry-After": str(RETRY_AFTER)})


def cached_if_ready(name: str, compute: Callable[[float], Any]) -> Any | None:
    """What `cached` answers when it is computed already; else None at once, its computation started in the
    background (for an answer that only makes a request faster: the request goes the slower way meanwhile, and
    after a failed computation, which is not started again for this version)."""
    backend, kept = pinned_backend(), app_state().answers
    version = backend.version()
    hit = kept.memo.get(name, version, backend.max_age)
    if hit is None and (name, version) not in kept.failed:
        _started(name, version, compute)
    return hit


def _started(name: str, version: str, compute: Callable[[float], Any]) -> Any:
    """The thread computing `name` for `version` (started now unless running)."""
    kept, key = app_state().answers, (name, version)
    app = current_app._get_current_object()
    return kept.jobs.start(key, lambda: _compute(app, kept, key, compute), name=f"kg {name}")


def _compute(app: Any, kept: KeptAnswers, key: tuple[str, str], compute: Callable[[float], Any]) -> None:
    """Compute one answer with a build pinned for this thread alone (the request that asked may end first)."""
    name, version = key
    kept.failed.pop(key, None)
    try:
        with detached(app, CACHED_BUDGET), kept.computing:
            if pinned_backend().version() == version:  # else the served build changed: a request for it starts anew
                kept.memo.put(name, version, compute(g.deadline))
    except Exception as error:  # noqa: BLE001 - handed to the request waiting for it
        log.warning("%s of %s not computed: %s", name, version, error)
        kept.failed[key] = error
