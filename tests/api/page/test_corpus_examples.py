"""The query page's examples made from the served corpus's own schema: on brat's CoNLL-ST_2002
example collection (PER, ORG, LOC, MISC; no relation; built with the default alignment off, so that
its types are its own), whose corpus kg's own examples say nothing about, and on the shipped corpus. Expected answers are counted in the build's store with plain
pyoxigraph."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pyoxigraph as ox
import pytest
from markupsafe import escape

from kg.api.page.corpus_examples import PER_KIND
from kg.api.page.examples import EXAMPLES
from kg.model.iris import ENTITIES_GRAPH, PREFIXES, RDF_TYPE
from kg.pipeline.builder import build
from tests.api.linked_support import reference
from tests.brat_reference import brat_source
from tests.helpers import made_app
from tests.viz.support import join_blocks, publish_sample

CONLL = brat_source().parent.parent / "example-data" / "corpora" / "CoNLL-ST_2002"
HOSTILE_SCHEMA = Path(__file__).resolve().parents[2] / "data" / "hostile-schema.trig"
EVIL = "</script><script>window.__pwned=1</script><b>Evil</b>"
HARMS = "<img src=x onerror=\"window.__pwned=2\">harms"
RDF = PREFIXES["rdf"]


def _answer(client, query: str) -> list[dict[str, str]]:
    response = client.post("/sparql", data={"query": query})
    assert response.status_code == 200, response.get_data(as_text=True)
    return [{k: v["value"] for k, v in r.items()} for r in json.loads(response.data)["results"]["bindings"]]


@pytest.fixture(scope="module")
def conll(tmp_path_factory):
    root = tmp_path_factory.mktemp("conll")
    corpus, data = root / "corpus", root / "data"
    shutil.copytree(CONLL, corpus)
    (corpus / "kg.toml").write_text("[align]\ndefault = false\n")
    build(corpus, data)
    with made_app({"DATA": str(data), "WORKERS": 1}) as app:
        yield data, app.test_client()


def test_a_corpus_of_its_own_schema_gets_examples_of_its_most_frequent_types(conll):
    data, client = conll
    store = reference(data)
    typed = Counter(q.object.value for q in store.quads_for_pattern(None, ox.NamedNode(RDF_TYPE), None,
                                                                      ox.NamedNode(ENTITIES_GRAPH)))
    expected = [t for t, _ in sorted(typed.items(), key=lambda kv: (-kv[1], kv[0]))][:PER_KIND]
    listed = client.get("/examples.json").get_json()
    own = [e for e in listed if e["group"] == "corpus"]
    # then those of kg's own that answer on this graph (tests/api/json_api/test_any_corpus.py)
    assert listed[:len(own)] == own and {e["group"] for e in listed[len(own):]} <= {"kg"}
    assert [e["title"] for e in own] == [f"Most mentioned: {t.rsplit('#', 1)[-1]}" for t in expected]
    for example, cls in zip(own, expected):
        rows = _answer(client, example["query"])
        assert len(rows) == min(typed[cls], 100)
        assert all(ox.Quad(ox.NamedNode(r["entity"]), ox.NamedNode(RDF_TYPE), ox.NamedNode(cls),
                           ox.NamedNode(ENTITIES_GRAPH)) in store for r in rows)
        mentions = [int(r["mentions"]) for r in rows]
        assert mentions == sorted(mentions, reverse=True)
        assert _answer(client, example["portable"]) == rows


def test_the_query_page_lists_the_corpus_examples_before_kg_own(conll):
    _, client = conll
    html = client.get("/").get_data(as_text=True)
    assert html.index("From this corpus") < html.index("Most mentioned: PER")
    assert 'data-example="offices"' not in html  # kg's news questions have no answer on CoNLL


def test_relations_of_the_served_corpus_get_examples_citing_their_sentences(client, shipped_data):
    store = reference(shipped_data)
    stated = Counter(q.object.value for q in store.quads_for_pattern(None, ox.NamedNode(RDF + "predicate"), None))
    expected = [p for p, _ in sorted(stated.items(), key=lambda kv: (-kv[1], kv[0]))][:PER_KIND]
    own = [e for e in client.get("/examples.json").get_json() if e["id"].startswith("corpus-relation-")]
    assert len(own) == PER_KIND
    for example, predicate in zip(own, expected):
        rows = _answer(client, example["query"])
        assert rows and len(rows) <= 100
        for row in rows:
            found = store.query(f"""ASK {{ ?st <{RDF}subject> <{row['subject']}> ; <{RDF}predicate> <{predicate}> ;
                <{RDF}object> <{row['object']}> ; <{PREFIXES['kgo']}evidence>/<{PREFIXES['nif']}anchorOf> ?text
                FILTER(?text = {json.dumps(row['sentence'])}) }}""", use_default_graph_as_union=True)
            assert bool(found), row


def test_without_a_build_kg_own_examples_are_offered_and_the_corpus_is_asked_again(tmp_path: Path):
    data = tmp_path / "data"
    with made_app({"DATA": str(data), "WORKERS": 1}) as app:
        client = app.test_client()
        assert [e["id"] for e in client.get("/examples.json").get_json()] == [e.id for e in EXAMPLES]
        assert client.get("/").status_code == 200
        build(CONLL, data)
        # PER is aligned by default with kgo:Person, whose label names the example
        assert client.get("/examples.json").get_json()[0]["title"] == "Most mentioned: person"


def test_corpus_names_stay_text_on_the_query_page_and_in_the_view(tmp_path: Path):
    """A type and a relation whose labels are markup: the query page shows them as titles, escaped,
    and the network view's legends carry them as data, never as markup."""
    data = tmp_path / "data"
    publish_sample(data, with_view=False, source=HOSTILE_SCHEMA)
    with made_app({"DATA": str(data), "WORKERS": 1}) as app:
        client = app.test_client()
        listed = client.get("/examples.json").get_json()
        page = client.get("/").get_data(as_text=True)
        view = client.get("/graph").get_data(as_text=True)
    assert [e["title"] for e in listed if e["group"] == "corpus"] == [f"Most mentioned: {EVIL}", f"Relation: {HARMS}"]
    for html in (page, view):
        assert "<script>window" not in html and "<img src=x" not in html and "<b>Evil" not in html
    assert str(escape(f"Most mentioned: {EVIL}")) in page
    shown = join_blocks(view)
    assert EVIL in [entry["label"] for entry in shown["legend"]]
    assert HARMS in [entry["label"] for entry in shown["relationLegend"]]
