"""Every export parses back, with rdflib and with an independent parser (rapper), to what the store holds."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pyoxigraph as ox
import pytest
import rdflib

from kg.store import build_dirs
from tests.helpers import assert_same_quads, export_file, run_kg

NQ = "application/n-quads"


def _store_dataset(data: Path) -> rdflib.Dataset:
    """The store itself as the reference: its quads, dumped by Oxigraph now."""
    store = ox.Store.read_only(str(build_dirs.store_path(build_dirs.current_build(data))))
    dataset = rdflib.Dataset()
    dataset.parse(data=store.dump(format=ox.RdfFormat.N_QUADS), format="nquads")
    return dataset


def _quads(dataset: rdflib.Dataset) -> set:
    return {(s, p, o, str(g.identifier if hasattr(g, "identifier") else g))
            for s, p, o, g in dataset.quads((None, None, None, None))}


def _union(dataset: rdflib.Dataset) -> set:
    return {(s, p, o) for s, p, o, _ in dataset.quads((None, None, None, None))}


@pytest.fixture(scope="module")
def reference(shipped_data: Path) -> rdflib.Dataset:
    return _store_dataset(shipped_data)


@pytest.mark.parametrize("fmt,parser", [("trig", "trig"), ("nq", "nquads"), ("jsonld", "json-ld")])
def test_dataset_exports_round_trip_through_rdflib(shipped_data, reference, fmt, parser) -> None:
    dataset = rdflib.Dataset()
    dataset.parse(export_file(shipped_data, fmt), format=parser)
    assert_same_quads(_quads(dataset), _quads(reference), f"{fmt} export")


def test_turtle_export_is_the_union_and_readable(shipped_data, reference) -> None:
    path = export_file(shipped_data, "ttl")
    graph = rdflib.Graph().parse(path, format="turtle")
    assert_same_quads(set(graph), _union(reference), "ttl export")
    text = path.read_text(encoding="utf-8")
    assert text.count("@prefix kgo: <https://kg.example.org/ontology#>") >= 1
    assert "person:juan-guaido" in text


def test_two_builds_write_the_same_bytes(tiny_copy, tmp_path) -> None:
    for data in (tmp_path / "one", tmp_path / "two"):
        assert run_kg("build", "--corpus", str(tiny_copy), "--data", str(data)).exit_code == 0
    for fmt in build_dirs.EXPORT_FILES:
        one, two = (export_file(tmp_path / d, fmt) for d in ("one", "two"))
        assert one.read_bytes() == two.read_bytes(), fmt


def test_kg_export_writes_a_file(shipped_data, tmp_path) -> None:
    target = tmp_path / "out.trig"
    assert run_kg("export", "--format", "trig", "-o", str(target), "--data", str(shipped_data)).exit_code == 0
    assert target.read_bytes() == export_file(shipped_data, "trig").read_bytes()


RAPPER = shutil.which("rapper")


@pytest.mark.skipif(RAPPER is None, reason="rapper (Debian raptor2-utils) is not installed")
@pytest.mark.parametrize("fmt,syntax", [("ttl", "turtle"), ("trig", "trig"), ("nq", "nquads")])
def test_exports_parse_with_rapper(shipped_data, reference, fmt, syntax) -> None:
    path = export_file(shipped_data, fmt)
    output = "ntriples" if fmt == "ttl" else "nquads"
    run = subprocess.run([RAPPER, "-q", "-i", syntax, "-o", output, str(path)], capture_output=True, timeout=120)
    assert run.returncode == 0, run.stderr.decode()
    parsed = rdflib.Dataset()
    parsed.parse(data=run.stdout, format="nquads")
    if fmt == "ttl":
        assert_same_quads(_union(parsed), _union(reference), "ttl via rapper")
    else:
        assert_same_quads(_quads(parsed), _quads(reference), f"{fmt} via rapper")
