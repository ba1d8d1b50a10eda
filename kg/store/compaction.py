"""The current build's store compacted in a process of its own, where no user waits for it.

An incremental build writes its changes into a copy of the previous store, and each one leaves
RocksDB a few more level-0 files in every index. Their compaction into the bulk-loaded bottom
level rewrites most of an index (the changed keys are spread over all of it); a short build ends
before it can finish it, so the files pile up until RocksDB holds writes back, and then an edit's
flush waits for the whole compaction (minutes at 10,000 articles), while every read and export
in between looks through the pile.

So after `compact_after` incremental builds in a row `kg build` starts `kg compact` detached.
It makes a new build directory beside the current one (every file hard-linked, the store copied
by a RocksDB checkpoint and compacted whole) and publishes it only if the build it copied is still
current, under the build lock, taken without waiting: a build that ran meanwhile wins, and the
next one starts a compaction again. A failed or killed compaction leaves the current build as it
was (its unfinished directory goes at the next cleanup).
The corpus stamp kept for the build copied becomes the copy's, so that the next build of an
unchanged corpus still answers without scanning it.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from kg.atomic import replaced_file
from kg.errors import BuildLockedError
from kg.store import build_dirs
from kg.store.manifest_lines import manifest_text
from kg.store.served import SERVED_FILE

COMPACT_LOCK = "compact.lock"  # held by the one compaction running on a data directory
COMPACT_LOG = "compact.log"  # what the last compaction started by a build said
STORE_EDITS = "store_edits"  # the manifest's count of incremental builds since the store was bulk loaded or compacted
_NOT_COPIED = {build_dirs.STORE_DIR, build_dirs.MANIFEST_FILE, SERVED_FILE}


def store_edits(manifest: dict | None) -> int:
    """Incremental builds whose changes the store of a build with this manifest holds uncompacted."""
    value = (manifest or {}).get(STORE_EDITS, 0)
    return value if isinstance(value, int) and value >= 0 else 0


def start_compaction(data_dir: Path, build: Path) -> None:
    """Start `kg compact` for `build` in a detached process, its output in data/compact.log."""
    with open(Path(data_dir) / COMPACT_LOG, "ab") as log:
        subprocess.Popen([sys.executable, "-m", "kg.store.compaction", str(data_dir), build.name],
                         start_new_session=True, stdin=subprocess.DEVNULL, stdout=log, stderr=log)


def compact(data_dir: Path, build_name: str | None = None) -> str:
    """Compact the store of the current build (only if it is `build_name`, when given) into a new
    build and publish it if that build is still current. Returns what was done, in words."""
    data_dir = Path(data_dir)
    with open(data_dir / COMPACT_LOCK, "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return "a compaction is running already"
        source = build_dirs.current_build(data_dir)
        if source is None or (build_name and source.name != build_name):
            return "nothing to compact: the build asked for is not current"
        clone = _compacted_copy(data_dir, source)
        return _publish_unless_superseded(data_dir, source, clone)


def _compacted_copy(data_dir: Path, source: Path) -> Path:
    from kg.store.embedded import EmbeddedStore  # pyoxigraph only for a compaction

    clone = build_dirs.new_build_dir(data_dir)
    try:
        for item in source.iterdir():
            if item.name in _NOT_COPIED:
                continue
            if item.is_dir():
                shutil.copytree(item, clone / item.name, copy_function=os.link)
            else:
                os.link(item, clone / item.name)
        with build_dirs.build_store(source) as store:
            store.backup(build_dirs.store_path(clone))
        with EmbeddedStore(build_dirs.store_path(clone)) as store:
            store.compact()
        manifest = build_dirs.read_manifest(source)
        manifest[STORE_EDITS] = 0
        manifest["compacted_from"] = source.name
        (clone / build_dirs.MANIFEST_FILE).write_text(manifest_text(manifest), encoding="utf-8")  # last, as a build
    except BaseException:
        shutil.rmtree(clone, ignore_errors=True)
        raise
    return clone


def _publish_unless_superseded(data_dir: Path, source: Path, clone: Path) -> str:
    try:
        with build_dirs.build_lock(data_dir):
            current = build_dirs.current_build(data_dir)
            if current is None or current.name != source.name:
                shutil.rmtree(clone, ignore_errors=True)
                return "not published: a newer build is current (the next one compacts again)"
            _carry_stamp(data_dir, source, clone)
            build_dirs.publish(data_dir, clone)
    except BuildLockedError:
        shutil.rmtree(clone, ignore_errors=True)
        return "not published: a build is running (the next one compacts again)"
    return f"compacted {source.name} into {clone.name}"


def _carry_stamp(data_dir: Path, source: Path, clone: Path) -> None:
    """The corpus stamp kept for `source` (build_dirs.STAMP_FILE, kg.pipeline.survey.unchanged) made
    the copy's, so that a build after a compaction still finds an unchanged corpus without a scan."""
    path = data_dir / build_dirs.STAMP_FILE
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    if isinstance(kept, dict) and kept.get("build") == source.name:
        with replaced_file(path) as out:
            out.write(json.dumps(kept | {"build": clone.name}).encode())


if __name__ == "__main__":
    print(compact(Path(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 else None), flush=True)
