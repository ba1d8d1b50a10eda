"""The client side of reading on a Dask cluster: one task per run of documents, submitted in slug
order a window at a time, each task's part read back from the shared file system as it is handed
on, so that a build on the cluster hands the rest of the build exactly what a build on one
machine does (kg.pipeline.reading.readers.read_all)."""

from __future__ import annotations

import pickle
import secrets
import shutil
import sys
from collections import deque
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Iterator

from kg.errors import ClusterError, KgError
from kg.pipeline.cluster import connect, tasks
from kg.store import build_dirs

if TYPE_CHECKING:
    from distributed import Client, Future

WINDOW_PER_THREAD = 4  # tasks submitted per worker thread and not yet handed on: bounds the parts on disk


class ClusterReader:
    """Reads runs of documents on the workers of `client`, their parts written under `parts`."""

    def __init__(self, client: Client, parts: Path, address: str) -> None:
        self.client = client
        self.parts = parts
        self.address = address
        self.threads = connect.threads(client)
        self._build = secrets.token_hex(4)  # task keys of this build, unlike those of another on the same scheduler

    def read_chunks(self, chunks: Iterable[list], shared: tuple) -> Iterator[tuple[list, dict, dict]]:
        """For each run of documents, in order: each document's (slug, N-Quads or None, problems),
        their summed evidence and their packed parts of the view, as readers._read_chunk gives them.
        `shared`: (vocabularies, aliases, base IRI, view classes), what every document is read against."""
        shared_file = self.parts / build_dirs.SHARED_INPUTS_FILE
        shared_file.write_bytes(pickle.dumps(shared, protocol=pickle.HIGHEST_PROTOCOL))
        pending: deque[tuple[Path, Future]] = deque()
        try:
            for index, chunk in enumerate(chunks):
                if len(pending) >= WINDOW_PER_THREAD * self.threads:
                    yield self._handed_on(*pending.popleft())
                part = self.parts / f"{index:07d}.nq"
                future = self._guard(lambda chunk=chunk, part=part: self.client.submit(
                    tasks.read_part, chunk, str(shared_file), str(part), key=f"kg-read-{self._build}-{part.stem}"))
                pending.append((part, future))
            while pending:
                yield self._handed_on(*pending.popleft())
        finally:
            if pending:
                self.client.cancel([future for _, future in pending])

    def _handed_on(self, part: Path, future: Future) -> tuple[list, dict, dict]:
        rows, evidence = self._guard(future.result)
        future.release()
        data = part.read_bytes()
        view = part.with_suffix(tasks.VIEW_SUFFIX)
        view_parts = pickle.loads(view.read_bytes())
        part.unlink()
        view.unlink()
        results = [(slug, data[span[0]:span[1]].decode() if span else None, problems) for slug, span, problems in rows]
        return results, evidence, view_parts

    def _guard(self, step):
        """`step()`, with the cluster's own failures (scheduler lost, a task's workers all killed)
        said as such; errors of the reading itself pass as they are."""
        try:
            return step()
        except KgError:
            raise
        except Exception as exc:  # noqa: BLE001 - distributed's errors have no common base
            if _from_dask(exc):
                raise ClusterError(f"the Dask cluster at {self.address} failed while reading: "
                                   f"{type(exc).__name__}: {exc}".rstrip(": ")) from exc
            raise


def _from_dask(exc: BaseException) -> bool:
    from concurrent.futures import CancelledError

    return isinstance(exc, (CancelledError, OSError, TimeoutError)) or type(exc).__module__.startswith("distributed")


@contextmanager
def reading_on(address: str, build_dir: Path, corpus_file: Path | None, progress: bool = False) \
        -> Iterator[ClusterReader]:
    """A reader on the cluster at `address` for a build writing `build_dir`, once every worker is
    seen to see `corpus_file` (a file of the corpus) and the build directory."""
    from kg.pipeline.inputs import code_fingerprint

    with connect.connected(address) as client:
        connect.check_workers(client, corpus_file, build_dir, code_fingerprint())
        if progress:
            print(connect.dashboard(client), file=sys.stderr, flush=True)
        parts = build_dir / build_dirs.PARTS_DIR
        parts.mkdir()
        try:
            yield ClusterReader(client, parts, address)
        finally:
            shutil.rmtree(parts, ignore_errors=True)
