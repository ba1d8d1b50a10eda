"""Helpers shared by the tests: run the CLI, read a build's quads, compare graphs."""

from __future__ import annotations

import hashlib
from pathlib import Path

from typing import Iterable

import pyoxigraph as ox
import rdflib
from click.testing import CliRunner, Result
from rdflib.compare import to_canonical_graph

from kg import layout
from kg.cli import main
from kg.terms import from_oxigraph

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"
TINY = Path(__file__).resolve().parent / "data" / "tiny"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
BROWSER_TIMEOUT_MS = 20_000

# The statistics of tests/data/tiny (kg stats, /api/stats), counted by hand from tests/data/tiny: alpha.ann has 11 text spans, beta.ann 6 (17 mentions);
# alpha states R1-R3, the Membership E1 (memberOf, hasRole, member, role, organization) and the
# Flight E2 (agent, destination, time), beta R1-R2 (13 statements); the unnamed "Officials" get no
# record, Cúcuta and Cucuta are one place, alpha.json names the publisher (9 entity records).
TINY_STATS = {
    "counts": {"graphs": 4, "documents": 2, "entities": 9, "mentions": 17, "statements": 13, "events": 1,
               "figures": 2, "quotes": 1},
    "entityTypes": {"Organization": 3, "Person": 2, "Place": 2, "City": 1, "Country": 1, "Date": 1,
                    "IntergovernmentalOrganization": 1, "MediaOrganization": 1, "MilitaryUnit": 1, "Role": 1},
    "eventTypes": {"Flight": 1},
    "relations": {"memberOf": 2, "reportedBy": 2, "agent": 1, "asOf": 1, "destination": 1, "hasRole": 1,
                  "member": 1, "organization": 1, "role": 1, "saidBy": 1, "time": 1},
}


def run_kg(*args: str) -> Result:
    """Run `kg ARGS` in-process; the result has exit_code, stdout and stderr."""
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def store_quads(data_dir: Path, *, skip_ontology: bool = False) -> set[ox.Quad]:
    """Every quad of the current build's store."""
    build = layout.current_build(data_dir)
    store = ox.Store.read_only(str(layout.store_path(build)))
    quads = set(store)
    if skip_ontology:
        quads = {q for q in quads if not str(q.graph_name.value).endswith("/graph/ontology")}
    return quads


def assert_same_quads(actual: Iterable, expected: Iterable, what: str = "graphs") -> None:
    """Graph equality: isomorphism (rdflib.compare, graph by graph) when either side holds a blank
    node, else set equality, which is then the same and much faster. Quads or triples, of
    Oxigraph's or rdflib's terms. The difference is shown on failure."""
    actual, expected = set(actual), set(expected)
    if _has_blank_node(actual) or _has_blank_node(expected):
        actual, expected = _canonical(actual), _canonical(expected)
    missing, extra = expected - actual, actual - expected
    if missing or extra:
        lines = [f"{what} differ: {len(missing)} missing, {len(extra)} unexpected"]
        lines += [f"- {q}" for q in sorted(map(str, missing))[:15]]
        lines += [f"+ {q}" for q in sorted(map(str, extra))[:15]]
        raise AssertionError("\n".join(lines))


def _has_blank_node(quads: set) -> bool:
    return any(isinstance(term, (ox.BlankNode, rdflib.BNode)) for quad in quads for term in quad)


def _canonical(quads: set) -> set[tuple]:
    """(graph, s, p, o) with blank nodes given canonical labels within their graph (rdflib.compare),
    so that two isomorphic datasets give the same set."""
    graphs: dict = {}
    for quad in quads:
        terms = [from_oxigraph(t) if isinstance(t, (ox.NamedNode, ox.BlankNode, ox.Literal, ox.DefaultGraph)) else t
                 for t in quad]
        name = terms[3] if len(terms) == 4 else None
        graphs.setdefault(name, rdflib.Graph()).add(tuple(terms[:3]))
    return {(name, *triple) for name, graph in graphs.items() for triple in to_canonical_graph(graph)}


def tree_digest(directory: Path) -> dict[str, str]:
    """SHA-256 of every file under a directory, to prove a build left it untouched."""
    return {str(p.relative_to(directory)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(directory.rglob("*")) if p.is_file()}
