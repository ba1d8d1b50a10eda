"""Links come back: a mention an INCEpTION user linked to one of kg's entity IRIs (NamedEntity
`identifier`, or a custom layer's concept feature) is that entity on the next build, whatever its
text, in XMI and in WebAnno TSV 3; an IRI under another build's base is a counted warning, the
mention kept."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pyoxigraph as ox
from cassis import Cas, load_dkpro_core_typesystem

from kg.store import build_dirs
from tests.helpers import TINY, run_kg

NER = "de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity"
CONCEPT = "webanno.custom.Concept"
ID = "https://kg.example.org/id/"
OTHER = "https://other.example.org/kg/id/"
TEXT = "The lieutenant thanked the agency. The officer left."
# (begin, end, layer, type, identifier): the lieutenant is Ana Ruiz, the agency the UNHCR (through a
# custom layer's concept feature), the officer linked to an entity of another build
LINKS = [(0, 14, NER, "Person", ID + "person/ana-ruiz"),
         (23, 33, CONCEPT, "IntergovernmentalOrganization", ID + "organization/unhcr"),
         (35, 46, NER, "Person", OTHER + "person/ana-ruiz")]


def _xmi(folder: Path) -> None:
    ts = load_dkpro_core_typesystem()
    concept = ts.create_type(CONCEPT, supertypeName="uima.tcas.Annotation")
    ts.create_feature(concept, "value", "uima.cas.String")
    ts.create_feature(concept, "kbConcept", "uima.cas.String")
    cas = Cas(typesystem=ts)
    cas.sofa_string = TEXT
    for sentence in re.finditer(r"[^.]+\.", TEXT):
        cas.add(ts.get_type("de.tudarmstadt.ukp.dkpro.core.api.segmentation.type.Sentence")(
            begin=sentence.start() + (sentence[0][0] == " "), end=sentence.end()))
    for begin, end, layer, type_, iri in LINKS:
        feature = "identifier" if layer == NER else "kbConcept"
        cas.add(ts.get_type(layer)(begin=begin, end=end, value=type_, **{feature: iri}))
    folder.mkdir()
    (folder / "linked.xmi").write_text(cas.to_xmi(), encoding="utf-8")
    (folder / "TypeSystem.xml").write_text(ts.to_xml(), encoding="utf-8")


def _tsv(folder: Path) -> None:
    """The same document as WebAnno TSV 3.3: one column per feature, `\\_` escaping the underscore."""
    rows, cells = [], {NER: ["identifier", "value"], CONCEPT: ["kbConcept", "value"]}
    for sentence_number, sentence in enumerate(re.finditer(r"[^. ][^.]*\.", TEXT), start=1):
        rows.append(f"\n#Text={sentence[0]}")
        for token_number, token in enumerate(re.finditer(r"\w+|\.", TEXT[:sentence.end()]), start=1):
            if token.start() < sentence.start():
                continue
            columns = []
            for layer in (NER, CONCEPT):
                link = next((link for link in LINKS if link[2] == layer and link[0] <= token.start() < link[1]), None)
                number = f"[{LINKS.index(link) + 1}]" if link else ""
                values = {"identifier": link[4], "kbConcept": link[4], "value": link[3]} if link else {}
                columns += [values[f].replace("_", "\\_") + number if link else "_" for f in cells[layer]]
            number = sum(1 for t in re.finditer(r"\w+|\.", TEXT[:sentence.start()]))
            rows.append(f"{sentence_number}-{token_number - number}\t{token.start()}-{token.end()}\t{token[0]}\t"
                        + "\t".join(columns) + "\t")
    header = f"#FORMAT=WebAnno TSV 3.3\n#T_SP={NER}|identifier|value\n#T_SP={CONCEPT}|kbConcept|value\n\n"
    folder.mkdir()
    (folder / "linked.tsv").write_text(header + "\n".join(rows) + "\n", encoding="utf-8")


def _denoted(data: Path) -> list[tuple[str, str, str]]:
    store = ox.Store.read_only(str(build_dirs.store_path(build_dirs.current_build(data))))
    query = ("SELECT ?d ?text ?e WHERE { ?m <https://kg.example.org/ontology#denotes> ?e ; "
             "<http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#anchorOf> ?text ; "
             "<http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#referenceContext> ?d }")
    return sorted((str(d.value).rsplit("/", 2)[-2], str(text.value), str(e.value))
                  for d, text, e in store.query(query, use_default_graph_as_union=True))


def test_mentions_linked_to_kg_iris_in_xmi_and_tsv3_are_those_entities(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    shutil.copytree(TINY, corpus)
    _xmi(corpus / "xmi")
    _tsv(corpus / "tsv")
    data = tmp_path / "data"
    result = run_kg("build", "--corpus", str(corpus), "--data", str(data), "--quiet")
    assert result.exit_code == 0, result.output
    denoted = _denoted(data)
    named = {(text, entity) for folder, text, entity in denoted if folder in ("xmi", "tsv")}
    assert ("The lieutenant", ID + "person/ana-ruiz") in named  # whatever its text
    assert ("the agency", ID + "organization/unhcr") in named
    assert ("Ana Ruiz", ID + "person/ana-ruiz") in {(text, entity) for _, text, entity in denoted}
    assert [folder for folder, text, entity in denoted if text == "The lieutenant"] == ["tsv", "xmi"]
    assert not any(entity == ID + "person/ana-ruiz" for _, text, entity in denoted if text == "The officer")
    officers = [entity for _, text, entity in denoted if text == "The officer"]
    assert len(officers) == 2  # kept, in both documents
    warned = [line for line in result.output.splitlines() if "another kg build's base" in line]
    assert len(warned) == 2, result.output  # one per document, at the line of the mention
    assert {re.search(r"/corpus/(\S+?): identifier under another kg build's base https://other\.example\.org/kg/ ",
                      line)[1] for line in warned} == {"tsv/linked.tsv", "xmi/linked.xmi:2"}
