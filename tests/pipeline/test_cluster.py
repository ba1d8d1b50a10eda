"""`kg build --cluster`: the documents read on a real Dask cluster give exactly what a build on this
machine gives.

A `dask scheduler` and two `dask worker` processes run on 127.0.0.1 (kg.testing.dask_cluster; no
in-process cluster). A cluster build of a generated corpus is compared with a build by the local
process pool: kg.nq sorted line by line, byte for byte, the entity records' evidence, the search
index's rows, every export and the view data; the same after an edit, an addition and a removal
built incrementally on both; the same when a worker is killed with SIGKILL mid-build. A killed
scheduler ends the build with a non-zero exit and the previous build still served, and a worker
that does not see the data directory stops the build at the start with exit 2, naming it.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import pytest
import requests

from benchmarks.corpus import mutate
from benchmarks.corpus.generate import Generator, write_corpus
from kg.model.entities.evidence import load_evidence
from kg.pipeline.builder import BuildMode, build
from kg.publish.export import write_exports
from kg.publish.search_index import index_path
from kg.publish.view_index import open_index
from kg.store import build_dirs
from kg.testing.dask_cluster import DaskCluster
from kg.testing.servers import Server, can_hide
from kg.viz.network import graph_of

pytest.importorskip("distributed", reason="kg build --cluster needs Dask distributed (the cluster extra)")

DOCS = 90  # three tasks of 30 documents on two workers
SEED = 11
ASK_COUNT = "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("cluster-corpus") / "corpus"
    write_corpus(path, DOCS, SEED)
    return path


@pytest.fixture(scope="module")
def cluster(tmp_path_factory) -> Iterator[DaskCluster]:
    """A scheduler and two workers shared by the tests that kill nothing."""
    running = DaskCluster(tmp_path_factory.mktemp("dask"))
    yield running
    running.stop()


@pytest.fixture
def own_cluster(tmp_path: Path) -> Iterator[DaskCluster]:
    """A scheduler and two workers for a test that kills one of them."""
    running = DaskCluster(tmp_path / "dask")
    yield running
    running.stop()


@pytest.fixture(scope="module")
def local(corpus: Path, tmp_path_factory) -> Path:
    """The data directory of the corpus built by the local process pool (two processes)."""
    data = tmp_path_factory.mktemp("local") / "data"
    build(corpus, data, workers=2)
    return data


@pytest.fixture(scope="module")
def on_cluster(corpus: Path, cluster: DaskCluster, tmp_path_factory) -> Path:
    data = tmp_path_factory.mktemp("on-cluster") / "data"
    report = build(corpus, data, cluster=cluster.address)
    assert report.mode is BuildMode.FULL and report.documents == DOCS
    return data


def outputs(data: Path) -> dict[str, object]:
    """What a build gives a user, in a form compared exactly: kg.nq sorted, the evidence the
    records come from, the search index's rows, each export, the view data."""
    current = build_dirs.current_build(data)
    write_exports(current)
    found: dict[str, object] = {"kg.nq sorted": b"".join(sorted(
        build_dirs.export_path(current, "nq").read_bytes().splitlines(keepends=True)))}
    for fmt in ("ttl", "trig", "jsonld"):
        found[f"kg.{fmt}"] = build_dirs.export_path(current, fmt).read_bytes()
    found["evidence"] = load_evidence(current / build_dirs.EVIDENCE_FILE)
    with sqlite3.connect(index_path(current)) as db:
        found["search index"] = {table: sorted(db.execute(f"SELECT * FROM {table}"))  # noqa: S608 - fixed names
                                 for table in ("entities", "labels")}
    found["view index"] = view_of(current)
    return found


def view_of(build: Path) -> tuple:
    """The whole view graph the build's view index gives (nodes, edges, sentences and articles, in
    the graph's own order), its rankings and its overview."""
    index = open_index(build)
    with build_dirs.under_build_base(build):
        whole = graph_of(index.schema, index.rows(index.all_nodes(), cap=None), whole_ranks=index.ranks())
    return (list(whole.nodes(data=True)), list(whole.edges(keys=True, data=True)), whole.graph, index.overview(),
            index.dates(), index.figure_topics())


def assert_same_outputs(actual: Path, expected: Path) -> None:
    got, wanted = outputs(actual), outputs(expected)
    for name in wanted:
        assert got[name] == wanted[name], f"{name} differs"


def test_cluster_build_equals_local_build(on_cluster: Path, local: Path) -> None:
    assert not (build_dirs.current_build(on_cluster) / build_dirs.PARTS_DIR).exists()  # parts go once read
    assert_same_outputs(on_cluster, local)


def _change(corpus: Path) -> None:
    """An edit, an addition and a removal, as the benchmark makes them."""
    generator = Generator(SEED, DOCS)
    slugs = sorted(p.stem for p in corpus.glob("*.txt"))
    mutate.edit_document(corpus, slugs[len(slugs) // 2], generator)
    mutate.add_document(corpus, generator, DOCS)
    mutate.remove_document(corpus, slugs[0])


def test_incremental_cluster_build_equals_local_one(on_cluster: Path, local: Path, corpus: Path,
                                                    cluster: DaskCluster, tmp_path: Path) -> None:
    changed = tmp_path / "corpus"
    shutil.copytree(corpus, changed)
    _change(changed)
    runs = {}
    for name, data, where in (("cluster", on_cluster, {"cluster": cluster.address}), ("local", local, {})):
        copy = tmp_path / name
        shutil.copytree(data, copy, symlinks=True)
        # the copies read the changed corpus: the previous build read `corpus`, unchanged files count as unchanged
        report = build(changed, copy, workers=2, **where)
        assert report.mode is BuildMode.INCREMENTAL
        assert (len(report.added), len(report.changed), len(report.removed)) == (1, 1, 1)
        runs[name] = copy
    assert_same_outputs(runs["cluster"], runs["local"])


def _kg_build(corpus: Path, data: Path, *args: str) -> subprocess.Popen:
    kg = Path(sys.executable).parent / "kg"
    return subprocess.Popen([str(kg), "build", "--corpus", str(corpus), "--data", str(data), "--quiet", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)


def _reading_started(data: Path, build: subprocess.Popen, timeout: float = 300.0) -> None:
    """Wait until the build's tasks are on the cluster (what they all read is written before the
    first task is submitted)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if list((data / build_dirs.BUILDS_DIR).glob(f"*/{build_dirs.PARTS_DIR}/{build_dirs.SHARED_INPUTS_FILE}")):
            return
        if build.poll() is not None:
            pytest.fail(f"the build ended before reading on the cluster: {build.communicate()}")
        time.sleep(0.02)
    pytest.fail("the build did not start reading")


def test_a_worker_killed_mid_build_gives_the_same_graph(corpus: Path, own_cluster: DaskCluster, local: Path,
                                                        tmp_path: Path) -> None:
    data = tmp_path / "data"
    running = _kg_build(corpus, data, "--cluster", own_cluster.address)
    try:
        _reading_started(data, running)
        time.sleep(1.0)  # both workers are reading their first run of documents
        assert running.poll() is None, "the build ended before a worker could be killed"
        own_cluster.kill_worker(0)
        out, err = running.communicate(timeout=600)
    finally:
        if running.poll() is None:
            running.kill()
    assert running.returncode == 0, err
    assert_same_outputs(data, local)


def test_a_killed_scheduler_ends_the_build_and_the_previous_one_stays_served(
        corpus: Path, own_cluster: DaskCluster, local: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(local, data, symlinks=True)
    before = build_dirs.current_build(data)
    server = Server(data, "--workers", "1")
    try:
        served = requests.get(server.url + "sparql", params={"query": ASK_COUNT}, timeout=60).json()
        running = _kg_build(corpus, data, "--cluster", own_cluster.address, "--full")
        try:
            _reading_started(data, running)
            own_cluster.kill_scheduler()
            out, err = running.communicate(timeout=300)
        finally:
            if running.poll() is None:
                running.kill()
        assert running.returncode != 0
        assert "Dask" in err and "Traceback" not in err, err
        assert build_dirs.current_build(data) == before
        assert [p for p in (data / build_dirs.BUILDS_DIR).iterdir() if not p.name.startswith(".")] == [before]
        assert requests.get(server.url + "sparql", params={"query": ASK_COUNT}, timeout=60).json() == served
    finally:
        server.stop()


@pytest.mark.skipif(not can_hide(), reason="a worker with a file system of its own needs root and unshare")
def test_a_worker_that_does_not_see_the_data_directory_stops_the_build(corpus: Path, own_cluster: DaskCluster,
                                                                        tmp_path: Path) -> None:
    data = tmp_path / "hidden" / "data"
    data.mkdir(parents=True)
    own_cluster.add_worker(hide=tmp_path / "hidden")
    running = _kg_build(corpus, data, "--cluster", own_cluster.address)
    out, err = running.communicate(timeout=300)
    assert running.returncode == 2, err
    assert "worker worker-3" in err and "does not see the data directory" in err, err
    assert "worker-1" not in err and "worker-2" not in err
    assert build_dirs.current_build(data) is None
