"""kg/store/build_dirs.py names every file of a data directory and of a build: an eager build of the tiny
corpus (every export, the view, the search index) leaves nothing else, and the picture in the
module's docstring shows each name."""

from __future__ import annotations

import json
import os
from pathlib import Path

from kg.pipeline.builder import build
from kg.store import build_dirs, checksums, served
from tests.helpers import TINY

BUILD_NAMES = {build_dirs.STORE_DIR, build_dirs.MANIFEST_FILE, *build_dirs.EXPORT_FILES.values(),
               *(export + build_dirs.SECTIONS_SUFFIX for export in build_dirs.EXPORT_FILES.values()),
               build_dirs.VIEW_FILE, build_dirs.SEARCH_INDEX_FILE, build_dirs.PARSED_INPUTS_FILE,
               build_dirs.EVIDENCE_FILE, build_dirs.VIEW_INDEX_DIR, build_dirs.CORPUS_CONFIG_DIR, served.SERVED_FILE}
DATA_NAMES = {build_dirs.CURRENT, build_dirs.LOCK_FILE, build_dirs.STAMP_FILE, build_dirs.BUILDS_DIR}


def _named(name: str, names: set[str]) -> bool:
    """`name` is one of `names`, the lock made_once keeps beside one (.<name>.lock), or the checksum
    kept beside one (<name>.sha256, kg.store.checksums)."""
    if name.endswith(checksums.SUFFIX):
        return _named(name[:-len(checksums.SUFFIX)], names)
    return name in names or (name.startswith(".") and name.endswith(".lock") and name[1:-5] in names)


def test_every_file_of_a_build_is_named_in_dirs(tmp_path: Path) -> None:
    data = tmp_path / "data"
    report = build(TINY, data, eager=True, validate=False)
    assert sorted(p.name for p in data.iterdir() if not _named(p.name, DATA_NAMES)) == []
    assert sorted(p.name for p in report.build_dir.iterdir() if not _named(p.name, BUILD_NAMES)) == []
    assert (report.build_dir / build_dirs.CORPUS_CONFIG_DIR / "annotation.conf").is_file()


def test_the_picture_shows_every_name() -> None:
    picture = build_dirs.__doc__
    names = BUILD_NAMES | DATA_NAMES | {build_dirs.CACHE_DIR, build_dirs.LOAD_FILE, build_dirs.LOAD_PIPE}
    assert sorted(name for name in names if name.strip("/").split(".sections")[0] not in picture) == []


def _write_manifest(build: Path, manifest: dict) -> None:
    staged = build / "manifest.staged"
    staged.write_text(json.dumps(manifest), encoding="utf-8")
    staged.replace(build / build_dirs.MANIFEST_FILE)


def test_a_manifest_is_parsed_once_until_it_is_replaced(tmp_path: Path) -> None:
    """Each view request asks for the build's base IRI, and the manifest lists every document: its
    names are parsed once per manifest file, and read again once a build writes another."""
    build = tmp_path / "builds" / "b1"
    build.mkdir(parents=True)
    _write_manifest(build, {"base_iri": "http://one.example/", "corpus": "/corpus/one"})
    manifest = build / build_dirs.MANIFEST_FILE
    assert build_dirs.base_iri(build) == "http://one.example/"
    assert build_dirs.corpus_of(build) == Path("/corpus/one")

    status = manifest.stat()  # the same bytes' length and times, other bytes: not read again
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("one", "two"), encoding="utf-8")
    os.utime(manifest, ns=(status.st_atime_ns, status.st_mtime_ns))
    assert build_dirs.base_iri(build) == "http://one.example/"

    _write_manifest(build, {"base_iri": "http://three.example/", "corpus": "/corpus/three"})
    assert build_dirs.base_iri(build) == "http://three.example/"
    assert build_dirs.corpus_of(build) == Path("/corpus/three")
    manifest.unlink()
    assert build_dirs.base_iri(build) is None and build_dirs.corpus_of(build) is None
