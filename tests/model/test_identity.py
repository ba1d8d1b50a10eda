"""Identity the annotators stated (kg.model.entities.identity): equivalences and identity relations make chains,
a chain is one entity of its most frequent type, and kg.toml names more identity relations and says
which types are shared or local (kg.model.entities.sharing)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import kg
from kg.errors import ConfigError
from kg.formats.brat.ann import parse_ann
from kg.formats.brat.conf import parse_config
from kg.formats.records import Document, Metadata
from kg.model.entities.aliases import AliasTable
from kg.model.entities.identity import identity_chains
from kg.model.entities.resolve import resolve_document
from kg.model.schema.corpus_vocabulary import Alignment, Vocabulary, load_alignment
from tests.helpers import run_kg

CONF = """[entities]
PER
ORG
Trigger
[relations]
Alias\tArg1:PER|ORG, Arg2:PER|ORG
Coref\tArg1:PER|ORG, Arg2:PER|ORG
Same\tArg1:PER|ORG, Arg2:PER|ORG
Knows\tArg1:PER, Arg2:PER
[events]
Meet\tWho*:PER
[attributes]
"""
TEXT = "Yesterday Ana Lee met the UN chief. She and he spoke. Later the United Nations left."
RAREDIS = Path(__file__).resolve().parents[1] / "data" / "public" / "raredis"


def _document(ann: str, alignment: Alignment | None = None) -> tuple[Document, Vocabulary]:
    config = parse_config(CONF)
    doc = Document("d", TEXT, Metadata("d"), parse_ann(Path("d.ann"), ann, TEXT, config))
    return doc, Vocabulary(config, alignment or Alignment())


def _at(word: str, tid: str, type_: str, nth: int = 0) -> str:
    begin = -1
    for _ in range(nth + 1):
        begin = TEXT.index(word, begin + 1)
    return f"{tid}\t{type_} {begin} {begin + len(word)}\t{word}"


ANN = "\n".join([_at("Ana Lee", "T1", "PER"), _at("She", "T2", "PER"), _at("UN", "T3", "ORG"),
                 _at("he", "T4", "PER", 2), _at("the United Nations", "T5", "ORG"), _at("chief", "T6", "PER"),
                 "R1\tCoref Arg1:T2 Arg2:T1", "R2\tALIAS Arg1:T3 Arg2:T5", "R3\tSame Arg1:T6 Arg2:T4",
                 "R4\tCoref Arg1:T4 Arg2:T3", "R5\tKnows Arg1:T1 Arg2:T6"])


def test_identity_relations_join_mentions_into_chains_of_their_most_frequent_type() -> None:
    doc, vocab = _document(ANN)
    chains, warnings = identity_chains(doc, vocab)
    assert sorted(chain.members for chain in chains) == [("T1", "T2"), ("T3", "T4", "T5")]
    assert {chain.members: chain.type for chain in chains}[("T3", "T4", "T5")] == "ORG"  # 2 ORG, 1 PER
    assert [(w.line, w.reason.split(":")[0]) for w in warnings] == [
        (8, "identity joins mentions of several types (ORG, PER)")]
    resolved = resolve_document(doc, vocab, AliasTable({}, {}))
    assert resolved["T2"].iri == resolved["T1"].iri == "https://kg.example.org/id/person/ana-lee"
    assert resolved["T4"].iri == resolved["T3"].iri == resolved["T5"].iri
    assert resolved["T4"].explanation == "normalized form (identity): organization/un"
    assert resolved["T6"].key is None  # "chief": no name, and Same states no identity by default


def test_a_tie_takes_the_type_of_the_first_mention() -> None:
    doc, vocab = _document("\n".join([_at("UN", "T2", "ORG"), _at("Ana Lee", "T1", "PER"),
                                      "R1\tAlias Arg1:T1 Arg2:T2"]))
    assert [chain.type for chain in identity_chains(doc, vocab)[0]] == ["ORG"]  # T2 comes first in the file


def test_kg_toml_names_more_identity_relations(tmp_path: Path) -> None:
    (tmp_path / "kg.toml").write_text('[identity]\nrelations = ["Same"]\n', encoding="utf-8")
    doc, vocab = _document(ANN, load_alignment(tmp_path / "kg.toml"))
    chains, _ = identity_chains(doc, vocab)
    assert sorted(chain.members for chain in chains) == [("T1", "T2"), ("T3", "T4", "T5", "T6")]


def test_kg_toml_makes_a_type_shared_or_local(tmp_path: Path) -> None:
    (tmp_path / "kg.toml").write_text('[entities]\nPER = "shared"\nORG = "local"\n', encoding="utf-8")
    doc, vocab = _document("\n".join([_at("chief", "T1", "PER"), _at("the United Nations", "T2", "ORG")]),
                           load_alignment(tmp_path / "kg.toml"))
    resolved = resolve_document(doc, vocab, AliasTable({}, {}))
    assert resolved["T1"].key == "person/chief" and resolved["T2"].key is None


@pytest.mark.parametrize("text, message", [
    ('[entities]\nPER = "always"\n', 'PER = \'always\' in [entities] (expected "shared"'),
    ("[identity]\nrelations = \"Same\"\n", "[identity] relations is not a list of relation types"),
    ("[identity]\nnames = []\n", "[identity] names is not a list of relation types"),
])
def test_kg_toml_sharing_and_identity_are_checked_at_their_line(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "kg.toml").write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_alignment(tmp_path / "kg.toml")
    assert message in str(caught.value) and str(caught.value).startswith(f"{tmp_path / 'kg.toml'}:2:")


def test_a_corpus_names_its_identity_relations_in_kg_toml(tmp_path: Path) -> None:
    """RareDis states identity with Is_acron, Is_synon and Anaphora: named in kg.toml (beside the corpus,
    which stays as published), each relation's mentions are one entity."""
    corpus = shutil.copytree(RAREDIS, tmp_path / "raredis")
    (corpus / "kg.toml").write_text('[identity]\nrelations = ["Is_acron", "Is_synon", "Anaphora"]\n',
                                    encoding="utf-8")
    assert run_kg("build", "--quiet", "--corpus", str(corpus), "--data", str(tmp_path / "data")).exit_code == 0
    relations = [line.split("\t")[1].split() for ann in corpus.rglob("*.ann")
                 for line in ann.read_text(encoding="utf-8").splitlines() if line.startswith("R")]
    joined = [(r[0], r[1].split(":")[1], r[2].split(":")[1]) for r in relations
              if r[0] in ("Is_acron", "Is_synon", "Anaphora")]
    assert joined
    with kg.open(tmp_path / "data") as graph:
        rows = graph.query("SELECT ?s WHERE { ?st rdf:predicate ?p ; rdf:subject ?s ; rdf:object ?o . "
                           "FILTER(?s != ?o) ?p rdfs:label ?l FILTER(?l IN ('Is_acron', 'Is_synon', 'Anaphora')) }")
        statements = graph.query("SELECT (COUNT(*) AS ?n) WHERE { ?st a kgo:Statement ; rdf:predicate ?p . "
                                 "?p rdfs:label ?l FILTER(?l IN ('Is_acron', 'Is_synon', 'Anaphora')) }")
    assert len(rows) == 0 and int(statements[0]["n"]) == len(joined)  # each stated, between one entity and itself


def test_each_mention_is_marked_named_as_its_own_words_are_whichever_rule_resolves_it() -> None:
    """A name linked by a KG key, a name resolved by its words, a name joined to a chain and words
    that are no name each keep what their own words are, whatever resolved them."""
    doc, vocab = _document("\n".join([_at("Ana Lee", "T1", "PER"), _at("She", "T2", "PER"), _at("UN", "T3", "ORG"),
                                      _at("chief", "T4", "PER"), _at("the United Nations", "T5", "ORG"),
                                      "R1\tCoref Arg1:T2 Arg2:T1", "N1\tReference T3 KG:organization/un-body\tUN"]))
    resolved = resolve_document(doc, vocab, AliasTable({}, {}))
    assert {tid: (r.rule.name, r.named) for tid, r in resolved.items()} == {
        "T1": ("NORMALIZED", True), "T2": ("NORMALIZED", False), "T3": ("KG", True), "T4": ("NOT_A_NAME", False),
        "T5": ("NORMALIZED", True)}
