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

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from kg import __version__
from kg.errors import InputError, InputWarning
from kg.model import iris
from kg.model.iris import graph_iri
from kg.store import build_dirs
from kg.store.compaction import STORE_EDITS, store_edits
from kg.store.manifest_lines import KeptManifest, manifest_text

if TYPE_CHECKING:
    from kg.formats.corpus import DocumentFiles
    from kg.pipeline.survey.changes import Changes


@dataclass
class Plan:
    """The documents to (re)build and how: 'full' or 'incremental' on top of `previous_dir`."""

    mode: str
    todo: list[DocumentFiles]
    added: list[str]
    changed: list[str]
    removed: list[str]
    fingerprints: dict[str, dict]  # per document: stat, digest and the warnings found when it was read
    previous_dir: Path | None
    input_warnings: list[list] = field(default_factory=list)  # the configurations' (keep_warnings)
    ontology_remade: bool = False  # an incremental build wrote the ontology graph again (its vocabulary changed)
    previous_quads: int | None = None  # the quads of the build at `previous_dir`, as its manifest counts them
    kept: KeptManifest | None = None  # that build's manifest as read, whose unchanged lines the new one copies
    previous_store_edits: int = 0  # incremental builds the previous store holds uncompacted (kg.store.compaction)

    @property
    def store_edits(self) -> int:
        """Incremental builds this build's store will hold uncompacted, itself included."""
        return 0 if self.mode == "full" else self.previous_store_edits + 1

    def remade_graphs(self) -> list[str] | None:
        """Graphs whose content may differ from the previous build (None: a full build, all of them)."""
        if self.mode == "full":
            return None
        remade = sorted(graph_iri(s) for s in self.added + self.changed + self.removed) + [iris.ENTITIES_GRAPH]
        return remade + [iris.ONTOLOGY_GRAPH] if self.ontology_remade else remade


def previous_manifest(data_dir: Path) -> dict | None:
    """The manifest of the current build, with its directory under '_dir' and, under '_kept', its
    documents and text (whose lines the next manifest copies); None before the first build or when
    it has no readable manifest."""
    current = build_dirs.current_build(data_dir)
    if current is None:
        return None
    manifest, text = build_dirs.manifest_and_text(current)
    if not manifest:
        return None
    documents = manifest.get("documents")
    kept = KeptManifest(documents, text) if isinstance(documents, dict) else None
    return manifest | {"_dir": str(current), "_kept": kept}


def make_plan(files: list[DocumentFiles], previous: dict | None, fingerprint: str, full: bool,
              racy_after: int = 0) -> Plan | None:
    """What to (re)build; None when nothing changed. A file changed at or after `racy_after` (ns
    since the epoch: shortly before the scan's stats were taken) may change again within the same
    tick of the file system's clock, unseen by its stat: its document's stat is not kept, so the
    next build compares its digest (git's "racy clean" entries)."""
    if full or previous is None or previous.get("inputs") != fingerprint:
        prints = {f.slug: {"stat": _settled(f.stat_key(), racy_after), "sha256": f.fingerprint()} for f in files}
        return Plan("full", files, [f.slug for f in files], [], [], prints, None)
    old = previous.get("documents", {})
    removed = sorted(set(old) - {f.slug for f in files})
    return _incremental(files, old, {}, removed, previous, racy_after)


def plan_changes(changes: Changes, previous: dict, racy_after: int = 0) -> Plan | None:
    """make_plan's plan from the documents a watcher's named paths make (kg.pipeline.survey.changes): every
    other document is as the current build's manifest has it, and these are hashed whatever their
    stat says (an edit within one tick of the clock keeps it). None when nothing changed."""
    old = previous.get("documents", {})
    gone = set(changes.gone)
    kept = {slug: entry for slug, entry in old.items() if slug not in gone}
    plan = _incremental(changes.present, old, kept, sorted(gone), previous, racy_after, trust_stat=False)
    if plan is not None:
        plan.fingerprints = dict(sorted(plan.fingerprints.items()))  # the scan's order: warnings are kept in it
    return plan


def _incremental(files: list[DocumentFiles], old: dict, prints: dict, removed: list[str], previous: dict,
                 racy_after: int, trust_stat: bool = True) -> Plan | None:
    """Compare `files` with the manifest's entries `old`, into `prints`; None when nothing changed.
    Without `trust_stat` (the files are known to have been written) their digests are compared."""
    todo, added, changed = [], [], []
    for item in files:
        before = old.get(item.slug)
        stat = item.stat_key()
        if trust_stat and before and before["stat"] == stat:
            prints[item.slug] = before
            continue
        stat = _settled(stat, racy_after)
        digest = item.fingerprint()
        if before and before["sha256"] == digest:
            prints[item.slug] = before | {"stat": stat}  # not read again: its warnings stay
            continue
        prints[item.slug] = {"stat": stat, "sha256": digest}
        todo.append(item)
        (changed if before else added).append(item.slug)
    if not todo and not removed:
        return None
    quads = previous.get("quads")
    return Plan("incremental", todo, added, changed, removed, prints, Path(previous["_dir"]),
                previous_quads=quads if isinstance(quads, int) else None, kept=previous.get("_kept"),
                previous_store_edits=store_edits(previous))


def _settled(stat: list[int], racy_after: int) -> list[int]:
    """The stat key to keep (size, modification and change time per file), or [] (matching no
    stat) when a file changed too recently for its times to tell a later change."""
    times = stat[1::3] + stat[2::3]
    return [] if racy_after and max(times, default=0) >= racy_after else stat


def keep_warnings(plan: Plan, read: Mapping[str, list[InputError]], inputs: list[InputError],
                  corpus_dir: Path) -> list[InputError]:
    """Every warning of the corpus, as `kg check` finds them, though an incremental build reads only
    the documents that changed: the warnings of each document read (`read`) and of the configurations
    (`inputs`) are kept in the manifest, naming their files relative to the corpus (never by absolute
    paths: the corpus may move, and a build may be shared), and the other documents' are taken from it."""
    for slug in plan.added + plan.changed:
        plan.fingerprints[slug].pop("warnings", None)
        if read.get(slug):
            plan.fingerprints[slug]["warnings"] = [_stored(w, corpus_dir) for w in read[slug]]
    plan.input_warnings = [_stored(w, corpus_dir) for w in inputs]
    return stored_warnings({"input_warnings": plan.input_warnings, "documents": plan.fingerprints}, corpus_dir)


def stored_warnings(manifest: Mapping[str, Any], corpus_dir: Path) -> list[InputError]:
    """The warnings a build's manifest keeps: the configurations', then each document's in order, their
    files in `corpus_dir` (as the build that found them named them)."""
    kept = [*manifest.get("input_warnings", ()),
            *(w for entry in manifest.get("documents", {}).values() for w in entry.get("warnings", ()))]
    return [InputWarning(reason, str(Path(corpus_dir) / path) if path else path, *rest) for reason, path, *rest in kept]


def _stored(warning: InputError, corpus_dir: Path) -> list:
    return [warning.reason, _in_corpus(warning.path, corpus_dir), warning.line, warning.column,
            getattr(warning, "count", 1)]


def _in_corpus(path: str | Path | None, corpus_dir: Path) -> str | None:
    """A file's path relative to the corpus (posix); one outside it (none should be) by its name alone."""
    if path is None:
        return None
    absolute, corpus = Path(os.path.abspath(path)), Path(os.path.abspath(corpus_dir))
    return absolute.relative_to(corpus).as_posix() if absolute.is_relative_to(corpus) else absolute.name


def write_manifest(build_dir: Path, plan: Plan, fingerprint: str, quads: int, phases: dict[str, float],
                   corpus_dir: Path | None = None) -> None:
    """The manifest is written last: a build directory without one is unfinished. `corpus_dir` is
    kept so that `kg export` can refuse to write into the corpus the build read."""
    manifest = {
        "kg_version": __version__,
        "base_iri": iris.BASE,
        "corpus": str(Path(corpus_dir).resolve()) if corpus_dir is not None else None,
        "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "mode": plan.mode,
        "inputs": fingerprint,
        "quads": quads,
        "documents": plan.fingerprints,
        "input_warnings": plan.input_warnings,
        "based_on": plan.previous_dir.name if plan.previous_dir else None,
        "remade_graphs": plan.remade_graphs(),
        STORE_EDITS: plan.store_edits,
        "phases": list(phases.items()),  # [name, seconds] in the order they ran
    }
    (build_dir / build_dirs.MANIFEST_FILE).write_text(manifest_text(manifest, plan.kept))
