"""How the rest of kg reaches the view: the build's page (written on first request and kept
in the build directory, or by an eager build's hook) and the file writer the CLI uses."""

from __future__ import annotations

import os
from pathlib import Path

from kg.store.build_dirs import VIEW_FILE, build_store, made_once, under_build_base
from kg.store.protocol import GraphStore
from kg.viz.html import render
from kg.viz.network import cap_nodes, focus_subgraph, load_graph, resolve_node

MAX_NODES = 10_000  # the best-connected nodes a whole-graph page shows; --focus reaches the rest


def write_view(build_dir: Path, store: GraphStore) -> Path:
    """Build hook (`kg.build_hooks`, run by `kg build --eager`): write graph.html into the build directory."""
    path = Path(build_dir) / VIEW_FILE
    write_html(store, path)
    return path


def ensure_view(build_dir: Path) -> Path:
    """The build's graph.html, drawn from its store on the first call (one writer at a time) and kept:
    the view is not on a build's critical path."""
    return made_once(Path(build_dir) / VIEW_FILE, lambda partial: _draw(Path(build_dir), partial))


def _draw(build_dir: Path, path: Path) -> None:
    store = build_store(build_dir)
    try:
        with under_build_base(build_dir):
            write_html(store, path)
    finally:
        store.close()


def view_page(store: GraphStore, *, focus: str | None = None, depth: int = 1, size_by: str = "mentions",
              max_nodes: int | None = None) -> tuple[str, int]:
    """The page of `store` (or of one node's neighbourhood) and its node count; at most
    `max_nodes` nodes (default MAX_NODES)."""
    graph = load_graph(store)
    if focus is not None:
        focus = resolve_node(graph, focus)
        graph = focus_subgraph(graph, focus, depth)
    graph = cap_nodes(graph, MAX_NODES if max_nodes is None else max_nodes)
    return render(graph, size_by=size_by, focus=focus, depth=depth), graph.number_of_nodes()


def write_html(store: GraphStore, path: Path, *, focus: str | None = None, depth: int = 1,
               size_by: str = "mentions", max_nodes: int | None = None) -> int:
    """Write the view of `store` (or of one node's neighbourhood) to `path`; returns the node count."""
    html, nodes = view_page(store, focus=focus, depth=depth, size_by=size_by, max_nodes=max_nodes)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(html, encoding="utf-8")
    os.replace(tmp, path)
    return nodes
