"""The README names every module of kg/ in its module list and every `kg` command in its command
list, and its benchmark figures live in benchmarks/RESULTS.md only."""

from __future__ import annotations

import re

from tests.helpers import ROOT


def _development_section() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return readme[readme.index("## Development"):]


def test_the_readme_names_every_module_of_kg():
    section = _development_section()
    named = set(re.findall(r"`([a-z_]+)/?`", section)) | set(re.findall(r"\b([a-z_]+)(?:/|\.py)", section))
    modules = {p.stem for p in (ROOT / "kg").glob("*.py") if p.stem != "__init__"}
    packages = {p.parent.name for p in (ROOT / "kg").glob("*/__init__.py")}
    assert sorted((modules | packages) - named) == []


def test_the_readme_lists_every_kg_command():
    """Each command `kg --help` lists (the serve and viz commands of api/ and viz/ too) has a line
    of the README's command list."""
    import click

    from kg.cli import main

    usage = (ROOT / "README.md").read_text(encoding="utf-8").split("## Using it", 1)[1].split("```")[1]
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
