"""The remote push of a build: the step run just before it is published.

A failed push leaves the previous build current, so the next build tries
again. When the store holds the build this one started from, only the
graphs it remade are sent.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping

from kg.model import iris
from kg.model.iris import graph_iri
from kg.pipeline.plan import Plan
from kg.store import build_dirs

if TYPE_CHECKING:
    from kg.store.remote.push import Pusher


def make_pusher(store_url: str | None, settings: Mapping[str, Any] | None) -> Pusher | None:
    if not store_url:
        return None
    from kg.store.remote.push import Pusher  # HTTP libraries only for builds that push

    return Pusher(store_url, settings)


def push_step(pusher: Pusher, plan: Plan) -> Callable[[Path], tuple[int, str]]:
    """A function pushing a finished build directory; it returns (graphs pushed, store URL)."""
    changed = None if plan.mode == "full" else [graph_iri(s) for s in plan.added + plan.changed] + [iris.ENTITIES_GRAPH]
    based_on = plan.previous_dir.name if plan.previous_dir else None

    def step(build_dir: Path) -> tuple[int, str]:
        return (pusher.push_build(build_dirs.store_path(build_dir), build_dir.name, based_on=based_on,
                                  changed=changed), pusher.url)

    return step
