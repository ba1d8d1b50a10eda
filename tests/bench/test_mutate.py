"""Editing, adding and removing one document keeps a generated corpus valid."""

from __future__ import annotations

from pathlib import Path

from benchmarks.corpus import mutate
from benchmarks.corpus.check import check_corpus
from benchmarks.corpus.generate import write_corpus


def test_edit_appends_annotated_text_and_keeps_everything_before(tmp_path: Path) -> None:
    generator = write_corpus(tmp_path, 6, 4)
    slug = sorted(p.stem for p in tmp_path.glob("*.txt"))[2]
    text_before = (tmp_path / f"{slug}.txt").read_text(encoding="utf-8")
    ann_before = (tmp_path / f"{slug}.ann").read_text(encoding="utf-8")
    mutate.edit_document(tmp_path, slug, generator)
    text_after = (tmp_path / f"{slug}.txt").read_text(encoding="utf-8")
    ann_after = (tmp_path / f"{slug}.ann").read_text(encoding="utf-8")
    assert text_after.startswith(text_before.rstrip("\n")) and len(text_after) > len(text_before) + 40
    assert ann_after.startswith(ann_before)
    added = ann_after[len(ann_before):].splitlines()
    assert any(line.startswith("T") and "\tFigure " in line for line in added)
    assert any(line.startswith("R") and "\tSaidBy " in line for line in added)
    ids = [line.split("\t")[0] for line in ann_after.splitlines() if not line.startswith("*")]
    assert len(ids) == len(set(ids))
    assert check_corpus(tmp_path)[0] == []


def test_add_and_remove_one_document(tmp_path: Path) -> None:
    generator = write_corpus(tmp_path, 5, 4)
    aliases = (tmp_path / "aliases.toml").read_bytes()
    before = {p.stem for p in tmp_path.glob("*.txt")}
    slug = mutate.add_document(tmp_path, generator, 5)
    assert slug not in before
    assert len(list(tmp_path.glob("*.ann"))) == 6
    assert (tmp_path / "aliases.toml").read_bytes() == aliases
    assert check_corpus(tmp_path)[0] == []
    mutate.remove_document(tmp_path, slug)
    assert not any(tmp_path.glob(f"{slug}.*"))
    assert len(list(tmp_path.glob("*.json"))) == 5
    assert check_corpus(tmp_path)[0] == []
