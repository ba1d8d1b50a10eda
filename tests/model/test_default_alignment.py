"""Real corpora out of the box: the usual NER type names (PER, ORG, GPE...) are aligned with kgo
without a kg.toml, kg check says what was and was not aligned, kg.toml wins over the table or turns
it off, kg's internal class names never capture a user type, and kgv: terms keep the
configuration's spelling."""

from __future__ import annotations

import shutil
from pathlib import Path

import pyoxigraph as ox
import pytest
import rdflib

from kg.formats.brat.conf import parse_config
from kg.model.resources import ONTOLOGY_TTL, read_rdf
from kg.model.schema.corpus_vocabulary import Vocabulary
from kg.model.schema.default_alignment import (
    DOMAIN_CLASSES,
    ENTITY_CLASSES,
    ENTITY_ROOT,
    EVENT_CLASSES,
    INTERNAL_CLASSES,
    KGO_PARENTS,
    default_class,
)
from kg.model.schema.schema_report import nearest_class
from kg.store import build_dirs
from tests.brat_reference import brat_source
from tests.helpers import run_kg, shared_corpus

CONLL = brat_source().parent.parent / "example-data" / "corpora" / "CoNLL-ST_2002"
PREFIXES = ("PREFIX kgo: <https://kg.example.org/ontology#> PREFIX kgv: <https://kg.example.org/vocab#> "
            "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> PREFIX owl: <http://www.w3.org/2002/07/owl#> ")
CONF = """[entities]
PERSON
ORGANIZATION
Sentence
Mention
[relations]
WORKS_AS\tArg1:PERSON, Arg2:ORGANIZATION
Mention\tArg1:PERSON, Arg2:Mention
<OVERLAP>\tArg1:<ENTITY>, Arg2:<ENTITY>, <OVL-TYPE>:<ANY>
[events]
[attributes]
"""
TEXT = "Ann Lee works for Acme Corp. She said so in one sentence.\n"
ANN = """T1\tPERSON 0 7\tAnn Lee
T2\tORGANIZATION 18 27\tAcme Corp
T3\tSentence 29 57\tShe said so in one sentence.
T4\tMention 44 47\tone
R1\tWORKS_AS Arg1:T1 Arg2:T2
R2\tMention Arg1:T1 Arg2:T4
"""


def _query(data: Path, sparql: str) -> list[tuple[str, ...]]:
    store = ox.Store.read_only(str(build_dirs.store_path(build_dirs.current_build(data))))
    rows = store.query(PREFIXES + sparql, use_default_graph_as_union=True)
    return sorted(tuple(str(v.value) for v in row) for row in rows)


def _count(data: Path, class_: str) -> int:
    return int(_query(data, f"SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE {{ ?x a {class_} }}")[0][0])


@pytest.fixture
def ner_corpus(tmp_path: Path) -> Path:
    corpus = tmp_path / "ner"
    corpus.mkdir()
    (corpus / "annotation.conf").write_text(CONF)
    (corpus / "doc1.txt").write_text(TEXT)
    (corpus / "doc1.ann").write_text(ANN)
    return corpus


def test_conll_names_are_people_organizations_and_places(tmp_path: Path) -> None:
    data = tmp_path / "data"
    result = run_kg("build", "--corpus", str(CONLL), "--data", str(data), "--quiet")
    assert result.exit_code == 0, result.output
    for own, kgo in [("PER", "Person"), ("ORG", "Organization"), ("LOC", "Place")]:
        assert _query(data, f"SELECT ?p WHERE {{ GRAPH ?g {{ kgv:{own} rdfs:subClassOf ?p }} }}") == [
            (f"https://kg.example.org/ontology#{kgo}",)]
        assert _count(data, f"kgv:{own}") > 0
        assert _count(data, f"kgo:{kgo}") == _count(data, f"kgv:{own}")
    # a type aligned with nothing closer is a kgo:Entity in the schema, its annotations typed as written
    assert _query(data, "SELECT ?p WHERE { GRAPH ?g { kgv:MISC rdfs:subClassOf ?p } }") == [
        ("https://kg.example.org/ontology#Entity",)]
    assert _count(data, "kgv:MISC") > 0 and _count(data, "kgo:Entity") == 0


def test_kg_check_lists_what_is_aligned_by_default_and_what_is_not() -> None:
    result = run_kg("check", "--corpus", str(CONLL))
    assert result.exit_code == 0, result.output
    assert "aligned by default: LOC -> Place, ORG -> Organization, PER -> Person" in result.stdout
    assert "entity types not aligned (1): MISC" in result.stdout


def test_kg_toml_wins_over_the_table_and_turns_it_off(ner_corpus: Path, tmp_path: Path) -> None:
    (ner_corpus / "kg.toml").write_text('[align]\nPERSON = "Group"\n')
    result = run_kg("build", "--corpus", str(ner_corpus), "--data", str(tmp_path / "a"), "--quiet")
    assert result.exit_code == 0, result.output
    assert (_count(tmp_path / "a", "kgo:Group"), _count(tmp_path / "a", "kgo:Person")) == (1, 0)
    assert _count(tmp_path / "a", "kgo:Organization") == 1
    (ner_corpus / "kg.toml").write_text("[align]\ndefault = false\n")
    result = run_kg("build", "--corpus", str(ner_corpus), "--data", str(tmp_path / "b"), "--quiet")
    assert result.exit_code == 0, result.output
    assert (_count(tmp_path / "b", "kgo:Person"), _count(tmp_path / "b", "kgo:Organization")) == (0, 0)
    assert "default alignment off" in run_kg("check", "--corpus", str(ner_corpus)).stdout


def test_internal_class_names_never_capture_a_user_type(ner_corpus: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    result = run_kg("build", "--corpus", str(ner_corpus), "--data", str(data), "--quiet")  # SHACL validates
    assert result.exit_code == 0, result.output
    nif = "<http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#anchorOf>"
    # kg's sentence is the document's line (as brat splits); the annotated one is a kgv:Sentence
    assert _query(data, f"SELECT ?t WHERE {{ ?s a kgo:Sentence ; {nif} ?t }}") == [(TEXT.strip(),)]
    assert _query(data, f"SELECT ?t WHERE {{ ?s a kgv:Sentence . ?m kgo:denotes ?s ; {nif} ?t }}") == [
        ("She said so in one sentence.",)]
    assert _query(data, f"SELECT ?t WHERE {{ ?s a kgo:Mention ; kgo:annotationId 'T4' ; {nif} ?t }}") == [("one",)]
    assert _count(data, "kgv:Mention") == 1


def test_properties_keep_the_configuration_spelling(ner_corpus: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    assert run_kg("build", "--corpus", str(ner_corpus), "--data", str(data), "--quiet").exit_code == 0
    assert _query(data, "SELECT ?l WHERE { GRAPH ?g { kgv:WORKS_AS rdfs:label ?l } }") == [("WORKS_AS",)]
    assert _query(data, "SELECT ?a ?b WHERE { ?a kgv:WORKS_AS ?b }") == [
        ("https://kg.example.org/id/person/ann-lee", "https://kg.example.org/id/organization/acme-corp")]
    # a relation named as a type (and as kg's own kgo:mention): its first letter lowered, no clash
    assert _query(data, "SELECT ?l WHERE { GRAPH ?g { kgv:mention a owl:ObjectProperty ; rdfs:label ?l } }") == [
        ("Mention",)]
    assert _query(data, "SELECT ?t WHERE { GRAPH ?g { kgv:Mention a ?t } }") == [(str(rdflib.OWL.Class),)]
    # "one" is no name: the thing it stands for is local to its document (kg.model.entities.names)
    assert _query(data, "SELECT ?b WHERE { ?a kgv:mention ?b }") == [("https://kg.example.org/doc/doc1/mention/T4",)]


def test_kg_toml_cannot_align_with_an_internal_class(ner_corpus: Path, tmp_path: Path) -> None:
    (ner_corpus / "kg.toml").write_text('[align]\nMention = "Mention"\n')
    result = run_kg("check", "--corpus", str(ner_corpus))
    assert result.exit_code == 2
    assert "kg.toml:2: Mention = 'Mention': not a term of kg's ontology a name can be aligned with" in result.stderr


def test_suggest_toml_writes_a_kg_toml_for_the_types_left_over(tmp_path: Path) -> None:
    corpus = tmp_path / "conll"
    shutil.copytree(CONLL, corpus)
    result = run_kg("check", "--corpus", str(corpus), "--suggest-toml")
    assert result.exit_code == 0, result.output
    written = (corpus / "kg.toml").read_text()
    assert '#   PER = "Person"' in written and '\nMISC = "Entity"  # no closer entity class\n' in written
    assert "# Entity types left over; kgo classes for them: Person, Group, Organization" in written
    assert '"?"' not in written
    # the check that follows reads what was written, and does not advise writing it again
    assert "aligned in kg.toml: MISC -> Entity" in result.stdout and "--suggest-toml" not in result.stdout
    assert "entity types not aligned" not in result.stdout
    changed = written.replace('MISC = "Entity"', 'MISC = "Group"')
    (corpus / "kg.toml").write_text(changed)
    assert "aligned in kg.toml: MISC -> Group" in run_kg("check", "--corpus", str(corpus)).stdout
    again = run_kg("check", "--corpus", str(corpus), "--suggest-toml")
    assert "exists and is left as it is" in again.stdout and "--suggest-toml" not in again.stdout.split("types:")[1]
    assert (corpus / "kg.toml").read_text() == changed


def test_the_kg_toml_suggested_aligns_and_builds(tmp_path: Path) -> None:
    corpus = tmp_path / "conll"
    shutil.copytree(CONLL, corpus)
    assert run_kg("check", "--corpus", str(corpus), "--suggest-toml").exit_code == 0
    data = tmp_path / "data"
    assert run_kg("build", "--corpus", str(corpus), "--data", str(data), "--quiet").exit_code == 0
    assert _count(data, "kgo:Entity") == _count(data, "kgv:MISC") > 0
    assert run_kg("validate", "--data", str(data)).exit_code == 0


@pytest.mark.parametrize(("name", "event", "expected"), [
    ("Persons", False, "Person"), ("Organisation", False, "Organization"), ("Location-Nominal", False, "Place"),
    ("PER_ATTR", False, "Person"), ("TimeExpression", False, "Date"), ("RELIGION", False, "Entity"),
    ("Disease", False, "Entity"), ("Conflict_Attack", True, "Attack"), ("Embargo", True, "Event"),
    ("Protests", True, "Protest")])
def test_the_nearest_class_of_a_type_left_over(name: str, event: bool, expected: str) -> None:
    section = "[entities]\n[events]" if event else "[events]\n[entities]"
    vocab = Vocabulary(parse_config(f"{section}\n{name}\n[relations]\n[attributes]\n"))
    assert nearest_class(vocab, name)[0] == expected


def test_the_classes_cover_the_ontology_once() -> None:
    ontology = rdflib.Graph().parse(data=read_rdf(ONTOLOGY_TTL), format="turtle")
    kgo = "https://kg.example.org/ontology#"
    declared = ontology.subjects(rdflib.RDF.type, rdflib.OWL.Class)
    classes = {str(c)[len(kgo):] for c in declared if str(c).startswith(kgo)}
    assert classes == DOMAIN_CLASSES | INTERNAL_CLASSES | {ENTITY_ROOT}
    assert not ENTITY_CLASSES & EVENT_CLASSES and not DOMAIN_CLASSES & INTERNAL_CLASSES
    parents = {str(c)[len(kgo):]: str(p)[len(kgo):] for c, p in ontology.subject_objects(rdflib.RDFS.subClassOf)
               if str(c).startswith(kgo) and str(p).startswith(kgo)}
    assert KGO_PARENTS == parents


def test_an_aligned_subclass_resolves_in_its_kgo_family(tmp_path: Path) -> None:
    """COUNTRY is kgo:Country, a kgo:Place: a country and a location of one name are one place."""
    corpus = tmp_path / "c"
    corpus.mkdir()
    (corpus / "annotation.conf").write_text("[entities]\nCOUNTRY\nLOCATION\n[relations]\n[events]\n[attributes]\n")
    (corpus / "d.txt").write_text("Peru exports copper. Peru is dry.\n")
    (corpus / "d.ann").write_text("T1\tCOUNTRY 0 4\tPeru\nT2\tLOCATION 21 25\tPeru\n")
    data = tmp_path / "data"
    assert run_kg("build", "--corpus", str(corpus), "--data", str(data), "--quiet").exit_code == 0
    assert _query(data, "SELECT DISTINCT ?e WHERE { ?m kgo:denotes ?e }") == [("https://kg.example.org/id/place/peru",)]
    # the record takes one of the annotated types (kg.model.entities.entity_records: a tie goes to the name)
    assert _query(data, "SELECT ?c WHERE { <https://kg.example.org/id/place/peru> a ?c }") == [
        ("https://kg.example.org/ontology#Country",), ("https://kg.example.org/ontology#Place",),
        ("https://kg.example.org/vocab#COUNTRY",)]


@pytest.mark.parametrize("name, event, expected", [
    ("PER", False, "Person"), ("person", False, "Person"), ("Organisation", False, "Organization"),
    ("GPE", False, "Place"), ("STATE_OR_PROVINCE", False, "Region"), ("country", False, "Country"),
    ("DATE", False, "Date"), ("Time", False, "Date"), ("EVENT", True, "Event"), ("Arrest-Jail", True, "Detention"),
    ("EVENT", False, None), ("MISC", False, None), ("PER", True, None), ("Sentence", False, None),
])
def test_the_table_is_case_insensitive_and_keeps_kinds_apart(name: str, event: bool, expected: str | None) -> None:
    assert default_class(name, event) == expected


def test_inception_named_entities_are_aligned(tmp_path: Path) -> None:
    corpus = shared_corpus("inception-xmi", "ner4archives")
    data = tmp_path / "data"
    result = run_kg("build", "--corpus", str(corpus), "--data", str(data), "--quiet")
    assert result.exit_code == 0, result.output
    for own, kgo in [("PERSON", "Person"), ("ORGANISATION", "Organization"), ("LOCATION", "Place")]:
        assert _count(data, f"kgv:{own}") > 0
        assert _count(data, f"kgo:{kgo}") == _count(data, f"kgv:{own}")
