"""A corpus is a brat collection: documents in sub-directories, each read with the nearest
annotation.conf; every file is a document's, a configuration or reported; files that are not
regular readable files, and names that would collide with the build's own graphs, are errors."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.helpers import TINY, run_kg, settle, store_quads, tree_digest

ACE = Path(__file__).parents[1] / "data" / "ace" / "annotation.conf"


@pytest.fixture
def collection(tmp_path: Path) -> Path:
    """tiny's two articles in sub-directories, the configuration and alias table at the root."""
    root = tmp_path / "collection"
    (root / "2019" / "feb").mkdir(parents=True)
    (root / "other").mkdir()
    for name in ("annotation.conf", "aliases.toml"):
        shutil.copy(TINY / name, root / name)
    for suffix in (".txt", ".ann", ".json"):
        shutil.copy(TINY / f"alpha{suffix}", root / "2019" / "feb" / f"alpha{suffix}")
    for suffix in (".txt", ".ann"):
        shutil.copy(TINY / f"beta{suffix}", root / "other" / f"beta{suffix}")
    (root / "README").write_text("about this collection\n")
    return root


def test_documents_in_sub_directories_are_built_under_their_path(collection: Path, tmp_path: Path) -> None:
    result = run_kg("build", "--corpus", str(collection), "--data", str(tmp_path / "data"), "--quiet")
    assert result.exit_code == 0, result.output
    assert "2 documents" in result.stdout
    assert "1 files not read" in result.stdout and "README" in result.stdout
    graphs = {q.graph_name.value for q in store_quads(tmp_path / "data")}
    assert "https://kg.example.org/graph/2019/feb/alpha" in graphs
    assert "https://kg.example.org/graph/other/beta" in graphs


def test_a_sub_directory_uses_its_own_configuration(collection: Path, tmp_path: Path) -> None:
    (collection / "other" / "annotation.conf").write_text("[entities]\nThing\n")
    result = run_kg("build", "--corpus", str(collection), "--data", str(tmp_path / "data"), "--quiet")
    assert result.exit_code == 0, result.output  # brat displays the span and marks it: read as written
    assert "other/beta.ann:1: undeclared type 'Person' (expected one of annotation.conf: Thing)" in result.output
    assert "alpha.ann:1: undeclared type" not in result.output  # alpha's own configuration declares Person


@pytest.mark.parametrize("name", ["entities", "ontology"])
def test_a_document_cannot_take_the_name_of_a_build_graph(collection: Path, tmp_path: Path, name: str) -> None:
    shutil.copy(TINY / "beta.txt", collection / f"{name}.txt")
    result = run_kg("build", "--corpus", str(collection), "--data", str(tmp_path / "data"), "--quiet")
    assert result.exit_code == 2
    assert f"{name}.txt: a document named '{name}' would take the name of the build's own graph" in result.stderr


def _dangling(path: Path) -> None:
    path.unlink()
    path.symlink_to(path.parent / "nowhere")


def _pipe(path: Path) -> None:
    path.unlink()
    os.mkfifo(path)


def _directory(path: Path) -> None:
    path.unlink()
    path.mkdir()


def _loop(path: Path) -> None:
    (path.parent / "back").symlink_to(path.parent.parent, target_is_directory=True)


def _twice(path: Path) -> None:
    (path.parent.parent / "again").symlink_to(path.parent, target_is_directory=True)  # no loop: find lists both


def _file_loop(path: Path) -> None:
    path.unlink()
    path.symlink_to(path.name)  # a link to itself: opening it fails with ELOOP


@pytest.mark.parametrize("damage, message", [
    (_dangling, "dangling link (expected a regular file"),
    (_file_loop, "beta.ann: a link loop (expected a regular file, or a link to one)"),
    (_pipe, "not a regular file (expected a plain file, not a pipe"),
    (_directory, "a directory where a file belongs (expected a regular file)"),
    (_loop, "directory reached twice through links"),
    (_twice, "directory reached twice through links"),
])
def test_files_that_are_not_regular_are_located_errors(collection: Path, tmp_path: Path, damage, message) -> None:
    data = tmp_path / "data"
    assert run_kg("build", "--corpus", str(collection), "--data", str(data), "--quiet").exit_code == 0
    before = tree_digest(data)
    damage(collection / "other" / "beta.ann")
    result = run_kg("build", "--corpus", str(collection), "--data", str(data), "--quiet")
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert tree_digest(data) == before, "a failed build changed the published one"


def test_a_document_no_configuration_covers_is_read_with_a_warning(tmp_path: Path) -> None:
    """brat serves it with its default configuration; kg with the one its annotations imply (none here)."""
    corpus = tmp_path / "corpus"
    (corpus / "sub").mkdir(parents=True)
    shutil.copy(TINY / "beta.txt", corpus / "sub" / "beta.txt")
    result = run_kg("build", "--corpus", str(corpus), "--data", str(tmp_path / "data"), "--quiet")
    assert result.exit_code == 0, result.output
    assert "warning: " in result.stdout and "no annotation.conf covers 1 document(s)" in result.stdout
    strict = run_kg("build", "--strict", "--corpus", str(corpus), "--data", str(tmp_path / "strict"), "--quiet")
    assert strict.exit_code == 2 and "no annotation.conf covers 1 document(s)" in strict.stderr


def test_the_scan_answers_the_plan_with_the_stats_it_took(collection: Path) -> None:
    """A scanned document's stat key (what a build compares with the manifest to skip unchanged
    documents) is what stat says of its files, a missing file included; a file written since is
    seen by the next scan."""
    from kg.formats.corpus import DocumentFiles, scan_corpus

    def by_stat(item: DocumentFiles) -> list[int]:
        return DocumentFiles(item.slug, item.txt, item.ann, item.meta, item.config).stat_key()

    listing = scan_corpus(collection)
    assert [d.slug for d in listing.documents] == ["2019/feb/alpha", "other/beta"]
    assert [d.stat_key() for d in listing.documents] == [by_stat(d) for d in listing.documents]
    assert listing.documents[1].stat_key()[-2:] == [-1, -1], "beta has no .json"
    assert listing.ignored == [collection / "README"]
    assert listing.configs == [collection / "aliases.toml", collection / "annotation.conf"]
    beta = collection / "other" / "beta.ann"
    beta.write_text(beta.read_text() + "#1\tAnnotatorNotes T1\tnoted\n")
    again = scan_corpus(collection).documents[1]
    assert again.stat_key() != listing.documents[1].stat_key() and again.stat_key() == by_stat(again)


def test_a_sub_directory_reached_through_a_link_is_scanned_as_its_own_path(collection: Path, tmp_path: Path) -> None:
    """Links to directories are followed: their documents are named by the path inside the corpus."""
    from kg.formats.corpus import scan_corpus

    elsewhere = tmp_path / "elsewhere"
    (collection / "other").rename(elsewhere)
    (collection / "other").symlink_to(elsewhere, target_is_directory=True)
    listing = scan_corpus(collection)
    assert [d.slug for d in listing.documents] == ["2019/feb/alpha", "other/beta"]
    assert listing.documents[1].txt == collection / "other" / "beta.txt"
    assert listing.documents[1].config == collection / "annotation.conf"


def test_the_scan_reads_the_stats_find_listed_for_the_stamp(collection: Path) -> None:
    """A build stamps the corpus (one find, one stat per file) before it scans: the scan reads what
    find listed instead of a second stat of every file, and finds what a walk finds (a name with a
    space and a line break, a file no document reads, sub-directories, configurations)."""
    from kg.formats.corpus import scan_corpus
    from kg.formats.corpus_stamp import stamp_listing

    (collection / "other" / "notes on\nbeta.md").write_text("not read\n")
    settle(collection)
    stamped = stamp_listing(collection)
    assert stamped is not None
    listed, walked = scan_corpus(collection, stamped.listed), scan_corpus(collection)
    assert listed.documents == walked.documents and listed.ignored == walked.ignored == [
        collection / "README", collection / "other" / "notes on\nbeta.md"]
    assert [d.stat_key() for d in listed.documents] == [d.stat_key() for d in walked.documents]
    assert [(d.txt_file, d.ann_file, d.meta_file) for d in listed.documents] == \
        [(d.txt_file, d.ann_file, d.meta_file) for d in walked.documents]
    assert listed.configs == walked.configs
    beta = collection / "other" / "beta.ann"
    beta.write_text(beta.read_text() + "#1\tAnnotatorNotes T1\tnoted\n")
    assert scan_corpus(collection, stamped.listed).documents[1].stat_key() == listed.documents[1].stat_key()
    assert scan_corpus(collection).documents[1].stat_key() != listed.documents[1].stat_key()
