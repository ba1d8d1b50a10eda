"""render_config writes an annotation.conf that kg reads back to the same configuration and brat's
own projectconfig reads with the same types; union_configs accepts every document of every part."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from kg.formats.brat.conf import AnnotationConfig, load_config, parse_config
from kg.formats.brat.conf_writer import render_config, union_configs
from kg.formats.inception.xmi import xmi_to_brat
from tests.brat_reference import brat_report
from tests.helpers import CORPUS, TINY

DATA = Path(__file__).resolve().parents[1] / "data"
INCEPTION = sorted((DATA / "inception").glob("*.xmi"))


def without_lines(config: AnnotationConfig) -> AnnotationConfig:
    """The configuration with every line number and the path blanked: what the text declares."""
    def strip(item):
        return dataclasses.replace(item, line=0)

    return dataclasses.replace(
        config, path="",
        entities={n: strip(v) for n, v in config.entities.items()},
        events={n: strip(v) for n, v in config.events.items()},
        relations={n: tuple(strip(d) for d in v) for n, v in config.relations.items()},
        attributes={n: strip(v) for n, v in config.attributes.items()},
        overlaps=tuple(strip(r) for r in config.overlaps),
        relation_nodes={n: strip(v) for n, v in config.relation_nodes.items()})


def inception_config(path: Path) -> AnnotationConfig:
    return parse_config(xmi_to_brat(path).conf, path)


CONFIGS = {"ace": lambda: load_config(DATA / "ace" / "annotation.conf"),
           "corpus": lambda: load_config(CORPUS / "annotation.conf"),
           "tiny": lambda: load_config(TINY / "annotation.conf"),
           **{p.stem: (lambda p=p: inception_config(p)) for p in INCEPTION},
           "inception-union": lambda: union_configs([inception_config(p) for p in INCEPTION])}


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_rendered_configuration_reads_back_the_same(name: str) -> None:
    config = CONFIGS[name]()
    text = render_config(config)
    assert without_lines(parse_config(text, "rendered.conf")) == without_lines(config)
    assert render_config(parse_config(text)) == text


def test_every_feature_of_the_language_survives() -> None:
    source = """[entities]
!Agent|Actor
\tPerson|Human|Somebody
\tOrganization
Place
[relations]
<POG>=Person|Organization
!Link
\tLocated\tArg1:<POG>, Arg2:Place
\tLocated\tArg1:Place, Arg2:Place, <REL-TYPE>:transitive
Equiv\tArg1:Person, Arg2:Person
Alias\tArg1:Person, Arg2:Person, <REL-TYPE>:symmetric
<OVERLAP>\tArg1:Person, Arg2:Organization, <OVL-TYPE>:contain|cross
ENTITY-NESTING\tArg1:Place, Arg2:Place
[events]
!Life
\tMeet\tParticipant{2-4}:Person, Place?:Place, Topic*:<EVENT>
\t\tSummit\t<INHERIT>, Host+:Organization, Count{3}:<ANY>
[attributes]
Negated\tArg:<EVENT>
Confidence\tArg:Meet|Summit, Value:L1|L2|L3
"""
    config = parse_config(source)
    text = render_config(config)
    again = parse_config(text)
    assert without_lines(again) == without_lines(config)
    assert "\t\tSummit\tParticipant{2-4}:Person, Place?:Place, Topic*:<EVENT>, Host+:Organization, Count{3}:<ANY>" \
        in text.splitlines()
    assert "!Agent|Actor" in text.splitlines() and "\tPerson|Human|Somebody" in text.splitlines()
    assert again.relations["Located"][1].transitive and not again.relations["Located"][1].symmetric
    assert again.relations["Equiv"][0].symmetric and again.relations["Equiv"][0].transitive
    assert "<OVERLAP>\tArg1:Person, Arg2:Organization, <OVL-TYPE>:contain|cross" in text


@pytest.mark.parametrize("name", ["ace", "corpus", "inception-union"])
def test_brat_reads_the_rendered_configuration(name: str, tmp_path: Path) -> None:
    config = CONFIGS[name]()
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "annotation.conf").write_text(render_config(config), encoding="utf-8")
    (corpus / "empty.txt").write_text("", encoding="utf-8")
    (corpus / "empty.ann").write_text("", encoding="utf-8")
    report = brat_report(corpus, tmp_path / "brat")
    assert report["problems"] == []
    assert set(report["event_types"][str(corpus)]) == set(config.events)


def test_union_declares_what_each_document_uses() -> None:
    parts = [parse_config("[entities]\nPER\nORG\n[relations]\nowner\tArg1:PER, Arg2:ORG\n[events]\n"
                          "Meet\tWho*:PER\n[attributes]\nStance\tArg:PER, Value:pro\n"),
             parse_config("[entities]\nPER\nLOC\n[relations]\nowner\tArg1:PER, Arg2:LOC\n[events]\n"
                          "Meet\tWhere*:LOC\n[attributes]\nStance\tArg:LOC, Value:contra\n")]
    union = union_configs(parts)
    assert list(union.entities) == ["PER", "ORG", "LOC"]
    owner = union.relations["owner"][0]
    assert owner.arg1.types == ("PER",) and owner.arg2.types == ("ORG", "LOC")
    assert [r.name for r in union.events["Meet"].roles] == ["Who", "Where"]
    assert union.attributes["Stance"].targets == ("PER", "LOC")
    assert union.attributes["Stance"].values == ("pro", "contra")
    assert without_lines(parse_config(render_config(union))) == without_lines(union)


def test_a_type_declared_twice_with_other_roles_takes_both_and_requires_only_what_both_require() -> None:
    """An INCEpTION layer's own Claim (Speaker, Medium) beside a corpus Claim (Claimant+, Topic*):
    a document valid under either must be valid under the union."""
    ours = parse_config("[entities]\nPER\nORG\n[events]\nClaim\tClaimant+:PER, Topic*:PER\n")
    theirs = parse_config("[entities]\nPER\nORG\n[events]\nClaim\tSpeaker:PER, Medium?:ORG, Topic:PER\n")
    roles = {r.name: (r.types, r.minimum, r.maximum) for r in union_configs([ours, theirs]).events["Claim"].roles}
    many = ours.events["Claim"].roles[0].maximum  # what '+' and '*' allow
    assert roles == {"Claimant": (("PER",), 0, many), "Topic": (("PER",), 0, many), "Speaker": (("PER",), 0, 1),
                     "Medium": (("ORG",), 0, 1)}  # '+' loses its minimum but keeps its repetition
    same = union_configs([ours, ours]).events["Claim"].roles
    assert [(r.name, r.minimum) for r in same] == [("Claimant", 1), ("Topic", 0)]  # one declaration: unchanged
