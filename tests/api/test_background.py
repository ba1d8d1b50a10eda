"""Work kept running in the background, one thread per key (kg.api.backend.background)."""

from __future__ import annotations

import threading
import time

from kg.api.backend.background import OnePerKey


def test_a_thread_handed_to_a_second_caller_can_be_joined_at_once() -> None:
    """Found under load: the first request registered its thread and started it after releasing the
    lock, so a second request for the same key joined a thread not yet started (RuntimeError, a 500)."""
    jobs, errors, done = OnePerKey(), [], []
    gate = threading.Barrier(16)

    def ask() -> None:
        gate.wait()
        try:
            jobs.start("key", lambda: (time.sleep(0.05), done.append(1)), name="work").join(5)
        except RuntimeError as error:
            errors.append(error)

    for _ in range(50):
        askers = [threading.Thread(target=ask) for _ in range(16)]
        for asker in askers:
            asker.start()
        for asker in askers:
            asker.join()
    assert errors == [] and done
