"""The one table of formats kg reads and writes: RDF syntaxes and SPARQL result syntaxes.

Each format is named here once, with its file extension, media type, Oxigraph
format and rdflib name; the exports, the store, the endpoint's content
negotiation and the remote store all read this table. Media types are the
currency between modules (`store.query(graph_type="text/turtle")`), extensions
name files and export routes (`kg.ttl`, `/export.ttl`). The tuples are in the
endpoint's order of preference: with no Accept header the first is sent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

import pyoxigraph as ox

from kg.errors import InputError


@dataclass(frozen=True)
class RdfFormat:
    """An RDF syntax."""

    extension: str
    media_type: str
    oxigraph: ox.RdfFormat
    rdflib: str  # rdflib's parser and serializer name
    graphs: bool  # carries named graphs (a dataset syntax)
    prefixes: bool  # Oxigraph abbreviates IRIs with the prefixes it is given
    w3c: str  # its name in W3C_FORMATS
    names: tuple[str, ...] = ()  # the `format=` / `output=` values that ask for it
    also: tuple[str, ...] = ()  # other media types clients ask for it by


W3C_FORMATS = "http://www.w3.org/ns/formats/"  # where each format's `w3c` name lives


@dataclass(frozen=True)
class ResultsFormat:
    """A SPARQL query results syntax."""

    extension: str
    media_type: str
    oxigraph: ox.QueryResultsFormat
    boolean: bytes  # an ASK answer; %s is true or false
    w3c: str
    names: tuple[str, ...] = ()
    also: tuple[str, ...] = ()


TURTLE = RdfFormat("ttl", "text/turtle", ox.RdfFormat.TURTLE, "turtle", graphs=False, prefixes=True, w3c="Turtle",
                   names=("ttl", "turtle"), also=("application/x-turtle",))
NTRIPLES = RdfFormat("nt", "application/n-triples", ox.RdfFormat.N_TRIPLES, "nt", graphs=False, prefixes=False, w3c="N-Triples",
                     names=("nt", "ntriples", "n-triples"), also=("text/plain",))
JSONLD = RdfFormat("jsonld", "application/ld+json", ox.RdfFormat.JSON_LD, "json-ld", graphs=True, prefixes=False, w3c="JSON-LD",
                   names=("json", "jsonld", "json-ld"), also=("application/json",))
RDFXML = RdfFormat("rdf", "application/rdf+xml", ox.RdfFormat.RDF_XML, "xml", graphs=False, prefixes=True, w3c="RDF_XML",
                   names=("xml", "rdf", "rdfxml", "rdf/xml", "rdf+xml"), also=("application/xml", "text/xml"))
NQUADS = RdfFormat("nq", "application/n-quads", ox.RdfFormat.N_QUADS, "nquads", graphs=True, prefixes=False, w3c="N-Quads",
                   names=("nq", "nquads", "n-quads"))
TRIG = RdfFormat("trig", "application/trig", ox.RdfFormat.TRIG, "trig", graphs=True, prefixes=True, w3c="TriG",
                 names=("trig",))
N3 = RdfFormat("n3", "text/n3", ox.RdfFormat.N3, "n3", graphs=False, prefixes=True, w3c="N3",
                names=("n3",))
RDF_FORMATS = (TURTLE, NTRIPLES, JSONLD, RDFXML, NQUADS, TRIG, N3)

SPARQL_JSON = ResultsFormat("srj", "application/sparql-results+json", ox.QueryResultsFormat.JSON,
                            b'{"head":{},"boolean":%s}', w3c="SPARQL_Results_JSON",
                            names=("json",), also=("application/json",))
SPARQL_XML = ResultsFormat("srx", "application/sparql-results+xml", ox.QueryResultsFormat.XML,
                           b'<?xml version="1.0"?><sparql xmlns="http://www.w3.org/2005/sparql-results#">'
                           b"<head></head><boolean>%s</boolean></sparql>",
                           w3c="SPARQL_Results_XML", names=("xml",), also=("application/xml", "text/xml"))
CSV = ResultsFormat("csv", "text/csv", ox.QueryResultsFormat.CSV, b"%s", w3c="SPARQL_Results_CSV",
                    names=("csv",))
TSV = ResultsFormat("tsv", "text/tab-separated-values", ox.QueryResultsFormat.TSV, b"%s",
                    w3c="SPARQL_Results_TSV", names=("tsv",))
RESULTS_FORMATS = (SPARQL_JSON, SPARQL_XML, CSV, TSV)

EXPORTS = (TURTLE, TRIG, NQUADS, JSONLD)  # a build's downloads: kg.<extension>, /export.<extension>
EXPORT_EXTENSIONS = tuple(f.extension for f in EXPORTS)

_BY_EXTENSION = {f.extension: f for f in RDF_FORMATS}
_BY_MEDIA_TYPE = {f.media_type: f for f in RDF_FORMATS}
_RESULTS_BY_MEDIA_TYPE = {f.media_type: f for f in RESULTS_FORMATS}


def convert(data: bytes | str, source: RdfFormat, target: RdfFormat,
            prefixes: Mapping[str, str] | None = None) -> bytes:
    """Triples in `source` syntax serialized by Oxigraph in `target`, IRIs abbreviated with
    `prefixes` where `target` can."""
    triples = ox.parse(data, format=source.oxigraph)
    return ox.serialize(triples, format=target.oxigraph,
                        prefixes=dict(prefixes) if prefixes and target.prefixes else None)


def by_extension(extension: str) -> RdfFormat:
    """The RDF format of a file extension ('ttl', 'nq', ...); InputError for any other."""
    try:
        return _BY_EXTENSION[extension]
    except KeyError:
        raise InputError(f"unknown RDF format {extension!r} (expected one of {', '.join(_BY_EXTENSION)})") from None


def export_format(extension: str) -> RdfFormat:
    """The export format of an extension; InputError for a format kg does not export."""
    if extension not in EXPORT_EXTENSIONS:
        raise InputError(f"unknown export format {extension!r} (expected one of {', '.join(EXPORT_EXTENSIONS)})")
    return _BY_EXTENSION[extension]


def rdf_format(media_type: str) -> RdfFormat:
    """The RDF format of a media type (its own, not one of the `also` types); KeyError for another."""
    return _BY_MEDIA_TYPE[media_type]


def results_format(media_type: str) -> ResultsFormat:
    """The results format of a media type (its own); KeyError for another."""
    return _RESULTS_BY_MEDIA_TYPE[media_type]
