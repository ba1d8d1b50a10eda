"""brat's configuration language, read as brat reads it (brat's projectconfig.py is the reference:
tests/formats/test_brat_compat.py runs it), and its rules applied to .ann files."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kg.errors import ConfigError, InputErrors
from kg.formats.brat.ann import parse_ann
from kg.formats.brat.conf import UNBOUNDED, find_config, load_config, parse_config
from tests.helpers import run_kg

ACE = Path(__file__).parents[1] / "data" / "ace" / "annotation.conf"
TEXT = "Ann Lee of Acme Corp was born in Paris. She married Bob Ray in Rome. Acme protested."


@pytest.fixture(scope="module")
def ace():
    return load_config(ACE)


def test_hierarchy_abstract_types_and_aliases(ace) -> None:
    assert ace.entities["Person"].parent == "Entity"
    assert ace.entities["Entity"].abstract and not ace.usable("Entity")
    assert ace.usable("Person") and ace.usable("Weapon")
    assert ace.entities["Weapon"].labels == ("Arm",)
    assert ace.events["Be-born"].parent == "Life" and ace.events["Life"].abstract
    assert ace.ancestors("Marry") == ["Marry", "Life"]


def test_cardinalities(ace) -> None:
    roles = {r.name: r for r in ace.events["Attack"].roles}
    assert (roles["Attacker"].minimum, roles["Attacker"].maximum) == (0, UNBOUNDED)
    assert (roles["Target"].minimum, roles["Target"].maximum) == (1, UNBOUNDED)
    assert (roles["Instrument"].minimum, roles["Instrument"].maximum) == (0, 2)
    marry = {r.name: r for r in ace.events["Marry"].roles}
    assert (marry["Person-Arg"].minimum, marry["Person-Arg"].maximum) == (2, 2)
    assert (marry["Place-Arg"].minimum, marry["Place-Arg"].maximum) == (0, 1)
    assert [r.cardinality() for r in ace.events["Attack"].roles] == ["*", "+", "{0-2}"]


def test_macros_are_expanded_per_section(ace) -> None:
    employment = ace.relations["Employment"][0]
    assert employment.arg1.name == "Employee" and employment.arg2.types == ("Person", "Organization", "GPE")
    attacker = next(r for r in ace.events["Attack"].roles if r.name == "Attacker")
    assert attacker.types == ("Person", "Organization", "GPE")


def test_inherit_copies_the_parents_arguments(ace) -> None:
    assert ace.events["Die"].roles == ace.events["Life"].roles == ()
    conf = parse_config("[entities]\nP\n[events]\nE\tWho:P\n\tF\t<INHERIT>, When?:P\n", "x.conf")
    assert [r.name for r in conf.events["F"].roles] == ["Who", "When"]


def test_relation_kinds_overlap_and_separators(ace) -> None:
    assert ace.relations["Partner"][0].symmetric and not ace.relations["Partner"][0].transitive
    assert ace.equiv_types() == ["Alias"]
    assert ace.overlap_allowed("Person", "Organization", "contain")
    assert not ace.overlap_allowed("Organization", "Person", "contain")
    assert not ace.overlap_allowed("Person", "GPE", "cross")
    assert "Abstract-relation" in ace.relation_nodes and ace.relations["Abstract-relation"] == ()


def test_generic_types(ace) -> None:
    assert ace.matches("Weapon", ("<ANY>",)) and ace.matches("Attack", ("<EVENT>",))
    assert ace.matches("GPE", ("<ENTITY>",)) and not ace.matches("Attack", ("<ENTITY>",))
    assert ace.matches("Partner", ("<RELATION>",))
    assert not ace.matches("Person", ("Entity",)), "brat does not let a subtype fill its parent's slot"


def test_spans_section_is_entities() -> None:
    assert list(parse_config("[spans]\nToken\n", "x.conf").entities) == ["Token"]


def test_a_type_declared_twice_is_read_as_brat_reads_it() -> None:
    """brat uses the last declaration of an entity or event type, and offers an attribute wherever one
    of its declarations applies; both warn. (KEEPHA-Ja declares Negation once for FUNCTION, once for DISORDER.)"""
    config = parse_config("[entities]\nA\nB\n\tA\n[attributes]\nNeg\tArg:A, Value:no\nNeg\tArg:B, Value:no|yes\n",
                          "x/annotation.conf")
    assert config.entities["A"].parent == "B"
    assert config.attributes["Neg"].targets == ("A", "B") and config.attributes["Neg"].values == ("no", "yes")
    assert [(w.line, w.reason.split(",")[0]) for w in config.warnings] == [
        (4, "type 'A' declared twice"), (7, "attribute 'Neg' declared twice")]


@pytest.mark.parametrize("text, line, message", [
    ("[entities]\nA\n[relations]\nR\tArg1:<NOPE>, Arg2:A\n", 4, "undefined macro <NOPE>"),
    ("[entities]\nA\n[relations]\n<X>=A\n[events]\nE\tWho:<X>\n", 6, "undefined macro <X>"),
    ("[entities]\n<ANY>=A\n", 2, "<ANY> is reserved"),
    ("[entities]\nA\n\t\tB\n", 3, "indented 2 but no type above it is indented 1"),
    ("[entities]\nA\n[events]\nE\tWho{0}:A\n", 4, "impossible repetition '{0}'"),
    ("[entities]\nA\n[events]\nE\tWho{3-1}:A\n", 4, "impossible repetition '{3-1}'"),
    ("[entities]\nA\n[events]\nE\tArg1+:A\n", 4, "ends with a digit and cannot repeat"),
    ("[entities]\nA\n[events]\nE\tWho:A, Who?:A\n", 4, "argument 'Who' declared twice"),
    ("[entities]\nA\n[relations]\nR\tArg1:A\n", 4, "relation R has 1 arguments (expected two"),
    ("[entities]\nA\n[attributes]\nX\tValue:a|b\n", 4, "attribute X needs Arg"),
    ("A\n[entities]\nA\n", 1, "before any section"),
])
def test_configuration_errors_are_located(text: str, line: int, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(text, "x/annotation.conf")
    assert f"x/annotation.conf:{line}: " in str(caught.value)
    assert message in str(caught.value)
    assert "(expected" in str(caught.value)


@pytest.mark.parametrize("text, line, message", [  # brat warns about these and serves the corpus
    ("[entities]\nA\n[relations]\nR\tArg1:A, Arg2:B\n", 4, "R Arg2: undeclared type 'B'"),
    ("[entities]\nA\n[options]\nx\n", 3, "unknown section [options]"),
    ("[entities]\nA\n[relations]\n<OVERLAP>\tArg1:A, Arg2:A, <OVL-TYPE>:inside\n", 4,
     "unknown <OVL-TYPE> inside, rule not read"),
    ("[entities]\nA\n[relations]\n<OVERLAP>\tArg1:A, Arg2:A\n", 4, "<OVERLAP> without <OVL-TYPE>, rule not read"),
    ("[entities]\nA\n[relations]\n<OVERLAP>\tArg1:A, Arg2:A, <OVL-TYPE>:equal|inside\n", 4,
     "unknown <OVL-TYPE> inside, not read"),
    ("[entities]\nA\n\tB.c|Bc\n", 3, "type 'B.c' is stored as 'B_c' in .ann files"),
])
def test_what_brat_only_warns_about_is_a_located_warning(text: str, line: int, message: str) -> None:
    warnings = [str(w) for w in parse_config(text, "x/annotation.conf").warnings]
    assert len(warnings) == 1 and warnings[0].startswith(f"x/annotation.conf:{line}: {message}")
    assert "(expected" in warnings[0]


def _parse(ann: str, conf=None):
    return parse_ann(Path("d.ann"), ann, TEXT, conf or load_config(ACE))


def test_a_document_in_every_feature_parses(ace) -> None:
    ann = "\n".join([
        "T1\tPerson 0 7\tAnn Lee", "T2\tOrganization 11 20\tAcme Corp", "T3\tBe-born 25 29\tborn",
        "T4\tGPE 33 38\tParis", "T5\tMarry 44 51\tmarried", "T6\tPerson 52 59\tBob Ray", "T7\tGPE 63 67\tRome",
        "T8\tPerson 40 43\tShe", "T9\tOrganization 69 73\tAcme", "T10\tDemonstrate 74 83\tprotested",
        "E1\tBe-born:T3 Person-Arg:T1 Place-Arg:T4", "E2\tMarry:T5 Person-Arg:T8 Person-Arg2:T6 Place-Arg:T7",
        "E3\tDemonstrate:T10 Entity:T9 Cause:E2",
        "R1\tEmployment Employee:T1 Employer:T2", "R2\tLocated Arg1:T6 Arg2:T7", "A1\tConfidence E2 High",
        "A2\tCertain R1", "A3\tNegation E3", "*\tAlias T2 T9", "N1\tReference T4 GeoNames:2988507\tParis",
        "#1\tAnnotatorNotes E1\ta note\twith a tab",
    ])
    parsed = _parse(ann, ace)
    assert [e.args for e in parsed.events][2] == (("Entity", "T9"), ("Cause", "E2"))
    assert parsed.relations[0].arg1_role == "Employee"
    assert parsed.normalizations[0].db == "GeoNames"
    assert parsed.notes[0].text == "a note\twith a tab"


@pytest.mark.parametrize("lines, message", [
    (["T1\tBe-born 25 29\tborn", "T2\tPerson 0 7\tAnn Lee", "E1\tBe-born:T1 Person-Arg:T2", "A1\tNegation T1"],
     "attribute Negation refers to T1, the trigger of E1 (expected E1"),
    (["T1\tPerson 0 7\tAnn Lee", "R1\tEmployment Employee:T1 Employer:T9"],
     "Employment Employer refers to undefined id T9 (expected a T id of this file)"),
    (["T1\tPerson 0 7\tAnn Lee", "T2\tPerson 4 9\tLee A", "T3\tGPE 1 5;3 6\tnn Lee e"],
     "fragments 1 5 and 3 6 overlap"),
])
def test_what_brat_cannot_display_is_an_error_located(lines: list[str], message: str) -> None:
    with pytest.raises(InputErrors) as caught:
        _parse("\n".join(lines))
    assert message in str(caught.value), str(caught.value)
    assert str(caught.value).startswith("d.ann:")


# What brat's verifier marks on an annotation it displays (verify_annotations.py: verify_annotation_types,
# verify_equivs, verify_entity_overlap, verify_relations, verify_missing_arguments, verify_disallowed_arguments,
# verify_extra_arguments, verify_attributes): read as written, the line and the conf rule in a warning.
@pytest.mark.parametrize("lines, message", [
    (["T1\tEntity 0 7\tAnn Lee"], "type 'Entity' is abstract in annotation.conf (expected one of: Person, "),
    (["T1\tWeapons 0 7\tAnn Lee"], "undeclared type 'Weapons' (expected one of annotation.conf: "),
    (["T1\tPerson 0 7\tAnn Lee", "T2\tMarry 44 51\tmarried", "E1\tMarry:T2 Person-Arg:T1"],
     "Marry has 1 Person-Arg arguments (expected at least 2 Person-Arg arguments: annotation.conf line "),
    (["T1\tPerson 0 7\tAnn Lee", "T2\tPerson 11 20\tAcme Corp", "R1\tEmployment Arg1:T1 Arg2:T2"],
     "Employment has arguments Arg1, Arg2 (expected Employee:ID Employer:ID: annotation.conf line "),
    (["T1\tPerson 0 7\tAnn Lee", "T2\tWeapon 11 20\tAcme Corp", "R1\tEmployment Employee:T1 Employer:T2"],
     "Employment Employer is a Weapon (expected "),
    (["T1\tPerson 0 7\tAnn Lee", "T2\tGPE 4 7\tLee"], "a GPE is inside a Person (expected <OVERLAP>"),
    (["T1\tPerson 0 7\tAnn Lee", "T2\tOrganization 0 7\tAnn Lee"], "a Organization has the same span as a Person"),
    (["T1\tPerson 0 7\tAnn Lee", "T2\tGPE 33 38\tParis", "*\tEquiv T1 T2"], "Equiv is not an equivalence"),
    (["T1\tPerson 0 7\tAnn Lee", "A1\tConfidence T1 High"], "attribute Confidence on a Person (expected "),
    (["T1\tPerson 0 7\tAnn Lee", "A1\tMood T1"], "undeclared attribute 'Mood' (expected one of "),
    (["T1\tPerson 0 7\tAnn Lee", "T2\tGPE 33 38\tParis", "R1\tLivesIn Arg1:T1 Arg2:T2"],
     "undeclared relation 'LivesIn' (expected one of "),
    (["T1\tBe-born 25 29\tborn", "T2\tPerson 0 7\tAnn Lee", "E1\tBe-born:T1 Mother:T2"],
     "undeclared role 'Mother' for Be-born (expected one of "),
])
def test_what_brat_marks_is_read_as_written_with_a_located_warning(lines: list[str], message: str) -> None:
    parsed = _parse("\n".join(lines))
    found = [f"{w.path}:{w.line}: {w.reason}" for w in parsed.warnings]
    assert any(message in w and w.endswith("; read as written") for w in found), found
    ids = {line.split("\t")[0] for line in lines} - {"*"}
    kept = set(parsed.textbounds) | {r.id for r in parsed.relations} | {e.id for e in parsed.events} \
        | {a.id for a in parsed.attributes}
    assert ids <= kept


def test_strict_turns_what_brat_marks_into_errors(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    shutil.copy(ACE, corpus / "annotation.conf")
    (corpus / "d.txt").write_text(TEXT, encoding="utf-8")
    (corpus / "d.ann").write_text("T1\tWeapons 0 7\tAnn Lee\n", encoding="utf-8")
    assert run_kg("check", "--corpus", str(corpus)).exit_code == 0
    strict = run_kg("check", "--strict", "--corpus", str(corpus))
    assert strict.exit_code == 2 and "d.ann:1: undeclared type 'Weapons'" in strict.output


def test_an_equivalence_of_several_types_is_kept_for_the_model_to_join() -> None:
    """brat shows it; kg.model.entities.identity makes one entity of the type most frequent in the chain."""
    parsed = _parse("\n".join(["T1\tPerson 0 7\tAnn Lee", "T2\tWeapon 33 38\tParis", "*\tAlias T1 T2"]))
    assert [e.members for e in parsed.equivs] == [("T1", "T2")]
    assert [(w.line, w.reason.split(" (")[0]) for w in parsed.warnings] == [(3, "Alias between Person and Weapon is not declared")]


def test_a_malformed_normalization_is_left_out_with_a_warning() -> None:
    """brat keeps a line it cannot parse unparsed and shows the rest; a link is optional."""
    parsed = _parse("\n".join(["T1\tPerson 0 7\tAnn Lee", "N1\tReference T1 UMLS: C0026860\tAnn"]))
    assert parsed.normalizations == () and [w.line for w in parsed.warnings] == [2]
    assert "malformed normalization, not read" in parsed.warnings[0].reason


def test_configuration_is_looked_up_as_brat_does(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    shutil.copy(ACE, tmp_path / "annotation.conf")
    assert find_config(tmp_path / "a" / "b", tmp_path) == tmp_path / "annotation.conf"
    (tmp_path / "a" / "annotation.conf").write_text("[entities]\nX\n")
    assert find_config(tmp_path / "a" / "b", tmp_path) == tmp_path / "a" / "annotation.conf"
    assert find_config(tmp_path / "a" / "b", tmp_path / "a" / "b") is None, "never above the corpus root"


def test_an_overlap_rule_keeps_the_kinds_brat_knows() -> None:
    config = parse_config("[entities]\nA\n[relations]\n<OVERLAP>\tArg1:A, Arg2:A, <OVL-TYPE>:equal|inside\n")
    assert config.overlap_allowed("A", "A", "equal") and not config.overlap_allowed("A", "A", "cross")


def test_every_error_of_a_configuration_is_reported_in_one_run() -> None:
    text = "[entities]\nA\n<ANY>=A\n\t\tB\nC\n\tD\n[events]\nE\tWho{0}:A\nF\tWho:A\n"
    with pytest.raises(InputErrors) as caught:
        parse_config(text, "x/annotation.conf")
    assert [(e.line, e.reason.split(" (")[0]) for e in caught.value.errors] == [
        (3, "<ANY> is reserved"), (4, "'B' is indented 2 but no type above it is indented 1"),
        (8, "impossible repetition '{0}' in 'Who{0}:A'")]
