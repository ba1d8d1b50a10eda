"""The graph of a data directory, opened for reading: what `kg query`, `kg stats`, `kg export`,
`kg viz` and `kg.open` read.

Without a store URL, the store of the current build (data/current), read-only, read under
the base IRI the build was made under. With one, the SPARQL 1.1 server a `kg build --store URL`
pushed to, read under the base IRI in force (the base_iri setting), as `kg serve --store URL`
reads it: no build directory is needed then. Either way the caller gets a GraphStore
(kg.store.protocol) and reads it the same way.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from kg.errors import StoreError
from kg.model import iris
from kg.store import build_dirs
from kg.store.protocol import GraphStore


def open_graph(data_dir: Path, store_url: str | None = None, settings: Mapping[str, Any] | None = None) -> GraphStore:
    """The graph of `data_dir`'s current build, or of the store at `store_url` (configured by
    `settings`, see kg.store.remote.connect); StoreError when nothing is built there. From now on
    (in this context) IRIs are minted and abbreviated under the graph's base IRI."""
    if store_url:
        return _open_remote(store_url, settings)
    build = build_dirs.require_current_build(Path(data_dir))
    iris.use_base(build_dirs.base_iri(build))
    return build_dirs.build_store(build)


def _open_remote(store_url: str, settings: Mapping[str, Any] | None) -> GraphStore:
    from kg.store.remote import connect  # HTTP libraries only for a remote graph

    store = connect(store_url, settings)
    try:
        empty = not store.graphs()
    except BaseException:
        store.close()
        raise
    if empty:
        store.close()
        raise StoreError(f"the store at {store_url} holds no graph built under {iris.BASE} (expected "
                         f"`kg build --store {store_url}` to have run, under the same KG_BASE_IRI)")
    return store
