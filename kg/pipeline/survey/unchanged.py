"""Telling that nothing changed since the current build without scanning the corpus.

The data directory keeps the stamp of the corpus its current build is up to date with
(kg.formats.corpus_stamp) together with kg's code fingerprint, the build's name, and what its
report says of an unchanged corpus: how many documents, which files were not read, how many
warnings. It is written after a build is published and after a build that scanned and found
nothing to do; builds themselves are never touched once published. The next build takes a new
stamp first: an equal one, for the build that is still current, is a build with nothing to do,
answered from that file. At 100,000 articles this skips the scan's grouping of 300,000 files into
documents and the reading of a manifest of tens of megabytes.

The stamp is taken before the scan, so a file changed while a build runs gives the next build
another stamp, and that build scans. Where `kg serve --watch` watches the corpus, its watcher gives
the stamp (kg.pipeline.survey.watched) without a stat of every file, and the paths changed since the
stamp kept here.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from kg.atomic import replaced_file
from kg.formats.corpus_stamp import stamp_listing
from kg.pipeline.inputs import code_fingerprint
from kg.pipeline.survey.watched import Told
from kg.store import build_dirs


@dataclass
class Unchanged:
    """What a build with nothing to do reports, kept from the build it found unchanged."""

    stamp: str
    build: str  # the name of the build directory it is about
    documents: int
    ignored: list[str] = field(default_factory=list)  # relative to the corpus, '/'-separated
    warnings: int = 0
    configs: list[str] = field(default_factory=list)  # the corpus's configuration files, relative
    plain: bool = False  # brat documents alone, each under an annotation.conf (kg.pipeline.survey.work)

    def ignored_paths(self, corpus_dir: Path) -> list[Path]:
        return [Path(corpus_dir, name) for name in self.ignored]

    @property
    def corpus_stamp(self) -> str:
        """The stamp of the corpus alone (what a watcher compares), without kg's code fingerprint."""
        return self.stamp.rpartition(":")[0]


@dataclass(frozen=True)
class Taken:
    """A stamp taken before a build's survey: the corpus's joined with kg's code fingerprint, and what
    find listed to take it (the scan reads it instead of a second stat of every file; None when the
    watcher gave the stamp)."""

    stamp: str
    listed: bytes | None = None


def take_stamp(corpus_dir: Path, told: Told | None = None) -> Taken | None:
    """The corpus's stamp (the watcher's when it answered) joined with kg's code fingerprint, or
    None when the corpus cannot be stamped."""
    if told is not None:
        return Taken(f"{told.stamp}:{code_fingerprint()}")
    stamped = stamp_listing(corpus_dir)
    return None if stamped is None else Taken(f"{stamped.stamp}:{code_fingerprint()}", stamped.listed)


def kept_stamp(data_dir: Path) -> Unchanged | None:
    """What the current build of `data_dir` kept of the corpus it is up to date with (None: nothing,
    or kept for another build)."""
    current = build_dirs.current_build(data_dir)
    if current is None:
        return None
    try:
        kept = Unchanged(**json.loads((data_dir / build_dirs.STAMP_FILE).read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError):  # none yet, or unreadable: the build scans
        return None
    return kept if kept.build == current.name else None


def unchanged_since(kept: Unchanged | None, stamp: str | None) -> Unchanged | None:
    """`kept`, when the current build it is about is up to date with the corpus of `stamp`."""
    return kept if kept is not None and stamp is not None and kept.stamp == stamp else None


def keep_stamp(data_dir: Path, stamp: str | None, documents: int, ignored: list[Path], corpus_dir: Path,
               warnings: int, configs: list[str] | None = None, plain: bool = False) -> None:
    """Record that the current build of `data_dir` is up to date with the corpus of `stamp` (None:
    forget any stamp), with what its report says of that corpus, its configuration files and
    whether it holds brat documents alone (see Unchanged)."""
    path = data_dir / build_dirs.STAMP_FILE
    current = build_dirs.current_build(data_dir)
    if stamp is None or current is None:
        path.unlink(missing_ok=True)
        return
    names = [Path(p).relative_to(corpus_dir).as_posix() for p in ignored]
    kept = Unchanged(stamp, current.name, documents, names, warnings, list(configs or ()), plain)
    with replaced_file(path) as out:
        out.write(json.dumps(asdict(kept)).encode())
