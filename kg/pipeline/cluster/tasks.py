"""What runs on a Dask worker: reading a run of documents into an N-Quads part on the shared
file system, and telling the client what the worker sees.

Every task reads against the same inputs (configurations, alias table, base IRI), written once
by the client beside the parts; a worker loads that file once and keeps it for the build's
next tasks. A task writes its part under a temporary name and renames it, so a task run again
(its worker was killed) replaces a whole part with the same bytes, never half of one.
"""

from __future__ import annotations

import os
import pickle
import socket
from pathlib import Path

from kg.formats.corpus import DocumentFiles
from kg.model.entities.evidence import Evidence
from kg.pipeline.reading import readers

VIEW_SUFFIX = ".view"
_LOADED: dict[str, tuple] = {}  # the shared inputs this worker read last, by path

# One document's result as it comes back from a task: slug, its bytes in the part (None: not read,
# see the problems), problems as readers._error_args gives them.
Row = tuple[str, tuple[int, int] | None, list]


def read_part(jobs: list[tuple[DocumentFiles, Path, bool]], shared_file: str, part_file: str) \
        -> tuple[list[Row], Evidence]:
    """Read a run of documents as a build on one machine does (kg.pipeline.reading.readers) and write their
    N-Quads to `part_file`, their parts of the network view beside it; return where each
    document's N-Quads lie in the part, and the evidence summed over the documents read."""
    readers._SHARED.update(_shared(shared_file))
    results, evidence, view_parts = readers._read_chunk(jobs)
    rows: list[Row] = []
    chunks: list[bytes] = []
    offset = 0
    for slug, nquads, problems in results:
        span = None
        if nquads is not None:
            data = nquads.encode()
            chunks.append(data)
            span = (offset, offset + len(data))
            offset += len(data)
        rows.append((slug, span, problems))
    part = Path(part_file)
    _write_whole(part, b"".join(chunks))
    _write_whole(part.with_suffix(VIEW_SUFFIX), pickle.dumps(view_parts, protocol=pickle.HIGHEST_PROTOCOL))
    return rows, evidence


def _shared(shared_file: str) -> dict:
    if shared_file not in _LOADED:
        _LOADED.clear()  # a new build: the previous one's inputs are not needed again
        with open(shared_file, "rb") as handle:
            vocabularies, aliases, base, view_classes = pickle.load(handle)
        _LOADED[shared_file] = {"vocabularies": vocabularies, "aliases": aliases, "base": base,
                                "view_classes": view_classes}
    return _LOADED[shared_file]


def _write_whole(path: Path, data: bytes) -> None:
    temporary = path.with_name(f".{path.name}.{socket.gethostname()}.{os.getpid()}.tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)


def sees(corpus_file: str, corpus_size: int, probe_file: str, token: str, code: str, base: str) -> list[str]:
    """What this worker does not see of what the build needs (empty: it sees everything): a file
    of the corpus at its path and size (none given: a corpus with no document), a file the client wrote into the build directory, the
    right to write there, and the same kg code as the client."""
    from kg.model import iris
    from kg.pipeline.inputs import code_fingerprint

    missing = []
    try:
        if corpus_file and os.stat(corpus_file).st_size != corpus_size:
            missing.append(f"the corpus: {corpus_file} has another size there")
    except OSError as exc:
        missing.append(f"the corpus: {corpus_file}: {exc.strerror}")
    try:
        if Path(probe_file).read_text() != token:
            missing.append(f"the data directory: {probe_file} holds something else there")
        written = Path(probe_file).with_name(f".{Path(probe_file).name}.{socket.gethostname()}.{os.getpid()}")
        written.write_text(token)
        written.unlink()
    except OSError as exc:
        missing.append(f"the data directory: {exc.filename}: {exc.strerror}")
    with iris.using_base(base):
        same_code = code == code_fingerprint()
    if not same_code:
        missing.append("kg's code: the worker runs another version of kg (install the same on every worker)")
    return missing
