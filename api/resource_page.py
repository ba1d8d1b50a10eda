"""The HTML page a browser gets for an IRI of the graph (templates/resource.html).

For a thing or a document: its names, types, what it has, and every statement
about it (or stated by it), grouped under the sentence and the article that state
them with one citation a researcher can copy; a membership reads as words
("member of the National Guard, as lieutenant"), not as its node's IRI; links to the network view focused on it and to
a SPARQL query. For a named graph or the ontology: its size and terms. The rows
come from the engine (api/describe.py); this module only shapes them for the
template, which escapes every text. Links are relative, so the page works at
any base behind a reverse proxy.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, urlencode

from flask import Response, current_app, g, render_template, request

from kg.api import backend, describe, ids
from kg.api.base import path_of
from kg.api.page import secured
from kg.model import iris
from kg.model.iris import FIXED_PREFIXES, RDF_TYPE

PREF_LABEL = FIXED_PREFIXES["skos"] + "prefLabel"
NAME_PROPERTIES = (PREF_LABEL, FIXED_PREFIXES["skos"] + "altLabel", FIXED_PREFIXES["rdfs"] + "label",
                   FIXED_PREFIXES["dcterms"] + "title")
HIDDEN = (FIXED_PREFIXES["skos"] + "hiddenLabel", FIXED_PREFIXES["nif"] + "isString")
TEXT = FIXED_PREFIXES["nif"] + "isString"
DATA_FORMATS = (("Turtle", "ttl"), ("JSON-LD", "jsonld"), ("N-Triples", "nt"))
MEMBERSHIP_PREDICATES = {iris.ONTOLOGY + p for p in ("member", "organization", "role", "post")}


def resource(iri: str) -> Response:
    """The page of a thing or a document."""
    rows = _select(describe.properties(iri))
    text = next((r["o"] for r in rows if r["p"] == TEXT), None)
    names = list(dict.fromkeys(r["o"] for r in rows if r["p"] in NAME_PROPERTIES and r["kind"] == "literal"))
    context = {
        "iri": iri, "label": _label(iri, rows), "names": names, "text": text,
        "types": [_value(r["o"], r.get("oLabel"), "iri") for r in rows if r["p"] == RDF_TYPE],
        "properties": [_property(r) for r in rows if r["p"] not in (RDF_TYPE, *NAME_PROPERTIES, *HIDDEN)],
        "statements": _statements(iri, _select(describe.statements(iri))),
        "max_rows": describe.MAX_ROWS, "view": _view_link(iri), "query": _query_link(_statements_query(iri)),
        "document": iri.startswith(iris.DOCUMENT) and "/" not in iri[len(iris.DOCUMENT):],
    }
    return _render("resource", context)


def graph(iri: str) -> Response:
    """The page of a named graph (or of the ontology, which is one)."""
    size = _select(describe.graph_size(iri))
    slug = iri[len(iris.GRAPH):]
    document = iris.DOCUMENT + slug if iri != iris.ONTOLOGY_GRAPH else None
    terms = [{**_value(r["term"], r.get("label"), "iri"), "name": _short(r["term"]), "kind": _short(r.get("kind", "")),
              "comment": r.get("comment")} for r in _select(describe.terms(iri))]
    context = {"iri": iri, "label": _short(iri), "size": int(size[0]["n"]) if size else 0, "terms": terms,
               "document": _value(document, None, "iri") if document else None, "max_rows": describe.MAX_ROWS,
               "query": _query_link(f"SELECT ?s ?p ?o WHERE {{\n  GRAPH <{iri}> {{ ?s ?p ?o }}\n}}\nLIMIT 100\n")}
    return _render("graph", context)


def _render(kind: str, context: dict[str, Any]) -> Response:
    root = _root()
    page = render_template("resource.html", kind=kind, root=root, formats=DATA_FORMATS, **context)
    return secured(Response(page, mimetype="text/html"))


def _select(sparql: str) -> list[dict[str, str]]:
    return backend.current().select(sparql, g.deadline)


def _root() -> str:
    """The relative path from the requested page back to the base ('../../' for /id/person/x)."""
    depth = request.path.count("/") - 1
    return "../" * depth if depth > 0 else "./"


def href(iri: str) -> str | None:
    """Where an IRI is shown: relative to this page for IRIs of this graph, else the IRI itself
    (http and https only: no other scheme becomes a link)."""
    path = path_of(iri)
    if path is not None:
        return _root() + quote(path, safe="/#:@!$&'()*+,;=-._~%")
    return iri if iri.startswith(("http://", "https://")) else None


def _short(iri: str) -> str:
    """A prefixed name for an IRI of a known namespace (longest namespace first), else the IRI."""
    for prefix, namespace in sorted(iris.PREFIXES.items(), key=lambda item: -len(item[1])):
        if iri.startswith(namespace) and len(iri) > len(namespace):
            return f"{prefix}:{iri[len(namespace):]}"
    return iri


def _value(term: str, label: str | None, kind: str, lang: str | None = None) -> dict[str, Any]:
    if kind != "iri":
        return {"text": term, "lang": lang or None, "href": None, "iri": None}
    return {"text": label or _short(term), "lang": None, "href": href(term), "iri": term}


def _label(iri: str, rows: list[dict[str, str]]) -> str:
    for name in (PREF_LABEL, FIXED_PREFIXES["dcterms"] + "title", FIXED_PREFIXES["rdfs"] + "label"):
        for row in rows:
            if row["p"] == name and row["kind"] == "literal":
                return row["o"]
    return _short(iri)


def _property(row: dict[str, str]) -> dict[str, Any]:
    return {"predicate": _value(row["p"], row.get("pLabel"), "iri"),
            "value": _value(row["o"], row.get("oLabel"), row["kind"], row.get("lang"))}


def _statements(iri: str, rows: list[dict[str, str]]) -> list[dict[str, Any]]:
    """The statements in groups, one per source (article and sentences, in text order): each group
    with its facts and one citation (the rows have one per statement and sentence)."""
    merged: dict[str, dict[str, Any]] = {}
    for row in rows:
        item = merged.get(row["st"])
        if item is None:
            item = merged[row["st"]] = _statement(iri, row)
        if row.get("sentence") and row["sentence"] not in item["sentences"]:
            item["sentences"].append(row["sentence"])
    subjects = sorted({item["subject"]["iri"] for item in merged.values() if item["subject"]["iri"]})
    memberships = {r["m"]: r for r in _select(describe.memberships(subjects))} if subjects else {}
    groups: dict[tuple, dict[str, Any]] = {}
    for item in merged.values():
        key = (item["doc"], tuple(item["sentences"]))
        group = groups.setdefault(key, {**item, "facts": [], "statements": []})
        group["statements"].append(item["iri"])
        fact = _fact(iri, item, memberships.get(item["subject"]["iri"] or ""))
        if all(f["parts"] != fact["parts"] for f in group["facts"]):
            group["facts"].append(fact)
    for group in groups.values():
        group["citation"] = _citation(group)
    return list(groups.values())


def _statement(iri: str, row: dict[str, str]) -> dict[str, Any]:
    statement = row["st"]
    anchor = statement[len(iri) + 1:] if statement.startswith(iri + "#") else None
    return {"iri": statement, "anchor": anchor, "href": href(statement),
            "subject": _value(row["s"], row.get("sLabel"), "iri"),
            "predicate": _value(row["p"], row.get("pLabel"), "iri"),
            "object": _value(row["o"], row.get("oLabel"), row["kind"]),
            "sentences": [], "title": row.get("title"), "date": row.get("date"), "publisher": row.get("publisher"),
            "doc": row.get("doc"), "document": _value(row["doc"], row.get("title"), "iri") if row.get("doc") else None}


def _fact(iri: str, item: dict[str, Any], membership: dict[str, str] | None) -> dict[str, Any]:
    """One statement as the page says it: parts (values, or words with their spaces) to show in
    a row. A statement about a membership says who is a member of what, and as what; the member is
    left out on the member's own page."""
    fact = {"anchor": item["anchor"], "href": item["href"], "iri": item["iri"]}
    said = [_words(" "), {**item["predicate"], "cls": "predicate"}, _words(" "), item["object"]]
    if membership is None:
        return {**fact, "parts": [item["subject"], *said]}
    own = item["predicate"]["iri"] in MEMBERSHIP_PREDICATES  # else a statement about the membership
    parts = [] if own and membership.get("memberIri") in (iri, None) else \
        [_value(membership["memberIri"], membership.get("memberLabel"), "iri"), _words(" ")]
    parts.append(_words("member of " if membership.get("orgIri") else "member", "predicate"))
    if membership.get("orgIri"):
        parts.append(_value(membership["orgIri"], membership.get("orgLabel"), "iri"))
    if membership.get("roleLabel"):
        parts.append(_words(f", as {membership['roleLabel']}"))
    return {**fact, "parts": parts if own else [*parts, _words(" —"), *said]}


def _words(text: str, cls: str = "") -> dict[str, Any]:
    return {"text": text, "lang": None, "href": None, "iri": None, "cls": cls}


def _citation(group: dict[str, Any]) -> str:
    """The source of a group of statements as one line to copy: sentences, publisher, title, date,
    document IRI, statement IRIs."""
    quoted = " … ".join(f"“{s}”" for s in group["sentences"])
    parts = [quoted or None, group["publisher"], f"“{group['title']}”" if group["title"] else None, group["date"]]
    source = ", ".join(p for p in parts if p)
    word = "statement" if len(group["statements"]) == 1 else "statements"
    return f"{source}. <{group['doc'] or ''}> ({word} {' '.join(f'<{s}>' for s in group['statements'])})"


def _view_link(iri: str) -> str | None:
    """The network view focused on a canonical thing, when the server has the view."""
    if "view" not in current_app.blueprints or not iri.startswith(iris.RESOURCE):
        return None
    return _root() + "graph?" + urlencode({"focus": ids.item_id(iri)})


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
    return _root() + "sparql?" + urlencode({"query": query})
