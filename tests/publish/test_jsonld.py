"""JSON-LD people can use: the export carries the published @context (kg/publish/context.jsonld, in step
with ontology.ttl), compact terms, native numbers, one object per node, and reads back (with
rdflib's JSON-LD parser, not ours) as exactly the quads of the store, on our corpus and on a
brat example collection, under the default base and under another; the framed document of one
entity states what it is given, nests the statements about it with their sentence and article,
and writes each node once."""

from __future__ import annotations

import json
import shutil
from importlib.resources import files
from pathlib import Path

import pyoxigraph as ox
import pytest
import rdflib

from kg.api.linked_data import describe
from kg.model import iris
from kg.publish import jsonld
from kg.publish.export import ensure_export
from kg.store import build_dirs
from tests.brat_reference import brat_source
from tests.helpers import CORPUS, run_kg
from tests.jsonld_support import node_objects

EXAMPLES = brat_source().parent.parent / "example-data" / "corpora"
BASE = "https://archive.example.net/"
XSD = "http://www.w3.org/2001/XMLSchema#"


def _term(term) -> tuple:
    """A term of either library as a comparable tuple (a plain literal is an xsd:string)."""
    if isinstance(term, (ox.NamedNode, rdflib.URIRef)):
        return ("iri", term.value if isinstance(term, ox.NamedNode) else str(term))
    if isinstance(term, ox.Literal):
        return ("lit", term.value, term.language or "", "" if term.language else term.datatype.value)
    if isinstance(term, rdflib.Literal):
        return ("lit", str(term), term.language or "", "" if term.language else str(term.datatype or XSD + "string"))
    raise AssertionError(f"blank node or other term {term!r}: kg's graphs have none")


@pytest.fixture(scope="module", params=[(CORPUS, None), (CORPUS, BASE), (EXAMPLES / "TDT", BASE)],
                ids=["ours", "ours-own-base", "brat-TDT-own-base"])
def built(request, tmp_path_factory) -> Path:
    corpus, base = request.param
    work = tmp_path_factory.mktemp("jsonld")
    shutil.copytree(corpus, work / "corpus")
    args = ["--base-iri", base] if base else []
    result = run_kg("build", "--corpus", str(work / "corpus"), "--data", str(work / "data"), "--quiet", *args)
    assert result.exit_code == 0, result.output
    return build_dirs.current_build(work / "data")


def test_the_shipped_context_is_in_step_with_the_ontology() -> None:
    shipped = json.loads(files("kg.publish").joinpath(jsonld.CONTEXT_FILE).read_text(encoding="utf-8"))
    assert shipped == jsonld.shipped_context(), "regenerate kg/publish/context.jsonld from ontology.ttl (jsonld.shipped_context)"
    terms = shipped["@context"]
    assert terms["memberOf"] == {"@id": "kgo:memberOf", "@type": "@id"}
    assert terms["Person"] == "kgo:Person" and terms["prefLabel"] == "skos:prefLabel"
    with iris.using_base(BASE):
        assert jsonld.context()["@context"]["kgr"] == BASE + "id/"


def test_export_reads_back_as_the_store(built: Path) -> None:
    text = ensure_export(built, "jsonld").read_text(encoding="utf-8")
    dataset = rdflib.Dataset()
    dataset.parse(data=text, format="json-ld")
    got = {(_term(s), _term(p), _term(o), str(g)) for s, p, o, g in dataset.quads() if g is not None}
    store = ox.Store.read_only(str(build_dirs.store_path(built)))
    expected = {(_term(q.subject), _term(q.predicate), _term(q.object), q.graph_name.value) for q in store}
    assert got == expected, (len(got - expected), len(expected - got), sorted(expected - got)[:3])


def test_export_is_compact_and_native(built: Path) -> None:
    document = json.loads(ensure_export(built, "jsonld").read_text(encoding="utf-8"))
    base = build_dirs.base_iri(built)
    assert document["@context"] == jsonld._context_for(base)
    keys, counts = set(), []
    for graph in document["@graph"]:
        ids = [node["@id"] for node in graph["@graph"]]
        assert len(ids) == len(set(ids)), f"a node twice in {graph['@id']}"  # one object per node
        for node in graph["@graph"]:
            keys |= set(node)
            counts += [node["mentionCount"]] if "mentionCount" in node else []
    assert not [k for k in keys if k.startswith("http")], "a property written as a full IRI"
    assert counts and all(isinstance(n, int) for n in counts)
    assert "prefLabel" in keys and "@type" in keys


def test_framed_entity_cites_sentence_and_article(built: Path) -> None:
    store = ox.Store.read_only(str(build_dirs.store_path(built)))
    with iris.using_base(build_dirs.base_iri(built)):
        entity = next(q.subject.value for q in store.quads_for_pattern(
            None, ox.NamedNode(iris.FIXED_PREFIXES["rdf"] + "type"), None, ox.NamedNode(iris.ENTITIES_GRAPH))
            if any(store.quads_for_pattern(None, ox.NamedNode(iris.FIXED_PREFIXES["rdf"] + "object"), q.subject)))
        triples = list(store.query(describe.resource_construct(entity), use_default_graph_as_union=True))
        document = jsonld.frame(triples, entity)
    assert document["@id"].endswith(entity.rsplit("/", 1)[-1]) and "prefLabel" in document
    statements = [s for v in document["@reverse"].values() for s in (v if isinstance(v, list) else [v])]
    cited = [s for s in statements if isinstance(s.get("evidence"), dict)]
    assert cited, "no statement with its sentence nested"
    sentence = cited[0]["evidence"]
    assert sentence["anchorOf"] and isinstance(sentence["beginIndex"], int)
    article = sentence["referenceContext"]
    article_id = article["@id"] if isinstance(article, dict) else article
    assert article_id.startswith("doc:")
    assert any(n["@id"] == article_id and "NewsArticle" in n.get("@type", ()) for n in node_objects(document))
    graph = rdflib.Graph().parse(data=json.dumps(document), format="json-ld")
    every = {(_term(q.subject), _term(q.predicate), _term(q.object)) for q in store}
    read = {(_term(s), _term(p), _term(o)) for s, p, o in graph}
    assert read and read <= every  # the framed document states nothing the store does not
    assert read == {(_term(t.subject), _term(t.predicate), _term(t.object)) for t in triples}  # and all it was given
    ids = [n["@id"] for n in node_objects(document)]
    assert len(ids) == len(set(ids))  # one object per node



def test_compact_iris_take_the_longest_namespace(built: Path) -> None:
    """The compactor's lookup (by the namespaces an IRI can have) agrees with the longest-prefix rule on
    every IRI of the store, and on IRIs that end at a namespace or hold '//'."""
    store = ox.Store.read_only(str(build_dirs.store_path(built)))
    with iris.using_base(build_dirs.base_iri(built)):
        compactor = jsonld.Compactor(jsonld.context()["@context"])
        edges = {iris.BASE, iris.RESOURCE, iris.RESOURCE + "person/", iris.RESOURCE + "x//y", "urn:isbn:1", "http://a//b"}
        every = {t.value for q in store for t in (q.subject, q.predicate, q.object, q.graph_name)
                 if isinstance(t, ox.NamedNode)} | edges
        assert len(every) > 100
        assert {v: compactor.iri(v) for v in every} == {v: jsonld._compact(v, compactor.prefixes) for v in every}
        assert compactor.iri(iris.RESOURCE + "person/juan-guaido") == "person:juan-guaido"
