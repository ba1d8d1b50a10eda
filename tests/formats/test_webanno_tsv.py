"""WebAnno TSV 3.x documents build like INCEpTION's XMI ones: the same document exported both ways
gives the same graph; real exports build; malformed files are located errors."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pyoxigraph as ox
import pytest
from cassis import load_dkpro_core_typesystem, load_typesystem, merge_typesystems

from kg.errors import CorpusError
from kg.formats.registry import BY_SUFFIX
from kg.model.iris import DEFAULT_BASE
from kg.store import build_dirs
from tests.helpers import assert_same_quads, build_corpus, run_kg, shared_corpus, store_quads

PAIRS = Path(__file__).parents[1] / "data" / "webanno-tsv3-pairs"
KGO = "https://kg.example.org/ontology#"
NIF = "http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#"


def _type_system(target: Path) -> None:
    """The type system of the suite's XMI: DKPro Core's, the suite's test layers, DocumentMetaData."""
    ts = merge_typesystems(load_dkpro_core_typesystem(),
                           load_typesystem((PAIRS / "webannoTestTypes.xml").read_bytes().decode()))
    metadata = ts.create_type("de.tudarmstadt.ukp.dkpro.core.api.metadata.type.DocumentMetaData")
    for name in ("documentTitle", "documentId", "documentUri", "collectionId", "documentBaseUri"):
        ts.create_feature(metadata, name, "uima.cas.String")
    ts.create_feature(metadata, "isLastSegment", "uima.cas.Boolean")
    target.write_text(ts.to_xml(), encoding="utf-8")



def _rows(data: Path, sparql: str) -> list:
    store = ox.Store.read_only(str(build_dirs.store_path(build_dirs.current_build(data))))
    return list(store.query(sparql, use_default_graph_as_union=True))


def _mentions(data: Path) -> dict[str, int]:
    rows = _rows(data, f"SELECT ?t (COUNT(?m) AS ?n) WHERE {{ ?m <{KGO}annotationType> ?t }} GROUP BY ?t")
    return {str(row[0].value): int(row[1].value) for row in rows}


def _documents(data: Path) -> int:
    return int(_rows(data, f"SELECT (COUNT(DISTINCT ?d) AS ?n) WHERE {{ ?m <{NIF}referenceContext> ?d }}")[0][0].value)


# Pairs whose graphs are compared (a build each way costs seconds); every pair is compared as brat.
GRAPH_PAIRS = ["testMultiTokenChain", "testStackedChain", "testStackedComplexSlotFeatureWithoutValues",
               "testSubTokenRelation", "testSubtokenChain", "testUnsetSlotFeature"]


@pytest.mark.parametrize("pair", GRAPH_PAIRS)
def test_one_document_exported_as_xmi_and_as_tsv3_builds_into_isomorphic_graphs(tmp_path: Path, pair: str) -> None:
    xmi, tsv = tmp_path / "xmi", tmp_path / "tsv"
    xmi.mkdir()
    tsv.mkdir()
    shutil.copy(PAIRS / pair / "reference.xmi", xmi / "doc.xmi")
    _type_system(xmi / "TypeSystem.xml")
    shutil.copy(PAIRS / pair / "reference.tsv", tsv / "doc.tsv")
    build_corpus(xmi, tmp_path / "xmi-data")
    build_corpus(tsv, tmp_path / "tsv-data")
    assert _mentions(tmp_path / "tsv-data")  # the pair holds annotations kg reads
    assert_same_quads(store_quads(tmp_path / "tsv-data"), store_quads(tmp_path / "xmi-data"))


@pytest.mark.parametrize("pair", sorted(p.name for p in PAIRS.iterdir() if p.is_dir()))
def test_one_document_exported_as_xmi_and_as_tsv3_reads_as_the_same_brat(tmp_path: Path, pair: str) -> None:
    """Text, .ann lines, annotation.conf and warnings (what was not carried over) alike."""
    _type_system(tmp_path / "TypeSystem.xml")
    shutil.copy(PAIRS / pair / "reference.xmi", tmp_path / "doc.xmi")
    shutil.copy(PAIRS / pair / "reference.tsv", tmp_path / "doc.tsv")
    from_xmi, from_tsv = BY_SUFFIX[".xmi"].read(tmp_path / "doc.xmi"), BY_SUFFIX[".tsv"].read(tmp_path / "doc.tsv")
    assert (from_tsv.text, from_tsv.ann, from_tsv.conf) == (from_xmi.text, from_xmi.ann, from_xmi.conf)
    assert [(what, count) for what, count, _ in from_tsv.warnings] == \
        [(what, count) for what, count, _ in from_xmi.warnings]  # the XMI's also give its lines


# What the real exports of ../shared/corpora/webanno-tsv3 give: documents, mentions per type (the
# NamedEntity value, a custom layer's name or label, SemArg for a DKPro Core SemArg on no other
# annotation's span) and the warnings of what was not carried over (none).
REAL = {
    "globalise": (3, {"CMTY_NAME": 91, "CMTY_QUAL": 17, "CMTY_QUANT": 78, "DATE": 43, "DOC": 40, "ETH_REL": 1,
                      "LOC_ADJ": 65, "LOC_NAME": 95, "NamedEntity": 2, "ORG": 22, "PER_ATTR": 6, "PER_NAME": 34,
                      "PRF": 57, "SHIP": 6, "SHIP_TYPE": 48, "STATUS": 6, "SemArg": 407, "SemPredGLOB": 356}, 0),
    "arete": (2, {"Coord": 3, "Loc": 4, "LocDate": 3, "Species": 3, "Trait": 28, "TraitVal": 28, "Unit": 2}, 0),
    "ner4archives": (1, {"EVENT": 23, "INSTALLATION": 2, "INSTITUTION": 21, "LOCATION": 205,
                         "NamedentityNer4Archives": 229, "PERIOD": 34, "PERSON": 67, "TITLE": 4}, 0),
}


@pytest.mark.parametrize("name", sorted(REAL))
def test_real_tsv3_exports_build(tmp_path: Path, name: str) -> None:
    corpus = shared_corpus("webanno-tsv3", name)
    documents, mentions, warnings = REAL[name]
    build_corpus(corpus, tmp_path / "data")
    assert _documents(tmp_path / "data") == documents
    assert _mentions(tmp_path / "data") == mentions
    reader = BY_SUFFIX[".tsv"]
    said = [what for path in corpus.glob("*.tsv") for what, _, _ in reader.read(path).warnings]
    assert len(said) == warnings, said


# Real pairs: one document a user exported from INCEpTION both as XMI and as TSV3, laid out as published
# in ../shared/corpora/webanno-tsv3-xmi-pairs/<folder>: pair -> (folder, the TSV file, the XMI's folder).
# Both are copied as doc.tsv and doc.xmi (kg names a document by its file; globalise's two names differ).
_GLOBALISE = "cas/{0}_p_80-ner-event-preanno_NL-HaNA_1.04.02_3604_0270-0276 - 1782 -"
REAL_PAIRS = {
    "neurobridge-PMC4669235": ("neurobridge", "PMC4669235.tsv", "PMC4669235_UMIA_CAS_XMI_ver1.0"),
    "neurobridge-PMC4698230": ("neurobridge", "PMC4698230.tsv", "PMC4698230_UIMA_CAS_XMI_XML_1.0"),
    "globalise-kaneel": ("globalise", "inception_output/kaneel_IAA_feb_2024.tsv", _GLOBALISE.format("kaneel")),
    "globalise-kruidnagel": ("globalise", "inception_output/kruidnagel_IAA_feb_2024.tsv",
                             _GLOBALISE.format("kruidnagel")),
}
IS_STRING = NIF + "isString"
RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"


def _document_text(quads: set) -> str:
    return next(str(q.object.value) for q in quads if q.predicate.value == IS_STRING)


def _vocabulary_label(quad) -> bool:
    return quad.predicate.value == RDFS_LABEL and quad.subject.value.startswith(DEFAULT_BASE + "vocab#")


def _same_but_whitespace_between_sentences(from_xmi: str, from_tsv: str) -> bool:
    """TSV3 does not record the text between sentences (INCEpTION rebuilds it as a line break and
    spaces) nor after the last one: the texts may differ only there, by whitespace, offsets kept."""
    rest = from_xmi[len(from_tsv):]
    return len(from_tsv) <= len(from_xmi) and (not rest or rest.isspace()) and all(
        a == b or (a.isspace() and b.isspace()) for a, b in zip(from_xmi, from_tsv))


@pytest.mark.parametrize("pair", sorted(REAL_PAIRS))
def test_a_real_export_as_xmi_and_as_tsv3_builds_into_the_same_graph_but_the_text_between_sentences(
        tmp_path: Path, pair: str) -> None:
    """Every quad alike but the document's nif:isString, whose text differs only where TSV3 cannot say it,
    and the labels of the corpus vocabulary, which the XMI's layer definitions give (their uiName)."""
    folder, tsv_name, xmi_folder = REAL_PAIRS[pair]
    published = shared_corpus("webanno-tsv3-xmi-pairs", folder)
    xmi, tsv = tmp_path / "xmi", tmp_path / "tsv"
    xmi.mkdir()
    tsv.mkdir()
    shutil.copy(published / xmi_folder / "TypeSystem.xml", xmi / "TypeSystem.xml")
    shutil.copy(next((published / xmi_folder).glob("*.xmi")), xmi / "doc.xmi")
    shutil.copy(published / tsv_name, tsv / "doc.tsv")
    build_corpus(xmi, tmp_path / "xmi-data")
    build_corpus(tsv, tmp_path / "tsv-data")
    assert _mentions(tmp_path / "tsv-data")  # the pair holds annotations kg reads
    if folder == "globalise":  # its SemPredGLOB slots point to SemArg: they are role statements
        assert _rows(tmp_path / "tsv-data", f"SELECT (COUNT(*) AS ?n) WHERE {{ ?s <{KGO}objectMention> ?o }}")[0][0].value != "0"
    from_xmi, from_tsv = store_quads(tmp_path / "xmi-data"), store_quads(tmp_path / "tsv-data")
    assert _same_but_whitespace_between_sentences(_document_text(from_xmi), _document_text(from_tsv))
    assert_same_quads({q for q in from_tsv if q.predicate.value != IS_STRING and not _vocabulary_label(q)},
                      {q for q in from_xmi if q.predicate.value != IS_STRING and not _vocabulary_label(q)})
    # TSV3 carries no layer definitions: its terms are labelled by their names, the XMI's by the project's
    # display names where it gives them (globalise's SemPredGLOB is "Event")
    assert all(q.object.value == q.subject.value.rsplit("#", 1)[1] for q in from_tsv if _vocabulary_label(q))
    assert {q.subject for q in from_tsv if _vocabulary_label(q)} == {q.subject for q in from_xmi if _vocabulary_label(q)}


def test_senticoref_chains_across_layers_are_one_entity_each_with_located_warnings(tmp_path: Path) -> None:
    """SentiCoref chains join NamedEntity, Sentiment and bare coreference mentions: each chain is one
    entity, of the type most frequent among its links (kg.model.entities.identity), with a warning naming the
    types of each document where one does so; the corpus reads."""
    corpus = shared_corpus("webanno-tsv3", "senticoref")
    result = run_kg("check", "--corpus", str(corpus))
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stdout.splitlines() if "identity joins mentions of several types (" in line]
    places = [place for line in lines for place in re.findall(r"([^\s,]+\.tsv):\d+", line)]
    assert lines and all(".tsv:" in line and line.startswith("warning: ") for line in lines)
    assert {Path(place).stem for place in places} <= {"1", "1109", "2165", "3789", "4889", "5890", "7383", "8915"}


def test_a_senticoref_chain_is_its_name_and_takes_the_sentiments_on_its_words(tmp_path: Path) -> None:
    """The governor's chain says "Rohatinski" three times and "Dodal je" ("he added") once: it is
    person/rohatinski, and "Dodal je", capitalised only as a sentence's start, is a mention form of it,
    no name. A Sentiment on the very words of a chain link ("Rohatinski", "EU") is that
    mention on another layer: a mention of the chain's entity, no entity of its own and no other
    reading of the thing (no warning); one on words no entity of the chain covers ("pritiskal") is."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    shutil.copy(shared_corpus("webanno-tsv3", "senticoref") / "1109.tsv", corpus / "1109.tsv")
    built = build_corpus(corpus, tmp_path / "data")
    assert built.exit_code == 0, built.output
    mixed = [line for line in built.output.splitlines() if "identity joins mentions of several types" in line]
    assert len(mixed) == 3 and sum("(ORG, Sentiment)" in line for line in mixed) == 1  # Bruselj's "pritiskal"
    assert not any("(PER, Sentiment)" in line for line in mixed)
    rows = run_kg("query", "--data", str(tmp_path / "data"), "--format", "csv", """
        SELECT ?form ?type ?e WHERE { ?m kgo:denotes ?e ; nif:anchorOf ?form ; kgo:annotationType ?type }""")
    assert rows.exit_code == 0, rows.output
    denoted = {tuple(line.split(",")) for line in rows.stdout.splitlines()[1:]}
    rohatinski = {e for form, _, e in denoted if form in ("Dodal je", "Rohatinski", "Dejal je")}
    assert rohatinski == {"person:rohatinski"}
    names = run_kg("query", "--data", str(tmp_path / "data"), "--format", "csv", """
        SELECT ?l ?kind WHERE { GRAPH kgg:entities { person:rohatinski ?p ?l
          VALUES (?p ?kind) { (skos:altLabel "name") (kgo:mentionForm "form") } } }""")
    kinds = {tuple(line.split(",")) for line in names.stdout.splitlines()[1:]}
    assert ("Dodal je", "form") in kinds and ("Dodal je", "name") not in kinds  # a sentence's opening words
    assert ("Rohatinski", "name") in kinds
    assert ("Rohatinski", "Sentiment", "person:rohatinski") in denoted
    assert {e for form, type_, e in denoted if type_ == "Sentiment" and form in ("EU", "NLB", "BIS")} == \
        {"organization:eu", "organization:nlb",
         "organization:bis"}


HEADER = "#FORMAT=WebAnno TSV 3.3\n#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|value\n" \
         "#T_CH=webanno.custom.CorefLink|referenceRelation|referenceType\n\n\n"


def test_utf16_offsets_escapes_and_chains_are_read(tmp_path: Path) -> None:
    """Offsets count UTF-16 units (the emoji two); values and text are unescaped; a gap between
    sentences is a line break and spaces, as INCEpTION rebuilds it; a chain link without an entity
    takes the type of the chain's entity."""
    (tmp_path / "a.tsv").write_text(
        HEADER + "#Text=I \\\\ 😊 Ana Pe\\tz .\n"
        "1-1\t0-1\tI\t_\t_\t_\n1-2\t2-3\t\\\\\t_\t_\t_\n1-3\t4-6\t😊\t_\t_\t_\n"
        "1-4\t7-10\tAna\tPER\\_X[1]\t*->1-1\t*[1]\n1-5\t11-15\tPe\\tz\tPER\\_X[1]\t*->1-1\t*[1]\n"
        "1-6\t16-17\t.\t_\t_\t_\n\n#Text=Ella\n2-1\t19-23\tElla\t_\tcoref->1-2\tpr[1]\n", encoding="utf-8")
    document = BY_SUFFIX[".tsv"].read(tmp_path / "a.tsv")
    assert document.text == "I \\ 😊 Ana Pe\tz .\n Ella"
    assert document.ann.splitlines() == ["T1\tPER_X 6 12;13 14\tAna Pe z", "T2\tPER_X 18 22\tElla",
                                         "*\tEquiv T1 T2", "A1\treferenceRelation T2 coref",
                                         "A2\treferenceType T2 pr"]


def _check(tmp_path: Path, files: dict[str, str]):
    """`kg check` of a corpus holding these files (name: text)."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name, text in files.items():
        (corpus / name).write_text(text, encoding="utf-8")
    return run_kg("check", "--corpus", str(corpus))


@pytest.mark.parametrize("body, line, message", [
    ("#Text=a b\n1-1\t0-1\ta\t_\n", 7, "row of 4 columns (expected 6"),
    ("#Text=a b\n1-1\t0-1\ta\t_\tx->1\t*[1]\n", 7, "chain value 'x->1' (expected <relation>-><chain>-<link>"),
    ("#Text=a\n1-1\t0-9\ta\t_\t_\t_\n", 7, "offsets 0-9 outside the text"),
    ("1-1\t0-1\ta\t_\t_\t_\n", 6, "token row before any #Text= line"),
    ("#Text=a\n#Foo=1\n1-1\t0-1\ta\t_\t_\t_\n", 7, "line '#Foo=1' in the body"),
])
def test_malformed_tsv3_is_a_located_error(tmp_path: Path, body: str, line: int, message: str) -> None:
    result = _check(tmp_path, {"a.tsv": HEADER + body})
    assert result.exit_code == 2
    assert f"a.tsv:{line}: {message}" in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize("header, message", [
    ("#T_XX=webanno.custom.A|b", "a.tsv:2: unknown header line '#T_XX=webanno.custom.A|b'"),
    ("#T_SP=webanno.custom.A|b\n#T_SP=webanno.custom.A|c", "a.tsv:3: layer webanno.custom.A declared twice"),
    ("#T_SP=webanno.custom.A|begin", "a.tsv:2: feature name 'begin' of layer webanno.custom.A"),
    ("#T_RL=webanno.custom.R|label", "a.tsv:2: relation layer webanno.custom.R without its base type"),
])
def test_a_bad_header_is_a_located_error(tmp_path: Path, header: str, message: str) -> None:
    result = _check(tmp_path, {"a.tsv": f"#FORMAT=WebAnno TSV 3.3\n{header}\n\n\n#Text=a\n"})
    assert result.exit_code == 2
    assert message in result.stderr


CHAIN = (PAIRS / "testSimpleChain" / "reference.tsv").read_text(encoding="utf-8")


def test_a_tsv_file_of_another_kind_is_listed_as_not_read(tmp_path: Path) -> None:
    result = _check(tmp_path, {"chain.tsv": CHAIN, "table.tsv": "name\tvalue\nx\t1\n"})
    assert result.exit_code == 0, result.output
    assert "1 documents checked" in result.stdout
    assert "files not read" in result.stdout and "table.tsv" in result.stdout


def test_one_document_id_in_two_formats_is_a_located_error(tmp_path: Path) -> None:
    result = _check(tmp_path, {"doc.tsv": CHAIN, "doc.txt": "This is a test .\n"})
    assert result.exit_code == 2
    assert "doc.txt: both doc.tsv and doc.txt (expected one form of a document: .txt (brat)" in result.stderr


DAMAGE = ("", "_", "*", "*->9-9", "9-9[1_2]", "x[3]|y", "\\", "a;b", "5-1", "1-1.9")


@pytest.mark.parametrize("pair", ["testStackedComplexSlotFeatureWithoutValues", "testSubTokenRelation2",
                                  "testMultiTokenChain"])
def test_every_one_line_damage_of_an_export_is_a_located_error_or_a_document(tmp_path: Path, pair: str) -> None:
    """Each line deleted, cut in half, or one of its cells replaced by a value of the wrong kind: the
    reader gives a document or a CorpusError at a line of the file, never another exception."""
    lines = (PAIRS / pair / "reference.tsv").read_text(encoding="utf-8").split("\n")
    variants = []
    for i, line in enumerate(lines):
        variants += [lines[:i] + lines[i + 1:], lines[:i] + [line[:len(line) // 2]] + lines[i + 1:]]
        cells = line.split("\t")
        for j in range(len(cells)):
            variants += [lines[:i] + ["\t".join(cells[:j] + [bad] + cells[j + 1:])] + lines[i + 1:] for bad in DAMAGE]
    reader, path = BY_SUFFIX[".tsv"], tmp_path / "doc.tsv"
    for variant in variants:
        path.write_text("\n".join(variant), encoding="utf-8")
        try:
            reader.read(path)
        except CorpusError as exc:
            assert exc.path == str(path) and 1 <= (exc.line or 0) <= len(variant), exc


def test_an_ann_beside_a_converted_document_is_listed_as_not_read(tmp_path: Path) -> None:
    """kg reads a .tsv's annotations from the .tsv: a brat .ann beside it is not read, and says so."""
    result = _check(tmp_path, {"doc.tsv": CHAIN, "doc.ann": "T1\tX 0 4\tThis\n"})
    assert result.exit_code == 0, result.output
    assert "1 files not read" in result.stdout and "doc.ann" in result.stdout
