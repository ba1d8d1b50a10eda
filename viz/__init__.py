"""How the rest of kg reaches the view: the build's page (written on first request and kept
in the build directory, or by an eager build's hook), drawn from the view data the build kept,
and the file writer the CLI uses."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

import networkx as nx

from kg.publish.view_data import load_parts
from kg.store.build_dirs import VIEW_FILE, build_store, made_once, under_build_base
from kg.store.protocol import GraphStore
from kg.viz.html import render
from kg.viz.network import cap_nodes, focus_subgraph, resolve_node
from kg.viz.view_index import ViewIndex, kept_index, store_index

MAX_NODES = 10_000  # the best-connected nodes a whole-graph page shows; --focus reaches the rest


def write_view(build_dir: Path, store: GraphStore) -> Path:
    """Build hook (`kg.build_hooks`, run by `kg build --eager`): write graph.html into the build
    directory, from the view data the build kept (from `store` when it kept none)."""
    path = Path(build_dir) / VIEW_FILE
    kept = kept_view(build_dir)
    write_html(store_index(store) if kept is None else kept, path)
    return path


def ensure_view(build_dir: Path, index: Callable[[], ViewIndex] | None = None) -> Path:
    """The build's graph.html, drawn on the first call (one writer at a time) and kept: the view is
    not on a build's critical path. Drawn from `index()`, the build's view index, when given (a
    server that keeps it for the neighbours route), else from the build (`build_index`)."""
    return made_once(Path(build_dir) / VIEW_FILE, lambda partial: _draw(Path(build_dir), partial, index))


def _draw(build_dir: Path, path: Path, index: Callable[[], ViewIndex] | None) -> None:
    with under_build_base(build_dir):
        write_html(index() if index else build_index(build_dir), path)


def build_index(build_dir: Path) -> ViewIndex:
    """The view index of a build: from the parts it kept, or from its store when it kept none
    (a build made before kg kept them)."""
    kept = kept_view(build_dir)
    if kept is not None:
        return kept
    store = build_store(build_dir)
    try:
        with under_build_base(build_dir):
            return store_index(store)
    finally:
        store.close()


def kept_view(build_dir: Path) -> ViewIndex | None:
    """The view index of the parts a build kept; None when it kept none."""
    parts = load_parts(build_dir)
    return None if parts is None else kept_index(parts)


def view_page(source: GraphStore | ViewIndex | nx.MultiDiGraph, *, focus: str | None = None, depth: int = 1,
              size_by: str = "mentions", max_nodes: int | None = None) -> tuple[str, int]:
    """The page of a store, of a view index or of a view graph already read (or of one node's
    neighbourhood) and its node count; at most `max_nodes` nodes (default MAX_NODES). From an
    index, a whole-graph page is made from the rows of the nodes it shows."""
    cap = MAX_NODES if max_nodes is None else max_nodes
    if not isinstance(source, (ViewIndex, nx.MultiDiGraph)):
        source = store_index(source)
    if isinstance(source, ViewIndex):
        if focus is None:
            graph = source.top(cap)
            return render(graph, size_by=size_by, depth=depth), graph.number_of_nodes()
        source = source.whole()
    graph = source
    if focus is not None:
        focus = resolve_node(graph, focus)
        graph = focus_subgraph(graph, focus, depth)
    graph = cap_nodes(graph, cap)
    return render(graph, size_by=size_by, focus=focus, depth=depth), graph.number_of_nodes()


def write_html(source: GraphStore | ViewIndex | nx.MultiDiGraph, path: Path, *, focus: str | None = None, depth: int = 1,
               size_by: str = "mentions", max_nodes: int | None = None) -> int:
    """Write the view of a store, a view index or a view graph (or of one node's neighbourhood) to `path`;
    returns the node count."""
    html, nodes = view_page(source, focus=focus, depth=depth, size_by=size_by, max_nodes=max_nodes)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(html, encoding="utf-8")
    os.replace(tmp, path)
    return nodes
