"""A corpus's own vocabulary is declared in its build: every kgv: class and property a build mints
has its type, label and comment, and its place under its parent and kgo term, in the build's
ontology graph; `kg validate` accepts the build, and so does a SHACL tool reasoning with RDFS; and every
predicate of every graph is among the properties INCEpTION's knowledge-base listing finds, with a label
(tests/api/services/inception_queries.py: its query, run here on the build's store)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pyoxigraph as ox
import pytest
import rdflib

from kg.model import iris
from kg.publish.export import ensure_export
from kg.store import build_dirs
from kg.store.terms import from_oxigraph
from tests.api.services import inception_queries
from tests.helpers import TINY, assert_same_quads, run_kg, shared_corpus, store_quads

PUBLIC = Path(__file__).resolve().parents[1] / "data" / "public"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
OWL = "http://www.w3.org/2002/07/owl#"
ONTOLOGY_GRAPH = "https://kg.example.org/graph/ontology"
# The shared corpora of layouts tests/corpora/test_public_corpora.py does not build (it checks, with
# `kg validate`, the others): WebAnno TSV3, and the XMI and TSV3 pairs.
SHARED = {
    "senticoref": ("webanno-tsv3", "senticoref"), "globalise": ("webanno-tsv3", "globalise"),
    "arete": ("webanno-tsv3", "arete"), "ner4archives-tsv": ("webanno-tsv3", "ner4archives"),
    "neurobridge": ("webanno-tsv3-xmi-pairs", "neurobridge"), "globalise-pairs": ("webanno-tsv3-xmi-pairs", "globalise"),
}
CONF = """[entities]
# A disease or syndrome, as the clinician wrote it.
DISEASE
PER
	PER-Pronoun
[relations]
# The disease a person has.
HAS\tArg1:PER, Arg2:DISEASE

Other\tArg1:PER, Arg2:PER|PER-Pronoun
[events]
# Care given to a patient.
Treatment\tRecipient:PER|PER-Pronoun
[attributes]
Chronic\tArg:DISEASE
"""
TEXT = "Ann Lee has asthma. She got treated.\n"
ANN = "T1\tPER 0 7\tAnn Lee\nT2\tDISEASE 12 18\tasthma\nT3\tPER-Pronoun 20 23\tShe\nT4\tTreatment 24 27\tgot\n" \
      "R1\tHAS Arg1:T1 Arg2:T2\nE1\tTreatment:T4 Recipient:T3\nA1\tChronic T2\nR2\tOther Arg1:T1 Arg2:T3\n"


def _build(corpus: Path, data: Path) -> None:
    result = run_kg("build", "--quiet", "--corpus", str(corpus), "--data", str(data))
    assert result.exit_code == 0, result.output


def _quads(data: Path) -> list[ox.Quad]:
    store = ox.Store.read_only(str(build_dirs.store_path(build_dirs.current_build(data))))
    return list(store)


def _declarations(quads: list[ox.Quad]) -> dict[str, dict[str, set[str]]]:
    """{minted term: {predicate: objects}} of the build's ontology graph."""
    found: dict[str, dict[str, set[str]]] = {}
    for quad in quads:
        if quad.graph_name.value == ONTOLOGY_GRAPH and quad.subject.value.startswith(iris.DEFAULT_BASE + "vocab#"):
            found.setdefault(quad.subject.value, {}).setdefault(quad.predicate.value, set()).add(quad.object.value)
    return found


def _minted_in_use(quads: list[ox.Quad]) -> set[str]:
    """kgv: classes and properties the document graphs and records use."""
    vocab = iris.DEFAULT_BASE + "vocab#"
    used = set()
    for quad in quads:
        if quad.graph_name.value == ONTOLOGY_GRAPH:
            continue
        used |= {quad.predicate.value} if quad.predicate.value.startswith(vocab) else set()
        if quad.predicate.value == RDF_TYPE and quad.object.value.startswith(vocab):
            used.add(quad.object.value)
    return used


def _assert_declared(data: Path) -> None:
    quads = _quads(data)
    declared = _declarations(quads)
    used = _minted_in_use(quads)
    assert used, "the corpus has types of its own"
    for term in used:
        kinds = declared.get(term, {}).get(RDF_TYPE, set())
        assert kinds & {OWL + "Class", OWL + "ObjectProperty", OWL + "DatatypeProperty"}, term
        assert declared[term].get(RDFS + "label") and declared[term].get(RDFS + "comment"), term
    result = run_kg("validate", "--data", str(data))
    assert result.exit_code == 0, result.output
    _assert_properties_listed(data)


def _assert_properties_listed(data: Path) -> None:
    store = ox.Store.read_only(str(build_dirs.store_path(build_dirs.current_build(data))))
    used = {quad.predicate.value for quad in store}
    labels: dict[str, set[str]] = {}
    for row in store.query(inception_queries.properties(), use_default_graph_as_union=True):
        labels.setdefault(row["subj"].value, set()).update([row["m"].value] if row["m"] else [])
    assert sorted(used - labels.keys()) == []
    assert sorted(p for p in used if not labels[p]) == []


@pytest.mark.parametrize("name", sorted(SHARED))
def test_the_shared_corpora_validate(name: str, tmp_path: Path) -> None:
    corpus = shared_corpus(*SHARED[name])
    _build(corpus, tmp_path / "data")
    _assert_declared(tmp_path / "data")


@pytest.fixture
def clinical(tmp_path: Path) -> Path:
    corpus = tmp_path / "clinical"
    corpus.mkdir()
    (corpus / "annotation.conf").write_text(CONF)
    (corpus / "note.txt").write_text(TEXT)
    (corpus / "note.ann").write_text(ANN)
    return corpus


def test_declarations_carry_the_conf_comments_and_the_hierarchy(clinical: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    _build(clinical, data)
    _assert_declared(data)
    declared = _declarations(_quads(data))
    vocab, kgo = iris.DEFAULT_BASE + "vocab#", iris.ONTOLOGY

    def about(name: str, predicate: str) -> set[str]:
        return declared[vocab + name].get(predicate, set())

    assert about("DISEASE", RDFS + "comment") == {"A disease or syndrome, as the clinician wrote it."}
    assert about("DISEASE", RDFS + "subClassOf") == {kgo + "Entity"}  # aligned with nothing closer
    assert about("PER", RDFS + "subClassOf") == {kgo + "Person"}  # the default alignment
    assert about("PER-Pronoun", RDFS + "subClassOf") == {vocab + "PER"}
    assert about("PER-Pronoun", RDFS + "comment") == {"The entity type PER-Pronoun of the corpus."}
    assert about("HAS", RDFS + "comment") == {"The disease a person has."}
    assert about("HAS", RDF_TYPE) == {OWL + "ObjectProperty", RDF_TYPE.replace("type", "Property")}
    assert about("Other", RDFS + "comment") == {"The relation type Other of the corpus."}  # a blank line above
    assert about("Treatment", RDFS + "comment") == {"Care given to a patient."}
    assert about("Treatment", RDFS + "subClassOf") == {kgo + "Event"}
    assert about("Recipient", RDFS + "comment") == {"The event role Recipient of the corpus."}
    assert about("Recipient", RDFS + "domain") == {kgo + "Event"} and not about("HAS", RDFS + "domain")
    assert about("Chronic", RDF_TYPE) == {OWL + "DatatypeProperty", RDF_TYPE.replace("type", "Property")}


def test_names_a_document_uses_beyond_its_conf_are_listed_properties(clinical: Path, tmp_path: Path) -> None:
    """brat shows a relation, role or attribute annotation.conf does not declare (with a warning): the build
    reads it as written, declares it in the document's graph, and a knowledge-base client lists it."""
    with (clinical / "note.ann").open("a") as ann:
        ann.write("R3\tKnows Arg1:T1 Arg2:T3\nE2\tTreatment:T4 Recipient:T3 Giver:T1\nA2\tSevere T2\n")
    data = tmp_path / "data"
    _build(clinical, data)
    store = ox.Store.read_only(str(build_dirs.store_path(build_dirs.current_build(data))))
    used = {quad.predicate.value for quad in store}
    vocab = iris.DEFAULT_BASE + "vocab#"
    assert {vocab + "Knows", vocab + "Giver", vocab + "Severe"} <= used
    _assert_properties_listed(data)


def test_validate_refuses_a_term_the_build_does_not_declare(clinical: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    _build(clinical, data)
    store = ox.Store(str(build_dirs.store_path(build_dirs.current_build(data))))
    disease = ox.NamedNode(iris.DEFAULT_BASE + "vocab#DISEASE")
    for quad in list(store.quads_for_pattern(disease, None, None, ox.NamedNode(ONTOLOGY_GRAPH))):
        store.remove(quad)
    store.flush()
    del store
    result = run_kg("validate", "--data", str(data))
    assert result.exit_code == 3
    assert "declared neither in ontology.ttl nor in the corpus vocabulary: https://kg.example.org/vocab#DISEASE" \
        in result.stderr


@pytest.mark.parametrize("corpus", [TINY, PUBLIC / "nerel", PUBLIC / "ullekhanam"], ids=lambda p: p.name)
def test_a_shacl_tool_reasoning_with_rdfs_accepts_the_build(corpus: Path, tmp_path: Path) -> None:
    """pySHACL with RDFS inference over the whole build, its ontology graph included: kg's own
    terms (kgo:evidence is a kind of prov:wasDerivedFrom) and the corpus's subclasses entailed."""
    import pyshacl

    copy = tmp_path / "corpus"
    shutil.copytree(corpus, copy)
    _build(copy, tmp_path / "data")
    graph = rdflib.Graph()
    for quad in _quads(tmp_path / "data"):
        graph.add((from_oxigraph(quad.subject), from_oxigraph(quad.predicate), from_oxigraph(quad.object)))
    shapes = rdflib.Graph().parse(Path(__file__).resolve().parents[2] / "shapes.ttl")
    conforms, _, text = pyshacl.validate(graph, shacl_graph=shapes, inference="rdfs", allow_warnings=True)
    assert conforms, text[:3000]


def test_inception_display_names_label_the_terms_they_name(tmp_path: Path) -> None:
    """MiMoText's project calls its layer NamedEntity "Named entity" (LayerDefinition uiName): the
    class its value-less annotations make, kgv:NamedEntity, is labelled so in the build, and
    INCEpTION's knowledge-base listing of kgo:Entity's subclasses shows that label; a layer whose
    display name is its name (Property) keeps it."""
    published = shared_corpus("inception-xmi", "mimotext")
    corpus = tmp_path / "mimotext"
    corpus.mkdir()
    shutil.copy(published / "TypeSystem.xml", corpus / "TypeSystem.xml")
    shutil.copy(next(published.glob("gotzfried*.xmi")), corpus / "gotzfried.xmi")
    _build(corpus, tmp_path / "data")
    declared = _declarations(_quads(tmp_path / "data"))
    vocab = iris.DEFAULT_BASE + "vocab#"
    assert declared[vocab + "NamedEntity"][RDFS + "label"] == {"Named entity"}
    assert declared[vocab + "Property"][RDFS + "label"] == {"Property"}
    store = ox.Store.read_only(str(build_dirs.store_path(build_dirs.current_build(tmp_path / "data"))))
    listed = {row["subj"].value: row["l"].value for row in store.query(
        inception_queries.children(iris.ONTOLOGY + "Entity"), use_default_graph_as_union=True) if row["l"]}
    assert listed[vocab + "NamedEntity"] == "Named entity"

PAIRS = Path(__file__).resolve().parents[1] / "data" / "webanno-tsv3-pairs"


def test_an_incremental_build_declares_a_relation_name_a_changed_document_brings(clinical: Path,
                                                                                  tmp_path: Path) -> None:
    """brat: a document edited to use a relation and an attribute no build has seen (beyond annotation.conf)."""
    data = tmp_path / "data"
    _build(clinical, data)
    with (clinical / "note.ann").open("a") as ann:
        ann.write("R3\tTreats Arg1:T1 Arg2:T3\nA2\tSevere T2\n")
    _assert_incremental_declares(clinical, data, {"Treats", "Severe"})


def test_an_incremental_build_declares_the_layer_a_changed_inception_document_brings(tmp_path: Path) -> None:
    """WebAnno TSV3 (INCEpTION): a document's layers are its schema. Edited to hold a relation layer the build
    before it had not seen, the incremental build on that older build declares the new property in the ontology
    graph (typed rdf:Property, labelled), as a full build of the same corpus does: quad for quad the same."""
    corpus, data = tmp_path / "corpus", tmp_path / "data"
    corpus.mkdir()
    shutil.copy(PAIRS / "testSubTokenPrefix" / "reference.tsv", corpus / "doc.tsv")
    _build(corpus, data)
    shutil.copy(PAIRS / "testSubTokenRelation" / "reference.tsv", corpus / "doc.tsv")
    _assert_incremental_declares(corpus, data, {"Relation"})
    declared = _declarations(_quads(data))[iris.DEFAULT_BASE + "vocab#Relation"]
    assert RDF_TYPE.replace("type", "Property") in declared[RDF_TYPE] and declared[RDFS + "label"] == {"Relation"}
    incremental = store_quads(data)
    _build(corpus, tmp_path / "full")
    assert_same_quads(incremental, store_quads(tmp_path / "full"))
    exported = ox.Dataset(ox.parse(path=str(ensure_export(build_dirs.current_build(data), "nq")),
                                   format=ox.RdfFormat.N_QUADS))  # copied from the older build where unchanged
    assert_same_quads(exported, incremental, "the export and the store")


def _assert_incremental_declares(corpus: Path, data: Path, names: set[str]) -> None:
    """An incremental build of `corpus` on `data`, after which INCEpTION's property listing finds `names`."""
    result = run_kg("build", "--corpus", str(corpus), "--data", str(data))
    assert result.exit_code == 0 and "incremental build" in result.output, result.output
    vocab = iris.DEFAULT_BASE + "vocab#"
    assert {vocab + name for name in names} <= {quad.predicate.value for quad in _quads(data)}
    _assert_properties_listed(data)
