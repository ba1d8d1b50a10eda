"""The survey a build starts from: the documents, the inputs they are read against, and the plan.

Found by scanning the corpus (kg.formats.corpus) and comparing it with the current build's
manifest (kg.pipeline.plan), or, when a corpus watcher named the paths changed since the current
build, from those paths alone (kg.pipeline.survey.changes): the same plan without a stat of every
file. The watcher's path is taken only for a corpus the last scan found plain (brat documents
alone, each under an annotation.conf): anything it cannot vouch for makes the build scan.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from kg.formats.corpus import scan_corpus
from kg.formats.file_systems import clock_tick_ns
from kg.pipeline.inputs import Inputs
from kg.pipeline.plan import Plan, make_plan, plan_changes, previous_manifest
from kg.pipeline.survey.changes import named_changes
from kg.pipeline.survey.unchanged import Unchanged
from kg.pipeline.survey.watched import Told


@dataclass
class Survey:
    """What a build found: the plan (None: nothing to do) and what its report and stamp say."""

    inputs: Inputs
    previous: dict | None  # the current build's manifest
    plan: Plan | None
    documents: int
    ignored: list[Path] = field(default_factory=list)
    configs: list[str] = field(default_factory=list)  # the corpus's configuration files, relative
    plain: bool = False  # brat documents alone, each under an annotation.conf
    scanned: bool = True  # False: taken from the paths a watcher named


def survey(corpus_dir: Path, data_dir: Path, full: bool, told: Told | None = None,
           kept: Unchanged | None = None, listed: bytes | None = None) -> Survey:
    """The work of a build of `corpus_dir` into `data_dir`: from the changes `told` names since the
    stamp `kept` (kept for the current build) when it can, else by scanning (reading `listed`, what
    find listed for the stamp just taken, when there is one)."""
    racy_after = time.time_ns() - 2 * clock_tick_ns(corpus_dir)  # what changed since may change again unseen
    previous = previous_manifest(data_dir)  # read once: at 100,000 documents it is tens of megabytes
    if not full and told is not None and told.changed is not None and kept is not None and kept.plain and previous:
        found = _from_changes(corpus_dir, told.changed, kept, previous, racy_after)
        if found is not None:
            return found
    listing = scan_corpus(corpus_dir, listed)
    inputs = Inputs(corpus_dir, listing.configs, listing.documents)
    plan = make_plan(listing.documents, previous, inputs.fingerprint, full, racy_after)
    plain = not inputs.converted and not inputs.unconfigured
    configs = [p.relative_to(corpus_dir).as_posix() for p in listing.configs]
    return Survey(inputs, previous, plan, len(listing.documents), listing.ignored, configs, plain)


def _from_changes(corpus_dir: Path, paths: list[str], kept: Unchanged, previous: dict,
                  racy_after: int) -> Survey | None:
    changes = named_changes(corpus_dir, paths, previous)
    if changes is None:
        return None
    inputs = Inputs(corpus_dir, [Path(corpus_dir, name) for name in kept.configs], [])
    if inputs.fingerprint != previous.get("inputs"):  # a full build reads every document: the scan lists them
        return None
    plan = plan_changes(changes, previous, racy_after)
    documents = len(plan.fingerprints) if plan else kept.documents
    return Survey(inputs, previous, plan, documents, kept.ignored_paths(corpus_dir), kept.configs, True, False)
