"""INCEpTION's UIMA CAS XMI exports read as brat: exact lines, offsets in code points, a conf the
project's reader accepts, the zip form, and bad input located."""

from __future__ import annotations

import importlib.util
import random
import re
import shutil
import zipfile
from pathlib import Path

import pytest
from lxml import etree

from kg.errors import CorpusError
from kg.formats.brat.ann import parse_ann
from kg.formats.brat.conf import load_config
from kg.formats.inception.cas_to_brat import normalization
from kg.formats.inception.xmi import BratDocument, convert, xmi_to_brat, zip_to_brat

DATA = Path(__file__).resolve().parents[1] / "data" / "inception"

BOGOTA_ANN = """\
T1	PER 0 10	Marta Peña
T2	ORG 26 47	Médicos Sin Fronteras
T3	LOC 51 57	Bogotá
T4	ORG 68 81	Radio Caracol
T5	Claim 84 121	we will stay until the clinic reopens
T6	PER 124 128	Peña
E1	Claim:T5 Speaker:T1 Medium:T4
R1	Employment Arg1:T1 Arg2:T2
R2	Employment Arg1:T6 Arg2:T2
*	Equiv T1 T6
A1	certain E1
A2	stance E1 hopeful
N1	Reference T1 Wikidata:Q5	Marta Peña
N2	Reference T2 Wikidata:Q152133	Médicos Sin Fronteras
N3	Reference T3 Wikidata:Q2841	Bogotá
#1	AnnotatorNotes E1	comment: said on air, in Spanish
#2	AnnotatorNotes R1	since: 2019
"""

BOGOTA_CONF = """\
[entities]
LOC
ORG
PER

[relations]
<OVERLAP>	Arg1:<ENTITY>, Arg2:<ENTITY>, <OVL-TYPE>:<ANY>
Employment	Arg1:PER, Arg2:ORG
Equiv	Arg1:PER, Arg2:PER, <REL-TYPE>:symmetric-transitive

[events]
Claim	Medium*:ORG, Speaker*:PER

[attributes]
certain	Arg:<EVENT>
stance	Arg:<EVENT>, Value:hopeful
"""

LISBON_ANN = """\
T1	LOC 3 9	Lisboa
T2	PER 14 28	João Gonçalves
T3	NamedEntity 40 50	Café Ñandú
T4	PER 52 54	He
T5	NamedEntity 60 68	the café
T6	LOC 72 78	Lisboa
T7	Claim 83 102	a home for migrants
T8	migration_policy 83 102	a home for migrants
T9	PER 106 115	Gonçalves
T10	ORG 124 136	ONU Migração
E1	Claim:T7 speakers:T2
R1	owner_of Arg1:T2 Arg2:T3
R2	LocatedIn Arg1:T3 Arg2:T1
*	Equiv T2 T4 T9
*	Equiv T3 T5
A1	referenceType T2 name
A2	referenceRelation T4 anaphoric
A3	referenceType T4 pronoun
A4	weight T8 3
A5	referenceType T9 name
N1	Reference T1 geonames:2267057	Lisboa
N2	Reference T8 Wikidata:Q177626	a home for migrants
N3	Reference T10 dbpedia:resource/International_Organization_for_Migration	ONU Migração
#1	AnnotatorNotes T3	identifier: urn:example:cafe
#2	AnnotatorNotes T8	tags: housing; labour market
"""

LISBON_CONF = """\
[entities]
LOC
NamedEntity
ORG
PER
migration_policy

[relations]
<OVERLAP>	Arg1:<ENTITY>, Arg2:<ENTITY>, <OVL-TYPE>:<ANY>
LocatedIn	Arg1:NamedEntity, Arg2:LOC
owner_of	Arg1:PER, Arg2:NamedEntity
Equiv	Arg1:NamedEntity|PER, Arg2:NamedEntity|PER, <REL-TYPE>:symmetric-transitive

[events]
Claim	speakers*:PER

[attributes]
referenceRelation	Arg:PER, Value:anaphoric
referenceType	Arg:PER, Value:name|pronoun
weight	Arg:migration_policy, Value:3
"""


def _make_data():
    spec = importlib.util.spec_from_file_location("make_inception_data", DATA / "make_data.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _convert(path: Path, doc) -> BratDocument:
    """Write a test CAS (make_data.Doc) as `path` with its TypeSystem.xml beside it, and read it back."""
    (path.parent / "TypeSystem.xml").write_text(doc.ts.to_xml(), encoding="utf-8")
    path.write_text(doc.cas.to_xmi(), encoding="utf-8")
    return xmi_to_brat(path)


@pytest.fixture
def loose(tmp_path: Path) -> Path:
    """A copy of the loose export (the .xmi files and TypeSystem.xml) that a test may edit."""
    target = tmp_path / "export"
    target.mkdir()
    for name in ("TypeSystem.xml", "bogota.xmi", "lisbon.xmi"):
        shutil.copy(DATA / name, target / name)
    return target


def test_make_data_reproduces_the_test_files(tmp_path: Path) -> None:
    written = _make_data().write(tmp_path)
    assert {p.name for p in written} == {"TypeSystem.xml", "bogota.xmi", "lisbon.xmi", "inception.zip"}
    for path in written:
        assert path.read_bytes() == (DATA / path.name).read_bytes(), path.name


@pytest.mark.parametrize("name, ann, conf", [("bogota", BOGOTA_ANN, BOGOTA_CONF),
                                             ("lisbon", LISBON_ANN, LISBON_CONF)])
def test_exact_brat_lines_and_conf(name: str, ann: str, conf: str) -> None:
    document = xmi_to_brat(DATA / f"{name}.xmi")
    assert isinstance(document, BratDocument)
    assert document.ann == ann
    assert document.conf == conf


def test_text_is_the_sofa_string_and_every_span_slices_it() -> None:
    make_data = _make_data()
    for name, text in (("bogota", make_data.BOGOTA), ("lisbon", make_data.LISBON)):
        document = xmi_to_brat(DATA / f"{name}.xmi")
        assert document.text == text
        for line in document.ann.splitlines():
            if line.startswith("T"):
                _, type_offsets, covered = line.split("\t")
                begin, end = map(int, type_offsets.split(" ")[1:])
                assert document.text[begin:end] == covered, line


def test_offsets_are_code_points_where_xmi_counts_utf16_units() -> None:
    """UIMA (Java) counts UTF-16 code units; brat and kg count code points. After the emoji
    (👩 is outside the BMP: two UTF-16 units) the two differ, and the .ann must use code points."""
    text = xmi_to_brat(DATA / "bogota.xmi").text
    raw = {element.get("identifier"): int(element.get("begin"))
           for element in etree.parse(str(DATA / "bogota.xmi")).iter("{*}NamedEntity")}
    begin = text.index("Médicos")
    assert raw["https://www.wikidata.org/wiki/Q152133"] == len(text[:begin].encode("utf-16-le")) // 2 == begin + 1
    assert "T2\tORG 26 47\tMédicos Sin Fronteras" in xmi_to_brat(DATA / "bogota.xmi").ann.splitlines()
    assert begin == 26


def test_ann_and_conf_parse_with_the_project_reader(tmp_path: Path) -> None:
    document = xmi_to_brat(DATA / "bogota.xmi")
    conf = tmp_path / "annotation.conf"
    conf.write_text(document.conf, encoding="utf-8")
    config = load_config(conf)
    parsed = parse_ann(tmp_path / "bogota.ann", document.ann, document.text, config)
    assert [b.type for b in parsed.textbounds.values()] == ["PER", "ORG", "LOC", "ORG", "Claim", "PER"]
    assert [(r.type, r.arg1, r.arg2) for r in parsed.relations] == [("Employment", "T1", "T2"),
                                                                    ("Employment", "T6", "T2")]
    assert parsed.events[0].args == (("Speaker", "T1"), ("Medium", "T4"))
    assert [(n.target, n.db, n.ref) for n in parsed.normalizations][0] == ("T1", "Wikidata", "Q5")
    assert parsed.equivs[0].members == ("T1", "T6")
    lisbon = tmp_path / "lisbon.conf"
    lisbon.write_text(xmi_to_brat(DATA / "lisbon.xmi").conf, encoding="utf-8")
    assert set(load_config(lisbon).relations) == {"LocatedIn", "owner_of", "Equiv"}


def test_what_is_not_carried_over_is_reported() -> None:
    counted = xmi_to_brat(DATA / "lisbon.xmi").warnings  # the reader gives them the document's path
    warnings = [w for w, _, _ in counted]
    assert not any(str(DATA) in w for w in warnings)  # so that like groups with like across documents
    assert ("layer de.tudarmstadt.ukp.dkpro.core.api.lexmorph.type.pos.POS not read (expected a NamedEntity, "
            "SemPred, SemArg or custom span, relation or chain layer: kg reads those, not parts of speech)", 1, None) in counted
    xmi = (DATA / "lisbon.xmi").read_text(encoding="utf-8").splitlines()
    empty = [line for w, _, line in counted if w.startswith("NamedEntity skipped: the text it covers is empty")]
    # the line of its element (whose offsets count UTF-16 units: 104-106 in code points)
    assert len(empty) == 1 and 'NamedEntity xmi:id="34" sofa="1" begin="106" end="108"' in xmi[empty[0] - 1]
    assert any("layer de.tudarmstadt.ukp.dkpro.core.api.syntax.type.dependency.Dependency not read" in w
               for w in warnings)
    assert any("'owner of' written as 'owner_of'" in w for w in warnings)
    assert xmi_to_brat(DATA / "bogota.xmi").warnings == ()


def test_zip_export_reads_like_the_loose_files(tmp_path: Path) -> None:
    documents = zip_to_brat(DATA / "inception.zip")
    assert sorted(documents) == ["bogota", "lisbon"]
    for name, document in documents.items():
        loose = xmi_to_brat(DATA / f"{name}.xmi")
        assert (document.text, document.ann, document.conf) == (loose.text, loose.ann, loose.conf)
    single = tmp_path / "bogota.zip"
    with zipfile.ZipFile(single, "w") as archive:
        archive.write(DATA / "TypeSystem.xml", "TypeSystem.xml")
        archive.write(DATA / "bogota.xmi", "bogota.xmi")
    assert xmi_to_brat(single).ann == BOGOTA_ANN
    with pytest.raises(CorpusError, match=r"inception\.zip: archive holds 2 \.xmi documents \(expected exactly one"):
        xmi_to_brat(DATA / "inception.zip")


def test_a_span_across_lines_becomes_brat_fragments(tmp_path: Path) -> None:
    make_data = _make_data()
    ts = make_data.type_system()
    doc = make_data.Doc(ts, "Visit the Museu\nNacional\tdo Prado 🎨 today.")
    doc.span(make_data.NAMED_ENTITY, "Museu\nNacional\tdo Prado", value="FAC")
    doc.span(make_data.NAMED_ENTITY, "today", value="DATE")
    document = _convert(tmp_path / "museum.xmi", doc)
    assert document.ann == ("T1\tFAC 10 15;16 24;25 33\tMuseu Nacional do Prado\n"
                            "T2\tDATE 36 41\ttoday\n")
    (tmp_path / "annotation.conf").write_text(document.conf, encoding="utf-8")
    parse_ann(tmp_path / "museum.ann", document.ann, document.text, load_config(tmp_path / "annotation.conf"))


@pytest.mark.parametrize("iri, expected", [
    ("http://www.wikidata.org/entity/Q42", ("Wikidata", "Q42")),
    ("https://www.wikidata.org/wiki/Q42", ("Wikidata", "Q42")),
    ("https://sws.geonames.org/2267057/", ("geonames", "2267057")),
    ("http://dbpedia.org/resource/Lisbon", ("dbpedia", "resource/Lisbon")),
    ("https://viaf.org/viaf/102333412?x=1#a", ("viaf", "viaf/102333412?x=1#a")),
    ("urn:example:cafe", None),
    ("Lisbon", None),
])
def test_normalization_of_identifiers(iri: str, expected) -> None:
    assert normalization(iri) == expected


def _edit(path: Path, old: str, new: str) -> int:
    """Replace the first `old` in the file; return its line number."""
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return text[:text.index(old)].count("\n") + 1


def test_xml_1_1_export_reads_the_same(loose: Path) -> None:
    """INCEpTION offers the XMI export as XML 1.0 and as XML 1.1."""
    _edit(loose / "bogota.xmi", "<?xml version='1.0' encoding='UTF-8'?>", '<?xml version="1.1" encoding="UTF-8"?>')
    assert xmi_to_brat(loose / "bogota.xmi").ann == BOGOTA_ANN


def test_type_system_name_in_either_case(loose: Path) -> None:
    (loose / "TypeSystem.xml").rename(loose / "typesystem.xml")
    assert xmi_to_brat(loose / "bogota.xmi").ann == BOGOTA_ANN


def test_not_xml_is_located(loose: Path) -> None:
    line = _edit(loose / "bogota.xmi", 'sofa="1" begin="0" end="10"', 'sofa="1" begin="0" end="10"<')
    with pytest.raises(CorpusError) as info:
        xmi_to_brat(loose / "bogota.xmi")
    assert str(info.value).startswith(f"{loose / 'bogota.xmi'}:{line}: not well-formed XML")
    assert "(expected UIMA CAS XMI)" in str(info.value)


def test_type_missing_from_the_type_system_is_located(loose: Path) -> None:
    _edit(loose / "TypeSystem.xml", "webanno.custom.Topic<", "webanno.custom.Subject<")
    text = (loose / "lisbon.xmi").read_text(encoding="utf-8")
    line = text[:text.index("<custom:Topic")].count("\n") + 1
    with pytest.raises(CorpusError) as info:
        xmi_to_brat(loose / "lisbon.xmi")
    assert str(info.value) == (f"{loose / 'lisbon.xmi'}:{line}: type webanno.custom.Topic is not in the type system "
                               f"(expected the TypeSystem.xml exported with this document)")


def test_feature_pointing_nowhere_is_located(loose: Path) -> None:
    text = (loose / "bogota.xmi").read_text(encoding="utf-8")
    governor = re.search(r'<custom:Employment [^>]*Governor="(\d+)"', text)
    line = _edit(loose / "bogota.xmi", governor.group(0), governor.group(0).replace(governor.group(1), "999"))
    with pytest.raises(CorpusError) as info:
        xmi_to_brat(loose / "bogota.xmi")
    assert str(info.value) == (f"{loose / 'bogota.xmi'}:{line}: a feature points to xmi:id 999, which no element "
                               f"has (expected a reference to an element of this file)")


def test_bad_type_system_and_missing_files_are_reported(loose: Path, tmp_path: Path) -> None:
    (loose / "TypeSystem.xml").write_text('<typeSystemDescription xmlns="http://uima.apache.org/resourceSpecifier">'
                                          '\n<types>\n', encoding="utf-8")
    with pytest.raises(CorpusError, match=r"TypeSystem\.xml:3: not well-formed XML: .*\(expected a UIMA type system"):
        xmi_to_brat(loose / "bogota.xmi")
    (loose / "TypeSystem.xml").unlink()
    with pytest.raises(CorpusError, match=r"bogota\.xmi: no TypeSystem\.xml beside the \.xmi"):
        xmi_to_brat(loose / "bogota.xmi")
    (tmp_path / "broken.zip").write_bytes(b"PK\x03\x04 not really")
    with pytest.raises(CorpusError, match=r"broken\.zip: cannot read the archive"):
        zip_to_brat(tmp_path / "broken.zip")
    with zipfile.ZipFile(tmp_path / "nots.zip", "w") as archive:
        archive.write(DATA / "bogota.xmi", "bogota.xmi")
    with pytest.raises(CorpusError, match=r"nots\.zip: no TypeSystem\.xml for bogota\.xmi in the archive"):
        zip_to_brat(tmp_path / "nots.zip")
    with zipfile.ZipFile(tmp_path / "project.zip", "w") as archive:
        archive.write(DATA / "inception.zip", "annotation/bogota.txt/admin.zip")
    with pytest.raises(CorpusError, match=r"project\.zip: no \.xmi document in the archive \(expected"):
        zip_to_brat(tmp_path / "project.zip")


def test_offsets_outside_the_text_are_located(loose: Path) -> None:
    element = re.search(r'xmi:id="(\d+)" sofa="1" begin="0" end="10" value="PER"',
                        (loose / "bogota.xmi").read_text(encoding="utf-8"))
    line = _edit(loose / "bogota.xmi", element.group(0), element.group(0).replace('end="10"', 'end="9999"'))
    units = len(_make_data().BOGOTA.encode("utf-16-le")) // 2
    with pytest.raises(CorpusError) as info:
        xmi_to_brat(loose / "bogota.xmi")
    assert str(info.value) == (f"{loose / 'bogota.xmi'}:{line}: NamedEntity xmi:id {element.group(1)} has offsets "
                               f"0-9999 (expected 0 <= begin <= end <= {units}, the text's length in UTF-16 units)")


@pytest.mark.parametrize("content, line, message", [
    ("", 1, "not well-formed XML: "),
    ("<?xml version='1.0'?>\n<html><body>a page</body></html>\n", 2,
     "root element <html> (expected <XMI> in namespace http://www.omg.org/XMI: a UIMA CAS XMI document)"),
])
def test_a_file_that_is_not_xmi_is_located(loose: Path, content: str, line: int, message: str) -> None:
    (loose / "page.xmi").write_text(content, encoding="utf-8")
    with pytest.raises(CorpusError) as info:
        xmi_to_brat(loose / "page.xmi")
    assert str(info.value).startswith(f"{loose / 'page.xmi'}:{line}: {message}")


def test_a_document_given_as_the_type_system_is_located(loose: Path) -> None:
    shutil.copy(loose / "lisbon.xmi", loose / "TypeSystem.xml")
    with pytest.raises(CorpusError) as info:
        xmi_to_brat(loose / "bogota.xmi")
    assert str(info.value) == (f"{loose / 'TypeSystem.xml'}:2: root element <XMI> "
                               f"(expected <typeSystemDescription> in namespace http://uima.apache.org/resourceSpecifier: "
                               f"a UIMA type system description)")


def test_repeated_roles_shared_attribute_names_and_dangling_relations(tmp_path: Path) -> None:
    make_data = _make_data()
    ts = make_data.type_system()
    hedge = ts.create_type("webanno.custom.Hedge")
    ts.create_feature(hedge, "certain", "uima.cas.String")
    doc = make_data.Doc(ts, "Ana and Rui say it may rain.")
    ana = doc.span(make_data.NAMED_ENTITY, "Ana", value="PER")
    rui = doc.span(make_data.NAMED_ENTITY, "Rui", value="PER")
    doc.claim("it may rain", [("Speaker", ana), ("Speaker", rui)], certain=True)
    doc.span("webanno.custom.Hedge", "may", certain="maybe")
    doc.add(make_data.EMPLOYMENT, rui.begin, rui.end, Dependent=rui)
    document = _convert(tmp_path / "rain.xmi", doc)
    assert document.ann == ("T1\tPER 0 3\tAna\n"
                            "T2\tPER 8 11\tRui\n"
                            "T3\tClaim 16 27\tit may rain\n"
                            "T4\tHedge 19 22\tmay\n"
                            "E1\tClaim:T3 Speaker:T1 Speaker2:T2\n"
                            "A1\tcertain E1 true\n"
                            "A2\tcertain T4 maybe\n")
    assert "certain\tArg:<EVENT>|Hedge, Value:maybe|true\n" in document.conf
    assert "Claim\tSpeaker*:PER\n" in document.conf
    [(what, count, line)] = document.warnings
    assert (what, count) == ("Employment relation skipped (expected its Governor and Dependent annotations kg reads)", 1)
    assert "Employment" in (tmp_path / "rain.xmi").read_text(encoding="utf-8").splitlines()[line - 1]
    (tmp_path / "annotation.conf").write_text(document.conf, encoding="utf-8")
    parsed = parse_ann(tmp_path / "rain.ann", document.ann, document.text, load_config(tmp_path / "annotation.conf"))
    assert parsed.events[0].args == (("Speaker", "T1"), ("Speaker", "T2"))


def test_layers_of_newer_inception_custom_prefix_are_read(tmp_path: Path) -> None:
    """INCEpTION names new custom layers custom.X (mimotext's TypeSystem.xml): read as webanno.custom.X."""
    make_data = _make_data()
    ts = make_data.type_system()
    span = ts.create_type("custom.Span")
    ts.create_feature(span, "label", "uima.cas.String")
    relation = ts.create_type("custom.Relation")
    for end in ("Governor", "Dependent"):
        ts.create_feature(relation, end, "uima.tcas.Annotation")
    doc = make_data.Doc(ts, "Voltaire wrote Candide.")
    author = doc.span("custom.Span", "Voltaire", label="Author")
    work = doc.span("custom.Span", "Candide", label="Work")
    doc.add("custom.Relation", work.begin, work.end, Governor=author, Dependent=work)
    document = _convert(tmp_path / "voltaire.xmi", doc)
    assert document.ann.startswith("T1\tAuthor 0 8\tVoltaire\nT2\tWork 15 22\tCandide\nR1\tRelation ")
    assert document.warnings == ()


def test_chain_links_take_the_type_of_their_chain(tmp_path: Path) -> None:
    """A link with no entity on its span takes the type its chain takes: the most frequent among the
    chain's entities, the first on a tie (Ana's PER before Faro's LOC); in a chain of links only, the
    chain layer's name."""
    make_data = _make_data()
    ts = make_data.type_system()
    doc = make_data.Doc(ts, "The storm hit Ana in Faro. It was loud, she said.")
    ana = doc.span(make_data.NAMED_ENTITY, "Ana", value="PER")
    faro = doc.span(make_data.NAMED_ENTITY, "Faro", value="LOC")
    link = make_data.LINK
    doc.chain([doc.span(link, "The storm"), doc.span(link, "It")])
    doc.chain([doc.add(link, ana.begin, ana.end), doc.add(link, faro.begin, faro.end), doc.span(link, "she")])
    document = _convert(tmp_path / "storm.xmi", doc)
    assert document.ann == ("T1\tCoreference 0 9\tThe storm\n"
                            "T2\tPER 14 17\tAna\n"
                            "T3\tLOC 21 25\tFaro\n"
                            "T4\tCoreference 27 29\tIt\n"
                            "T5\tPER 40 43\tshe\n"
                            "*\tEquiv T1 T4\n"
                            "*\tEquiv T2 T3 T5\n")
    assert "Equiv\tArg1:Coreference|LOC|PER, Arg2:Coreference|LOC|PER, <REL-TYPE>:symmetric-transitive\n" in document.conf


def test_mangled_exports_give_located_errors_never_a_crash() -> None:
    """Bytes cut or replaced at random in a document or its type system: the result is a
    document or a CorpusError naming the file and what was expected, almost always with a line."""
    xmi, ts = (DATA / "lisbon.xmi").read_bytes(), (DATA / "TypeSystem.xml").read_bytes()
    pieces = [b'"', b"<", b">", b"0", b"9999", b"-1", b"x", b"", b" ", b"&", b"\xff", b'="12"', b'"3 4"']
    rng = random.Random(10)
    errors = []
    for attempt in range(150):
        mangled = bytearray(ts if attempt % 4 == 0 else xmi)
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(mangled))
            mangled[at:at + rng.randint(0, 4)] = rng.choice(pieces)
        try:
            if attempt % 4 == 0:
                convert(xmi, bytes(mangled), "doc.xmi", "TypeSystem.xml")
            else:
                convert(bytes(mangled), ts, "doc.xmi", "TypeSystem.xml")
        except CorpusError as exc:
            errors.append(exc)
    assert len(errors) > 120
    assert all(e.path in ("doc.xmi", "TypeSystem.xml") and "(expected " in e.reason for e in errors)
    assert sum(e.line is not None for e in errors) >= 0.97 * len(errors)


def test_a_link_on_a_span_not_read_is_said_once_where_it_stands(loose: Path) -> None:
    """A span over white space is skipped, and so is the knowledge-base link it carries: said in the one
    warning at the span's line, never lost silently."""
    line = _edit(loose / "lisbon.xmi", 'begin="106" end="108" value="PER"',
                 'begin="106" end="108" value="PER" identifier="http://www.wikidata.org/entity/Q42"')
    counted = xmi_to_brat(loose / "lisbon.xmi").warnings
    said = [(w, at) for w, _, at in counted if "Wikidata:Q42" in w]
    assert said == [("NamedEntity skipped: the text it covers is empty or white space; its link Wikidata:Q42 not "
                     "read with it (expected a span over some text)", line)]
    assert "Q42" not in xmi_to_brat(loose / "lisbon.xmi").ann
