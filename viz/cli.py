"""`kg viz`: write the network view of the current build as one offline HTML file."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from kg.cli import data_option, open_graph, store_option
from kg.store.build_dirs import current_build, under_build_base
from kg.viz import MAX_NODES, kept_view, write_html


@click.command("viz")
@data_option
@store_option
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="HTML file to write [default: DATA/graph.html].")
@click.option("--focus", default=None, help="Only this entity or event (IRI, key such as person/juan-guaido, "
              "or a name) and its neighbours.")
@click.option("--depth", type=click.IntRange(min=0), default=1, show_default=True,
              help="How many edges away from --focus to keep.")
@click.option("--size", "size_by", type=click.Choice(["degree", "mentions"]), default="mentions", show_default=True,
              help="What node size shows.")
@click.option("--max-nodes", type=click.IntRange(min=0), default=MAX_NODES, show_default=True,
              help="Show only this many best-connected nodes of a larger graph (0: no limit).")
def viz(data_dir: Path, store_url: str | None, output: Path | None, focus: str | None, depth: int, size_by: str,
        max_nodes: int) -> None:
    """Write the interactive network view (one self-contained HTML file)."""
    output = output or data_dir / "graph.html"
    build = current_build(data_dir) if store_url is None else None
    kept = kept_view(build) if build is not None else None  # the view data the build kept: no store read
    if kept is not None:
        with under_build_base(build):
            nodes = write_html(kept, output, focus=focus, depth=depth, size_by=size_by, max_nodes=max_nodes)
    else:
        store = open_graph(data_dir, store_url)
        try:
            nodes = write_html(store, output, focus=focus, depth=depth, size_by=size_by, max_nodes=max_nodes)
        finally:
            store.close()
    click.echo(f"wrote {output} ({nodes} nodes)")


if __name__ == "__main__":
    from kg.cli import main

    main(["viz", *sys.argv[1:]])
