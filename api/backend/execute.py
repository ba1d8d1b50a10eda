"""Run one query against a GraphStore with the endpoint's row cap.

The engine serializes; Python never loops over rows. To cap a result
without a loop, SELECT answers are asked for as TSV and CONSTRUCT/DESCRIBE
answers as N-Triples: in both formats one line is exactly one row or one
triple (newlines inside literals are escaped), so counting newlines in each
chunk the engine writes is exact. Once more than `cap` rows have been
written, the writer raises, which stops the engine's evaluation there; the
output is cut after the `cap`-th row and the answer is flagged truncated.
When the client asked for another format, the engine converts the capped
TSV / N-Triples (Oxigraph parses and re-serializes; still no Python loop).

A SELECT whose own outermost LIMIT is within the cap cannot be truncated,
so it is serialized directly in the requested format; so is every ASK. A
SELECT with no outermost LIMIT (`open_ended`) is sent with `LIMIT cap + 1`
appended, so that an engine which computes a whole answer before sending it
(Virtuoso) stops at the cap too; should the engine refuse the appended text,
the query is sent as it was, so that its error is the client's own.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Mapping, Sequence

import pyoxigraph as ox

from kg.errors import AnswerTooLarge, QueryError, QueryTimeout
from kg.formats import rdf_syntaxes
from kg.store.protocol import GraphStore

TSV = rdf_syntaxes.TSV.media_type
NTRIPLES = rdf_syntaxes.NTRIPLES.media_type


@dataclass(frozen=True)
class Result:
    """A serialized answer as the endpoint sends it."""

    kind: str  # 'solutions', 'boolean' or 'graph'
    body: bytes
    media_type: str
    truncated: bool = False


@dataclass(frozen=True)
class Request:
    """What to run and how the client wants it (picklable: it crosses to workers)."""

    sparql: str
    form: str | None  # from the lexer: SELECT, ASK, CONSTRUCT, DESCRIBE
    solutions_type: str
    graph_type: str
    cap: int  # 0: no cap
    max_bytes: int = 0  # most bytes an answer may take (before conversion); 0: no cap
    top_limit: int | None = None
    open_ended: bool = False  # from the lexer: a LIMIT may be appended
    default_graphs: Sequence[str] = ()
    named_graphs: Sequence[str] = ()
    prefixes: Mapping[str, str] | None = None  # for Turtle and RDF/XML answers: those of the build's base


class _Enough(Exception):
    """Raised from the writer to stop the engine once the cap is passed."""


class CappedBuffer:
    """A binary sink that stops the writer after `max_lines` newlines, past
    `max_bytes` bytes (AnswerTooLarge) and past an optional deadline."""

    def __init__(self, max_lines: int | None, deadline: float | None = None, max_bytes: int = 0) -> None:
        self.chunks: list[bytes] = []
        self.lines = 0
        self.size = 0
        self.max_lines = max_lines
        self.max_bytes = max_bytes
        self.deadline = deadline

    def write(self, data) -> int:
        chunk = bytes(data)
        self.size += len(chunk)
        if self.max_bytes and self.size > self.max_bytes:
            raise AnswerTooLarge(self.max_bytes)
        self.chunks.append(chunk)
        self.lines += chunk.count(b"\n")
        if self.max_lines is not None and self.lines > self.max_lines:
            raise _Enough
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise QueryTimeout
        return len(chunk)

    def flush(self) -> None:
        pass

    def getvalue(self) -> bytes:
        return b"".join(self.chunks)

    def head(self, lines: int) -> bytes:
        """The first `lines` complete lines (a loop over chunks, not rows)."""
        kept: list[bytes] = []
        seen = 0
        for chunk in self.chunks:
            count = chunk.count(b"\n")
            if seen + count < lines:
                kept.append(chunk)
                seen += count
                continue
            rest = chunk.split(b"\n", lines - seen)[-1]
            kept.append(chunk[: len(chunk) - len(rest)])
            break
        return b"".join(kept)


def run(store: GraphStore, request: Request, deadline: float | None = None) -> Result:
    """Evaluate `request` on `store`, capped and serialized as asked."""
    if request.form == "ASK" or request.cap <= 0 or _within_cap(request):
        return _direct(store, request, deadline)
    return _capped(store, request, deadline)


def _within_cap(request: Request) -> bool:
    return request.form == "SELECT" and request.top_limit is not None and request.top_limit <= request.cap


def _direct(store: GraphStore, request: Request, deadline: float | None) -> Result:
    sink = CappedBuffer(None, deadline, request.max_bytes)
    kind, media_type = store.query_into(
        sink, request.sparql, solutions_type=request.solutions_type, graph_type=request.graph_type,
        default_graph_uris=request.default_graphs, named_graph_uris=request.named_graphs, query_form=request.form)
    return Result(kind, sink.getvalue(), media_type)


def _capped(store: GraphStore, request: Request, deadline: float | None) -> Result:
    # TSV has a header line; N-Triples has none. Which one comes back is only
    # known afterwards, so allow cap + 1 lines and check again for triples.
    sink = CappedBuffer(request.cap + 1, deadline, request.max_bytes)
    truncated = False
    try:
        kind = _capped_query(store, request, sink)
    except _Enough:
        truncated = True
        kind = "solutions" if request.form == "SELECT" else "graph"
    if kind == "graph":
        return _graph_result(sink, request, truncated)
    if kind == "boolean":
        value = sink.getvalue().strip()
        return Result(kind, rdf_syntaxes.results_format(request.solutions_type).boolean % value, request.solutions_type)
    body = sink.head(request.cap + 1) if truncated else sink.getvalue()
    return Result(kind, _convert_solutions(body, request.solutions_type), request.solutions_type, truncated)


def _capped_query(store: GraphStore, request: Request, sink: CappedBuffer) -> str:
    def send(sparql: str) -> str:
        return store.query_into(sink, sparql, solutions_type=TSV, graph_type=NTRIPLES, query_form=request.form,
                                default_graph_uris=request.default_graphs, named_graph_uris=request.named_graphs)[0]

    if not request.open_ended:
        return send(request.sparql)
    try:
        return send(f"{request.sparql}\nLIMIT {request.cap + 1}")
    except QueryError:
        return send(request.sparql)


def _graph_result(sink: CappedBuffer, request: Request, truncated: bool) -> Result:
    truncated = truncated or sink.lines > request.cap
    body = sink.head(request.cap) if truncated else sink.getvalue()
    return Result("graph", _convert_triples(body, request.graph_type, request.prefixes), request.graph_type, truncated)


def _convert_solutions(tsv: bytes, media_type: str) -> bytes:
    if media_type == TSV:
        return tsv
    parsed = ox.parse_query_results(tsv, rdf_syntaxes.TSV.oxigraph)
    return parsed.serialize(format=rdf_syntaxes.results_format(media_type).oxigraph)


def _convert_triples(ntriples: bytes, media_type: str, prefixes: Mapping[str, str] | None) -> bytes:
    if media_type == NTRIPLES:
        return ntriples
    return rdf_syntaxes.convert(ntriples, rdf_syntaxes.NTRIPLES, rdf_syntaxes.rdf_format(media_type), prefixes)
