"""kg's graphs on a SPARQL 1.1 server: the remote store, its engines, the push of a build.

    engines.py   one profile per server (Oxigraph, Virtuoso, Fuseki, GraphDB)
    http.py      sessions, credentials, status checks
    results.py   answers parsed from JSON/XML (or a graph format) and re-serialized as asked
    owned.py     the manifest graph: which graphs are kg's
    store.py     RemoteStore, the GraphStore interface over HTTP
    push.py      sending a build to the store
"""

from __future__ import annotations

from typing import Any, Mapping

from kg.settings import load
from kg.store.remote.engines import ENGINES, Engine
from kg.store.remote.http import Credentials, RemoteTimeout
from kg.store.remote.owned import Manifest, manifest_graph
from kg.store.remote.store import UNION_MODES, RemoteStore

__all__ = ["ENGINES", "UNION_MODES", "Credentials", "Engine", "Manifest", "RemoteStore",
           "RemoteTimeout", "connect", "manifest_graph"]

SETTING_NAMES = ("STORE_ENGINE", "STORE_UPDATE", "STORE_GSP", "STORE_UNION", "STORE_AUTH", "STORE_USER",
                 "STORE_PASSWORD", "STORE_TOKEN")


def connect(url: str, settings: Mapping[str, Any] | None = None, *, timeout: float = 30.0,
            base: str | None = None) -> RemoteStore:
    """The store at `url` configured by `settings` (STORE_ENGINE, STORE_UPDATE, STORE_GSP,
    STORE_UNION and the credentials); a name missing from `settings` is read from the
    environment as KG_<NAME>. Its graphs are those built under `base` (None: the base IRI in
    force: the build's while kg build pushes, the setting's for kg serve). The one way kg build
    and kg serve reach a store."""
    values = load({k: v for k, v in (settings or {}).items() if k in SETTING_NAMES})
    return RemoteStore.from_url(url, values["STORE_UPDATE"] or None, values["STORE_GSP"] or None,
                                engine=values["STORE_ENGINE"] or None, union=values["STORE_UNION"] or "graphs",
                                credentials=Credentials.from_settings(values), timeout=timeout, base=base)
