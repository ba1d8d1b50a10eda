"""rdflib terms from Oxigraph's terms and from SPARQL JSON results, made the same way: a plain
literal stays without datatype (as rdflib reads N-Triples), so that graphs from either compare equal."""

from __future__ import annotations

import pyoxigraph as ox
import rdflib
from rdflib.namespace import XSD

_STRING = str(XSD.string)


def from_oxigraph(term: ox.NamedNode | ox.BlankNode | ox.Literal | ox.DefaultGraph) -> rdflib.term.Identifier | None:
    """An Oxigraph term as rdflib has it; the default graph is None."""
    if isinstance(term, ox.NamedNode):
        return rdflib.URIRef(term.value)
    if isinstance(term, ox.BlankNode):
        return rdflib.BNode(term.value)
    if isinstance(term, ox.DefaultGraph):
        return None
    return _literal(term.value, term.language, term.datatype.value)


def from_sparql_json(term: dict[str, str]) -> rdflib.term.Identifier:
    """A term of SPARQL 1.1 JSON results as rdflib has it."""
    kind, value = term["type"], term["value"]
    if kind == "uri":
        return rdflib.URIRef(value)
    if kind == "bnode":
        return rdflib.BNode(value)
    return _literal(value, term.get("xml:lang"), term.get("datatype"))


def _literal(value: str, language: str | None, datatype: str | None) -> rdflib.Literal:
    if language:
        return rdflib.Literal(value, lang=language)
    return rdflib.Literal(value, datatype=None if datatype in (None, _STRING) else rdflib.URIRef(datatype))
