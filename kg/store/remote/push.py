"""Sending a build to a remote store, touching only kg's own graphs.

The store's manifest (kg.store.remote.owned) says which graphs are kg's and which
build they hold. A push first claims every graph it is about to write
(manifest with no build: a push cut short is redone in full next time),
replaces the graphs that changed (all of them unless the store holds exactly
the build this one started from), drops the graphs kg wrote before that the
new build no longer has, and records the new build last. Graphs kg did not
write are never replaced or dropped.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence

from kg.errors import StoreError
from kg.store.remote.owned import Manifest
from kg.store.remote.store import RemoteStore
from kg.store.embedded import EmbeddedStore

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


class Pusher:
    """Pushes builds of a data directory to the store at `url` (configured by `settings`, see
    kg.store.remote.connect), and turns a failure into an error that says what it means for the build."""

    def __init__(self, url: str, settings: Mapping[str, Any] | None = None) -> None:
        self.url = url
        self.settings = settings

    def push_build(self, store_dir: Path, build: str, *, based_on: str | None = None,
                   changed: Sequence[str] | None = None, published: bool = False) -> int:
        """Push build `build`, whose store is `store_dir` (`published`: the current build, else one
        about to be published); returns how many graphs were sent."""
        local = EmbeddedStore(store_dir, read_only=True)
        try:
            with self._remote() as remote:
                return self._guard(lambda: push(remote, local, build, based_on=based_on, changed=changed),
                                   published)
        finally:
            local.close()

    def push_if_missing(self, store_dir: Path, build: str) -> int:
        """Push the current build when the store does not hold it (a new store, a push that failed)."""
        with self._remote() as remote:
            if self._guard(lambda: holds(remote, build), published=True):
                return 0
        return self.push_build(store_dir, build, published=True)

    @contextmanager
    def _remote(self) -> Iterator[RemoteStore]:
        from kg.store.remote import connect

        remote = connect(self.url, self.settings)
        try:
            yield remote
        finally:
            remote.close()

    @staticmethod
    def _guard(step: Callable[[], Any], published: bool) -> Any:
        try:
            return step()
        except StoreError as exc:
            what = ("pushing the current build to the store failed (the next `kg build` pushes again)"
                    if published else "pushing to the store failed, so this build is not published (the "
                    "previous one stays current and the next `kg build` pushes again)")
            raise StoreError(f"{what}: {exc}") from exc
