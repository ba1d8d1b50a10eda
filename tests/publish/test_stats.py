"""One statistics definition (kg/publish/stats.py): `kg stats` and `/api/stats` give the same numbers,
checked by hand on the tiny corpus (tests/data/tiny)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pyoxigraph as ox
import pytest

from kg.model.iris import prologue, term_name
from kg.pipeline.builder import build
from kg.publish.stats import COUNTED, graph_stats
from kg.store import build_dirs
from kg.store.embedded import EmbeddedStore
from tests.helpers import CORPUS, TINY, TINY_STATS, add_article, edit_npr, made_app, run_kg


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
    with made_app({"DATA": str(tiny_data), "WORKERS": 1}) as app:
        api = app.test_client().get("/api/stats").get_json()
    assert api["version"] == build_dirs.current_build(tiny_data).name
    assert {k: v for k, v in api.items() if k not in ("version", "builtAt")} == cli


def test_kg_stats_text_lists_each_section(tiny_data):
    lines = run_kg("stats", "--data", str(tiny_data)).stdout.splitlines()
    assert lines[0] == "counts:" and lines[1] == f"  {_quads(tiny_data):7d}  quads"
    assert lines[lines.index("eventTypes:") + 1] == "        1  Flight"


@pytest.fixture(scope="module")
def edited_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shipped corpus built, then one article edited and one added: an incremental build's
    manifest holds the patched count of quads /api/stats reports."""
    root = tmp_path_factory.mktemp("shipped")
    corpus = root / "corpus"
    shutil.copytree(CORPUS, corpus)
    build(corpus, root / "data")
    edit_npr(corpus)
    add_article(corpus)
    assert build(corpus, root / "data").mode == "incremental"
    return root / "data"


def test_api_stats_with_the_kept_quad_count_equals_every_count_asked_of_the_store(edited_data):
    with EmbeddedStore(build_dirs.store_path(build_dirs.current_build(edited_data)), read_only=True) as store:
        counted = graph_stats(store.select, store.graphs())
        statements = store.select(prologue() + "SELECT ?t (COUNT(DISTINCT ?s) AS ?n) WHERE "
                                  "{ ?s a kgo:Statement ; rdf:predicate ?t } GROUP BY ?t")
    with made_app({"DATA": str(edited_data), "WORKERS": 1}) as app:
        api = app.test_client().get("/api/stats").get_json()
    assert {k: v for k, v in api.items() if k not in ("version", "builtAt")} == counted
    assert counted["relations"] == {term_name(r["t"]): int(r["n"]) for r in statements}
    assert counted["counts"]["quads"] == len(ox.Store.read_only(
        str(build_dirs.store_path(build_dirs.current_build(edited_data)))))


def test_stats_counts_no_quad_when_the_count_is_kept():
    asked: list[str] = []

    def select(sparql: str) -> list[dict[str, str]]:
        asked.append(sparql)
        return [dict.fromkeys(COUNTED, "0")] if "?documents" in sparql else []

    stats = graph_stats(select, ["g"], quads=7)
    assert stats["counts"]["quads"] == 7 and "GRAPH ?g" not in asked[0]
    graph_stats(select, ["g"])
    assert "GRAPH ?g" in asked[-4]
