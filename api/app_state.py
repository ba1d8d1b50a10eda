"""Everything one app holds from one request to the next, in one typed object.

`create_app` (api/__init__.py) makes it and keeps it at `app.extensions["kg"]`; code reads it
with `app_state()` (the app of the request or app context) and never keeps state of its own in
`app.extensions`, in module globals or in Flask's `g` beyond one request (api/request_life.py).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kg.api.backend.background import OnePerKey
from kg.api.backend.search_indexes import SearchIndexes
from kg.store.memo import Memo

if TYPE_CHECKING:
    from flask import Flask

    from kg.api.admission import Admission
    from kg.api.backend.protocol import Backend

EXTENSION = "kg"  # the key of the state in app.extensions


@dataclass
class KeptAnswers:
    """Answers computed once per served version (api/build_answers.py): kept, being computed, failed."""

    memo: Memo = field(default_factory=Memo)
    computing: threading.Lock = field(default_factory=threading.Lock)  # one computation at a time
    jobs: OnePerKey = field(default_factory=OnePerKey)  # (name, version) of each answer being computed
    failed: dict[tuple[str, str], Exception] = field(default_factory=dict)  # what the last computation raised


@dataclass
class AppState:
    """What the app holds: the store it answers from, the admission of requests, and what it
    keeps per served version (search indexes, computed answers, the query page's corpus examples,
    the network view's index and page)."""

    backend: Backend
    admission: Admission
    search: SearchIndexes = field(default_factory=SearchIndexes)
    answers: KeptAnswers = field(default_factory=KeptAnswers)
    examples: Memo = field(default_factory=Memo)
    view: Memo = field(default_factory=Memo)
    view_lock: threading.Lock = field(default_factory=threading.Lock)  # one reader of a large graph at a time

    def close(self) -> None:
        """Stop what the app runs (the query workers, a remote store's connections)."""
        self.backend.close()


def app_state(app: Flask | Any = None) -> AppState:
    """The state of `app`, by default the app of the current request or app context."""
    if app is None:
        from flask import current_app

        app = current_app
    return app.extensions[EXTENSION]
