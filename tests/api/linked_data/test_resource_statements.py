"""The statements a thing's or an article's page lists (api/linked_data/resource_page.py): chosen by a query of
their order alone, then described (api/linked_data/describe.py). Checked against the one query that did both,
on every entity and article of the shipped corpus, and on the size of what the second query reads."""

from __future__ import annotations

import pyoxigraph as ox
import pytest

from kg.api.linked_data import describe
from kg.api.sparql.syntax import with_prefixes
from kg.model.iris import DOCUMENT, ENTITIES_GRAPH
from kg.store import build_dirs
from tests.api.linked_support import most_stated, path_of


def _one_query(iri: str, limit: int) -> str:
    """The page's statements as one query computed them before: every statement of `iri` joined with
    its labels, article and sentences, then sorted and cut."""
    record = "a kgo:Statement ; rdf:subject ?s ; rdf:predicate ?p ; rdf:object ?o"
    return with_prefixes(f"""SELECT ?st ?s ?p ?o ?doc (SAMPLE(?sl) AS ?sLabel) (SAMPLE(?pl) AS ?pLabel)
       (SAMPLE(?ol) AS ?oLabel) (IF(isIRI(?o), "iri", "literal") AS ?kind) (SAMPLE(?text) AS ?sentence)
       (MIN(?begin) AS ?at) (SAMPLE(?t) AS ?title) (SAMPLE(?d) AS ?date) (SAMPLE(?pub) AS ?publisher) WHERE {{
  {{ SELECT DISTINCT ?st ?s ?p ?o WHERE {{
    {{ ?st rdf:subject <{iri}> ; {record} }} UNION {{ ?st rdf:object <{iri}> ; {record} }}
    UNION {{ ?st prov:wasDerivedFrom <{iri}> ; {record} }} }} }}
  OPTIONAL {{ ?st prov:wasDerivedFrom ?doc .
             OPTIONAL {{ ?doc dcterms:title ?t }} OPTIONAL {{ ?doc dcterms:date ?d }}
             OPTIONAL {{ ?doc kgo:publisher/skos:prefLabel ?pub }} }}
  OPTIONAL {{ ?st kgo:evidence ?sentenceNode
             OPTIONAL {{ ?sentenceNode nif:anchorOf ?text }} OPTIONAL {{ ?sentenceNode nif:beginIndex ?begin }} }}
  OPTIONAL {{ ?s skos:prefLabel|rdfs:label ?sl }}
  OPTIONAL {{ ?p rdfs:label ?pl }}
  OPTIONAL {{ ?o skos:prefLabel|rdfs:label ?ol }}
}} GROUP BY ?st ?s ?p ?o ?doc ?sentenceNode ORDER BY ?doc ?at ?st LIMIT {limit}""")


@pytest.fixture(scope="module")
def store(shipped_data):
    return ox.Store.read_only(str(build_dirs.store_path(build_dirs.current_build(shipped_data))))


def _rows(store: ox.Store, sparql: str) -> list[tuple]:
    return [tuple(None if term is None else str(term) for term in row)
            for row in store.query(sparql, use_default_graph_as_union=True)]


def _two_queries(store: ox.Store, iri: str) -> list[tuple]:
    keys = [{name: term.value for name, term in zip(("st", "doc", "sentenceNode"), row) if term is not None}
            for row in store.query(describe.statement_keys(iri), use_default_graph_as_union=True)]
    return _rows(store, describe.statements(keys)) if keys else []


@pytest.mark.parametrize("limit", [describe.MAX_ROWS, 7])
def test_the_two_queries_give_the_rows_of_the_one_query_for_every_entity_and_article(store, monkeypatch, limit):
    monkeypatch.setattr(describe, "MAX_ROWS", limit)  # 7: most pages are cut, in the middle of articles
    things = [str(q.subject.value) for q in store.quads_for_pattern(None, None, None, ox.NamedNode(ENTITIES_GRAPH))]
    things = sorted(set(things)) + [str(r[0].value) for r in store.query(
        "SELECT ?d WHERE { ?d a <https://kg.example.org/ontology#NewsArticle> }", use_default_graph_as_union=True)]
    cut = 0
    for iri in things:
        expected = _rows(store, _one_query(iri, limit))
        assert _two_queries(store, iri) == expected, iri
        cut += len(expected) == limit
    assert (limit > 7 or cut > 3) and any(t.startswith(DOCUMENT) for t in things)


def test_the_page_describes_only_the_statements_it_lists(client, shipped_data, monkeypatch, sparql_sent):
    """What the second query reads is bounded by the page's size, not by how much the graph says of
    the thing (every statement of a country joined with its labels and sentences took 15 s at 10,000
    articles)."""
    monkeypatch.setattr(describe, "MAX_ROWS", 3)
    asked = sparql_sent
    page = client.get(path_of(most_stated(shipped_data)), headers={"Accept": "text/html"})
    assert page.status_code == 200, page.get_data(as_text=True)[:300]
    described = [q for q in asked if "VALUES (?st ?doc ?sentenceNode)" in q]
    assert len(described) == 1
    assert 1 <= described[0].split("VALUES (?st ?doc ?sentenceNode) {", 1)[1].split("}", 1)[0].count("(") <= 3
