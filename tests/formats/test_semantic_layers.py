"""DKPro Core's semantic layers: a SemPred is an event typed by its category, each SemArg its
`SemArgLink` roles point to an argument; a custom event layer whose slots point to SemArg reads
them alike. The same document as XMI and as TSV3 gives the same graph."""

from __future__ import annotations

import re
from pathlib import Path

import pyoxigraph as ox
from cassis import Cas, load_dkpro_core_typesystem

from kg.store import build_dirs
from tests.helpers import assert_same_quads, run_kg, shared_corpus, store_quads

SEMANTICS = "de.tudarmstadt.ukp.dkpro.core.api.semantics.type."
NER = "de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity"
SEGMENTATION = "de.tudarmstadt.ukp.dkpro.core.api.segmentation.type."
PREFIXES = ("PREFIX kgo: <https://kg.example.org/ontology#> PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> "
            "PREFIX nif: <http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#> ")
TEXT = "Caesar crossed the Rhine."
TSV = f"""#FORMAT=WebAnno TSV 3.3
#T_SP={NER}|identifier|value
#T_SP={SEMANTICS}SemArg|
#T_SP={SEMANTICS}SemPred|ROLE_{SEMANTICS}SemPred:arguments_{SEMANTICS}SemArgLink|{SEMANTICS}SemArg|category


#Text={TEXT}
1-1\t0-6\tCaesar\t*\tPER\t*\t_\t_\t_\t
1-2\t7-14\tcrossed\t_\t_\t_\tAgent;Goal\t1-1;1-3[2]\tCrossing\t
1-3\t15-18\tthe\t_\t_\t*[2]\t_\t_\t_\t
1-4\t19-24\tRhine\t_\t_\t*[2]\t_\t_\t_\t
1-5\t24-25\t.\t_\t_\t_\t_\t_\t_\t
"""


def _rows(data: Path, sparql: str) -> list[tuple[str, ...]]:
    store = ox.Store.read_only(str(build_dirs.store_path(build_dirs.current_build(data))))
    return sorted(tuple(str(v.value) for v in row)
                  for row in store.query(PREFIXES + sparql, use_default_graph_as_union=True))


def _build(corpus: Path, data: Path) -> str:
    result = run_kg("build", "--corpus", str(corpus), "--data", str(data), "--quiet")
    assert result.exit_code == 0, result.output
    return result.output


def _write_xmi(folder: Path) -> None:
    """The document of TSV above as INCEpTION's XMI export holds it, with DKPro Core's type system."""
    ts = load_dkpro_core_typesystem()
    cas = Cas(typesystem=ts)
    cas.sofa_string = TEXT
    cas.add(ts.get_type(SEGMENTATION + "Sentence")(begin=0, end=len(TEXT)))
    for match in re.finditer(r"\w+|\.", TEXT):
        cas.add(ts.get_type(SEGMENTATION + "Token")(begin=match.start(), end=match.end()))
    cas.add(ts.get_type(NER)(begin=0, end=6, value="PER"))
    caesar, rhine = ts.get_type(SEMANTICS + "SemArg")(begin=0, end=6), ts.get_type(SEMANTICS + "SemArg")(begin=15, end=24)
    link = ts.get_type(SEMANTICS + "SemArgLink")
    roles = [link(role="Agent", target=caesar), link(role="Goal", target=rhine)]
    for fs in (caesar, rhine, *roles):
        cas.add(fs)
    arguments = ts.get_type("uima.cas.FSArray")(elements=roles)
    cas.add(arguments)
    cas.add(ts.get_type(SEMANTICS + "SemPred")(begin=7, end=14, category="Crossing", arguments=arguments))
    (folder / "doc.xmi").write_text(cas.to_xmi(), encoding="utf-8")
    (folder / "TypeSystem.xml").write_text(ts.to_xml(), encoding="utf-8")


def test_a_sempred_is_an_event_of_its_category_with_its_semargs_as_arguments(tmp_path: Path) -> None:
    xmi, tsv = tmp_path / "xmi", tmp_path / "tsv"
    xmi.mkdir()
    tsv.mkdir()
    _write_xmi(xmi)
    (tsv / "doc.tsv").write_text(TSV, encoding="utf-8")
    output = _build(xmi, tmp_path / "xmi-data")
    assert "not read" not in output and "skipped" not in output, output
    data = tmp_path / "xmi-data"
    assert _rows(data, "SELECT ?type ?text WHERE { ?m kgo:annotationType ?type ; nif:anchorOf ?text }") == [
        ("Crossing", "crossed"), ("PER", "Caesar"), ("SemArg", "the Rhine")]
    # the SemArg on Caesar's span is Caesar's mention: the agent is the person, the goal the bare argument
    assert _rows(data, "SELECT ?role ?text WHERE { ?s kgo:subjectMention/nif:anchorOf 'crossed' ; rdf:predicate ?role ; "
                       "kgo:objectMention/nif:anchorOf ?text }") == [
        ("https://kg.example.org/ontology#agent", "Caesar"), ("https://kg.example.org/vocab#Goal", "the Rhine")]
    _build(tsv, tmp_path / "tsv-data")
    assert_same_quads(store_quads(tmp_path / "tsv-data"), store_quads(data))


def _semarg_spans(tsv: Path) -> list[tuple[int, int]]:
    """The SemArg spans of a WebAnno TSV 3 file, read from its SemArg column: a span over several
    tokens repeats its [N] on each; one over a single token may have none."""
    lines = tsv.read_text(encoding="utf-8").splitlines()
    column = 3  # id, offsets, token, then each layer's columns (one for a layer without features)
    for line in lines[1:]:
        if not line.startswith("#T_"):
            break
        layer, *items = line[6:].split("|")
        if layer == SEMANTICS + "SemArg":
            break
        column += max(1, len([item for item in items if item]))
    spans: dict[object, tuple[int, int]] = {}
    for number, line in enumerate(lines):
        cells = line.split("\t")
        if line.startswith("#") or len(cells) <= column or cells[column] == "_":
            continue
        begin, end = map(int, cells[1].split("-"))
        for stacked, value in enumerate(cells[column].split("|")):
            key = value if "[" in value else (number, stacked)
            known = spans.get(key, (begin, end))
            spans[key] = (min(known[0], begin), max(known[1], end))
    return list(spans.values())


def test_the_semargs_and_role_fillers_of_an_archival_corpus_reach_the_graph(tmp_path: Path) -> None:
    """The globalise VOC letters: a custom event layer (SemPredGLOB) whose slots point to DKPro's
    SemArg. Every SemArg span is a mention (its own, or the named entity on its exact span) and every
    slot a role statement; no layer but those is left."""
    corpus = shared_corpus("webanno-tsv3", "globalise")
    output = _build(corpus, tmp_path / "data")
    assert "not read" not in output and "skipped" not in output, output
    data = tmp_path / "data"
    mentions = {(doc, int(begin), int(end)) for doc, begin, end in _rows(
        data, "SELECT ?f ?b ?e WHERE { ?m a kgo:Mention ; nif:beginIndex ?b ; nif:endIndex ?e ; "
              "nif:referenceContext/kgo:sourceFile ?f }")}
    spans = [(path.stem + ".txt", *span) for path in corpus.glob("*.tsv") for span in _semarg_spans(path)]
    assert len(spans) == 592
    assert set(spans) <= mentions
    fillers = _rows(data, "SELECT ?s WHERE { ?s kgo:subjectMention/kgo:annotationType 'SemPredGLOB' ; "
                          "kgo:objectMention ?o }")
    assert len(fillers) == 667
