"""JSON-LD people can use: one published @context, compact terms, native numbers, one object per node.

The context (`context()`) names every class and property of ontology.ttl by its local name
(`Person`, `memberOf`, `prefLabel`, `anchorOf`...), declares the prefixes of the base IRI in
force (kg.model.iris) and types the properties whose values are IRIs (`"@type": "@id"`), decimals or
dates; integers and booleans are JSON numbers and booleans. kg/publish/context.jsonld is the context
under the default base, shipped with the package.

`nodes()` writes the triples of one graph as node objects (one per subject, its values grouped
by property); `frame()` nests the nodes reachable from one root under it, and the nodes that
point at it under `@reverse`, for a page about one entity. Every value that the context does
not type the way it needs is written as an explicit value object, so that reading the JSON-LD
back always gives the same RDF.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib.resources import files
from typing import Any, Iterable, Mapping

import pyoxigraph as ox

from kg.model import iris
from kg.model.iris import FIXED_PREFIXES, RDF_TYPE

XSD = FIXED_PREFIXES["xsd"]
CONTEXT_FILE = "context.jsonld"
# terms the context types because their values are IRIs, beyond the ontology's object properties
IRI_VALUED = ("rdf:subject", "rdf:predicate", "rdf:object", "owl:sameAs")
# ... and those whose values are ISO 8601 dates (xsd:date as plain strings; a month or a year keeps its type)
DATE_VALUED = ("kgo:dateValue", "kgo:date", "dcterms:date")
_INTEGER = re.compile(r"-?(0|[1-9][0-9]*)")
_NATIVE = {XSD + "integer", XSD + "boolean"}
Node = dict[str, Any]


def context() -> dict[str, Any]:
    """The @context document under the current base: {"@context": {...}}."""
    return {"@context": _context_for(iris.current().base)}


@lru_cache(maxsize=8)
def _context_for(base: str) -> dict[str, Any]:
    prefixes = iris.namespaces(base).prefixes
    return {"@version": 1.1, **prefixes, **_terms()}


@lru_cache(maxsize=1)
def _terms() -> dict[str, Any]:
    """Term definitions of the shipped context, without its prefixes."""
    shipped = json.loads(files("kg.publish").joinpath(CONTEXT_FILE).read_text(encoding="utf-8"))["@context"]
    prefixes = iris.namespaces(iris.DEFAULT_BASE).prefixes
    return {k: v for k, v in shipped.items() if k not in prefixes and k != "@version"}


def terms_from_ontology() -> dict[str, Any]:
    """Term definitions derived from ontology.ttl: what kg/publish/context.jsonld must hold (see tests)."""
    from rdflib import OWL, RDF, RDFS, URIRef

    from kg.model.resources import ontology_graph

    graph = ontology_graph()
    found: dict[str, Any] = {}
    taken = set(iris.namespaces(iris.DEFAULT_BASE).prefixes)
    ordered = sorted({s for s in graph.subjects() if isinstance(s, URIRef)},
                     key=lambda s: (not str(s).startswith(iris.ONTOLOGY), str(s)))
    for subject in ordered:
        compact = _compact(str(subject), FIXED_PREFIXES)
        name = re.split(r"[#/:]", compact)[-1]
        if compact in DATE_VALUED:
            key = compact if name in found or name in taken else name  # a compact IRI may be a term too
            found[key] = {"@id": compact, "@type": "xsd:date"}
            continue
        if compact == str(subject) or not name or name in found or name in taken:
            continue  # the ontology itself, or a name a kgo: term or a prefix has: the compact IRI serves
        kinds = set(graph.objects(subject, RDF.type))
        ranges = [str(r) for r in graph.objects(subject, RDFS.range)]
        if OWL.ObjectProperty in kinds or compact in IRI_VALUED:
            found[name] = {"@id": compact, "@type": "@id"}
        elif ranges and ranges[0].startswith(XSD) and ranges[0] not in _NATIVE | {XSD + "string"}:
            found[name] = {"@id": compact, "@type": _compact(ranges[0], FIXED_PREFIXES)}
        else:
            found[name] = compact
    return found


def shipped_context() -> dict[str, Any]:
    """What kg/publish/context.jsonld holds: the context under the default base."""
    return {"@context": {"@version": 1.1, **iris.namespaces(iris.DEFAULT_BASE).prefixes, **terms_from_ontology()}}


class Compactor:
    """Writes IRIs, keys and values as short as the context allows, and never ambiguous."""

    def __init__(self, ctx: Mapping[str, Any]) -> None:
        self.prefixes = {k: v for k, v in ctx.items() if isinstance(v, str) and not k.startswith("@")
                         and v.endswith(("/", "#"))}
        self.by_namespace: dict[str, str] = {}
        self.compacted: dict[str, str] = {}  # the same IRIs come again and again
        for prefix, namespace in self.prefixes.items():
            self.by_namespace.setdefault(namespace, prefix)
        self.by_iri: dict[str, tuple[str, Any]] = {}
        for name, definition in ctx.items():
            target = definition if isinstance(definition, str) else definition.get("@id") if isinstance(
                definition, dict) else None
            if target and name not in self.prefixes and not name.startswith("@"):
                coerce = definition.get("@type") if isinstance(definition, dict) else None
                self.by_iri[self.expand(target)] = (name, coerce)

    def expand(self, value: str) -> str:
        prefix, _, rest = value.partition(":")
        return self.prefixes[prefix] + rest if prefix in self.prefixes and not rest.startswith("//") else value

    def iri(self, value: str) -> str:
        """prefix:rest for the longest namespace `value` starts with (as _compact, but by looking up
        the few namespaces `value` can have: each ends at one of its slashes or hashes)."""
        found = self.compacted.get(value)
        if found is None:
            found = self.compacted[value] = self._shortest(value)
        return found

    def _shortest(self, value: str) -> str:
        end = len(value)
        while (cut := max(value.rfind("/", 0, end), value.rfind("#", 0, end))) >= 0:
            prefix, rest = self.by_namespace.get(value[:cut + 1]), value[cut + 1:]
            if prefix is not None and rest and not rest.startswith("//"):
                return f"{prefix}:{rest}"
            end = cut
        return value

    def key(self, predicate: str) -> tuple[str, Any]:
        return self.by_iri.get(predicate) or (self.iri(predicate), None)

    def type_name(self, cls: str) -> str:
        found = self.by_iri.get(cls)
        return found[0] if found else self.iri(cls)

    def value(self, term: ox.NamedNode | ox.BlankNode | ox.Literal, coerce: Any) -> Any:
        if isinstance(term, ox.NamedNode):
            return self.iri(term.value) if coerce == "@id" else {"@id": self.iri(term.value)}
        if isinstance(term, ox.BlankNode):
            return {"@id": f"_:{term.value}"}
        if term.language:
            return {"@value": term.value, "@language": term.language}
        datatype = term.datatype.value
        if coerce is None and datatype == XSD + "string":
            return term.value
        if datatype == XSD + "boolean" and coerce is None and term.value in ("true", "false"):
            return term.value == "true"
        if _INTEGER.fullmatch(term.value) and (
                (datatype == XSD + "integer" and coerce is None) or (coerce and self.expand(coerce) == datatype)):
            return int(term.value)  # JSON-LD reads an integral number back as the term's type, else xsd:integer
        if coerce and coerce != "@id" and self.expand(coerce) == datatype:
            return term.value
        return {"@value": term.value, "@type": self.iri(datatype)}


def _compact(value: str, prefixes: Mapping[str, str]) -> str:
    """prefix:rest for the longest namespace of `prefixes` that `value` starts with, else `value`."""
    best = ""
    for prefix, namespace in prefixes.items():
        if value.startswith(namespace) and len(namespace) > len(prefixes.get(best, "")):
            rest = value[len(namespace):]
            if rest and not rest.startswith("//"):
                best = prefix
    return f"{best}:{value[len(prefixes[best]):]}" if best else value


def nodes(triples: Iterable[ox.Triple | ox.Quad], ctx: Mapping[str, Any] | None = None) -> list[Node]:
    """One node object per subject, in subject order; a property's values in a list when several."""
    compactor = Compactor(ctx or context()["@context"])
    found: dict[str, Node] = {}
    for triple in triples:
        node_id = _node_id(compactor, triple.subject)
        node = found.setdefault(node_id, {"@id": node_id})
        if triple.predicate.value == RDF_TYPE and isinstance(triple.object, ox.NamedNode):
            node.setdefault("@type", []).append(compactor.type_name(triple.object.value))
            continue
        key, coerce = compactor.key(triple.predicate.value)
        node.setdefault(key, []).append(compactor.value(triple.object, coerce))
    return [_tidy(found[k]) for k in sorted(found)]


def _tidy(node: Node) -> Node:
    """@id, @type, then the properties by name; lists sorted, single values bare."""
    out: Node = {}
    for key, values in sorted(node.items(), key=lambda item: (item[0] not in ("@id", "@type"), item[0])):
        if isinstance(values, list):
            values = sorted(values, key=lambda v: json.dumps(v, sort_keys=True))
            out[key] = values[0] if len(values) == 1 else values
        else:
            out[key] = values
    return out


def graph_section(quads: Iterable[ox.Quad], graph: str) -> bytes:
    """One named graph (`quads`, all of it) as {"@id": graph, "@graph": [nodes]}: a section of the JSON-LD export."""
    ctx = context()["@context"]
    body = {"@id": Compactor(ctx).iri(graph), "@graph": nodes(quads, ctx)}
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()


def export_header() -> bytes:
    """The start of the JSON-LD export: the context, then the list of named graphs."""
    return b'{"@context": ' + json.dumps(context()["@context"], ensure_ascii=False).encode() + b',\n"@graph": [\n'


EXPORT_FOOTER = b"\n]}\n"


def frame(triples: Iterable[ox.Triple | ox.Quad], root: str, depth: int = 4) -> dict[str, Any]:
    """A JSON-LD document about `root`: its node on top, with the nodes it points at nested (to `depth`
    levels, except inside themselves) and the nodes that point at it under "@reverse" (a statement,
    with its sentence and its article nested). Each node is written whole once, where it is first
    reached (JSON-LD framing's `@embed: @once`), and referred to by its @id elsewhere; nodes reached
    neither way are listed under "@included". So the document states every one of `triples`, and
    only them."""
    triples = list(triples)
    ctx = context()["@context"]
    compactor = Compactor(ctx)
    by_id = {n["@id"]: n for n in nodes(triples, ctx)}
    root_id = compactor.iri(root)
    placed = {root_id}
    document = dict(by_id.get(root_id, {"@id": root_id}))
    _embed(document, by_id, depth, placed)
    pointing = sorted({(compactor.key(t.predicate.value)[0], _node_id(compactor, t.subject)) for t in triples
                       if isinstance(t.object, ox.NamedNode) and t.object.value == root})
    reverse: dict[str, list[Node]] = {}
    for key, subject_id in pointing:
        if subject_id in placed:
            continue  # written whole already, saying that it points at the root
        placed.add(subject_id)
        node = dict(by_id[subject_id])
        _embed(node, by_id, depth - 1, placed)
        reverse.setdefault(key, []).append(node)
    if reverse:
        document["@reverse"] = {k: _one_or_list(v) for k, v in reverse.items()}
    rest = [by_id[i] for i in sorted(by_id) if i not in placed]
    if rest:
        document["@included"] = rest
    return {"@context": ctx, **document}


def document(triples: Iterable[ox.Triple | ox.Quad]) -> dict[str, Any]:
    """Triples (a graph, the ontology, a VoID description) as one JSON-LD document: the context, then
    one node object per subject under "@graph"."""
    ctx = context()["@context"]
    return {"@context": ctx, "@graph": nodes(triples, ctx)}


def _node_id(compactor: Compactor, subject: ox.NamedNode | ox.BlankNode) -> str:
    return compactor.iri(subject.value) if isinstance(subject, ox.NamedNode) else f"_:{subject.value}"


def _one_or_list(values: list[Any]) -> Any:
    return values[0] if len(values) == 1 else values


def _embed(node: Node, by_id: dict[str, Node], depth: int, placed: set[str]) -> None:
    """Replace references to the nodes we have by the nodes themselves, down to `depth` levels: each
    node not yet `placed` (which holds the node's ancestors), once; the nodes nested join `placed`."""
    if depth <= 0:
        return
    for key, values in list(node.items()):
        if key.startswith("@"):
            continue
        many = isinstance(values, list)
        out = []
        for value in values if many else [values]:
            ref = value.get("@id") if isinstance(value, dict) and len(value) == 1 else None
            if ref is None and isinstance(value, str) and _is_reference(key, by_id, value):
                ref = value
            if ref is not None and ref in by_id and ref not in placed:
                child = dict(by_id[ref])
                placed.add(ref)
                _embed(child, by_id, depth - 1, placed)
                out.append(child)
            else:
                out.append(value)
        node[key] = out if many else out[0]


def _is_reference(key: str, by_id: dict[str, Node], value: str) -> bool:
    """Whether a plain string under `key` is an IRI (a term typed @id) naming a node we have."""
    definition = context()["@context"].get(key)
    return isinstance(definition, dict) and definition.get("@type") == "@id" and value in by_id
