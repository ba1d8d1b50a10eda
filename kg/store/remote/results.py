"""Answers from a remote server, in formats kg parses, re-serialized as the caller asked.

The server is asked for SPARQL JSON or XML results (graphs as N-Triples,
Turtle or RDF/XML), whatever the caller wants; the Content-Type of its answer
decides the parser, and an answer in any other type is an error. Oxigraph
parses the answer as it streams in and serializes it into the caller's
output in the caller's format, so a caller's writer may stop the transfer
early (the endpoint's row cap does) and every answer reaches clients in the
same standard shape, whatever the server's dialect (Virtuoso's
"typed-literal" JSON, its ASK answered as a row).
"""

from __future__ import annotations

import re
from typing import IO

import pyoxigraph as ox

from kg.errors import StoreError
from kg.formats import rdf_syntaxes

SPARQL_JSON, SPARQL_XML = rdf_syntaxes.SPARQL_JSON.media_type, rdf_syntaxes.SPARQL_XML.media_type
NTRIPLES, TURTLE, RDFXML = rdf_syntaxes.NTRIPLES.media_type, rdf_syntaxes.TURTLE.media_type, rdf_syntaxes.RDFXML.media_type
PARSED_SOLUTIONS = {f.media_type: f.oxigraph for f in (rdf_syntaxes.SPARQL_JSON, rdf_syntaxes.SPARQL_XML)}
PARSED_GRAPHS = {**{f.media_type: f.oxigraph for f in (rdf_syntaxes.NTRIPLES, rdf_syntaxes.TURTLE, rdf_syntaxes.RDFXML)},
                 "text/plain": rdf_syntaxes.NTRIPLES.oxigraph}
SOLUTIONS_ACCEPT = f"{SPARQL_JSON}, {SPARQL_XML};q=0.9"
GRAPH_ACCEPT = f"{NTRIPLES}, {TURTLE};q=0.9, {RDFXML};q=0.8"
ACCEPT = f"{SOLUTIONS_ACCEPT}, {GRAPH_ACCEPT}"
_IRI_OR_COMMENT = re.compile(r"<[^<>\s]*>|#[^\n]*")
_FORM = re.compile(r"(?<![\w?$:])(SELECT|ASK|CONSTRUCT|DESCRIBE)(?!\w)", re.IGNORECASE)


def query_form(sparql: str) -> str | None:
    """SELECT, ASK, CONSTRUCT or DESCRIBE: the first of these keywords once the prologue's IRIs and
    the comments are set aside (None when there is none: the server will say what is wrong)."""
    found = _FORM.search(_IRI_OR_COMMENT.sub(" ", sparql))
    return found.group(1).upper() if found else None


def accept(form: str | None) -> str:
    """The Accept header for a query of `form` (SELECT, ASK, CONSTRUCT, DESCRIBE; None: unknown).
    Servers differ on what they send a CONSTRUCT when solutions come first (Virtuoso sends
    SPARQL JSON), so the form, when known, decides."""
    if form in ("CONSTRUCT", "DESCRIBE"):
        return GRAPH_ACCEPT
    if form in ("SELECT", "ASK"):
        return SOLUTIONS_ACCEPT
    return ACCEPT


def convert(body: IO[bytes], media_type: str, output: IO[bytes], *, solutions_type: str, graph_type: str,
            ask_variable: str = "") -> tuple[str, str]:
    """Parse `body` (of `media_type`) and write it into `output` as the caller asked;
    returns (kind, media type written). `ask_variable`: the one variable of a server that
    answers ASK as a row (its value 1 or 0)."""
    if media_type in PARSED_SOLUTIONS:
        results = ox.parse_query_results(body, PARSED_SOLUTIONS[media_type])
        if isinstance(results, ox.QueryBoolean):
            return _boolean(bool(results), output, solutions_type)
        if ask_variable and [v.value for v in results.variables] == [ask_variable]:
            rows = list(results)
            return _boolean(bool(rows) and rows[0][ask_variable].value not in ("0", "false"), output, solutions_type)
        results.serialize(output, rdf_syntaxes.results_format(solutions_type).oxigraph)
        return "solutions", solutions_type
    if media_type in PARSED_GRAPHS:
        triples = ox.parse(body, format=PARSED_GRAPHS[media_type])
        ox.serialize(triples, output, format=rdf_syntaxes.rdf_format(graph_type).oxigraph)
        return "graph", graph_type
    raise StoreError(f"the store answered {media_type or 'without a Content-Type'} "
                     f"(expected SPARQL results as JSON or XML, or a graph as N-Triples, Turtle or RDF/XML)")


def _boolean(value: bool, output: IO[bytes], solutions_type: str) -> tuple[str, str]:
    output.write(rdf_syntaxes.results_format(solutions_type).boolean % (b"true" if value else b"false"))
    return "boolean", solutions_type
