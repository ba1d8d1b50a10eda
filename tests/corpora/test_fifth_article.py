"""The README invites adding articles: with a fifth one in a copy of corpus/ (tests/data/fifth-article,
written for this test), the tests that read the shipped corpus stay green. They are run again, in a
child pytest, on that copy (TEST_CORPUS, read by tests/helpers.py). Only tests/corpora/test_corpus_2019.py
pins the shipped corpus's counts, and it builds from its own fixed copy."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import CORPUS, FIFTH_ARTICLE, ROOT, run_kg

TESTS = ROOT / "tests"
# every test module that reads the shipped corpus (checked below), and the quicker part of them run
# with every `make test`; the whole list runs with the slow tests
CORPUS_DEPENDENT = sorted(
    "tests/" + str(p.relative_to(TESTS)) for p in TESTS.rglob("test_*.py")
    if (re.search(r"\b(CORPUS|shipped_data|corpus_copy)\b", p.read_text(encoding="utf-8"))
        or "api" in p.relative_to(TESTS).parts)  # tests/api/conftest.py serves a build of the shipped corpus
    and p.name not in ("test_fifth_article.py", "test_corpus_2019.py"))
QUICK = ["tests/pipeline/test_build.py", "tests/api/json_api/test_jsonapi.py", "tests/api/page/test_examples.py", "tests/api/json_api/test_facts.py",
         "tests/publish/test_xmi_export.py"]  # test_suggest.py reads the fixed copy tests/data/corpus-2019


def _corpus_with_a_fifth_article(tmp_path: Path) -> Path:
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus, ignore=shutil.ignore_patterns("README.md"))
    for path in FIFTH_ARTICLE.iterdir():
        shutil.copy(path, corpus / path.name)
    return corpus


def test_the_fifth_article_is_valid_input(tmp_path):
    corpus = _corpus_with_a_fifth_article(tmp_path)
    result = run_kg("check", "--corpus", str(corpus))
    assert result.exit_code == 0, result.output
    assert f"\n{len(list(CORPUS.glob('*.txt'))) + 1} documents checked, no problem found" in "\n" + result.stdout


def test_the_quick_list_is_part_of_the_corpus_dependent_tests():
    assert set(QUICK) <= set(CORPUS_DEPENDENT)


@pytest.mark.parametrize("files", [pytest.param(QUICK, id="quick"),
                                   pytest.param(CORPUS_DEPENDENT, id="all", marks=pytest.mark.slow)])
def test_the_corpus_dependent_tests_hold_with_a_fifth_article(tmp_path, files):
    corpus = _corpus_with_a_fifth_article(tmp_path)
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "not slow",
                             "--basetemp", str(tmp_path / "child"), *files],
                            cwd=ROOT, env={**os.environ, "TEST_CORPUS": str(corpus)},
                            capture_output=True, text=True, timeout=3600)
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert re.search(r"\d+ passed", result.stdout.splitlines()[-1]) and "failed" not in result.stdout.splitlines()[-1]
