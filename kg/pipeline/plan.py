"""What a build has to do, from the corpus and the manifest of the current build.

The manifest (manifest.json in every build directory) records the
fingerprint of the inputs every document is read against and, per document,
its files' stat and content digest. A build compares the corpus with it: a
document whose stat is unchanged is not even read; one whose digest is
unchanged is not rebuilt. A change to the inputs (configuration, aliases,
kg's code) makes a full build. The manifest also names the build an
incremental one started from and the graphs it made anew, which is what
lets lazily written exports copy every other section from that build.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kg import __version__
from kg.store import build_dirs
from kg.model import iris
from kg.model.iris import graph_iri

if TYPE_CHECKING:
    from kg.formats.corpus import DocumentFiles


@dataclass
class Plan:
    """The documents to (re)build and how: 'full' or 'incremental' on top of `previous_dir`."""

    mode: str
    todo: list[DocumentFiles]
    added: list[str]
    changed: list[str]
    removed: list[str]
    fingerprints: dict[str, dict]
    previous_dir: Path | None

    def remade_graphs(self) -> list[str] | None:
        """Graphs whose content may differ from the previous build (None: a full build, all of them)."""
        if self.mode == "full":
            return None
        return sorted(graph_iri(s) for s in self.added + self.changed + self.removed) + [iris.ENTITIES_GRAPH]


def previous_manifest(data_dir: Path) -> dict | None:
    """The manifest of the current build, with its directory under '_dir'; None before the first build."""
    current = build_dirs.current_build(data_dir)
    if current is None:
        return None
    manifest = read_manifest(current)
    return manifest | {"_dir": str(current)} if manifest else None


def read_manifest(build_dir: Path) -> dict[str, Any]:
    try:
        return json.loads((build_dir / build_dirs.MANIFEST_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def make_plan(files: list[DocumentFiles], previous: dict | None, fingerprint: str, full: bool) -> Plan | None:
    """What to (re)build; None when nothing changed."""
    if full or previous is None or previous.get("inputs") != fingerprint:
        prints = {f.slug: {"stat": f.stat_key(), "sha256": f.fingerprint()} for f in files}
        return Plan("full", files, [f.slug for f in files], [], [], prints, None)
    old = previous.get("documents", {})
    prints, todo, added, changed = {}, [], [], []
    for item in files:
        before = old.get(item.slug)
        stat = item.stat_key()
        if before and before["stat"] == stat:
            prints[item.slug] = before
            continue
        digest = item.fingerprint()
        prints[item.slug] = {"stat": stat, "sha256": digest}
        if before and before["sha256"] == digest:
            continue
        todo.append(item)
        (changed if before else added).append(item.slug)
    removed = sorted(set(old) - {f.slug for f in files})
    if not todo and not removed:
        return None
    return Plan("incremental", todo, added, changed, removed, prints, Path(previous["_dir"]))


def write_manifest(build_dir: Path, plan: Plan, fingerprint: str, quads: int, phases: dict[str, float]) -> None:
    """The manifest is written last: a build directory without one is unfinished."""
    manifest = {
        "kg_version": __version__,
        "base_iri": iris.BASE,
        "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "mode": plan.mode,
        "inputs": fingerprint,
        "quads": quads,
        "documents": plan.fingerprints,
        "based_on": plan.previous_dir.name if plan.previous_dir else None,
        "remade_graphs": plan.remade_graphs(),
        "phases": list(phases.items()),  # [name, seconds] in the order they ran
    }
    (build_dir / build_dirs.MANIFEST_FILE).write_text(json.dumps(manifest, indent=1, sort_keys=True))
