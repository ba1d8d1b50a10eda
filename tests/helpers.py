"""Helpers shared by the tests: run the CLI, read a build's quads, compare graphs."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pyoxigraph as ox
from click.testing import CliRunner, Result

from kg import layout
from kg.cli import main

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"
TINY = Path(__file__).resolve().parent / "data" / "tiny"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
BROWSER_TIMEOUT_MS = 20_000


def run_kg(*args: str) -> Result:
    """Run `kg ARGS` in-process; the result has exit_code, stdout and stderr."""
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def store_quads(data_dir: Path, *, skip_ontology: bool = False) -> set[ox.Quad]:
    """Every quad of the current build's store."""
    build = layout.current_build(data_dir)
    store = ox.Store.read_only(str(layout.store_path(build)))
    quads = set(store)
    if skip_ontology:
        quads = {q for q in quads if not str(q.graph_name.value).endswith("/graph/ontology")}
    return quads


def assert_same_quads(actual: set, expected: set, what: str = "graphs") -> None:
    """Set equality (our graphs have no blank nodes, so this is isomorphism), with the difference shown."""
    missing, extra = expected - actual, actual - expected
    if missing or extra:
        lines = [f"{what} differ: {len(missing)} missing, {len(extra)} unexpected"]
        lines += [f"- {q}" for q in sorted(map(str, missing))[:15]]
        lines += [f"+ {q}" for q in sorted(map(str, extra))[:15]]
        raise AssertionError("\n".join(lines))


def tree_digest(directory: Path) -> dict[str, str]:
    """SHA-256 of every file under a directory, to prove a build left it untouched."""
    return {str(p.relative_to(directory)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(directory.rglob("*")) if p.is_file()}


def export_file(data_dir: Path, fmt: str) -> Path:
    """The current build's export in `fmt`, written now if no one asked for it before (kg.export)."""
    from kg.export import ensure_export

    return ensure_export(layout.current_build(data_dir), fmt)


def view_file(build_dir: Path) -> Path:
    """A build's graph.html, drawn now if no one asked for it before (viz.hooks)."""
    from viz.hooks import ensure_view

    return ensure_view(build_dir)
