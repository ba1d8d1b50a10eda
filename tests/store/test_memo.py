"""kg.store.memo: a value is reused for its version only, within max_age, and forgotten on demand."""

from __future__ import annotations

import threading

from kg.store.memo import Memo


def test_a_value_serves_its_own_version_only() -> None:
    memo = Memo()
    assert memo.get("stats", "build-1") is None
    assert memo.put("stats", "build-1", {"quads": 3}) == {"quads": 3}
    assert memo.get("stats", "build-1") == {"quads": 3}
    assert memo.get("stats", "build-2") is None
    memo.put("stats", "build-2", {"quads": 5})
    assert (memo.get("stats", "build-1"), memo.get("stats", "build-2")) == (None, {"quads": 5})
    assert memo.get("graphs", "build-2") is None  # names are apart


def test_max_age_and_forget() -> None:
    memo = Memo()
    memo.put("page", "remote:http://s/sparql", "<html>")
    assert memo.get("page", "remote:http://s/sparql", max_age=60.0) == "<html>"
    assert memo.get("page", "remote:http://s/sparql", max_age=0.0) is None  # older than no time at all
    memo.forget()
    assert memo.get("page", "remote:http://s/sparql") is None


def test_threads_see_one_value() -> None:
    memo = Memo()
    threads = [threading.Thread(target=memo.put, args=("n", "v", i)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert memo.get("n", "v") in range(8)
