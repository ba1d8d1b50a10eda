"""The Linked Data routes are constant paths under any base IRI: with KG_BASE_IRI set before the
server starts (a path once read from the setting at import time put the ontology at `/ogy` under
https://data.example.org/kg/), every IRI of a build minted under that base dereferences at its path
relative to the base, as a reverse proxy mapping the base to this server expects."""

from __future__ import annotations

import shutil
from typing import Iterator

import pytest
import requests

from kg.testing.servers import Server
from tests.helpers import TINY

BASE = "https://data.example.org/kg/"
TURTLE = {"Accept": "text/turtle"}


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[Server]:
    """`kg serve` with KG_BASE_IRI=BASE on the tiny corpus, built by the server itself under that base."""
    work = tmp_path_factory.mktemp("based-routes")
    shutil.copytree(TINY, work / "corpus")
    conf = work / "corpus" / "annotation.conf"  # a type of the corpus's own: minted under <base>vocab#
    conf.write_text(conf.read_text(encoding="utf-8").replace("[entities]\n", "[entities]\nGadget\n"), encoding="utf-8")
    (work / "corpus" / "gamma.txt").write_text("The drone flew.\n", encoding="utf-8")
    (work / "corpus" / "gamma.ann").write_text("T1\tGadget 4 9\tdrone\n", encoding="utf-8")
    srv = Server(work / "data", "--corpus", str(work / "corpus"), "--workers", "1", env={"KG_BASE_IRI": BASE})
    yield srv
    srv.stop()


def _one(server: Server, query: str) -> str:
    response = requests.post(server.url + "sparql", data={"query": query},
                             headers={"Accept": "application/sparql-results+json"}, timeout=30)
    assert response.status_code == 200, response.text
    return response.json()["results"]["bindings"][0]["x"]["value"]


def _path(iri: str) -> str:
    assert iri.startswith(BASE), iri
    return iri[len(BASE):]


def test_the_ontology_is_at_its_constant_path(server: Server) -> None:
    response = requests.get(server.url + "ontology", headers=TURTLE, timeout=30)
    assert response.status_code == 200, response.text
    assert "owl:Ontology" in response.text and "kgo:Person" in response.text
    assert requests.get(server.url + "ogy", headers=TURTLE, timeout=30).status_code == 404


@pytest.mark.parametrize("query", [
    "SELECT ?x WHERE { GRAPH ?g { ?x a kgo:Person } } LIMIT 1",  # <base>id/...
    "SELECT ?x WHERE { GRAPH ?g { ?x a kgo:NewsArticle } } LIMIT 1",  # <base>doc/...
    "SELECT ?x WHERE { GRAPH ?x { ?s a kgo:NewsArticle } } LIMIT 1",  # <base>graph/...
], ids=["entity", "document", "graph"])
def test_iris_under_the_base_dereference_at_their_paths(server: Server, query: str) -> None:
    iri = _one(server, query)
    response = requests.get(server.url + _path(iri), headers=TURTLE, timeout=30)
    assert response.status_code == 200, (iri, response.text[:300])
    assert response.headers["Content-Type"].startswith("text/turtle")
    assert _path(iri).rpartition("/")[2] in response.text  # its local name, abbreviated or in full


def test_the_corpus_vocabulary_is_at_its_constant_path(server: Server) -> None:
    term = _one(server, "SELECT ?x WHERE { GRAPH kgg:ontology { ?x ?p ?o } "
                        "FILTER(STRSTARTS(STR(?x), STR(kgv:))) } LIMIT 1")
    assert term.startswith(BASE + "vocab#")
    response = requests.get(server.url + "vocab", headers=TURTLE, timeout=30)
    assert response.status_code == 200, response.text
    assert term.partition("#")[2] in response.text
