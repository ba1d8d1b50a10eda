"""Many graphs in one request: SPARQL 1.1 Update batches of graph replacements.

A push replaces thousands of named graphs. One Graph Store Protocol PUT per
graph costs a round trip and a commit each; an engine whose profile has
`batching` (kg.store.remote.engines) takes many graphs per request instead:

    CLEAR SILENT GRAPH <g1> ;
    CLEAR SILENT GRAPH <g2> ;
    INSERT DATA {
    GRAPH <g1> { ...at most `block_triples` triples... }
    GRAPH <g1> { ...the rest of g1... }
    GRAPH <g2> { ... }
    }

which is what a PUT of each graph does, in order, in one request of at most
`max_bytes` bytes and `max_graphs` graphs. Requests hold whole graphs, and a
request may be sent again as it is (it clears what it then fills). A graph
goes alone by PUT, as on engines without batching, when

- it may hold a blank node: INSERT DATA scopes blank-node labels to the whole
  request, so two graphs' `_:b1` would become one node (and Virtuoso 7 refuses
  blank nodes in INSERT DATA altogether); a PUT scopes them to its graph;
- its request alone would exceed `max_bytes`.

The graphs' text is N-Triples as Oxigraph or kg.model.nquads write it: one
triple a line, IRIs without escapes, literals with `\\"`, `\\\\`, `\\n`, `\\r`
escaped, which is SPARQL's syntax too. A NUL character, allowed raw in
N-Triples, is sent as `\\u0000` (Virtuoso's SPARQL parser stops at a raw one).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator

Graph = tuple[str, bytes]  # (graph IRI, its triples as N-Triples)


@dataclass(frozen=True)
class Batching:
    """How an engine takes many graphs in one SPARQL Update request."""

    max_bytes: int  # of a request's text
    max_graphs: int = 100  # graphs in one request
    block_triples: int = 0  # triples in one GRAPH block of INSERT DATA (0: no bound)


@dataclass(frozen=True)
class Batch:
    """Graphs sent in one request: `update` is the SPARQL Update text, or empty for one graph sent by PUT."""

    graphs: tuple[str, ...]
    update: bytes = b""
    ntriples: bytes = b""  # the one graph of a PUT


def batches(graphs: Iterable[Graph], batching: Batching | None) -> Iterator[Batch]:
    """The requests replacing `graphs`, each graph in exactly one (those sent alone as soon as read)."""
    if batching is None:
        yield from (Batch((name, ), ntriples=body) for name, body in graphs)
        return
    group: list[tuple[str, bytes]] = []
    size = 0
    for name, body in graphs:
        if b"_:" in body:  # maybe a blank node (or the text in a literal): its own scope
            yield Batch((name, ), ntriples=body)
            continue
        part = _blocks(name, body, batching.block_triples)
        cost = len(part) + len(name.encode()) + _CLEAR_COST
        if cost + _ENVELOPE > batching.max_bytes:
            yield Batch((name, ), ntriples=body)
            continue
        if group and (size + cost + _ENVELOPE > batching.max_bytes or len(group) >= batching.max_graphs):
            yield _update(group)
            group, size = [], 0
        group.append((name, part))
        size += cost
    if group:
        yield _update(group)


_CLEAR = b"CLEAR SILENT GRAPH <%s> ;\n"
_CLEAR_COST = len(_CLEAR) - 2
_OPEN, _CLOSE = b"INSERT DATA {\n", b"}\n"
_ENVELOPE = len(_OPEN) + len(_CLOSE)


def _update(group: list[tuple[str, bytes]]) -> Batch:
    clears = b"".join(_CLEAR % name.encode() for name, _ in group)
    return Batch(tuple(name for name, _ in group), clears + _OPEN + b"".join(part for _, part in group) + _CLOSE)


def _blocks(name: str, body: bytes, block_triples: int) -> bytes:
    """The GRAPH blocks of INSERT DATA holding `body`, at most `block_triples` triples each."""
    if b"\x00" in body:
        body = body.replace(b"\x00", b"\\u0000")
    head = b"GRAPH <%s> {\n" % name.encode()
    if not body.endswith(b"\n"):
        body += b"\n"
    if not block_triples or body.count(b"\n") <= block_triples:
        return head + body + b"}\n"
    lines = body.split(b"\n")[:-1]
    return b"".join(head + b"\n".join(lines[i:i + block_triples]) + b"\n}\n"
                    for i in range(0, len(lines), block_triples))
