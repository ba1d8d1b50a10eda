#!/usr/bin/env python3
"""What kg makes of some corpora, as one markdown table: run `kg check` and `kg build` on each folder
given (built into a temporary directory, the folder left untouched) and print, per corpus, its
documents, the warnings by kind, the entities, the entities per knowledge-base item (1.00 when every
item is one entity), the types aligned by default (when `kg check` reports them) and the nodes of the
network view. A corpus kg refuses gets its first error instead.

    .venv/bin/python scripts/corpus_table.py tests/data/public/* ../shared/corpora/brat-commodity-news

The view is drawn from the build as `kg viz` draws it, with whatever kg.toml the corpus has (the
corpora tested here have none).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Callable

COLUMNS = ("corpus", "documents", "warnings by kind (count)", "entities", "entities per KB item",
           "types aligned by default", "view nodes")
LINKS = """SELECT ?item (COUNT(DISTINCT ?e) AS ?n) WHERE {
    GRAPH kgg:entities { ?e owl:sameAs ?item } } GROUP BY ?item"""
ENTITIES = "SELECT (COUNT(DISTINCT ?e) AS ?n) WHERE { ?m kgo:denotes ?e }"


def kg_command() -> str:
    """The kg beside this Python (the project's virtualenv), else the one on PATH."""
    beside = Path(sys.executable).with_name("kg")
    return str(beside) if beside.exists() else shutil.which("kg") or "kg"


def run(*args: str) -> tuple[int, str]:
    """Exit code and output (stdout then stderr) of `kg ARGS`."""
    done = subprocess.run([kg_command(), *args], capture_output=True, text=True)
    return done.returncode, done.stdout + done.stderr


def reason_kind(warning: str) -> str:
    """A warning's kind: its reason (after the location) without its quoted names, numbers and paths."""
    reason = re.sub(r"'[^']*'", "'…'", warning.rsplit(": ", 1)[-1])
    return re.sub(r"\(\d[^)]*\)|\d+", "#", reason).strip()


def warning_counts(output: str, kind: Callable[[str], str] = reason_kind) -> Counter:
    """The warnings `kg check` or `kg build` printed, counted by `kind` (of the text after `warning: `, or of
    the reason of a kind printed once with its count), with the files not read as one more kind."""
    kinds = Counter()
    for line in output.splitlines():
        grouped = re.match(r"warning: ([\d,]+) × (.*) in [\d,]+ files?, e\.g\. ", line)
        if grouped:
            kinds[kind(grouped.group(2))] += int(grouped.group(1).replace(",", ""))
        elif line.startswith("warning: "):
            kinds[kind(line.removeprefix("warning: "))] += 1
        elif re.match(r"\d+ files not read ", line):
            kinds["files not read"] += int(line.split()[0])
    return kinds


def aligned_by_default(checked: str) -> str:
    """How many types `kg check` says it aligned with kgo by default (its `aligned by default: A -> B, ...`
    lines), "0" when it lists the types without such a line, "n/a" when it does not list them."""
    pairs = [p for line in checked.splitlines() if line.strip().startswith("aligned by default:")
             for p in line.split(":", 1)[1].split(",") if "->" in p]
    listed = any(line.startswith("types: ") for line in checked.splitlines())
    return str(len(pairs)) if pairs or listed else "n/a"


def measure(corpus: Path, data: Path) -> dict[str, str]:
    """One row of the table: check and build `corpus` into `data`, then read the build."""
    row = {"corpus": corpus.name}
    code, checked = run("check", "--corpus", str(corpus))
    if code:
        return row | {"documents": "refused: " + _first_error(checked)}
    aligned = aligned_by_default(checked)
    code, built = run("build", "--quiet", "--corpus", str(corpus), "--data", str(data))
    if code:
        return row | {"documents": "build refused: " + _first_error(built)}
    row["documents"] = re.search(r"build: (\d+) documents", built).group(1)
    row["warnings by kind (count)"] = "; ".join(f"{k} ({n})" for k, n in warning_counts(built).most_common()) or "none"
    row["types aligned by default"] = aligned
    return row | read_build(data)


def read_build(data: Path) -> dict[str, str]:
    """Entities, entities per knowledge-base item and view nodes of the current build of `data`."""
    import kg
    from kg.store import build_dirs as dirs
    from kg.viz.network import load_graph

    with kg.open(data) as graph:
        entities = int(graph.query(ENTITIES)[0]["n"])
        linked = [int(r["n"]) for r in graph.query(LINKS)]
    store = dirs.build_store(dirs.current_build(data))
    try:
        nodes = load_graph(store).number_of_nodes()
    finally:
        store.close()
    per_item = f"{sum(linked) / len(linked):.2f} ({len(linked)} items)" if linked else "no links"
    return {"entities": str(entities), "entities per KB item": per_item, "view nodes": str(nodes)}


def _first_error(output: str) -> str:
    lines = [line.removeprefix("error: ") for line in output.splitlines() if line.strip() and not line.startswith("warning: ")]
    first = lines[0] if lines else "no message"
    return (first if len(first) <= 200 else first[:199] + "…").replace("|", "\\|")


def table(rows: list[dict[str, str]]) -> str:
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(row.get(c, "") for c in COLUMNS) + " |" for row in rows]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpora", nargs="+", type=Path, help="corpus folders")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="corpus-table-") as tmp:
        rows = [measure(c, Path(tmp) / f"{i}-data") for i, c in enumerate(args.corpora)]
    print(table(rows))


if __name__ == "__main__":
    main()
