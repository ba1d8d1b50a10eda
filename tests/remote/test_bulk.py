"""A full build reaches a remote store through the engine's own bulk loader (kg.store.remote.bulk):
`oxigraph serve` takes kg.nq in one POST to its bulk loader; Virtuoso loads it with ld_dir and
rdf_loader_run through its SQL port when it may read the data directory, and graph by graph over
HTTP, with a warning, when it may not. Either way the store holds exactly the build, a full build
again replaces what the store held (the loaders add), and incremental builds go on from it."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from kg.pipeline.builder import build
from kg.store import build_dirs
from kg.store.remote import connect
from kg.store.remote.bulk import bulk_loader
from kg.testing.servers import can_hide
from kg.testing.sparql_servers import VirtuosoServer
from tests.helpers import edit_npr
from tests.remote.conftest import require_engine, start_store
from tests.remote.test_stores import assert_holds


def _corpus(tmp_path: Path) -> Path:
    from tests.helpers import CORPUS

    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    return corpus


def test_oxigraph_serve_takes_a_full_build_in_bulk(tmp_path: Path) -> None:
    directory = tmp_path / "oxigraph"
    directory.mkdir()
    server = start_store("oxigraph", directory)
    corpus, data = _corpus(tmp_path), tmp_path / "data"
    try:
        remote = connect(server.url)
        build(corpus, data, validate=False, store_url=server.url)
        assert_holds(remote, data)
        assert bulk_loader(remote, build_dirs.export_path(build_dirs.current_build(data), "nq")) is not None
        build(corpus, data, validate=False, store_url=server.url, full=True)  # loaded again, not added twice
        assert_holds(remote, data)
        edit_npr(corpus)
        assert build(corpus, data, validate=False, store_url=server.url).mode == "incremental"
        assert_holds(remote, data)
        remote.close()
    finally:
        server.stop()


@pytest.fixture
def virtuoso_reading_data(tmp_path: Path):
    directory, data = tmp_path / "virtuoso", tmp_path / "data"
    directory.mkdir()
    data.mkdir()
    require_engine("virtuoso")
    server = VirtuosoServer(directory, reads=data)
    yield server, data
    server.stop()


def _loaded_files(server: VirtuosoServer) -> list[str]:
    output = server.isql("SELECT 'kg-loaded:' || ll_file FROM DB.DBA.LOAD_LIST WHERE ll_state = 2;")
    return re.findall(r"kg-loaded:(\S+)", output)


def test_virtuoso_bulk_loads_a_full_build_it_can_read(virtuoso_reading_data, tmp_path: Path, monkeypatch) -> None:
    server, data = virtuoso_reading_data
    corpus = _corpus(tmp_path)
    monkeypatch.setenv("KG_STORE_ISQL", server.isql_address)
    monkeypatch.setenv("KG_STORE_USER", "dba")
    monkeypatch.setenv("KG_STORE_PASSWORD", "dba")
    monkeypatch.setenv("KG_STORE_AUTH", "digest")  # the same login reaches Virtuoso's authenticated endpoints
    remote = connect(server.url)
    try:
        build(corpus, data, validate=False, store_url=server.url)
        assert_holds(remote, data)
        first = build_dirs.current_build(data)
        assert _loaded_files(server) == [str(build_dirs.export_path(first, "nq"))]
        build(corpus, data, validate=False, store_url=server.url, full=True)  # the previous graphs dropped first
        assert_holds(remote, data)
        assert str(build_dirs.export_path(build_dirs.current_build(data), "nq")) in _loaded_files(server)
        edit_npr(corpus)
        report = build(corpus, data, validate=False, store_url=server.url)
        assert report.mode == "incremental" and report.pushed == 2
        assert_holds(remote, data)
    finally:
        remote.close()


@pytest.mark.skipif(not can_hide(), reason="a server that does not see the data directory needs root and unshare")
def test_virtuoso_that_cannot_read_the_data_directory_is_sent_graph_by_graph(tmp_path: Path, monkeypatch) -> None:
    directory, hidden = tmp_path / "virtuoso", tmp_path / "hidden"
    directory.mkdir()
    hidden.mkdir()
    require_engine("virtuoso")
    server = VirtuosoServer(directory, hide=hidden)  # as on another machine: the data directory is not there
    corpus, data = _corpus(tmp_path), hidden / "data"
    monkeypatch.setenv("KG_STORE_ISQL", server.isql_address)
    monkeypatch.setenv("KG_STORE_USER", "dba")
    monkeypatch.setenv("KG_STORE_PASSWORD", "dba")
    monkeypatch.setenv("KG_STORE_AUTH", "digest")  # the same login reaches Virtuoso's authenticated endpoints
    try:
        remote = connect(server.url)
        with pytest.warns(UserWarning, match="bulk loader not used"):
            report = build(corpus, data, validate=False, store_url=server.url)
        assert report.pushed == len(remote.graphs())
        assert_holds(remote, data)
        assert _loaded_files(server) == []
        remote.close()
    finally:
        server.stop()
