"""The remote-store suite, run against every engine (tests/remote/conftest.py): a real
`oxigraph serve` and a real Virtuoso 7, each started by the suite.

What a build pushes is exactly what it built, graph by graph, after a full build and after
editing, adding and removing a document; graphs kg did not write survive; a push that fails
leaves the previous build published and is redone by the next build; `kg serve --store`
answers SPARQL, the JSON API, the exports and the view from the store, with the union default
graph made of kg's graphs only."""

from __future__ import annotations

import time
from pathlib import Path

import pyoxigraph as ox
import pytest
import requests

from kg.errors import StoreError
from kg.model.iris import ENTITIES_GRAPH, graph_iri
from kg.pipeline.builder import build
from kg.store import build_dirs
from kg.store.remote import RemoteStore, RemoteTimeout, connect
from tests.helpers import (
    NPR,
    add_article as _add,
    assert_same_quads,
    edit_npr as _edit,
    remove_npr as _remove,
    store_quads,
)

FOREIGN = "http://example.org/other-project/graph"
FOREIGN_TRIPLES = b'<http://example.org/s> <http://example.org/p> "kept by its owner" .\n'
TIMEOUT = 60


def remote_quads(remote: RemoteStore) -> set[ox.Quad]:
    """Every quad of kg's graphs in the store, read graph by graph (Graph Store Protocol GET)."""
    quads: set[ox.Quad] = set()
    for graph in remote.graphs():
        body, fmt = remote.graph_ntriples(graph)
        name = ox.NamedNode(graph)
        quads |= {ox.Quad(t.subject, t.predicate, t.object, name) for t in ox.parse(body, format=fmt)}
    return quads


def assert_holds(remote: RemoteStore, data: Path) -> None:
    """The store holds exactly the current build: the same graphs, the same quads."""
    local = store_quads(data)
    assert remote.manifest(fresh=True).build == build_dirs.current_build(data).name
    assert remote.graphs() == sorted({q.graph_name.value for q in local})
    assert_same_quads(remote_quads(remote), local, "remote graphs")


def test_full_then_incremental_pushes(remote: RemoteStore, store_server, corpus_copy: Path, tmp_path: Path):
    data = tmp_path / "data"
    report = build(corpus_copy, data, validate=False, store_url=store_server.url)
    assert report.pushed == len(remote.graphs()) == 4 + 2
    assert_holds(remote, data)
    for change, _slug in ((_edit, NPR), (_add, "zz-new"), (_remove, NPR)):
        change(corpus_copy)
        report = build(corpus_copy, data, validate=False, store_url=store_server.url)
        assert report.mode == "incremental"
        # only the document's graph and the entity records travel (a removal sends the records)
        assert report.pushed == (1 if change is _remove else 2), change.__name__
        assert_holds(remote, data)
    assert graph_iri(NPR) not in remote.graphs() and ENTITIES_GRAPH in remote.graphs()
    assert graph_iri(NPR) not in remote.graphs() and graph_iri("zz-new") in remote.graphs()
    unchanged = build(corpus_copy, data, validate=False, store_url=store_server.url)
    assert unchanged.mode == "unchanged" and unchanged.pushed == 0


def test_foreign_graphs_survive_a_full_build(remote: RemoteStore, store_server, corpus_copy: Path,
                                             tmp_path: Path):
    remote.replace_graph(FOREIGN, FOREIGN_TRIPLES)
    data = tmp_path / "data"
    build(corpus_copy, data, validate=False, store_url=store_server.url)
    _remove(corpus_copy)
    build(corpus_copy, data, validate=False, store_url=store_server.url, full=True)
    assert_holds(remote, data)
    body, fmt = remote.graph_ntriples(FOREIGN)
    assert [t.object.value for t in ox.parse(body, format=fmt)] == ["kept by its owner"]
    # the union default graph is kg's graphs only: neither the foreign graph, the manifest,
    # nor an engine's own system graphs
    total = int(remote.select("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }")[0]["n"])
    assert total == len(store_quads(data))
    assert FOREIGN not in remote.graphs() and remote.manifest_graph not in remote.graphs()


def test_union_default_graph_is_kg_graphs_alone_on_the_fast_path_too(remote: RemoteStore, store_server,
                                                                      corpus_copy: Path, tmp_path: Path):
    """While the store holds nothing but kg's graphs, an engine with a union of its own
    (Oxigraph) answers from it, with the manifest left out (it lives in empty graphs' names);
    once anything else is in the store, kg's graphs are named again, and the answers stay
    kg's alone either way."""
    data = tmp_path / "data"
    build(corpus_copy, data, validate=False, store_url=store_server.url)
    count = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"
    kg_quads = len(store_quads(data))
    fast = bool(remote.engine.union_param)
    assert remote.holds_only_kg() is fast
    assert int(remote.select(count)[0]["n"]) == kg_quads
    remote.replace_graph(FOREIGN, FOREIGN_TRIPLES)
    assert remote.manifest(fresh=True).build == build_dirs.current_build(data).name
    assert remote.holds_only_kg() is False
    assert int(remote.select(count)[0]["n"]) == kg_quads
    remote.drop_graph(FOREIGN)
    assert remote.manifest(fresh=True) and remote.holds_only_kg() is fast
    if remote.engine.manifest_in_names:  # a triple in the server's default graph is foreign too
        requests.post(remote.gsp_url + "?default", data=FOREIGN_TRIPLES,
                      headers={"Content-Type": "application/n-triples"}, timeout=TIMEOUT).raise_for_status()
        remote.manifest(fresh=True)
        assert remote.holds_only_kg() is False
        assert int(remote.select(count)[0]["n"]) == kg_quads


def test_failed_push_leaves_the_previous_build_published(remote: RemoteStore, store_server,
                                                         corpus_copy: Path, tmp_path: Path):
    data = tmp_path / "data"
    build(corpus_copy, data, validate=False, store_url=store_server.url)
    before = build_dirs.current_build(data)
    _edit(corpus_copy)
    store_server.stop()
    with pytest.raises(StoreError, match="not published"):
        build(corpus_copy, data, validate=False, store_url=store_server.url)
    assert build_dirs.current_build(data) == before
    store_server.start()
    assert remote.manifest(fresh=True).build == before.name  # the store still holds the old build
    report = build(corpus_copy, data, validate=False, store_url=store_server.url)  # tried again
    assert report.mode == "incremental" and report.changed == [NPR]
    assert build_dirs.current_build(data) != before
    assert_holds(remote, data)
    # a store that answers with an error status: the same
    current = build_dirs.current_build(data)
    _add(corpus_copy)
    with pytest.raises(StoreError, match=r"not published.*HTTP \d\d\d"):
        build(corpus_copy, data, validate=False, store_url=store_server.url,
              store_settings={"STORE_GSP": store_server.base + "/no-such-endpoint"})
    assert build_dirs.current_build(data) == current
    assert_holds(remote, data)


def test_unpushed_current_build_is_pushed_by_the_next_build(remote: RemoteStore, store_server,
                                                            corpus_copy: Path, tmp_path: Path):
    data = tmp_path / "data"
    build(corpus_copy, data, validate=False)  # built without the store
    report = build(corpus_copy, data, validate=False, store_url=store_server.url)
    assert report.mode == "unchanged" and report.pushed == 6
    assert_holds(remote, data)


# -- kg serve --store -------------------------------------------------------------------------

def get(server, path: str, **kwargs) -> requests.Response:
    return requests.get(server.url + path, timeout=TIMEOUT, **kwargs)


def sparql(server, query: str, accept: str = "application/sparql-results+json") -> requests.Response:
    return get(server, "sparql", params={"query": query}, headers={"Accept": accept})


def test_sparql_from_the_store_matches_the_embedded_store(served, server):
    _, ours = served
    for query in ("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }",
                  "SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE { ?s a <https://kg.example.org/ontology#Mention> }",
                  "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }",
                  "SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g ORDER BY ?g",
                  f"SELECT ?t (COUNT(*) AS ?n) WHERE {{ GRAPH <{ENTITIES_GRAPH}> {{ ?e a ?t }} }} GROUP BY ?t ORDER BY ?t",
                  f"SELECT (COUNT(*) AS ?n) WHERE {{ ?m <https://kg.example.org/ontology#denotes> ?e . "
                  f"GRAPH <{ENTITIES_GRAPH}> {{ ?e ?p ?label FILTER(isLiteral(?label)) }} }}"):
        there, here = sparql(ours, query), sparql(server, query)
        assert there.status_code == 200, there.text
        assert there.json()["results"]["bindings"] == here.json()["results"]["bindings"], query


def test_answer_forms_and_formats(served):
    _, ours = served
    ask = sparql(ours, "ASK { ?s ?p ?o }")
    assert ask.json()["boolean"] is True
    assert sparql(ours, "ASK { <http://example.org/nothing> ?p ?o }").json()["boolean"] is False
    xml_ask = sparql(ours, "ASK { ?s ?p ?o }", "application/sparql-results+xml")
    assert b"<boolean>true</boolean>" in xml_ask.content
    csv = sparql(ours, "SELECT ?n WHERE { VALUES ?n { 1 2 } }", "text/csv")
    assert csv.text.split() == ["n", "1", "2"]
    # uncapped SELECT and CONSTRUCT go through the row cap (the store's answer converted)
    rows = sparql(ours, "SELECT ?s WHERE { ?s a <https://kg.example.org/ontology#Mention> }")
    assert rows.status_code == 200 and len(rows.json()["results"]["bindings"]) > 100
    graph = sparql(ours, "CONSTRUCT WHERE { ?s a <https://kg.example.org/ontology#Person> }", "text/turtle")
    assert graph.status_code == 200 and graph.headers["Content-Type"].startswith("text/turtle")
    assert len(list(ox.parse(graph.content, format=ox.RdfFormat.TURTLE))) > 10
    capped = sparql(ours, "SELECT * WHERE { ?s ?p ?o }")
    assert capped.headers["X-KG-Truncated"] == "true" and len(capped.json()["results"]["bindings"]) == 10000
    assert sparql(ours, "SELECT * WHERE { ?s ?p }").status_code == 400


def test_json_api_view_and_health(served, server):
    store, ours = served
    entity = get(ours, "api/entities/person/juan-guaido").json()
    assert entity["label"] == "Juan Guaidó" and entity["mentions"]
    assert get(ours, "api/search", params={"q": "cucuta"}).json()["items"][0]["id"] == "place/cucuta"
    health = get(ours, "health").json()
    assert health["status"] == "ok" and health["store"] == "remote" and health["engine"] == store.name
    view = get(ours, "graph")
    assert view.status_code == 200 and "Juan Guaidó" in view.text
    by_mentions = get(ours, "api/entities", params={"sort": "mentions", "limit": 20}).json()["items"]
    assert [i["mentions"] for i in by_mentions] == sorted((i["mentions"] for i in by_mentions), reverse=True)
    own = [e for e in get(ours, "examples.json").json() if e["group"] == "corpus"]  # read from the store's schema
    assert own == [e for e in get(server, "examples.json").json() if e["group"] == "corpus"]  # as from the build
    assert all(sparql(ours, e["query"]).json()["results"]["bindings"] for e in own)


@pytest.mark.parametrize("fmt", ["nq", "trig", "ttl", "jsonld"])
def test_exports_from_the_store_equal_the_build(served, server, fmt):
    _, ours = served
    there, here = get(ours, f"export.{fmt}"), get(server, f"export.{fmt}")
    assert there.status_code == 200, there.text
    rdf = {"nq": ox.RdfFormat.N_QUADS, "trig": ox.RdfFormat.TRIG, "ttl": ox.RdfFormat.TURTLE,
           "jsonld": ox.RdfFormat.JSON_LD}[fmt]
    parsed = set(ox.parse(there.content, format=rdf))
    assert parsed == set(ox.parse(here.content, format=rdf))
    assert len(parsed) > 10000


def test_time_limit(served):
    """A query over the time limit ends as RemoteTimeout (Virtuoso: told the limit, it stops and
    flags its cut answer; Oxigraph: the read times out); the store answers the next query."""
    store, _ = served
    remote = connect(store.url)
    remote.limit_time(1.0)
    started = time.monotonic()
    with pytest.raises(RemoteTimeout):
        remote.select("SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }")
    assert time.monotonic() - started < 10
    remote.limit_time(30.0)
    assert remote.select("ASK { ?s ?p ?o }") == [{"boolean": "true"}]
