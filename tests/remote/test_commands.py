"""`kg query`, `kg stats`, `kg export`, `kg viz` and `kg.open` on a remote build: the shipped corpus
built with `kg build --store URL` into a real `oxigraph serve` and a real Virtuoso 7
(tests/remote/conftest.py), then read with `--store URL` and a data directory that holds nothing.
Each answer must equal the one the embedded store of the same build gives."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

import pyoxigraph as ox
import pytest

import kg
from kg.formats import rdf_syntaxes
from tests.helpers import CORPUS, assert_same_quads, run_kg
from tests.remote.conftest import ENGINE_NAMES, start_store

SELECT = "SELECT ?e ?label WHERE { ?e a kgo:Person ; skos:prefLabel ?label } ORDER BY ?e"
CONSTRUCT = "CONSTRUCT { ?e skos:altLabel ?l } WHERE { ?e skos:altLabel ?l }"


@pytest.fixture(scope="module", params=ENGINE_NAMES)
def pushed(request, tmp_path_factory) -> Iterator[tuple[str, Path]]:
    """(store URL, data directory of the same build): the shipped corpus built into a fresh server."""
    server = start_store(request.param, tmp_path_factory.mktemp(request.param))
    data = tmp_path_factory.mktemp("data")
    try:
        result = run_kg("build", "--corpus", str(CORPUS), "--data", str(data), "--store", server.url,
                        "--no-validate", "--quiet")
        assert result.exit_code == 0, result.output
        yield server.url, data
    finally:
        server.stop()


def remote(pushed: tuple[str, Path], tmp_path: Path, command: str, *args: str):
    """`kg COMMAND ARGS` on the store alone: its data directory holds no build."""
    return run_kg(command, *args, "--store", pushed[0], "--data", str(tmp_path / "nothing"))


def embedded(pushed: tuple[str, Path], command: str, *args: str):
    return run_kg(command, *args, "--data", str(pushed[1]))


def test_query_answers_from_the_store(pushed, tmp_path: Path) -> None:
    for args in ([SELECT, "--format", "json"], [SELECT], [CONSTRUCT, "--format", "nt"]):
        got, expected = remote(pushed, tmp_path, "query", *args), embedded(pushed, "query", *args)
        assert got.exit_code == 0, got.output
        if "nt" in args:
            assert_same_quads(ox.parse(got.stdout_bytes, format=ox.RdfFormat.N_TRIPLES),
                              ox.parse(expected.stdout_bytes, format=ox.RdfFormat.N_TRIPLES), "CONSTRUCT")
        elif "json" in args:
            rows = json.loads(got.stdout)["results"]["bindings"]
            assert rows == json.loads(expected.stdout)["results"]["bindings"] and rows
        else:
            assert got.stdout == expected.stdout and "person:" in got.stdout  # prefixed names, as the build's


def test_stats_of_the_store(pushed, tmp_path: Path) -> None:
    got = remote(pushed, tmp_path, "stats", "--json")
    assert got.exit_code == 0, got.output
    assert json.loads(got.stdout) == json.loads(embedded(pushed, "stats", "--json").stdout)
    assert json.loads(got.stdout)["counts"]["documents"] == 4 and json.loads(got.stdout)["counts"]["graphs"] == 6


@pytest.mark.parametrize("fmt", ["nq", "trig", "ttl"])
def test_export_of_the_store(pushed, tmp_path: Path, fmt: str) -> None:
    ours, theirs = tmp_path / f"remote.{fmt}", tmp_path / f"embedded.{fmt}"
    got = remote(pushed, tmp_path, "export", "--format", fmt, "-o", str(ours))
    assert got.exit_code == 0, got.output
    assert embedded(pushed, "export", "--format", fmt, "-o", str(theirs)).exit_code == 0
    syntax = rdf_syntaxes.by_extension(fmt).oxigraph
    assert_same_quads(ox.parse(path=str(ours), format=syntax), ox.parse(path=str(theirs), format=syntax),
                      f"{fmt} export")


def test_brat_export_needs_a_build_directory(pushed, tmp_path: Path) -> None:
    got = remote(pushed, tmp_path, "export", "--format", "brat", "-o", str(tmp_path / "out"))
    assert got.exit_code == 2 and "build directory" in got.output


def test_viz_of_the_store(pushed, tmp_path: Path) -> None:
    ours, theirs = tmp_path / "remote.html", tmp_path / "embedded.html"
    got = remote(pushed, tmp_path, "viz", "-o", str(ours))
    assert got.exit_code == 0, got.output
    assert embedded(pushed, "viz", "-o", str(theirs)).exit_code == 0
    assert got.stdout == embedded(pushed, "viz", "-o", str(theirs)).stdout.replace(str(theirs), str(ours))
    assert ours.read_bytes() == theirs.read_bytes()


def test_kg_open_on_the_store(pushed) -> None:
    url, data = pushed
    with kg.open(store=url) as graph, kg.open(data) as local:
        rows = graph.query(SELECT)
        assert rows.rows == local.query(SELECT).rows and rows.variables == ["e", "label"] and rows
        assert graph.query("ASK { ?s kgo:mentionCount ?n }") is True
        assert graph.stats() == local.stats()
        assert_same_quads(graph.to_rdflib().quads(), local.to_rdflib().quads(), "kg.open's datasets")


def test_a_store_without_the_build_is_said_so(pushed, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("KG_BASE_IRI", "https://elsewhere.example.org/")  # a dataset the store does not hold
    got = remote(pushed, tmp_path, "query", SELECT)
    assert got.exit_code == 1 and "holds no graph built under https://elsewhere.example.org/" in got.output
