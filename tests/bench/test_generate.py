"""The synthetic corpus generator: deterministic, valid brat, shaped like annotated news."""

from __future__ import annotations

import filecmp
import re
import statistics
import time
import tomllib
from collections import Counter
from pathlib import Path

from benchmarks.corpus.check import check_corpus
from benchmarks.corpus.generate import write_corpus
from kg.formats.brat.conf import load_config
from tests.helpers import CORPUS

from .conftest import REPO, run_cli

GENERATE = REPO / "benchmarks" / "corpus" / "generate.py"
PYTHON = REPO / ".venv" / "bin" / "python"


def _lines(corpus: Path, prefix: str) -> list[str]:
    return [line for ann in sorted(corpus.glob("*.ann"))
            for line in ann.read_text(encoding="utf-8").splitlines() if line.startswith(prefix)]


def test_same_seed_gives_identical_bytes_and_another_seed_differs(tmp_path: Path) -> None:
    for name, seed in (("a", 7), ("b", 7), ("c", 8)):
        done = run_cli(PYTHON, GENERATE, "--docs", 25, "--seed", seed, "--out", tmp_path / name)
        assert done.returncode == 0, done.stderr
    a, b, c = (tmp_path / n for n in "abc")
    names = sorted(p.name for p in a.iterdir())
    assert len(names) == 25 * 3 + 2
    assert names == sorted(p.name for p in b.iterdir())
    match, mismatch, errors = filecmp.cmpfiles(a, b, names, shallow=False)
    assert (mismatch, errors) == ([], [])
    assert {p.read_bytes() for p in a.glob("*.txt")}.isdisjoint({p.read_bytes() for p in c.glob("*.txt")})
    assert (a / "aliases.toml").read_bytes() != (c / "aliases.toml").read_bytes()


def test_every_mention_text_is_the_slice_of_its_document(generated: Path) -> None:
    checked = 0
    for ann in generated.glob("*.ann"):
        text = ann.with_suffix(".txt").read_text(encoding="utf-8")
        for line in ann.read_text(encoding="utf-8").splitlines():
            if line.startswith("T"):
                _, middle, surface = line.split("\t")
                _, begin, end = middle.split(" ")
                assert text[int(begin):int(end)] == surface, (ann.name, line)
                checked += 1
    assert checked > 60 * 20


def test_generated_corpus_passes_the_checker(generated: Path) -> None:
    problems, shape = check_corpus(generated)
    assert problems == []
    assert shape.documents == 60


def test_every_declared_type_role_attribute_and_normalization_is_used(generated: Path) -> None:
    conf = load_config(CORPUS / "annotation.conf")
    spans = {line.split("\t")[1].split(" ")[0] for line in _lines(generated, "T")}
    assert set(conf.parents) <= spans
    assert set(conf.events) <= spans
    assert {line.split("\t")[1].split(" ")[0] for line in _lines(generated, "R")} == set(conf.relations) - set(conf.equiv_types())
    roles = {re.sub(r"\d+$", "", arg.split(":")[0]) for line in _lines(generated, "E")
             for arg in line.split("\t")[1].split()[1:]}
    declared_roles = {role.name for event in conf.events.values() for role in event.roles}
    assert roles == declared_roles
    assert {line.split("\t")[1].split(" ")[0] for line in _lines(generated, "A")} == set(conf.attributes)
    qualifiers = {line.split()[-1] for line in _lines(generated, "A") if "\tQualifier " in line}
    assert qualifiers == set(conf.attributes["Qualifier"].values)
    databases = {line.split("\t")[1].split(" ")[2].split(":")[0] for line in _lines(generated, "N")}
    assert databases == {"ISO8601", "Number", "Wikidata", "KG"}
    assert _lines(generated, "*\tEquiv ")
    assert _lines(generated, "#")


def test_documents_have_the_shape_of_annotated_news(generated: Path) -> None:
    _, shape = check_corpus(generated)
    assert 22 <= shape.per_document("T") <= 40
    assert 7 <= shape.per_document("R") <= 14
    assert 2 <= shape.per_document("E") <= 8
    counts = sorted(shape.surfaces.values(), reverse=True)
    assert counts[0] >= 8 * statistics.median(counts)     # a few popular entities, a long tail
    assert sum(1 for c in counts if c == 1) > len(counts) / 3


def test_aliases_and_misspellings_appear_in_the_text(generated: Path) -> None:
    table = tomllib.loads((generated / "aliases.toml").read_text(encoding="utf-8"))["entity"]
    hidden = {h for e in table for h in e.get("hidden", [])}
    aliases = {a for e in table for a in e.get("aliases", []) if e["type"] not in ("Role",)}
    surfaces = Counter(line.split("\t")[2] for line in _lines(generated, "T"))
    assert hidden and aliases
    assert sum(surfaces[h] for h in hidden) >= 3
    assert sum(surfaces[a] for a in aliases) >= 30


def test_metadata_names_publishers_and_authors_of_the_alias_table(generated: Path) -> None:
    import json

    keys = {e["key"] for e in tomllib.loads((generated / "aliases.toml").read_text(encoding="utf-8"))["entity"]}
    metas = [json.loads(p.read_text(encoding="utf-8")) for p in generated.glob("*.json")]
    assert len(metas) == 60
    assert all(m["publisher"] in keys and m["language"] == "en" for m in metas)
    authors = [m["author"] for m in metas if m["author"]]
    assert authors and all(a in keys for a in authors)
    assert {m["date"] is None for m in metas} == {True, False}


def test_generator_refuses_a_directory_with_documents_unless_forced(tmp_path: Path) -> None:
    assert run_cli(PYTHON, GENERATE, "--docs", 3, "--out", tmp_path).returncode == 0
    refused = run_cli(PYTHON, GENERATE, "--docs", 2, "--out", tmp_path)
    assert refused.returncode != 0 and "--force" in refused.stderr
    forced = run_cli(PYTHON, GENERATE, "--docs", 2, "--out", tmp_path, "--force")
    assert forced.returncode == 0
    assert len(list(tmp_path.glob("*.ann"))) == 2


def test_a_thousand_documents_take_seconds(tmp_path: Path) -> None:
    started = time.perf_counter()
    write_corpus(tmp_path, 1000, 5)
    assert time.perf_counter() - started < 30
    assert len(list(tmp_path.glob("*.txt"))) == 1000
