"""kg.formats.rdf_syntaxes, the one table of formats: each row checked against Oxigraph's and rdflib's own
descriptions of the format, and by a round trip through both libraries."""

from __future__ import annotations

import pyoxigraph as ox
import pytest
import rdflib
from rdflib.util import guess_format

from kg.api import negotiate
from kg.errors import InputError
from kg.formats import rdf_syntaxes
from kg.store import build_dirs

W3C = "http://www.w3.org/ns/formats/"
EX = "http://example.org/"
QUAD = ox.Quad(ox.NamedNode(EX + "s"), ox.NamedNode(EX + "p"), ox.Literal("o"), ox.NamedNode(EX + "g"))


@pytest.mark.parametrize("fmt", rdf_syntaxes.RDF_FORMATS, ids=lambda f: f.extension)
def test_rdf_row_agrees_with_oxigraph(fmt: rdf_syntaxes.RdfFormat) -> None:
    assert (fmt.oxigraph.media_type, fmt.oxigraph.file_extension, fmt.oxigraph.supports_datasets) == \
        (fmt.media_type, fmt.extension, fmt.graphs)
    assert [ox.RdfFormat.from_media_type(t) for t in fmt.also] == [fmt.oxigraph] * len(fmt.also)
    if fmt is not rdf_syntaxes.JSONLD:  # Oxigraph names JSON-LD by the newer https://www.w3.org/ns/formats/data/JSON-LD
        assert fmt.oxigraph.iri == W3C + fmt.w3c


@pytest.mark.parametrize("fmt", rdf_syntaxes.RDF_FORMATS, ids=lambda f: f.extension)
def test_rdf_row_agrees_with_rdflib(fmt: rdf_syntaxes.RdfFormat) -> None:
    """rdflib reads what Oxigraph writes under the row's rdflib name, graph names included
    exactly when the row says the format carries graphs."""
    assert guess_format("kg." + fmt.extension) == fmt.rdflib
    data = [QUAD] if fmt.graphs else [QUAD.triple]
    dataset = rdflib.Dataset()
    dataset.parse(data=ox.serialize(data, format=fmt.oxigraph), format=fmt.rdflib)
    quads = {(str(s), str(p), str(o), str(g)) for s, p, o, g in dataset.quads()}
    graph = EX + "g" if fmt.graphs else str(rdflib.graph.DATASET_DEFAULT_GRAPH_ID)
    assert quads == {(EX + "s", EX + "p", "o", graph)}


@pytest.mark.parametrize("fmt", rdf_syntaxes.RDF_FORMATS, ids=lambda f: f.extension)
def test_prefixes_column(fmt: rdf_syntaxes.RdfFormat) -> None:
    """`prefixes` is true exactly for the syntaxes Oxigraph abbreviates with the prefixes it is given."""
    body = rdf_syntaxes.convert(ox.serialize([QUAD.triple], format=ox.RdfFormat.N_TRIPLES), rdf_syntaxes.NTRIPLES, fmt,
                           {"ex": EX})
    assert (b"ex:" in body) is fmt.prefixes
    assert ox.parse(body, format=fmt.oxigraph).__next__().triple == QUAD.triple


@pytest.mark.parametrize("fmt", rdf_syntaxes.RESULTS_FORMATS, ids=lambda f: f.extension)
def test_results_row_agrees_with_oxigraph(fmt: rdf_syntaxes.ResultsFormat) -> None:
    assert fmt.oxigraph.media_type.split(";")[0] == fmt.media_type
    assert (fmt.oxigraph.file_extension, fmt.oxigraph.iri) == (fmt.extension, W3C + fmt.w3c)
    assert [ox.QueryResultsFormat.from_media_type(t) for t in fmt.also] == [fmt.oxigraph] * len(fmt.also)


@pytest.mark.parametrize("fmt", [rdf_syntaxes.SPARQL_JSON, rdf_syntaxes.SPARQL_XML], ids=lambda f: f.extension)
@pytest.mark.parametrize("value", [True, False])
def test_boolean_bodies_are_answers(fmt: rdf_syntaxes.ResultsFormat, value: bool) -> None:
    """An ASK answer written from the row's template is read back as that boolean."""
    body = fmt.boolean % (b"true" if value else b"false")
    assert bool(ox.parse_query_results(body, fmt.oxigraph)) is value


def test_exports_name_their_files() -> None:
    assert rdf_syntaxes.EXPORT_EXTENSIONS == ("ttl", "trig", "nq", "jsonld")
    assert build_dirs.EXPORT_FILES == {"ttl": "kg.ttl", "trig": "kg.trig", "nq": "kg.nq", "jsonld": "kg.jsonld"}
    assert rdf_syntaxes.export_format("nq") is rdf_syntaxes.NQUADS
    with pytest.raises(InputError, match=r"unknown export format 'rdf' \(expected one of ttl, trig, nq, jsonld\)"):
        rdf_syntaxes.export_format("rdf")
    with pytest.raises(InputError, match="unknown RDF format 'xls'"):
        rdf_syntaxes.by_extension("xls")


def test_negotiation_reads_the_table() -> None:
    """The endpoint's offers and `format=` values come from the table, in its order of preference."""
    assert list(negotiate.GRAPH_OFFERS)[:7] == [f.media_type for f in rdf_syntaxes.RDF_FORMATS]
    assert negotiate.choose(None, negotiate.GRAPH_OFFERS) == ("text/turtle", "text/turtle")
    assert negotiate.choose("application/json", negotiate.GRAPH_OFFERS) == ("application/json", "application/ld+json")
    assert negotiate.choose("text/xml", negotiate.SOLUTION_OFFERS) == ("text/xml", "application/sparql-results+xml")
    assert negotiate.accept_of_format("json") == "application/sparql-results+json, application/ld+json"
    assert negotiate.accept_of_format("rdf+xml") == "application/rdf+xml"
    assert negotiate.accept_of_format("n-quads") == "application/n-quads"
    assert negotiate.accept_of_format("srj") is None
