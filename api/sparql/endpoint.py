"""The SPARQL 1.1 Protocol endpoint at /sparql (read-only, no outbound network).

Order of checks, all before any engine sees the text: protocol (400, 403,
413, 415), lexer (SERVICE / LOAD: 400; update: 403), dataset (graph names
must be IRIs: 400), negotiation (406). Then the backend runs the query under
the deadline and the engine serializes the answer.

A graph the dataset does not hold, named by `default-graph-uri`,
`named-graph-uri`, FROM or FROM NAMED, is an empty graph: it is never
fetched. `format=` / `output=` stand for the Accept header; a browser's GET
(HTML preferred) gets the query page with the query filled in.

The prefixes of kg.model.iris.PREFIXES are predefined (a query's own PREFIX wins),
and a query the engine rejects gets a readable 400 (api/sparql/syntax.py). Jena's
full-text form (text:query, as INCEpTION sends it) is answered from the search
index before the engine runs (api/sparql/full_text.py).
"""

from __future__ import annotations

import pyoxigraph as ox
from flask import Blueprint, Response, current_app, g, request

from kg.api import negotiate
from kg.api.backend import execute
from kg.api.errors import ApiError
from kg.api.page import query_page
from kg.api.request_life import pinned_backend, reading_query
from kg.api.sparql import full_text, label_filters, protocol, record_lookups, syntax
from kg.api.sparql.known_restrictions import ANY, RDF_TYPE, Restriction
from kg.api.sparql.service_description import service_description
from kg.errors import QueryError
from kg.formats import rdf_syntaxes
from kg.model import iris, nquads
from kg.settings import limit
from kg.store import sparql_lexer as lexer

bp = Blueprint("sparql", __name__)

# Names a graph that never exists: the empty default graph (or empty set of
# named graphs) a dataset description implies when it leaves one side out.
EMPTY_GRAPH = "urn:x-kg:empty-graph"
TRUNCATED = "X-KG-Truncated"
ROW_LIMIT = "X-KG-Row-Limit"
EXPLAIN_WAIT = limit("explain_wait")
ANY_OFFER = {**negotiate.SOLUTION_OFFERS, **negotiate.GRAPH_OFFERS}
FEW_SUBJECTS = 5_000  # subjects of a restriction's triple kept per build (rdfs:subClassOf: hundreds)
MAX_ASKED = 500  # subjects a restriction is asked about in one query; more: the engine tests them
OTHER_NAMES = "names of records in other graphs"  # the build's answer _other_values computes
MANY_OTHER = 1_000_000  # names of records in other graphs read once a build; more: the engine does the lookups
RDFS, OWL = iris.FIXED_PREFIXES["rdfs"], iris.FIXED_PREFIXES["owl"]
LABEL, COMMENT, DEPRECATED = RDFS + "label", RDFS + "comment", OWL + "deprecated"


@bp.route("/sparql", methods=["GET", "POST"])
def sparql() -> Response:
    with reading_query():  # decoding and lexing take turns (api/admission.py); the run does not
        call = protocol.read(request, current_app.config["MAX_REQUEST_BYTES"])
        accept = call.accept or request.headers.get("Accept")
        plan = _plan(call, accept) if _is_query(call, accept) else None
    if plan is None:
        return _not_a_query(call, accept)
    return _run(*plan, call.query)


def _is_query(call: protocol.Call, accept: str | None) -> bool:
    """Whether the call asks for a query's answer (else the service description, the query page or an error)."""
    if call.query is None or call.update:
        return False
    return not (request.method == "GET" and call.accept is None and negotiate.prefers_html(accept, ANY_OFFER))


def _not_a_query(call: protocol.Call, accept: str | None) -> Response:
    if call.query is None and not call.update:
        if request.method in ("GET", "HEAD"):
            return service_description(call.accept)
        raise ApiError(400, "missing 'query' parameter")
    if call.update:
        raise ApiError(403, "this endpoint is read-only: SPARQL Update is refused")
    response = query_page.query_page(call.query)
    response.headers["Vary"] = "Accept"
    return response


def _plan(call: protocol.Call, accept: str | None) -> tuple[execute.Request, str, str]:
    """The job for the query workers, the media type to answer with and the one the engine writes."""
    info = _analyze(syntax.with_prefixes(call.query))  # the client's text: the full-text answer adds inline data only
    default, named = _dataset(call, info)
    sent = syntax.with_prefixes(_full_text(call.query, service_dataset=not (default or named)))
    served, engine = _negotiate(info.form, accept)
    job = execute.Request(
        sparql=sent, form=info.form, cap=int(current_app.config["MAX_ROWS"]), top_limit=info.top_limit,
        open_ended=info.open_ended, max_bytes=int(current_app.config["MAX_RESPONSE_BYTES"]),
        solutions_type=engine if info.form in ("SELECT", "ASK", None) else rdf_syntaxes.SPARQL_JSON.media_type,
        graph_type=engine if info.form in ("CONSTRUCT", "DESCRIBE") else rdf_syntaxes.TURTLE.media_type,
        default_graphs=default, named_graphs=named, prefixes=dict(iris.PREFIXES))
    return job, served, engine


def _full_text(query: str, service_dataset: bool) -> str:
    """The query with Jena's text:query patterns answered from the search index (api/sparql/full_text.py); on the
    service's dataset (the union of the graphs), the restrictions on their subjects told from the store too. Without
    them, a FILTER on a label is put in a group with the triple that binds it (api/sparql/label_filters.py)."""
    if not full_text.mentions_jena(query):
        return label_filters.placed(query)
    from kg.api.app_state import app_state
    from kg.api.build_answers import cached

    return full_text.rewrite(query, lambda: app_state().search.get(pinned_backend(), g.deadline),
                             lambda: cached("names of the schema", _schema_names), g.deadline,
                             _holding if service_dataset else None, _known_values if service_dataset else None)


def _known_values(predicates: frozenset[str], subjects: list[str]) -> dict[str, dict[str, list[str]]] | None:
    """The set of values of `predicates` (rdfs:label, rdfs:comment, owl:deprecated) of each of `subjects` in the
    union of the graphs, as SPARQL terms, when all are known without the engine evaluating a lookup a row
    (api/sparql/record_lookups.py): the subjects are records the search index summarizes, whose names and
    descriptions in kgg:entities it holds (records named under kg.model.iris.RESOURCE), with those other graphs add (read once a build, in the background: None
    until then); none is a subject of owl:deprecated (those few read once a build). None otherwise."""
    from kg.api.app_state import app_state
    from kg.api.build_answers import cached_if_ready

    if not predicates <= {LABEL, COMMENT, DEPRECATED} or not all(s.startswith(iris.RESOURCE) for s in subjects):
        return None
    other = cached_if_ready(OTHER_NAMES, lambda deadline: (_other_values(deadline),))
    deprecated = _few_subjects(f"?s <{DEPRECATED}> [] .") if DEPRECATED in predicates else frozenset()
    if other is None or other[0] is None or deprecated is None or not deprecated.isdisjoint(subjects):
        return None
    records = app_state().search.get(pinned_backend(), g.deadline).records(subjects, g.deadline)
    if len(records) < len(set(subjects)):
        return None
    added = other[0]
    return {subject: {LABEL: _terms(records[subject][0], added.get((subject, LABEL), [])),
                      COMMENT: _terms(records[subject][1], added.get((subject, COMMENT), [])), DEPRECATED: []}
            for subject in subjects}


def _terms(*values: list[str]) -> list[str]:
    """The plain strings of these lists, once each, as SPARQL literals."""
    return [nquads.literal(value) for value in sorted({v for listed in values for v in listed})]


def _other_values(deadline: float) -> dict[tuple[str, str], list[str]] | None:
    """The names and descriptions of the records the search index summarizes that other graphs than kgg:entities
    add to theirs, by (record, property) (records are named under kg.model.iris.RESOURCE: only those names are
    read); None when a value is not a plain string, when the store's own default graph names something, or past
    MANY_OTHER such names in the other graphs."""
    from kg.api.app_state import app_state

    backend = pinned_backend()
    if backend.select(record_lookups.NOT_PLAIN, deadline):
        return None
    if len({backend.select(query, deadline)[0]["n"] for query in record_lookups.NAME_COUNTS}) > 1:
        return None
    rows = backend.select(record_lookups.OTHER_VALUES + f" LIMIT {MANY_OTHER + 1}", deadline)
    if len(rows) > MANY_OTHER:
        return None
    held = app_state().search.get(backend, deadline).records(sorted({row["s"] for row in rows}), deadline)
    added: dict[tuple[str, str], list[str]] = {}
    for row in rows:
        record = held.get(row["s"])
        if record is None:
            continue  # not a record the index summarizes: a lookup of it is left to the engine
        if row.get("datatype") != record_lookups.XSD_STRING:
            return None
        if row["o"] not in record[0 if row["p"] == LABEL else 1]:
            added.setdefault((row["s"], row["p"]), []).append(row["o"])
    return added


def _holding(restriction: Restriction, subjects: list[str]) -> set[str] | None:
    """Those of `subjects` for which the restriction's triple holds in the union of the graphs: from all its
    subjects, read once per build when they are few (`?s rdfs:subClassOf []`), else asked about these (at most
    MAX_ASKED of them; more: None, and the engine tests them)."""
    pattern = restriction.pattern()
    known = None if restriction.triple[1:] == (RDF_TYPE, ANY) else _few_subjects(pattern)
    if known is not None:
        return {s for s in subjects if s in known}
    if len(subjects) > MAX_ASKED:
        return None
    values = " ".join(f"<{s}>" for s in subjects)
    rows = pinned_backend().select(f"SELECT DISTINCT ?s WHERE {{ VALUES ?s {{ {values} }} {pattern} }}", g.deadline)
    return {row["s"] for row in rows}


def _few_subjects(pattern: str) -> frozenset[str] | None:
    """The subjects of a triple pattern in the served build when there are at most FEW_SUBJECTS, read once a
    build (api/build_answers.cached); None when there are more."""
    from kg.api.build_answers import cached

    # kept as a 1-tuple: `cached` takes None for an answer not computed yet, and None here means "too many"
    return cached(f"subjects of {pattern}", lambda deadline: (_subjects_if_few(pattern, deadline),))[0]


def _subjects_if_few(pattern: str, deadline: float) -> frozenset[str] | None:
    rows = pinned_backend().select(f"SELECT DISTINCT ?s WHERE {{ {pattern} }} LIMIT {FEW_SUBJECTS + 1}", deadline)
    return frozenset(row["s"] for row in rows) if len(rows) <= FEW_SUBJECTS else None


def _schema_names(deadline: float) -> full_text.SchemaNames:
    rows = pinned_backend().select(full_text.schema_names_query(), deadline)
    return [(row["t"], row["l"], row["p"]) for row in rows]


def _run(job: execute.Request, served: str, engine: str, query: str) -> Response:
    try:
        result = pinned_backend().run(job, g.deadline)
    except QueryError as exc:
        with reading_query(at_least=EXPLAIN_WAIT):  # the run may have used up the time limit
            problem = syntax.explain(str(exc), query)
        raise ApiError(400, problem.detail, line=problem.line, column=problem.column,
                       excerpt=problem.excerpt, hint=problem.hint) from None
    response = Response(result.body, mimetype=served if result.media_type == engine else result.media_type)
    response.headers["Vary"] = "Accept"
    if job.cap > 0:
        response.headers[ROW_LIMIT] = str(job.cap)
        response.headers[TRUNCATED] = "true" if result.truncated else "false"
    return response


def _analyze(query: str) -> lexer.QueryInfo:
    """What the query is, read from the text sent to the engine (the predefined prefixes are its
    first line, so a position is given back on the client's own lines)."""
    try:
        info = lexer.analyze(query)
    except lexer.LexError as exc:
        line = getattr(exc, "line", None)
        raise ApiError(400, str(exc).replace(f"at {line}:", f"at {line - 1}:") if line else str(exc),
                       line=line - 1 if line else None, column=getattr(exc, "column", None)) from None
    if info.fetching:
        words = " and ".join(info.fetching)
        raise ApiError(400, f"{words} would make the server fetch remote data: refused, nothing was fetched "
                            "(this endpoint only queries its own graphs)")
    if info.update:
        raise ApiError(403, "this endpoint is read-only: SPARQL Update is refused")
    return info


def _dataset(call: protocol.Call, info: lexer.QueryInfo) -> tuple[list[str], list[str]]:
    """The default and named graphs the query runs on; ([], []) means the
    service default (the union of all graphs as default graph, every named graph).

    Protocol parameters override the query's FROM / FROM NAMED. A graph the
    dataset does not hold is an empty graph (the engine is given its name and
    finds nothing in it): nothing is ever fetched."""
    if call.default_graphs or call.named_graphs:
        default, named = list(call.default_graphs), list(call.named_graphs)
    elif info.has_dataset:
        default, named = list(info.from_graphs), list(info.from_named)
    else:
        return [], []
    bad = [iri for iri in default + named if not _is_iri(iri)]
    if bad:
        raise ApiError(400, f"a graph name must be an absolute IRI, not {bad[0]!r}")
    return (default or [EMPTY_GRAPH]), (named or [EMPTY_GRAPH])


def _is_iri(text: str) -> bool:
    try:
        ox.NamedNode(text)
    except ValueError:
        return False
    return True


def _negotiate(form: str | None, accept: str | None) -> tuple[str, str]:
    offers = negotiate.GRAPH_OFFERS if form in ("CONSTRUCT", "DESCRIBE") else negotiate.SOLUTION_OFFERS
    chosen = negotiate.choose(accept, offers)
    if chosen is None:
        raise ApiError(406, f"no acceptable media type for a {form or 'SPARQL'} answer; this endpoint offers "
                            + ", ".join(offers), offers=list(offers))
    return chosen
