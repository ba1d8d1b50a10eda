"""A graph built under a base IRI of its own, in a remote store (a real `oxigraph serve` and a real
Virtuoso 7, tests/remote/conftest.py): every graph kg writes there, its manifest included, lies
under that base; `kg serve --store` under the same base finds and answers it; kg under another
base sees none of it."""

from __future__ import annotations

from pathlib import Path

import pyoxigraph as ox
import requests

from kg.model.iris import DEFAULT_BASE
from kg.pipeline.builder import build
from kg.store.remote import RemoteStore, connect, manifest_graph
from kg.store.remote.owned import LIST_GRAPHS
from kg.testing.servers import Server
from tests.helpers import store_quads
from tests.remote.test_stores import TIMEOUT, assert_holds

BASE = "https://news.example.net/kg/"


def graph_names(remote: RemoteStore) -> set[str]:
    """The names of every graph of the store, kg's or not, empty or not, as its SPARQL endpoint lists
    them (Oxigraph lists empty graphs for `GRAPH ?g {}`, Virtuoso only graphs with triples). Sent
    through the store's own client, which sends again what Virtuoso rolled back (a deadlock)."""
    names: set[str] = set()
    for query in (LIST_GRAPHS, "SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }"):
        with remote.http.request("POST", remote.query_url, data={"query": query},
                                 headers={"Accept": "application/sparql-results+json"}) as answer:
            assert answer.status_code == 200, answer.text[:500]
            names |= {row["g"]["value"] for row in answer.json()["results"]["bindings"] if "g" in row}
    return names


def test_every_graph_and_the_manifest_lie_under_the_base(store_server, corpus_copy: Path, tmp_path: Path):
    data = tmp_path / "data"
    report = build(corpus_copy, data, validate=False, store_url=store_server.url, base_iri=BASE)
    with connect(store_server.url, base=BASE) as remote:
        assert remote.manifest_graph == manifest_graph(BASE) == BASE + "graph/kg-manifest"
        assert report.pushed == len(remote.graphs()) == 6
        assert_holds(remote, data)
        names = graph_names(remote)
        ours = {q.graph_name.value for q in store_quads(data)}
        assert ours <= names and all(g.startswith(BASE) for g in ours)
        bookkeeping = {n for n in names if "kg-manifest" in n}
        assert bookkeeping and all(n.startswith(BASE + "graph/kg-manifest") for n in bookkeeping)
        assert not [n for n in names if n.startswith(DEFAULT_BASE)]
    elsewhere = connect(store_server.url)  # the default base: another dataset, which this store does not hold
    try:
        assert elsewhere.graphs() == [] and elsewhere.manifest(fresh=True).build == ""
    finally:
        elsewhere.close()
    again = build(corpus_copy, data, validate=False, store_url=store_server.url, base_iri=BASE)
    assert again.mode == "unchanged" and again.pushed == 0  # the build found in the base's manifest


def test_serve_under_the_base_answers_from_the_store(store_server, corpus_copy: Path, tmp_path: Path):
    build(corpus_copy, tmp_path / "data", validate=False, store_url=store_server.url, base_iri=BASE)
    server = Server(tmp_path / "served", "--store", store_server.url, "--query-timeout", "30",
                    env={"KG_BASE_IRI": BASE})
    try:
        turtle = requests.get(server.url + "id/person/juan-guaido", headers={"Accept": "text/turtle"},
                              timeout=TIMEOUT)
        assert turtle.status_code == 200, turtle.text
        subjects = {t.subject.value for t in ox.parse(turtle.content, format=ox.RdfFormat.TURTLE)}
        assert BASE + "id/person/juan-guaido" in subjects
        entity = requests.get(server.url + "api/entities/person/juan-guaido", timeout=TIMEOUT).json()
        assert entity["iri"] == BASE + "id/person/juan-guaido" and entity["mentions"]
    finally:
        server.stop()
