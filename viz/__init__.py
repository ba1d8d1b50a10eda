"""How the rest of kg reaches the view: the build's page (written on first request and kept in the
build directory, or by an eager build's hook), drawn from the view index the build kept, and the
file writer the CLI uses."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

from kg.publish.view_index import ViewIndex, open_index
from kg.settings import setting
from kg.store import checksums
from kg.store.build_dirs import VIEW_FILE, build_store, made_once, under_build_base
from kg.store.protocol import GraphStore
from kg.viz.html import render
from kg.viz.view_index import focus_graph, page_graph, resolve, store_index


def write_view(build_dir: Path, store: GraphStore) -> Path:
    """Build hook (`kg.build_hooks`, run by `kg build --eager`): write graph.html into the build
    directory, from the view index the build kept (from `store` when it kept none)."""
    path = Path(build_dir) / VIEW_FILE
    index = open_index(build_dir)
    write_html(store_index(store.select) if index is None else index, path)
    checksums.seal(path)  # kept like a page drawn on first request (build_dirs.made_once)
    return path


def ensure_view(build_dir: Path, index: Callable[[], ViewIndex] | None = None, max_nodes: int | None = None,
                deadline: float | None = None) -> Path:
    """The build's graph.html, drawn on the first call (one writer at a time) and kept: the view is
    not on a build's critical path. Drawn from `index()` when given (a server keeps the build's
    index for the neighbours route), else from the build's (`build_index`); `max_nodes` as
    `view_page` takes it; `deadline` as made_once takes it."""
    return made_once(Path(build_dir) / VIEW_FILE, lambda partial: _draw(Path(build_dir), partial, index, max_nodes),
                     deadline)


def _draw(build_dir: Path, path: Path, index: Callable[[], ViewIndex] | None, max_nodes: int | None) -> None:
    with under_build_base(build_dir):
        write_html(index() if index else build_index(build_dir), path, max_nodes=max_nodes)


def build_index(build_dir: Path) -> ViewIndex:
    """The view index of a build: the one it kept, or one read from its store when it kept none
    (a build made before kg kept it)."""
    kept = open_index(build_dir)
    if kept is not None:
        return kept
    store = build_store(build_dir)
    try:
        with under_build_base(build_dir):
            return store_index(store.select)
    finally:
        store.close()


def view_page(index: ViewIndex | GraphStore, *, focus: str | None = None, depth: int = 1, size_by: str = "mentions",
              max_nodes: int | None = None, names=None) -> tuple[str, int]:
    """The page of a view index (or of a store's view, read whole) and its node count: the whole
    graph when it has at most `max_nodes` nodes (default: the `view_nodes` setting), else its
    overview; with `focus`, that node and its neighbours `depth` edges away (`names`, a search
    index, resolves it by name)."""
    if not isinstance(index, ViewIndex):
        index = store_index(index.select)
    size = int(setting("view_nodes")) if max_nodes is None else max_nodes
    if focus is not None:
        focus = resolve(index, focus, names)
        graph = focus_graph(index, focus, depth, limit=max(size, 1))
    else:
        graph = page_graph(index, size)
    return render(graph, size_by=size_by, focus=focus, depth=depth), graph.number_of_nodes()


def write_html(index: ViewIndex | GraphStore, path: Path, **options) -> int:
    """Write the page of a view index or a store (`view_page`'s options) to `path`; returns its node count."""
    html, nodes = view_page(index, **options)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(html, encoding="utf-8")
    os.replace(tmp, path)
    return nodes
