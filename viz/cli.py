"""`kg viz`: write the network view of the current build as one offline HTML file.

A graph of at most `--max-nodes` nodes (the `view_nodes` setting) is written whole; a larger one
as its overview (its most mentioned and connected entities and events, with the whole graph's
timeline and figures in counts), which says that `kg serve` shows the rest on demand. `--focus`
writes one node's neighbourhood instead.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from kg.cli import data_option, open_graph, store_option
from kg.publish.search import SearchIndex, read_index
from kg.settings import setting
from kg.store.build_dirs import build_store, current_build, under_build_base
from kg.viz import build_index, write_html


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
@click.option("--max-nodes", type=click.IntRange(min=1), default=lambda: setting("view_nodes"),
              show_default="the view_nodes setting, KG_VIEW_NODES",
              help="A graph with more nodes is written as its overview: its most mentioned and connected "
                   "entities and events (kg serve shows the rest on demand).")
def viz(data_dir: Path, store_url: str | None, output: Path | None, focus: str | None, depth: int, size_by: str,
        max_nodes: int) -> None:
    """Write the interactive network view (one self-contained HTML file)."""
    output = output or data_dir / "graph.html"
    options = dict(focus=focus, depth=depth, size_by=size_by, max_nodes=max_nodes)
    build = current_build(data_dir) if store_url is None else None
    if build is not None:
        with under_build_base(build):
            index = build_index(build)
            nodes = write_html(index, output, names=_names(build) if focus else None, **options)
    else:
        store = open_graph(data_dir, store_url)
        try:
            from kg.viz.view_index import store_index

            index = store_index(store.select)
            nodes = write_html(index, output, names=SearchIndex.compute(store.select) if focus else None, **options)
        finally:
            store.close()
    more = "" if focus or nodes >= len(index) else (
        f": the overview of {len(index):,} nodes; `kg serve` shows the rest (search, expand, filters) at /graph")
    click.echo(f"wrote {output} ({nodes} nodes{more})")


def _names(build: Path) -> SearchIndex:
    """The build's search index (labels and aliases), or one asked of its store (a build made before kg wrote it)."""
    found = read_index(build)
    if found is not None:
        return found
    store = build_store(build)
    try:
        return SearchIndex.compute(store.select)
    finally:
        store.close()


if __name__ == "__main__":
    from kg.cli import main

    main(["viz", *sys.argv[1:]])
