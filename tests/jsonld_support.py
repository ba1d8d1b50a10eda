"""What the JSON-LD tests share: reading a JSON-LD document back, and walking its node objects."""

from __future__ import annotations

import json
from typing import Any, Callable

import rdflib
from rdflib.compare import isomorphic

JSONLD = {"Accept": "application/ld+json"}
TURTLE = {"Accept": "text/turtle"}


def graph_of(body: bytes | str, fmt: str) -> rdflib.Graph:
    """A document parsed by rdflib (not by the code under test)."""
    return rdflib.Graph().parse(data=body, format=fmt)


def node_objects(node: Any) -> list[dict[str, Any]]:
    """Every node object (an @id with something said of it) nested anywhere in `node`."""
    found: list[dict[str, Any]] = []
    if isinstance(node, dict):
        if "@id" in node and len(node) > 1:
            found.append(node)
        for key, inner in node.items():
            if key != "@context":
                found += node_objects(inner)
    elif isinstance(node, list):
        for inner in node:
            found += node_objects(inner)
    return found


def keys_of(node: Any) -> set[str]:
    """Every key used anywhere in a JSON-LD document, but inside its @context."""
    if isinstance(node, list):
        return {k for inner in node for k in keys_of(inner)}
    if not isinstance(node, dict):
        return set()
    return {k for key, inner in node.items() if key != "@context" for k in (key, *keys_of(inner))}


def expand(compact: str, context: dict[str, Any]) -> str:
    """A compact IRI written in full with the context's prefixes."""
    prefix, _, rest = compact.partition(":")
    return context[prefix] + rest if isinstance(context.get(prefix), str) else compact


def assert_same_as_turtle(get: Callable[[str, dict[str, str]], bytes], path: str) -> dict[str, Any]:
    """The JSON-LD answer at `path`, checked against the Turtle answer: the same graph (rdflib's
    isomorphism), the IRI of the path as the top object, each node written once, every key compact
    where the context can make it so."""
    turtle, framed = get(path, TURTLE), get(path, JSONLD)
    document = json.loads(framed)
    assert isomorphic(graph_of(framed, "json-ld"), graph_of(turtle, "turtle")), path
    assert expand(document["@id"], document["@context"]).endswith(path.lstrip("/"))
    ids = [n["@id"] for n in node_objects(document)]
    assert len(ids) == len(set(ids)), "a node written twice"
    namespaces = tuple(v for v in document["@context"].values() if isinstance(v, str))
    assert not [k for k in keys_of(document) if k.startswith(namespaces)]
    return document
