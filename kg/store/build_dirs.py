"""The data directory and its builds: the one place that names every file in them, and how a
new build replaces the old.

    data/
      current -> builds/<id>            CURRENT: symlink, swapped atomically at the end of a build
      build.lock                        LOCK_FILE: held while a build runs
      corpus-stamp.json                 STAMP_FILE: the stamp of the corpus the current build is up
                                        to date with (kg.pipeline.survey.unchanged)
      watch.sock, watch.lock            WATCH_SOCKET, WATCH_LOCK: where `kg serve --watch` answers builds
                                        with the corpus's stamp and its changes (kg.pipeline.survey.watched),
                                        and the lock one watcher per data directory holds
      builds/<id>/                      BUILDS_DIR: one directory per build
        store/                          STORE_DIR: Oxigraph store (RocksDB)
        manifest.json                   MANIFEST_FILE: fingerprints, counts, timings; written last
        kg.ttl kg.trig kg.nq kg.jsonld  EXPORT_FILES (kg.publish.export), each written on first request
        kg.<ext>.sections.json          SECTIONS_SUFFIX: where each graph's section lies in an export
        load.nq, load.pipe              LOAD_FILE, LOAD_PIPE: what a full build loads; load.nq becomes kg.nq
        parts/                          PARTS_DIR: while a build reads on a Dask cluster, what each task
                                        wrote (<n>.nq, <n>.view) and what every task reads against
                                        (SHARED_INPUTS_FILE); removed once read (kg.pipeline.cluster)
        base.nq                         BASE_EXPORT: an incremental build's hard link to the newest kg.nq
                                        of the builds it descends from, with its section index and
                                        BASE_REMADE (base.nq.remade.json: the graphs remade since), so
                                        that its N-Quads export copies every other section (kg.publish.export)
        graph.html                      VIEW_FILE: the network view, drawn on first request (kg.viz)
        view-index/                     VIEW_INDEX_DIR: the view's rows by node, what it ranks by and the
                                        overview (kg.publish.view_index): a base segment, hard-linked
                                        from build to build, and a delta each incremental build writes
        search-index.sqlite             SEARCH_INDEX_FILE: the labels /api/search ranks, SQLite with FTS5
                                        (kg.publish.search_index); builds made before it wrote
                                        OLD_SEARCH_INDEX_FILE (search-index.json), no longer read:
                                        the endpoint writes the new file into them (api/backend/search_indexes.py)
        inputs.pickle                   PARSED_INPUTS_FILE: the parsed inputs, reused by the next
                                        incremental build (kg.pipeline.inputs)
        evidence.pickle                 EVIDENCE_FILE: what the documents say of each entity, patched
                                        by the next build (kg.model.entities.evidence)
        schema/                         CORPUS_CONFIG_DIR: the corpus's configuration files
                                        (annotation.conf, kg.toml, ...) at their places in the corpus,
                                        which `kg export --format brat|xmi` writes back
        served.lock                     kg.store.served.SERVED_FILE: locked (shared) by each server
                                        answering from the build
        <file>.sha256, schema.sha256    kg.store.checksums.SUFFIX: the checksum of each kept file
                                        (exports, section indexes, graph.html, view-index/'s files,
                                        the search index, inputs.pickle, evidence.pickle; schema/'s
                                        files listed in one), written before the file is renamed
                                        into place; a file damaged on disk is made again, never used
      .removing/<id>.<pid>/             REMOVING_DIR: builds the cleanup renamed away, deleted there by a
                                        process of their own once the build that pruned them has ended
      builds/.<id>.<pid>.removing/      a build renamed away by a cleanup that deletes it in its own process
      cache/<id>/                       CACHE_DIR: files derived from a build by the endpoint (graph.html.gz)

A build writes a new builds/<id>/ beside the current one and only then moves
`current`; a build that fails or is killed leaves `current` untouched. The cleanup
after it (prune) passes over every build a running server answers from
(kg.store.served): such a build goes at a later cleanup, once no server holds it.
The cleanup only renames old builds away (out of builds/, in one rename each) and leaves
deleting them to a process of its own: no one waits on it (at 10,000 articles deleting the
previous build took seconds of an edit's build), and one killed midway leaves files under
.removing/ alone, which the next cleanup deletes.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
import time
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, ContextManager, Iterator

from kg.errors import BeingMade, BuildLockedError, DiskFull, StoreError
from kg.formats import rdf_syntaxes
from kg.model import iris
from kg.store import checksums, served
from kg.store.disk_space import is_disk_full

if TYPE_CHECKING:
    from kg.store.embedded import EmbeddedStore

CURRENT = "current"
LOCK_FILE = "build.lock"
STAMP_FILE = "corpus-stamp.json"
WATCH_SOCKET = "watch.sock"
WATCH_LOCK = "watch.lock"
BUILDS_DIR = "builds"
CACHE_DIR = "cache"
REMOVING_DIR = ".removing"
STORE_DIR = "store"
MANIFEST_FILE = "manifest.json"
EXPORT_FILES = {extension: f"kg.{extension}" for extension in rdf_syntaxes.EXPORT_EXTENSIONS}
SECTIONS_SUFFIX = ".sections.json"
LOAD_FILE = "load.nq"
BASE_EXPORT = "base.nq"
BASE_REMADE = "base.nq.remade.json"
LOAD_PIPE = "load.pipe"
PARTS_DIR = "parts"
SHARED_INPUTS_FILE = "shared-inputs.pickle"
VIEW_FILE = "graph.html"
VIEW_INDEX_DIR = "view-index"
SEARCH_INDEX_FILE = "search-index.sqlite"
OLD_SEARCH_INDEX_FILE = "search-index.json"
PARSED_INPUTS_FILE = "inputs.pickle"
EVIDENCE_FILE = "evidence.pickle"
CORPUS_CONFIG_DIR = "schema"  # its name since the first builds: builds made before read alike
KEEP_BUILDS = 2


def current_build(data_dir: Path) -> Path | None:
    """The directory of the build `current` points at, or None before the first build."""
    link = Path(data_dir) / CURRENT
    try:
        target = os.readlink(link)
    except OSError:
        return None
    path = (link.parent / target).resolve()
    return path if path.is_dir() else None


def require_current_build(data_dir: Path) -> Path:
    """The directory of the current build; StoreError when nothing is built in `data_dir` yet."""
    build = current_build(data_dir)
    if build is None:
        raise StoreError(f"no build in {data_dir} (expected `kg build` to have run)")
    return build


def read_manifest(build: Path) -> dict[str, Any]:
    """A build's manifest; empty when it has none (an unfinished build) or one that does not parse."""
    return manifest_and_text(build)[0]


def manifest_and_text(build: Path) -> tuple[dict[str, Any], str]:
    """read_manifest's answer with the text it parsed ('' when it is empty): an incremental build
    copies the unchanged documents' lines of that text (kg.store.manifest_lines)."""
    try:
        text = (build / MANIFEST_FILE).read_text(encoding="utf-8")
        manifest = json.loads(text)
    except (OSError, ValueError):
        return {}, ""
    return (manifest, text) if isinstance(manifest, dict) else ({}, "")


def base_iri(build: Path | None) -> str | None:
    """The base IRI a build minted its IRIs under (None: no build, or one from before the setting)."""
    return _manifest_names(build)[0] if build else None


def corpus_of(build: Path | None) -> Path | None:
    """The corpus directory a build read (None: no build, or one from before it was recorded)."""
    corpus = _manifest_names(build)[1] if build else None
    return Path(corpus) if isinstance(corpus, str) else None


_names_read: dict[tuple[str, tuple[int, ...]], tuple[Any, Any]] = {}


def _manifest_names(build: Path) -> tuple[Any, Any]:
    """(base_iri, corpus) of a build's manifest, parsed once per manifest file: every view request
    asks for the base, and the manifest lists every document (2.8 MB at 10,000 articles, 37 ms to
    parse). A manifest rewritten or replaced has another status, and is read again."""
    path = Path(build) / MANIFEST_FILE
    try:
        status = os.stat(path)
    except OSError:
        return None, None
    key = (str(path), (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns))
    found = _names_read.get(key)
    if found is None:
        manifest = read_manifest(build)
        found = (manifest.get("base_iri"), manifest.get("corpus"))
        if len(_names_read) > 64:  # one entry per build a long-running server has seen
            _names_read.clear()
        _names_read[key] = found
    return found


def under_build_base(build: Path) -> ContextManager:
    """Mint and abbreviate under the base IRI `build` was made under, for the block (an unfinished
    build has no manifest yet: it is read under the base in force, its own)."""
    base = base_iri(build)
    return iris.using_base(base) if base else nullcontext()


def store_path(build: Path) -> Path:
    return build / STORE_DIR


def build_store(build: Path) -> EmbeddedStore:
    """The store of a build directory, read-only."""
    from kg.store.embedded import EmbeddedStore  # pyoxigraph only for those who read a store

    return EmbeddedStore(store_path(build), read_only=True)


def export_path(build: Path, fmt: str) -> Path:
    return build / EXPORT_FILES[fmt]


def sections_path(export: Path) -> Path:
    """Where the byte ranges of an export's sections are kept, beside it."""
    return export.with_name(export.name + SECTIONS_SUFFIX)


def read_sections(export: Path) -> dict[str, list[int]] | None:
    """The byte range [start, end) of each graph's section in `export`, or None without a readable
    index, or when the export or its index is damaged (kg.store.checksums): whoever reads sections
    of an export by this index gets them whole or reads the store instead."""
    index = sections_path(export)
    if not (checksums.intact(export) and checksums.intact(index)):
        return None
    try:
        return json.loads(index.read_text())
    except (OSError, ValueError):
        return None


def corpus_config_dir(build: Path) -> Path:
    """The corpus's configuration files as the build read them."""
    return build / CORPUS_CONFIG_DIR


def made_once(path: Path, make: Callable[[Path], object], deadline: float | None = None) -> Path:
    """`path`, made by `make(partial)` on the first call and renamed into place when complete, then
    kept: one maker at a time across threads and processes (an flock per open file). The file is
    sealed (kg.store.checksums) before it is renamed into place; one found damaged is removed and
    made again. A caller with a `deadline` (time.monotonic) waits for another maker until then, and
    gets BeingMade after."""
    if path.is_file() and checksums.intact(path):
        return path
    with open(path.with_name(f".{path.name}.lock"), "w") as lock:
        _lock(lock, path, deadline)
        if path.is_file():
            if checksums.intact(path):
                return path
            _drop_damaged(path)
        for stale in path.parent.glob(f".{path.name}.*.part"):  # left by a maker killed while holding the lock
            stale.unlink(missing_ok=True)
        partial = path.with_name(f".{path.name}.{os.getpid()}.part")
        try:
            make(partial)
            checksums.seal(partial, kept_as=path)
            os.replace(partial, path)
        except Exception as exc:
            if is_disk_full(exc):  # the client is not told where the server keeps its files
                raise DiskFull(f"no space left on the server's disk to make {path.name}") from exc
            raise
        finally:
            partial.unlink(missing_ok=True)
    return path


def _drop_damaged(path: Path) -> None:
    """Remove a kept file whose bytes no longer give its checksum, saying so on stderr (a reader
    holding it open keeps its bytes; the caller makes it again)."""
    print(f"warning: {path}: damaged on disk (its bytes no longer give the checksum kept in "
          f"{checksums.sidecar(path).name}); made again", file=sys.stderr)
    path.unlink(missing_ok=True)
    checksums.unseal(path)


_LOCK_POLL = 0.05  # seconds between two tries of a lock held by another maker


def _lock(handle: Any, path: Path, deadline: float | None) -> None:
    """An exclusive flock on `handle`, waited for until `deadline` (for good when None)."""
    if deadline is None:
        fcntl.flock(handle, fcntl.LOCK_EX)
        return
    while True:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BeingMade(f"{path.name} is being made by another request or process") from None
            time.sleep(min(_LOCK_POLL, left))


def cached_file(build: Path, name: str, make: Callable[[Path], object], deadline: float | None = None) -> Path:
    """data/cache/<build>/<name>, made once by `make(partial)` (see made_once). Making one removes
    the cache directories of builds that no longer exist."""
    cache = (Path(build).parent.parent / CACHE_DIR).absolute()  # callers may send it as a file
    cached = cache / Path(build).name / name
    if not cached.is_file():
        for other in cache.glob("*"):
            if other.name != Path(build).name and not (Path(build).parent / other.name).is_dir():
                shutil.rmtree(other, ignore_errors=True)
        cached.parent.mkdir(parents=True, exist_ok=True)
    return made_once(cached, make, deadline)


@contextmanager
def build_lock(data_dir: Path) -> Iterator[None]:
    """Hold LOCK_FILE, the lock of whatever publishes a build into `data_dir` (a build, a
    compaction), without waiting: BuildLockedError when another holds it."""
    with open(Path(data_dir) / LOCK_FILE, "w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            raise BuildLockedError(f"another build is running on {data_dir}") from exc
        yield


def new_build_dir(data_dir: Path) -> Path:
    """A fresh, empty directory for a build under data/builds/."""
    builds = Path(data_dir) / BUILDS_DIR
    builds.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime())
    for n in range(1000):
        path = builds / f"{stamp}-{os.getpid()}-{n}"
        try:
            path.mkdir()
            return path
        except FileExistsError:
            continue
    raise StoreError(f"could not create a build directory under {builds} (1000 names taken)")


def publish(data_dir: Path, build: Path) -> None:
    """Point `current` at `build` in one atomic rename, then drop old builds."""
    data_dir = Path(data_dir)
    tmp = data_dir / f".current-{os.getpid()}"
    if tmp.is_symlink() or tmp.exists():
        tmp.unlink()
    os.symlink(os.path.relpath(build, data_dir), tmp)
    os.replace(tmp, data_dir / CURRENT)
    _fsync_dir(data_dir)
    prune(data_dir)


def prune(data_dir: Path, keep: int = KEEP_BUILDS, wait: bool = False) -> None:
    """Remove builds other than the current one and the newest `keep`-1 finished before it, unless a
    server answers from them (kg.store.served), and any unfinished build left by a killed process.
    They are renamed away at once and deleted by a process of their own (`wait`: here and now).

    Builds are told apart by their resolved paths (a relative, absolute or linked `data_dir` names
    the same builds) and ordered by when they were finished (their manifest, written last and never
    again), not by their directory's time, which a server changes by writing an export into a build."""
    builds = (Path(data_dir) / BUILDS_DIR).resolve()
    current = current_build(data_dir)
    if not builds.is_dir() or current is None:
        return
    removing = builds.parent / REMOVING_DIR
    doomed = [p for p in builds.iterdir() if served.is_removing(p)]  # by a cleanup killed while deleting
    doomed += sorted(removing.iterdir()) if removing.is_dir() else []  # ... or a deleter killed midway
    others = {p: _finished_at(p) for p in builds.iterdir() if not p.name.startswith(".") and not _same_dir(p, current)}
    finished = sorted((p for p, at in others.items() if at is not None), key=lambda p: (others[p], p.name))
    stale = finished[: max(0, len(finished) - (keep - 1))]
    unfinished = [p for p, at in others.items() if at is None]
    for path in stale + [p for p in unfinished if _older_than(p, 3600) or not _owner_alive(p)]:
        removing.mkdir(exist_ok=True)
        away = served.retire_unless_served(path, removing / f"{path.name}.{os.getpid()}")
        if away is not None:
            doomed.append(away)
    delete_trees(doomed, wait)
    for link in Path(data_dir).glob(".current-*"):  # left by a build killed while swapping
        if link.is_symlink() and not _owner_alive(link):
            link.unlink(missing_ok=True)


def delete_trees(paths: list[Path], wait: bool = False) -> None:
    """Delete these directories, in a detached process of their own unless `wait` (or when none can
    be started): the process that asks does not wait for it, nor does any process of its group."""
    if not paths:
        return
    if not wait:
        try:
            subprocess.run(["sh", "-c", 'rm -rf -- "$@" &', "sh", *map(str, paths)], start_new_session=True,
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           check=True, timeout=30)
            return
        except (OSError, subprocess.SubprocessError):
            pass
    for path in paths:
        shutil.rmtree(path, ignore_errors=True)


def _finished_at(build: Path) -> int | None:
    """When a build was finished (its manifest's time, ns); None for an unfinished build."""
    try:
        return (build / MANIFEST_FILE).stat().st_mtime_ns
    except OSError:
        return None


def _same_dir(one: Path, other: Path) -> bool:
    """Whether two paths name the same directory, however each is spelled."""
    try:
        return os.path.samefile(one, other)
    except OSError:
        return False


def _owner_alive(build: Path) -> bool:
    try:
        pid = int(build.name.split("-")[1])
        os.kill(pid, 0)
        return True
    except (IndexError, ValueError, ProcessLookupError):
        return False
    except PermissionError:
        return True


def _older_than(path: Path, seconds: float) -> bool:
    return time.time() - path.stat().st_mtime > seconds


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
