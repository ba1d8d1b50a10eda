"""The figures of the shipped corpus's build that the docs quote (quads, documents, mentions,
statements, entities...), written between markers by this script from a real build and checked
against one by tests/cli/test_docs.py, so that they cannot go stale.

    python scripts/corpus_figures.py              # build corpus/ in a temporary directory, rewrite the blocks
    python scripts/corpus_figures.py --data DIR   # from a build of corpus/ already made in DIR

A block starts with START (naming its kind, "short" or "full") and ends with END; everything
between them is this script's.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
DOCUMENTS = (REPO / "README.md", REPO / "docs" / "graph.md")  # the files holding blocks
START = "<!-- corpus figures ({kind}): written by scripts/corpus_figures.py from a build of corpus/ -->"
END = "<!-- end of corpus figures -->"
_BLOCK = re.compile(r"<!-- corpus figures \((?P<kind>\w+)\):[^>]*-->\n.*?<!-- end of corpus figures -->", re.S)


def corpus_stats(data_dir: Path) -> dict[str, Any]:
    """What `kg stats --json` says of the current build in `data_dir`."""
    from kg.publish.stats import graph_stats
    from kg.store import build_dirs

    build = build_dirs.require_current_build(data_dir)
    with build_dirs.under_build_base(build), build_dirs.build_store(build) as store:
        return graph_stats(store.select, store.graphs())


def render(stats: dict[str, Any], kind: str) -> str:
    """The text of one block, figures from `stats`."""
    counts, types = stats["counts"], stats["entityTypes"]
    claims = stats["eventTypes"].get("Claim", 0)
    if kind == "short":
        return (f"The demo corpus, `corpus/` ({counts['documents']} news articles of 2019 about Venezuelan soldiers "
                f"who defected; see [corpus/README.md](corpus/README.md)), builds into {counts['quads']:,} quads: "
                f"{counts['statements']:,} statements, each traced to the sentence that states it, about "
                f"{counts['entities']:,} entities.")
    if kind == "full":
        kinds = ", ".join(f"{types.get(cls, 0)} {name}" for cls, name in (
            ("Person", "people"), ("Organization", "organizations"), ("Place", "places"), ("Date", "dates"),
            ("Role", "roles"), ("Post", "posts"), ("Event", "canonical events")))
        return (f"The shipped corpus builds into {counts['quads']:,} quads: {counts['documents']} documents, "
                f"{counts['mentions']:,} mentions, {counts['statements']:,} statements (each with its sentence), "
                f"{counts['entities']} entity records ({kinds}), {counts['events']} events of which {claims} are "
                f"claims, {counts['figures']} reported figures and {counts['quotes']} quotes (`kg stats` gives the "
                "full breakdown).")
    raise ValueError(f"no block of kind {kind!r} (expected short or full)")


def rewrite(text: str, stats: dict[str, Any]) -> str:
    """`text` with every block rendered again from `stats`."""
    return _BLOCK.sub(lambda m: f"{START.format(kind=m['kind'])}\n{render(stats, m['kind'])}\n{END}", text)


def blocks(text: str) -> list[str]:
    """The kinds of the blocks `text` holds."""
    return [m["kind"] for m in _BLOCK.finditer(text)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, help="a data directory holding a build of corpus/ (default: build one)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(REPO))
    if args.data is None:
        from kg.pipeline.builder import build

        with tempfile.TemporaryDirectory(prefix="kg-figures-") as work:
            build(REPO / "corpus", Path(work) / "data")
            stats = corpus_stats(Path(work) / "data")
    else:
        stats = corpus_stats(args.data)
    for path in DOCUMENTS:
        text = path.read_text(encoding="utf-8")
        path.write_text(rewrite(text, stats), encoding="utf-8")
        print(f"{path.relative_to(REPO)}: {len(blocks(text))} blocks written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
