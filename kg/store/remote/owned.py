"""Which graphs of a shared store are kg's: a manifest graph kept in the store itself.

A SPARQL server often holds more than kg's graphs (other projects' data,
Virtuoso's own system graphs). kg records the graphs it wrote in one named
graph, `manifest_graph(base)` (<base>graph/kg-manifest, under the base IRI of
the graph like every IRI kg mints), with the build they hold:

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

Graphs built under two base IRIs are two datasets with a manifest each: a store
can hold both, and a build under a new base does not touch what the old one wrote.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable
from urllib.parse import quote, unquote

from kg.model import iris

HAS_PART = "http://purl.org/dc/terms/hasPart"
IDENTIFIER = "http://purl.org/dc/terms/identifier"
LIST_GRAPHS = "SELECT DISTINCT ?g WHERE { GRAPH ?g {} }"


def manifest_graph(base: str) -> str:
    """The manifest graph of the graphs built under `base`."""
    return iris.namespaces(base).graph + "kg-manifest"


def read_query(graph: str) -> str:
    """The SELECT that reads the manifest graph `graph`."""
    return (f"SELECT ?p ?o WHERE {{ GRAPH <{graph}> {{ <{graph}> ?p ?o "
            f"FILTER(?p IN (<{HAS_PART}>, <{IDENTIFIER}>)) }} }}")


def _markers(graph: str) -> tuple[str, str]:
    """The prefixes of the names of the empty graphs recording the manifest `graph`."""
    return graph + "/part/", graph + "/build/"


@dataclass(frozen=True)
class Manifest:
    """kg's graphs in a store, and the build they hold ('' while a push is under way)."""

    graphs: frozenset[str] = frozenset()
    build: str = ""

    @classmethod
    def from_rows(cls, rows: list[dict[str, str]]) -> Manifest:
        graphs = frozenset(r["o"] for r in rows if r.get("p") == HAS_PART and r.get("o"))
        builds = sorted(r["o"] for r in rows if r.get("p") == IDENTIFIER and r.get("o"))
        return cls(graphs, builds[0] if builds else "")

    @classmethod
    def from_graph_names(cls, names: Iterable[str], graph: str) -> Manifest:
        """From the names of the store's graphs: the empty marker graphs of the manifest `graph` among them."""
        names = list(names)
        part, build = _markers(graph)
        graphs = frozenset(unquote(n[len(part):]) for n in names if n.startswith(part))
        builds = sorted(unquote(n[len(build):]) for n in names if n.startswith(build))
        return cls(graphs, builds[0] if builds else "")

    def marker_graphs(self, graph: str) -> set[str]:
        """The names of the empty graphs that record this manifest as the manifest `graph`."""
        part, build = _markers(graph)
        markers = {part + quote(g, safe="") for g in self.graphs}
        return markers | ({build + quote(self.build, safe="")} if self.build else set())

    def ntriples(self, graph: str) -> bytes:
        """This manifest as the triples of the manifest graph `graph`."""
        subject = f"<{graph}>"
        lines = [f"{subject} <{HAS_PART}> <{g}> .\n" for g in sorted(self.graphs)]
        if self.build:
            lines.append(f'{subject} <{IDENTIFIER}> "{_escape(self.build)}" .\n')
        return "".join(lines).encode()


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
