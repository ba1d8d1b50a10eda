"""`GraphStore`: what kg, api and viz ask of a store, embedded or remote.

`kg.store.embedded.EmbeddedStore` (Oxigraph on disk) and `kg.store.remote.RemoteStore` (a
SPARQL 1.1 server over HTTP) both implement it, so that a command, `kg.open`, the endpoint and
the network view read a graph the same way wherever it lives. A store implements `query_into`
(the engine serializes into a stream) and `graphs`; `query` and `select` follow. Exports are
kg.publish.export's: a build's files, or a remote store's graphs read one by one.

Queries see the union of kg's named graphs as their default graph unless the caller names
default graphs.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from typing import IO, Any, Callable, Protocol, Self, Sequence

from kg.formats import rdf_syntaxes

SPARQL_JSON = rdf_syntaxes.SPARQL_JSON.media_type
TURTLE = rdf_syntaxes.TURTLE.media_type
Select = Callable[[str], list[dict[str, str]]]  # a store's select, or another way to the rows of a SELECT


@dataclass(frozen=True)
class Answer:
    """A serialized query answer: `kind` is 'solutions', 'boolean' or 'graph'."""

    kind: str
    body: bytes
    media_type: str


class GraphStore(Protocol):
    """A store of kg's named graphs, read with SPARQL and written graph by graph."""

    def query_into(
        self,
        output: IO[bytes],
        sparql: str,
        *,
        solutions_type: str = SPARQL_JSON,
        graph_type: str = TURTLE,
        default_graph_uris: Sequence[str] = (),
        named_graph_uris: Sequence[str] = (),
        prefixes: dict[str, str] | None = None,
        query_form: str | None = None,
    ) -> tuple[str, str]:
        """Serialize the answer into `output` while the engine evaluates; returns (kind, media type).
        `output.write` may raise to stop the evaluation early. `prefixes` are declared without
        adding lines, so error positions stay true. `query_form` (SELECT, ASK, CONSTRUCT,
        DESCRIBE), when the caller knows it, tells a remote store what to ask the server for."""
        ...

    def query(self, sparql: str, **options: Any) -> Answer:
        """The whole answer in memory; `options` are those of query_into."""
        output = io.BytesIO()
        kind, media_type = self.query_into(output, sparql, **options)
        return Answer(kind, output.getvalue(), media_type)

    def select(self, sparql: str) -> list[dict[str, str]]:
        """Rows of a small SELECT as {variable: lexical value}; unbound variables are absent."""
        return rows_of(self.query(sparql).body)

    def graphs(self) -> list[str]:
        """kg's named graphs in the store, sorted."""
        ...

    def replace_graph(self, graph: str, ntriples: bytes) -> None: ...

    def drop_graph(self, graph: str) -> None: ...

    def close(self) -> None: ...

    def __enter__(self) -> Self:
        """A store is a context manager: `with build_dirs.build_store(build) as store:` closes it after."""
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def rows_of(sparql_json: bytes) -> list[dict[str, str]]:
    """Parse SPARQL JSON results into {variable: lexical value} rows (small results only).

    An xsd:boolean comes back in its canonical form, "true" or "false": Virtuoso answers a stored
    boolean as "1" or "0", which XML Schema allows but every comparison with "true" misses. (It also
    types a computed boolean, isLiteral(?v) or ?a = ?b, as the integer 1 or 0, which no reader of the
    rows can tell from an integer; a caller that selects one compares with both spellings.)"""
    data = json.loads(sparql_json)
    if "boolean" in data:
        return [{"boolean": str(data["boolean"]).lower()}]
    return [{k: _lexical(v) for k, v in b.items()} for b in data["results"]["bindings"]]


_XSD_BOOLEAN = "http://www.w3.org/2001/XMLSchema#boolean"
_CANONICAL_BOOLEAN = {"1": "true", "0": "false"}


def _lexical(term: dict[str, str]) -> str:
    value = term["value"]
    if term.get("datatype") == _XSD_BOOLEAN:
        return _CANONICAL_BOOLEAN.get(value, value)
    return value
