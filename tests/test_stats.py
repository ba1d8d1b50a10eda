"""One statistics definition (kg/publish/stats.py): `kg stats` and `/api/stats` give the same numbers,
checked by hand on the tiny corpus (tests/data/tiny)."""

from __future__ import annotations

import json
from pathlib import Path

import pyoxigraph as ox
import pytest

from kg.api import create_app
from kg.store import build_dirs
from kg.pipeline.builder import build
from tests.helpers import TINY, TINY_STATS, run_kg


@pytest.fixture(scope="module")
def tiny_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = tmp_path_factory.mktemp("tiny-data")
    build(TINY, data)
    return data


def _quads(data: Path) -> int:
    return len(ox.Store.read_only(str(build_dirs.store_path(build_dirs.current_build(data)))))


def test_kg_stats_gives_the_hand_counted_numbers(tiny_data):
    result = run_kg("stats", "--data", str(tiny_data), "--json")
    stats = json.loads(result.stdout)
    assert stats["counts"].pop("quads") == _quads(tiny_data)
    assert stats == TINY_STATS


def test_api_stats_gives_the_same_numbers_as_kg_stats(tiny_data):
    cli = json.loads(run_kg("stats", "--data", str(tiny_data), "--json").stdout)
    app = create_app({"DATA": str(tiny_data), "WORKERS": 1})
    try:
        api = app.test_client().get("/api/stats").get_json()
    finally:
        app.extensions["kg"].close()
    assert api["version"] == build_dirs.current_build(tiny_data).name
    assert {k: v for k, v in api.items() if k not in ("version", "builtAt")} == cli


def test_kg_stats_text_lists_each_section(tiny_data):
    lines = run_kg("stats", "--data", str(tiny_data)).stdout.splitlines()
    assert lines[0] == "counts:" and lines[1] == f"  {_quads(tiny_data):7d}  quads"
    assert lines[lines.index("eventTypes:") + 1] == "        1  Flight"
