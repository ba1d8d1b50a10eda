"""A corpus watcher's answer to a build: the corpus's stamp, and what changed, without a stat.

`kg serve --watch` keeps a `CorpusWatch` (kg.formats.corpus_watch) over the corpus and offers it
on a Unix socket in the data directory (kg.store.build_dirs.WATCH_SOCKET). A build (the watcher's
own, or `kg build` run by hand) asks it first: the watcher takes every event the kernel queued,
then answers with a stamp of the corpus as it is now and, when the build names the stamp the
current build is up to date with, the paths changed since. Equal stamps: nothing to do, told
without statting 300,000 files. Known changes: the build re-reads those paths alone
(kg.pipeline.plan.plan_from_changes).

A stamp is the `find` stamp (kg.formats.corpus_stamp) the watcher took once its watches were set,
followed by its session and the number of changes seen since: before any change it equals the
stamp a build without a watcher takes, so either kind of build recognises the other's. No answer
(no watcher, one on another corpus, a socket path too long, a dead watcher): the build takes the
`find` stamp and scans, as without a watcher.
"""

from __future__ import annotations

import json
import os
import socket
import threading
import uuid
from dataclasses import dataclass
from pathlib import Path

from kg.formats.corpus_stamp import corpus_stamp
from kg.formats.corpus_watch import CorpusWatch
from kg.store import build_dirs

ASK_TIMEOUT = 2.0  # seconds a build waits for the watcher's answer before it stamps the corpus itself
MAX_SOCKET_PATH = 107  # bytes of a Unix socket's path (sun_path, less its NUL)


@dataclass
class Told:
    """A watcher's answer: the corpus's stamp now, and the paths changed since the stamp asked about
    (None: not known, the build scans)."""

    stamp: str
    changed: list[str] | None


class WatchService:
    """Answers builds on the data directory's socket from a corpus watch; `lock` guards `watch`,
    which the serving thread reads too."""

    def __init__(self, watch: CorpusWatch, data_dir: Path, lock: threading.Lock) -> None:
        self.watch, self.lock = watch, lock
        self.corpus = os.path.realpath(watch.corpus_dir)
        self.session = uuid.uuid4().hex[:12]
        self.base = corpus_stamp(watch.corpus_dir) or f"watch-{self.session}"  # the corpus as the watches found it
        self.path = Path(data_dir) / build_dirs.WATCH_SOCKET
        self._socket: socket.socket | None = None
        self._thread = threading.Thread(target=self._serve, name="kg-watch-answers", daemon=True)

    def stamp(self, seq: int) -> str:
        return self.base if seq == 0 else f"{self.base}+{self.session}:{seq}"

    def answer(self, corpus: str, since: str | None) -> Told | None:
        """What a build on `corpus` is told, `since` being the stamp its current build is up to date with."""
        if corpus != self.corpus:
            return None
        with self.lock:
            self.watch.drain()
            seq = self.watch.seq
            known = self._seq_of(since)
            changed = None if known is None else self.watch.changes_since(known)
        return Told(self.stamp(seq), changed)

    def _seq_of(self, stamp: str | None) -> int | None:
        if stamp == self.base:
            return 0
        prefix = f"{self.base}+{self.session}:"
        if stamp and stamp.startswith(prefix) and stamp[len(prefix):].isdigit():
            return int(stamp[len(prefix):])
        return None

    def start(self) -> bool:
        """Listen on the data directory's socket; False when it cannot (a path too long for a
        socket, a data directory not writable): builds then stamp the corpus themselves."""
        if len(os.fsencode(self.path)) > MAX_SOCKET_PATH:
            return False
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self.path.unlink(missing_ok=True)  # a dead watcher's (the caller holds the watch lock)
            listener.bind(os.fspath(self.path))
            listener.listen(8)
        except OSError:
            listener.close()
            return False
        self._socket = listener
        self._thread.start()
        return True

    def stop(self) -> None:
        listener, self._socket = self._socket, None
        if listener is not None:
            listener.close()
            self.path.unlink(missing_ok=True)

    def _serve(self) -> None:
        while self._socket is not None:
            try:
                connection, _ = self._socket.accept()
            except OSError:  # closed by stop()
                return
            with connection:
                connection.settimeout(ASK_TIMEOUT)
                try:
                    self._reply(connection)
                except (OSError, ValueError):  # a client that went away or sent nonsense: it scans
                    pass

    def _reply(self, connection: socket.socket) -> None:
        request = json.loads(_read_line(connection))
        told = self.answer(str(request.get("corpus")), request.get("since"))
        reply = {"stamp": None} if told is None else {"stamp": told.stamp, "changed": told.changed}
        connection.sendall(json.dumps(reply).encode() + b"\n")


def ask_watcher(data_dir: Path, corpus_dir: Path, since: str | None) -> Told | None:
    """The watcher's answer for a build of `corpus_dir` into `data_dir`, or None when no watcher
    answers for that corpus (the build stamps the corpus itself)."""
    path = Path(data_dir) / build_dirs.WATCH_SOCKET
    if len(os.fsencode(path)) > MAX_SOCKET_PATH or not path.is_socket():
        return None
    request = {"corpus": os.path.realpath(corpus_dir), "since": since}
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
            connection.settimeout(ASK_TIMEOUT)
            connection.connect(os.fspath(path))
            connection.sendall(json.dumps(request).encode() + b"\n")
            reply = json.loads(_read_line(connection))
    except (OSError, ValueError):
        return None
    stamp, changed = reply.get("stamp"), reply.get("changed")
    if not isinstance(stamp, str) or not (changed is None or isinstance(changed, list)):
        return None
    return Told(stamp, changed)


def _read_line(connection: socket.socket, limit: int = 64 * 2**20) -> bytes:
    """One newline-ended message (the changes of a large copy run to megabytes)."""
    chunks, size = [], 0
    while True:
        chunk = connection.recv(65536)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
        if chunk.endswith(b"\n") or size > limit:
            break
    return b"".join(chunks)
