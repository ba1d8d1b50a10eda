"""The HTML page a browser gets for an IRI of the graph (templates/resource.html).

For a thing or a document: its names, types, what it has, and every statement
about it (or stated by it), grouped under the sentence and the article that state
them with one citation a researcher can copy (api/linked_data/statement_groups.py); links to
the network view focused on it and to a SPARQL query. For a named graph or the
ontology: its size and terms. The rows come from the engine (api/linked_data/describe.py);
this module only shapes them for the template, which escapes every text. Links
are relative (api/linked_data/page_values.py), so the page works at any base behind a
reverse proxy.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from flask import Response, current_app, g, render_template

from kg.api.linked_data import describe, ids
from kg.api.linked_data.page_values import root, short, value
from kg.api.linked_data.statement_groups import statement_groups
from kg.api.request_life import pinned_backend
from kg.model import iris
from kg.model.iris import FIXED_PREFIXES, RDF_TYPE
from kg.publish.names import prefixed_name

PREF_LABEL = FIXED_PREFIXES["skos"] + "prefLabel"
NAME_PROPERTIES = (PREF_LABEL, FIXED_PREFIXES["skos"] + "altLabel", FIXED_PREFIXES["rdfs"] + "label",
                   FIXED_PREFIXES["dcterms"] + "title")
HIDDEN = (FIXED_PREFIXES["skos"] + "hiddenLabel", FIXED_PREFIXES["nif"] + "isString")
TEXT = FIXED_PREFIXES["nif"] + "isString"
DATA_FORMATS = (("Turtle", "ttl"), ("JSON-LD", "jsonld"), ("N-Triples", "nt"))


def resource(iri: str) -> Response:
    """The page of a thing or a document."""
    rows = _select(describe.properties(iri))
    text = next((r["o"] for r in rows if r["p"] == TEXT), None)
    names = list(dict.fromkeys(r["o"] for r in rows if r["p"] in NAME_PROPERTIES and r["kind"] == "literal"))
    context = {
        "iri": iri, "label": _label(iri, rows), "names": names, "text": text,
        "types": [value(r["o"], prefixed_name(r["o"]), "iri") for r in rows if r["p"] == RDF_TYPE],  # as the API shows them
        "properties": [_property(r) for r in rows if r["p"] not in (RDF_TYPE, *NAME_PROPERTIES, *HIDDEN)],
        "statements": statement_groups(iri, _statement_rows(iri), _select),
        "max_rows": describe.MAX_ROWS, "view": _view_link(iri), "query": _query_link(_statements_query(iri)),
        "document": iri.startswith(iris.DOCUMENT) and "/" not in iri[len(iris.DOCUMENT):],
    }
    return _render("resource", context)


def graph(iri: str) -> Response:
    """The page of a named graph (or of the ontology, which is one)."""
    size = _select(describe.graph_size(iri))
    slug = iri[len(iris.GRAPH):]
    document = iris.DOCUMENT + slug if iri != iris.ONTOLOGY_GRAPH else None
    terms = [{**value(r["term"], r.get("label"), "iri"), "name": short(r["term"]), "kind": short(r.get("kind", "")),
              "comment": r.get("comment")} for r in _select(describe.terms(iri))]
    context = {"iri": iri, "label": short(iri), "size": int(size[0]["n"]) if size else 0, "terms": terms,
               "document": value(document, None, "iri") if document else None, "max_rows": describe.MAX_ROWS,
               "query": _query_link(f"SELECT ?s ?p ?o WHERE {{\n  GRAPH <{iri}> {{ ?s ?p ?o }}\n}}\nLIMIT 100\n")}
    return _render("graph", context)


def _render(kind: str, context: dict[str, Any]) -> Response:
    page = render_template("resource.html", kind=kind, root=root(), formats=DATA_FORMATS, **context)
    return Response(page, mimetype="text/html")  # with the page policy of api/request_life.py


def _select(sparql: str) -> list[dict[str, str]]:
    return pinned_backend().select(sparql, g.deadline)


def _statement_rows(iri: str) -> list[dict[str, str]]:
    """The rows of the statements about `iri` the page lists (describe.statement_keys says why two queries)."""
    keys = _select(describe.statement_keys(iri))
    return _select(describe.statements(keys)) if keys else []


def _label(iri: str, rows: list[dict[str, str]]) -> str:
    for name in (PREF_LABEL, FIXED_PREFIXES["dcterms"] + "title", FIXED_PREFIXES["rdfs"] + "label"):
        for row in rows:
            if row["p"] == name and row["kind"] == "literal":
                return row["o"]
    return short(iri)


def _property(row: dict[str, str]) -> dict[str, Any]:
    return {"predicate": value(row["p"], row.get("pLabel"), "iri"),
            "value": value(row["o"], row.get("oLabel"), row["kind"], row.get("lang"))}


def _view_link(iri: str) -> str | None:
    """The network view focused on a canonical thing, when the server has the view."""
    if "view" not in current_app.blueprints or not iri.startswith(iris.RESOURCE):
        return None
    return root() + "graph?" + urlencode({"focus": ids.item_id(iri)})


def _statements_query(iri: str) -> str:
    return (f"# What the graph states about <{iri}>, and where\n"
            "SELECT ?subject ?predicate ?object ?sentence ?document WHERE {\n"
            f"  {{ ?statement rdf:subject <{iri}> }} UNION {{ ?statement rdf:object <{iri}> }}\n"
            f"  UNION {{ ?statement prov:wasDerivedFrom <{iri}> }}\n"
            "  ?statement rdf:subject ?subject ; rdf:predicate ?predicate ; rdf:object ?object ;\n"
            "             prov:wasDerivedFrom ?document .\n"
            "  OPTIONAL { ?statement kgo:evidence/nif:anchorOf ?sentence }\n"
            "}\nLIMIT 1000\n")


def _query_link(query: str) -> str:
    """The query page with `query` in its editor (a browser's GET of /sparql?query=)."""
    return root() + "sparql?" + urlencode({"query": query})
