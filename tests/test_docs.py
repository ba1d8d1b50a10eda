"""The README names every module of kg/ in its module list, and its benchmark figures live in
benchmarks/RESULTS.md only."""

from __future__ import annotations

import re

from tests.helpers import ROOT


def _development_section() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return readme[readme.index("## Development"):]


def test_the_readme_names_every_module_of_kg():
    named = set(re.findall(r"`([a-z_]+)/?`", _development_section()))
    modules = {p.stem for p in (ROOT / "kg").glob("*.py") if p.stem != "__init__"}
    packages = {p.parent.name for p in (ROOT / "kg").glob("*/__init__.py")}
    assert sorted((modules | packages) - named) == []


def test_benchmark_figures_are_kept_in_results_md_only():
    """Timings and ratios of a benchmark run appear in RESULTS.md, not in the README or docs."""
    figure = re.compile(r"\|\s*[\d.,]+\s*(ms|s|x|MiB|GiB)\s*\|")
    for path in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]:
        if path.name in ("hardening.md",):  # a record of the hardening work's before/after, not a results page
            continue
        tables = [line for line in path.read_text(encoding="utf-8").splitlines() if figure.search(line)]
        assert tables == [], f"{path.relative_to(ROOT)} repeats benchmark figures: {tables[:3]}"
