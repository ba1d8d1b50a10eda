"""Which of kg's own example queries answer on the served graph.

kg's examples ask about its news ontology (offices, defections, Human Rights Watch): on another
corpus most return nothing, and a page offering them misleads. So each is run once per served
version, in the background, under the endpoint's time limit (QUERY_TIMEOUT) like any query a
visitor sends, and the page lists those that returned a row. Until that is known (a large graph),
the page lists the corpus's own examples alone; an example too slow for the time limit, or
refused, is left off as one without rows.
"""

from __future__ import annotations

import time

from flask import current_app, g

from kg.api.build_answers import cached
from kg.api.page.examples import Example
from kg.api.request_life import pinned_backend
from kg.errors import KgError

CHECK_WAIT = 3.0  # seconds a page request waits for the check before it shows what is known


def with_rows(examples: list[Example]) -> list[Example]:
    """The examples that return at least one row on the served graph (those not yet run, none)."""
    waited, g.deadline = g.deadline, min(g.deadline, time.monotonic() + CHECK_WAIT)
    try:
        return [example for example in examples if _answers(example)]
    finally:
        g.deadline = waited


def _answers(example: Example) -> bool:
    """Whether `example` returned a row, computed once per served version (each apart: a check
    holds the answers computed once per build, api/build_answers.py, for at most one time limit)."""
    try:
        return cached(f"rows of the example {example.id}", lambda deadline: _has_rows(example, deadline))
    except KgError:  # still being run, or the run failed: not shown yet, asked again next time
        return False


def _has_rows(example: Example, deadline: float) -> bool:
    try:
        limit = min(deadline, time.monotonic() + float(current_app.config["QUERY_TIMEOUT"]))
        return bool(pinned_backend().select(example.portable, limit))
    except KgError:  # past the time limit, or refused: a visitor would get no rows either
        return False
