"""`kg export --format xmi`: every document of a build as INCEpTION's UIMA CAS XMI with a TypeSystem.xml
(written with dkpro-cassis), read back by kg to the same graph."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cassis import load_cas_from_xmi, load_typesystem

from kg.formats.inception.xmi_writer import CHAIN, EVENT, RELATION, SENTENCE, TOKEN
from kg.model.iris import ONTOLOGY_GRAPH, RESOURCE
from kg.model.schema.ontology import KGO
from kg.model.sentences import split_sentences
from tests.helpers import CORPUS, assert_same_quads, inception_corpus, run_kg, store_quads

NAMED_ENTITY = "de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity"
OWL_SAME_AS = "http://www.w3.org/2002/07/owl#sameAs"


def export(data: Path, output: Path) -> None:
    result = run_kg("export", "--data", str(data), "--format", "xmi", "-o", str(output))
    assert result.exit_code == 0, result.stderr
    assert "warning" not in result.stderr


def build(corpus: Path, data: Path) -> None:
    result = run_kg("build", "--corpus", str(corpus), "--data", str(data), "--quiet")
    assert result.exit_code == 0, result.stderr


def load(xmi: Path):
    with open(xmi.parent / "TypeSystem.xml", "rb") as ts:
        typesystem = load_typesystem(ts)
    with open(xmi, "rb") as data:
        return load_cas_from_xmi(data, typesystem=typesystem)


@pytest.fixture(scope="module")
def inception_round(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """INCEpTION documents (loose and zipped) built, exported as XMI, built again."""
    root = tmp_path_factory.mktemp("xmi-round")
    build(inception_corpus(root / "source"), root / "first")
    export(root / "first", root / "xmi")
    build(root / "xmi", root / "second")
    return root


def test_inception_documents_come_back_as_the_same_graph(inception_round: Path) -> None:
    assert_same_quads(store_quads(inception_round / "second"), store_quads(inception_round / "first"),
                      "graph rebuilt from the XMI export")
    written = sorted(p.relative_to(inception_round / "xmi").as_posix() for p in (inception_round / "xmi").rglob("*")
                     if p.suffix in (".xmi", ".json") or p.name == "TypeSystem.xml")
    assert written == ["inception/TypeSystem.xml", "inception/bogota.json", "inception/bogota.xmi",
                       "inception/lisbon.json", "inception/lisbon.xmi", "loose/TypeSystem.xml",
                       "loose/bogota.json", "loose/bogota.xmi", "loose/lisbon.json", "loose/lisbon.xmi"]


def test_the_layers_are_inceptions(inception_round: Path) -> None:
    cas = load(inception_round / "xmi" / "loose" / "lisbon.xmi")
    text = cas.sofa_string
    sentences = [(s.begin, s.end) for s in cas.select(SENTENCE)]
    assert sentences == [(s.begin, s.end) for s in split_sentences(text)]
    assert all(not t.get_covered_text().isspace() for t in cas.select(TOKEN)) and len(cas.select(TOKEN)) > 10
    entities = {(e.get_covered_text(), e.value): e for e in cas.select(NAMED_ENTITY)}
    identifiers = {e.identifier for e in entities.values() if e.identifier}
    assert any(i.startswith("http://www.wikidata.org/entity/Q") for i in identifiers)
    assert "urn:example:cafe" in identifiers  # an identifier that is no IRI travels as it came
    relations = cas.select(RELATION)
    assert relations and all(r.label and r.Governor is not None and r.Dependent is not None for r in relations)
    events = cas.select(EVENT)
    assert [e.value for e in events] == ["Claim"]
    assert [(s.role, s.target.get_covered_text()) for s in events[0].arguments.elements] == [
        ("speakers", "João Gonçalves")]
    chains = cas.select(CHAIN)
    assert chains and chains[0].first.next is not None


def test_shipped_corpus_through_xmi_is_stable(shipped_data: Path, tmp_path: Path) -> None:
    export(shipped_data, tmp_path / "xmi1")
    assert len(list((tmp_path / "xmi1").glob("*.xmi"))) == len(list(CORPUS.glob("*.txt")))
    build(tmp_path / "xmi1", tmp_path / "second")
    export(tmp_path / "second", tmp_path / "xmi2")
    build(tmp_path / "xmi2", tmp_path / "third")
    second, first = store_quads(tmp_path / "second"), store_quads(shipped_data)
    assert_same_quads(store_quads(tmp_path / "third"), second, "graph rebuilt from the second XMI export")
    mentions = [sum(1 for q in quads if q.predicate.value.endswith("#type") and q.object.value == str(KGO.Mention))
                for quads in (first, second)]
    # every mention of the brat corpus made the trip; an event sharing its trigger with another gets its own
    assert mentions[1] == mentions[0] + shared_triggers(CORPUS)
    # the corpus's annotation.conf travels with the XMI: same types, same entities, same Wikidata links
    for part in (entities, same_as, ontology):
        assert part(second) == part(first), part.__name__


def entities(quads: set) -> set[str]:
    return {q.subject.value for q in quads if q.subject.value.startswith(RESOURCE)}


def same_as(quads: set) -> set:
    return {q for q in quads if q.predicate.value == OWL_SAME_AS}


def ontology(quads: set) -> set:
    return {q for q in quads if q.graph_name.value == ONTOLOGY_GRAPH}


def shared_triggers(corpus: Path) -> int:
    """Events whose trigger an earlier event of the same document already has."""
    count = 0
    for ann in corpus.glob("*.ann"):
        triggers = [m.group(1) for m in re.finditer(r"^E\d+\t[^:\s]+:(T\d+)", ann.read_text(), re.M)]
        count += len(triggers) - len(set(triggers))
    return count


def test_xmi_export_needs_a_directory(shipped_data: Path) -> None:
    result = run_kg("export", "--data", str(shipped_data), "--format", "xmi")
    assert result.exit_code == 2 and "--format xmi writes a directory" in result.stderr


def test_a_name_uima_cannot_hold_is_reported_and_the_rest_written(tiny_copy: Path, tmp_path: Path) -> None:
    conf, ann = tiny_copy / "annotation.conf", tiny_copy / "beta.ann"
    conf.write_text(conf.read_text().replace("Qualifier\t", "Qualifier-Kind\t"))
    ann.write_text(ann.read_text().replace("\tQualifier ", "\tQualifier-Kind "))
    (tiny_copy / "alpha.ann").write_text((tiny_copy / "alpha.ann").read_text().replace("\tQualifier ",
                                                                                        "\tQualifier-Kind "))
    build(tiny_copy, tmp_path / "data")
    result = run_kg("export", "--data", str(tmp_path / "data"), "--format", "xmi", "-o", str(tmp_path / "xmi"))
    assert result.exit_code == 0
    assert "'Qualifier-Kind' cannot be a feature of" in result.stderr
    cas = load(tmp_path / "xmi" / "beta.xmi")
    assert cas.select(NAMED_ENTITY) and not cas.typesystem.get_type(NAMED_ENTITY).get_feature("Qualifier-Kind")
