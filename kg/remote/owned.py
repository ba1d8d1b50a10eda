"""Which graphs of a shared store are kg's: a manifest graph kept in the store itself.

A SPARQL server often holds more than kg's graphs (other projects' data,
Virtuoso's own system graphs). kg records the graphs it wrote in one named
graph, `MANIFEST_GRAPH`, with the build they hold:

    GRAPH kgg:kg-manifest {
      kgg:kg-manifest dcterms:hasPart kgg:npr-defectors, kgg:entities, ... ;
                      dcterms:identifier "20261123T092000-123-0" .   # the build held, once complete
    }

kg reads, replaces and drops only the graphs listed there; the union default
graph of queries is made of them; the manifest itself is left out of it.

On a server that keeps empty named graphs and whose fast union default graph
takes every graph (Oxigraph), the same facts are written as the names of
empty graphs instead, which add no triple to any union:

    <kgg:kg-manifest/part/<graph IRI, percent-encoded>>   one per graph of kg's
    <kgg:kg-manifest/build/<build>>                        the build held, once complete
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable
from urllib.parse import quote, unquote

from kg.iris import DEFAULT_BASE

MANIFEST_GRAPH = DEFAULT_BASE + "graph/kg-manifest"  # fixed: kg's bookkeeping in a remote store, whatever the base
HAS_PART = "http://purl.org/dc/terms/hasPart"
IDENTIFIER = "http://purl.org/dc/terms/identifier"
MARKER = MANIFEST_GRAPH + "/"
_PART, _BUILD = MARKER + "part/", MARKER + "build/"
LIST_GRAPHS = "SELECT DISTINCT ?g WHERE { GRAPH ?g {} }"
READ_QUERY = (f"SELECT ?p ?o WHERE {{ GRAPH <{MANIFEST_GRAPH}> {{ <{MANIFEST_GRAPH}> ?p ?o "
              f"FILTER(?p IN (<{HAS_PART}>, <{IDENTIFIER}>)) }} }}")


@dataclass(frozen=True)
class Manifest:
    """kg's graphs in a store, and the build they hold ('' while a push is under way)."""

    graphs: frozenset[str] = frozenset()
    build: str = ""

    @classmethod
    def from_rows(cls, rows: list[dict[str, str]]) -> "Manifest":
        graphs = frozenset(r["o"] for r in rows if r.get("p") == HAS_PART and r.get("o"))
        builds = sorted(r["o"] for r in rows if r.get("p") == IDENTIFIER and r.get("o"))
        return cls(graphs, builds[0] if builds else "")

    @classmethod
    def from_graph_names(cls, names: Iterable[str]) -> "Manifest":
        """From the names of the store's graphs: the manifest's empty marker graphs among them."""
        names = list(names)
        graphs = frozenset(unquote(n[len(_PART):]) for n in names if n.startswith(_PART))
        builds = sorted(unquote(n[len(_BUILD):]) for n in names if n.startswith(_BUILD))
        return cls(graphs, builds[0] if builds else "")

    def marker_graphs(self) -> set[str]:
        """The names of the empty graphs that record this manifest."""
        markers = {_PART + quote(g, safe="") for g in self.graphs}
        return markers | ({_BUILD + quote(self.build, safe="")} if self.build else set())

    def ntriples(self) -> bytes:
        subject = f"<{MANIFEST_GRAPH}>"
        lines = [f"{subject} <{HAS_PART}> <{g}> .\n" for g in sorted(self.graphs)]
        if self.build:
            lines.append(f'{subject} <{IDENTIFIER}> "{_escape(self.build)}" .\n')
        return "".join(lines).encode()


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
