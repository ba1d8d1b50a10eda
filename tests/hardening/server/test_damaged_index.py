"""A damaged search index (zeroed pages, its header intact) against a real `kg serve` (issue 41:
11 of 12 searches answered 500 with tracebacks). The file is found damaged when it is opened
(SQLite's quick_check), made again from the store in its place, and searches answer 503 with
Retry-After meanwhile, then hits."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import requests

from kg.publish import search_index
from kg.store import build_dirs
from kg.testing.servers import Server

SEARCHES = 12


def zero_pages_after_the_first(path: Path) -> None:
    """Zeroes every page of an SQLite file but the first (which holds its header and schema)."""
    data = bytearray(path.read_bytes())
    page_size = int.from_bytes(data[16:18], "big")
    data[page_size:] = bytes(len(data) - page_size)
    path.write_bytes(bytes(data))


def venezuela(url: str) -> requests.Response:
    return requests.get(url + "api/search", params={"q": "Venezuela"}, timeout=60)


def test_a_damaged_search_index_is_made_again_never_a_500(shipped_data, tmp_path):
    data = tmp_path / "data"
    shutil.copytree(shipped_data, data, symlinks=True)
    index = search_index.index_path(build_dirs.current_build(data))
    zero_pages_after_the_first(index)
    assert not search_index.readable(index)
    server = Server(data, "--workers", "1", "--threads", "6")
    try:
        answers = []
        for _ in range(SEARCHES):
            answers.append(venezuela(server.url))
            time.sleep(0.2)
        assert {a.status_code for a in answers} <= {200, 503}, [a.text[:300] for a in answers if a.status_code >= 500]
        assert all(a.headers.get("Retry-After") for a in answers if a.status_code == 503)
        began = time.monotonic()
        while (answer := venezuela(server.url)).status_code == 503 and time.monotonic() - began < 120:
            time.sleep(1)
        assert answer.status_code == 200 and answer.json()["items"], answer.text[:300]
        assert search_index.readable(index), "the damaged file was not made again in its place"
    finally:
        server.stop()
