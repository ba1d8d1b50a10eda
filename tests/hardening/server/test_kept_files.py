"""Kept files damaged on disk under a real `kg serve` (issue 41: one flipped bit in a kept view
segment silently changed 27 of 217 neighbourhoods; an export damaged on disk was sent as it was).
Every kept file is sealed with its checksum (kg.store.checksums): a damaged export or page is made
again, a damaged view index is not read (the server reads the store instead), and the answers are
those of the undamaged build."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import requests

from kg.publish.view_index import open_index, tables
from kg.store import build_dirs, checksums
from kg.testing.servers import Server
from tests.helpers import MARK, damage, flip_a_letter_of


def copied(shipped_data: Path, tmp_path: Path, name: str) -> Path:
    data = tmp_path / name
    shutil.copytree(shipped_data, data, symlinks=True)
    return data


def get(server: Server, path: str, **params) -> requests.Response:
    answer = requests.get(server.url + path.lstrip("/"), params=params, timeout=120)
    assert answer.status_code == 200, answer.text[:300]
    return answer


def test_a_damaged_export_and_page_are_made_again_never_sent(shipped_data: Path, tmp_path: Path) -> None:
    data = copied(shipped_data, tmp_path, "data")
    build = build_dirs.require_current_build(data)
    server = Server(data, "--workers", "1", "--threads", "4")
    try:
        turtle = get(server, "/export.ttl").content
        page = get(server, "/graph").content  # gzip on the wire, cached as graph.html.gz
        damage(build / "kg.ttl")
        again = get(server, "/export.ttl").content
        assert MARK not in again and again == turtle
        assert checksums.intact(build / "kg.ttl")
        gzipped = data / build_dirs.CACHE_DIR / build.name / "graph.html.gz"
        damage(gzipped, 0.9)
        assert get(server, "/graph").content == page
        assert gzip.decompress(gzipped.read_bytes()) == page
        damage(build / build_dirs.VIEW_FILE)
        plain = requests.get(server.url + "graph", headers={"Accept-Encoding": "identity"}, timeout=120)
        assert plain.status_code == 200 and MARK not in plain.content
        assert checksums.intact(build / build_dirs.VIEW_FILE)
        log = server.stderr()
        assert "kg.ttl: damaged on disk" in log and "graph.html: damaged on disk" in log, log[-2000:]
        assert "Traceback" not in log
    finally:
        server.stop()


def shape(block: dict) -> tuple[list, list]:
    """A neighbourhood's nodes (IRI, label) and edges (between IRIs, with their kind and text). Not its
    sentences: under the cap on sentences shown, the view read from the store chooses others than the
    kept index (kg.publish.view_index), as for a build that kept none."""
    ids = [node["id"] for node in block["nodes"]]
    return (sorted((node["id"], node["label"]) for node in block["nodes"]),
            sorted((ids[edge["from"]], ids[edge["to"]], edge["kind"], edge.get("text", "")) for edge in block["edges"]))


def test_a_damaged_view_segment_changes_no_neighbourhood(shipped_data: Path, tmp_path: Path) -> None:
    damaged = copied(shipped_data, tmp_path, "damaged")
    base = build_dirs.require_current_build(damaged) / build_dirs.VIEW_INDEX_DIR / tables.BASE_FILE
    flip_a_letter_of(base, b"/id/person/")
    sound = copied(shipped_data, tmp_path, "sound")
    nodes = [node for node in open_index(build_dirs.require_current_build(sound)).all_nodes() if "/id/person/" in node]
    answers = {}
    for name, data in (("sound", sound), ("damaged", damaged)):
        server = Server(data, "--workers", "1", "--threads", "4")
        try:
            answers[name] = {node: shape(get(server, "/graph/neighbours", node=node).json()) for node in nodes}
            assert "Traceback" not in server.stderr()
        finally:
            server.stop()
    assert len(answers["sound"]) > 10
    changed = [node for node in answers["sound"] if answers["sound"][node] != answers["damaged"][node]]
    assert not changed, f"{len(changed)} of {len(answers['sound'])} neighbourhoods changed: {changed[:5]}"
