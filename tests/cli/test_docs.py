"""The docs say what the code is: docs/development.md names every module of kg/ in its layout,
docs/usage.md every `kg` command in its command list; the README starts with the two commands and
its links resolve; the figures of the shipped corpus's build are those scripts/corpus_figures.py
writes from a build; and benchmark figures live in benchmarks/RESULTS.md only."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from tests.helpers import CORPUS, ROOT


def _figures_script():
    spec = importlib.util.spec_from_file_location("corpus_figures", ROOT / "scripts" / "corpus_figures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_readme_starts_with_the_two_commands():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert lines[:2] == ["# kg", ""] and lines[2] == "```"
    assert [line.split()[:2] for line in lines[3:5]] == [["make", "run"], ["make", "test"]] and lines[5] == "```"


@pytest.mark.parametrize("page", ["README.md", *(f"docs/{p.name}" for p in sorted((ROOT / "docs").glob("*.md")))])
def test_relative_links_resolve(page: str) -> None:
    """Every relative link of the README and of docs/ names a file of the checkout."""
    path = ROOT / page
    targets = re.findall(r"\]\(([^)\s#]+)(?:#[^)]*)?\)", path.read_text(encoding="utf-8"))
    missing = [t for t in targets if not t.startswith(("http:", "https:", "mailto:")) and not (path.parent / t).exists()]
    assert missing == []


def test_the_shipped_corpus_figures_are_those_of_its_build(shipped_data: Path) -> None:
    """The README's and docs/graph.md's figures of the shipped corpus (quads, statements...) are
    what a build of it gives: `python scripts/corpus_figures.py` writes them again."""
    if CORPUS.resolve() != (ROOT / "corpus").resolve():
        pytest.skip("the figures describe corpus/, and these tests read another corpus (TEST_CORPUS)")
    figures = _figures_script()
    stats = figures.corpus_stats(shipped_data)
    for path in figures.DOCUMENTS:
        text = path.read_text(encoding="utf-8")
        assert figures.blocks(text), f"{path.relative_to(ROOT)} has no block of corpus figures"
        assert figures.rewrite(text, stats) == text, \
            f"{path.relative_to(ROOT)}: stale figures of the shipped corpus; run python scripts/corpus_figures.py"


def test_the_development_page_names_every_module_of_kg():
    section = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`([a-z_]+)/?`", section)) | set(re.findall(r"\b([a-z_]+)(?:/|\.py)", section))
    modules = {p.stem for p in (ROOT / "kg").glob("*.py") if p.stem != "__init__"}
    packages = {p.parent.name for p in (ROOT / "kg").glob("*/__init__.py")}
    assert sorted((modules | packages) - named) == []


def test_the_usage_page_lists_every_kg_command():
    """Each command `kg --help` lists (the serve and viz commands of api/ and viz/ too) has a line
    of docs/usage.md's command list."""
    import click

    from kg.cli import main

    usage = (ROOT / "docs" / "usage.md").read_text(encoding="utf-8").split("## The commands", 1)[1].split("```")[1]
    listed = set(re.findall(r"^kg ([a-z-]+)", usage, re.M))
    commands = set(main.list_commands(click.Context(main)))
    assert "serve" in commands and sorted(commands - listed) == []


BENCH_TABLE = re.compile(r"<!-- benchmark table:.*?-->(.*?)<!-- end of benchmark table -->", re.S)
FIGURE = re.compile(r"\|\s*[\d.,]+\s*(ms|s|x|MiB|GiB)\s*\|")


def test_benchmark_figures_are_kept_in_results_md_only():
    """Timings and ratios of a benchmark run appear in RESULTS.md, not in the README or docs, except
    the README's table that the same run writes between its markers."""
    for path in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]:
        if path.name in ("hardening.md",):  # a record of the hardening work's before/after, not a results page
            continue
        text = BENCH_TABLE.sub("", path.read_text(encoding="utf-8")) if path.name == "README.md" else \
            path.read_text(encoding="utf-8")
        tables = [line for line in text.splitlines() if FIGURE.search(line)]
        assert tables == [], f"{path.relative_to(ROOT)} repeats benchmark figures: {tables[:3]}"


def test_the_readme_benchmark_table_holds_figures_of_results_md():
    """The README's generated table says nothing RESULTS.md (the same run) does not say."""
    table = BENCH_TABLE.search((ROOT / "README.md").read_text(encoding="utf-8"))
    assert table is not None, "README.md has no generated benchmark table"
    results = (ROOT / "benchmarks" / "RESULTS.md").read_text(encoding="utf-8")
    rows = [line for line in table.group(1).splitlines() if FIGURE.search(line)]
    assert rows, "the README's benchmark table has no figures"
    cells = {cell.strip() for row in rows for cell in row.strip("|").split("|")}
    assert sorted(cell for cell in cells if cell not in results) == []
