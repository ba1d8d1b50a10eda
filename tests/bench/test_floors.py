"""The reference measurements load, parse and serialize exactly the quads kg built."""

from __future__ import annotations

import json
from pathlib import Path

import pyoxigraph as ox
import rdflib

from kg.store import build_dirs

from .conftest import REPO, run_cli

FLOORS = REPO / "benchmarks" / "measuring" / "floors.py"
PYTHON = REPO / ".venv" / "bin" / "python"


def _floor(*args: object) -> dict:
    done = run_cli(PYTHON, FLOORS, *args)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_bulk_load_and_rdflib_see_every_quad_of_the_export(built, tmp_path: Path) -> None:
    _, data = built
    nquads = build_dirs.export_path(build_dirs.current_build(data), "nq")
    lines = sum(1 for line in nquads.read_bytes().splitlines() if line.strip())
    loaded = _floor("bulk-load", nquads, tmp_path / "store")
    assert loaded["quads"] == lines and loaded["seconds"] > 0
    assert len(ox.Store.read_only(str(tmp_path / "store"))) == lines
    parsed = _floor("rdflib", nquads, tmp_path / "rdflib.ttl")
    assert parsed["quads"] == lines
    union = {(q.subject, q.predicate, q.object) for q in ox.parse(path=str(nquads), format=ox.RdfFormat.N_QUADS)}
    assert len(rdflib.Graph().parse(tmp_path / "rdflib.ttl", format="turtle")) == len(union)


def test_serializers_write_the_whole_graph(built, tmp_path: Path) -> None:
    _, data = built
    build = build_dirs.current_build(data)
    quads = set(ox.parse(path=str(build_dirs.export_path(build, "nq")), format=ox.RdfFormat.N_QUADS))
    dumped = _floor("oxigraph-dump", build_dirs.store_path(build), tmp_path / "all.trig")
    assert set(ox.parse(path=str(tmp_path / "all.trig"), format=ox.RdfFormat.TRIG)) == quads
    ours = _floor("kg-turtle", build_dirs.store_path(build), tmp_path / "kg.ttl")
    triples = {q.triple for q in ox.parse(path=str(tmp_path / "kg.ttl"), format=ox.RdfFormat.TURTLE)}
    assert triples == {ox.Triple(q.subject, q.predicate, q.object) for q in quads}
    assert ours["bytes"] > 0 and dumped["bytes"] > 0
