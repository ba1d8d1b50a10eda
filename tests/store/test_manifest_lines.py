"""The manifest of an incremental build copies the lines of the documents it did not touch from the
current build's manifest, and is the same text as if every line were encoded anew."""

from __future__ import annotations

import json
from pathlib import Path

from kg.pipeline.builder import build
from kg.store import build_dirs
from kg.store.manifest_lines import KeptManifest, manifest_text
from tests.helpers import add_article, edit_npr, remove_npr


def _text(data: Path) -> str:
    return (build_dirs.require_current_build(data) / build_dirs.MANIFEST_FILE).read_text(encoding="utf-8")


def test_an_incremental_builds_manifest_is_every_line_encoded_anew(corpus_copy: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    build(corpus_copy, data)
    before = json.loads(_text(data))["documents"]
    for change in (edit_npr, add_article, remove_npr):
        change(corpus_copy)
        assert build(corpus_copy, data).mode == "incremental"
        text = _text(data)
        manifest = json.loads(text)
        assert text == manifest_text(manifest)
        assert manifest["documents"] != before
        before = manifest["documents"]


def test_the_lines_of_entries_taken_unchanged_are_copied() -> None:
    kept_text = manifest_text({"documents": {"a": {"sha256": "1"}, "b": {"sha256": "2"}}}).replace(
        '{"sha256": "1"}', '{"sha256":"1"}')  # a line no encoding gives: copied, never encoded again
    kept = KeptManifest(json.loads(kept_text)["documents"], kept_text)
    documents = {"a": kept.documents["a"], "b": {"sha256": "2"}, "c": {"sha256": "3"}}
    assert manifest_text({"documents": documents}, kept).splitlines()[2:5] == \
        ['  "a": {"sha256":"1"},', '  "b": {"sha256": "2"},', '  "c": {"sha256": "3"}']


def test_a_manifest_laid_out_otherwise_is_encoded_whole() -> None:
    documents = {"a": {"sha256": "1"}, "b": {"sha256": "2"}}
    indented = json.dumps({"documents": documents}, indent=1)
    kept = KeptManifest(json.loads(indented)["documents"], indented)
    assert kept.lines() == {}
    assert manifest_text({"documents": kept.documents}, kept) == manifest_text({"documents": documents})
