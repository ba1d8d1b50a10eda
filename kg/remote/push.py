"""Sending a build to a remote store, touching only kg's own graphs.

The store's manifest (kg.remote.owned) says which graphs are kg's and which
build they hold. A push first claims every graph it is about to write
(manifest with no build: a push cut short is redone in full next time),
replaces the graphs that changed (all of them unless the store holds exactly
the build this one started from), drops the graphs kg wrote before that the
new build no longer has, and records the new build last. Graphs kg did not
write are never replaced or dropped.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Sequence

from kg.remote.owned import Manifest
from kg.remote.store import RemoteStore
from kg.store import EmbeddedStore

THREADS = 4  # graphs sent at once: a PUT mostly waits for the server


def push(remote: RemoteStore, local: EmbeddedStore, build: str, *, based_on: str | None = None,
         changed: Sequence[str] | None = None) -> int:
    """Make `remote` hold the graphs of `local` (build `build`); returns how many graphs were sent.
    `changed`: the graphs an incremental build rewrote since build `based_on`."""
    held = remote.manifest(fresh=True)
    ours = frozenset(local.graphs())
    incremental = changed is not None and based_on is not None and held.build == based_on
    names = sorted(set(changed) & ours) if incremental else sorted(ours)
    remote.write_manifest(Manifest(held.graphs | ours, ""))
    with ThreadPoolExecutor(THREADS) as pool:  # each thread has its own HTTP session
        list(pool.map(lambda name: remote.replace_graph(name, local.dump_graph(name, fmt="nt").encode()), names))
    for name in sorted(held.graphs - ours):
        remote.drop_graph(name)
    remote.write_manifest(Manifest(ours, build))
    return len(names)


def holds(remote: RemoteStore, build: str) -> bool:
    """Whether the store holds exactly build `build` (a complete push of it)."""
    return remote.manifest(fresh=True).build == build
