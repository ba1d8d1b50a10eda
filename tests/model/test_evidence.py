"""The evidence builds sum from the readers (kg.model.entities.evidence) equals what the store's SPARQL says.

Entity records are written from evidence the readers read off each document's
N-Quads and the build sums (and an incremental build patches); kg.model.entities.entity_records
asks the store the same questions in SPARQL. On our corpus, on brat's example
corpora and on a generated one, after a full build and after incremental
ones, the evidence a build keeps must equal the store's answer.
"""

from __future__ import annotations

import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kg.model import iris
from kg.model.entities.entity_records import records_nquads
from kg.model.entities.evidence import MAX_SENTENCE, Evidence, document_evidence, load_evidence, load_kept
from kg.model.entities.kept_evidence import KeptEvidence
from kg.pipeline.builder import build
from kg.pipeline.stored_records import gather_evidence
from kg.store import build_dirs, checksums
from kg.store.embedded import EmbeddedStore
from tests.brat_reference import brat_source
from tests.helpers import CORPUS, ROOT, add_article, assert_same_quads, edit_npr, remove_npr, store_quads

EXAMPLES = brat_source().parent.parent / "example-data" / "corpora"


def _plain(evidence: Evidence) -> dict:
    return {key: (dict(c.forms), dict(c.types), c.references, dict(c.items), dict(c.names))
            for key, c in evidence.items()}


def _store_evidence(build_dir: Path) -> Evidence:
    with build_dirs.under_build_base(build_dir):
        with EmbeddedStore(build_dirs.store_path(build_dir), read_only=True) as store:
            return gather_evidence(store)


def _assert_kept_evidence_is_the_stores(data: Path, what: str) -> None:
    build_dir = build_dirs.current_build(data)
    kept = load_evidence(build_dir / build_dirs.EVIDENCE_FILE)
    assert kept is not None, f"{what}: the build kept no evidence"
    expected = _store_evidence(build_dir)
    assert expected, f"{what}: the store names no canonical entity (nothing compared)"
    assert _plain(kept) == _plain(expected), f"{what}: summed evidence differs from the store's"


def _generated(root: Path, docs: int = 30) -> Path:
    corpus = root / "generated"
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "corpus" / "generate.py"), "--docs", str(docs), "--seed", "7",
                    "--out", str(corpus)], check=True, capture_output=True, timeout=120)
    return corpus


@pytest.mark.parametrize("source", [CORPUS, EXAMPLES / "CoNLL-ST_2002", EXAMPLES / "TDT", None],
                         ids=["shipped", "brat-conll", "brat-tdt", "generated"])
def test_a_full_build_keeps_the_evidence_the_store_holds(source: Path | None, tmp_path: Path) -> None:
    corpus = _generated(tmp_path) if source is None else shutil.copytree(source, tmp_path / "corpus")
    build(corpus, tmp_path / "data", workers=2)
    _assert_kept_evidence_is_the_stores(tmp_path / "data", corpus.name)


def test_incremental_builds_patch_the_evidence_as_the_store_changes(corpus_copy: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    build(corpus_copy, data)
    for change in (edit_npr, add_article, remove_npr):
        change(corpus_copy)
        assert build(corpus_copy, data).mode == "incremental"
        _assert_kept_evidence_is_the_stores(data, change.__name__)


def test_a_previous_build_without_evidence_is_asked_in_sparql(corpus_copy: Path, tmp_path: Path) -> None:
    """A build made before builds kept their evidence: the next incremental build asks the store,
    gives what a full build gives, and keeps the evidence from then on."""
    data = tmp_path / "data"
    first = build(corpus_copy, data).build_dir
    (first / build_dirs.EVIDENCE_FILE).unlink()
    edit_npr(corpus_copy)
    assert build(corpus_copy, data).mode == "incremental"
    _assert_kept_evidence_is_the_stores(data, "after a build without evidence")
    build(corpus_copy, tmp_path / "full", full=True)
    assert_same_quads(store_quads(data), store_quads(tmp_path / "full"), "incremental from SPARQL evidence")


def test_an_edit_keeps_the_untouched_entities_evidence_as_it_read_it(corpus_copy: Path, tmp_path: Path) -> None:
    """The kept evidence is read and written entity by entity: an incremental build writes again only
    the entities its documents name, and keeps every other's bytes as the build before it wrote them."""
    data = tmp_path / "data"
    first = build(corpus_copy, data).build_dir
    edit_npr(corpus_copy)
    second = build(corpus_copy, data).build_dir
    before, after = (_packed(build_dir / build_dirs.EVIDENCE_FILE) for build_dir in (first, second))
    named = {key for key in before if before[key] != after.get(key)} | (after.keys() - before.keys())
    assert named, "the edit changed no entity's evidence (nothing compared)"
    assert len(named) < len(before) / 2, "the edit rewrote most entities"
    assert {key: after[key] for key in before.keys() - named} == {key: before[key] for key in before.keys() - named}
    _assert_kept_evidence_is_the_stores(data, "after an edit")


def _packed(path: Path) -> dict[str, bytes]:
    """Each entity's evidence as the file keeps it: its own pickle."""
    kept = load_kept(path)
    assert isinstance(kept, KeptEvidence), f"{path} keeps no evidence entity by entity"
    return kept.packed()


def test_evidence_kept_in_an_older_form_is_asked_of_the_store(corpus_copy: Path, tmp_path: Path) -> None:
    """A build of an earlier kg kept the whole evidence as one pickled object: the next incremental
    build does not take it for this form, asks the store, and gives what a full build gives."""
    data = tmp_path / "data"
    first = build(corpus_copy, data).build_dir
    path = first / build_dirs.EVIDENCE_FILE
    whole = {key: pickle.loads(value) for key, value in _packed(path).items()}
    path.write_bytes(pickle.dumps(("kg-evidence-3", whole), pickle.HIGHEST_PROTOCOL))
    checksums.seal(path)
    assert load_kept(path) is None
    edit_npr(corpus_copy)
    assert build(corpus_copy, data).mode == "incremental"
    _assert_kept_evidence_is_the_stores(data, "after a build with evidence of an older form")
    build(corpus_copy, tmp_path / "full", full=True)
    assert_same_quads(store_quads(data), store_quads(tmp_path / "full"), "incremental from an older form")


def test_document_evidence_reads_escaped_forms_as_the_store_does() -> None:
    """Forms with quotes, backslashes, line breaks, non-ASCII letters and a line's words; a mention
    with two types; a post filled by two memberships; an article naming the same publisher twice;
    an entity linked to a knowledge-base item."""
    kgo, nif, rdf = iris.ONTOLOGY, iris.FIXED_PREFIXES["nif"], iris.FIXED_PREFIXES["rdf"]
    rdfs, owl = iris.FIXED_PREFIXES["rdfs"], iris.FIXED_PREFIXES["owl"]
    person, post, outlet = iris.resource_iri("person/a-b"), iris.resource_iri("post/x"), iris.resource_iri("organization/o")
    doc, graph = iris.document_iri("d"), iris.graph_iri("d")
    lines = [
        (f"{doc}#T1", kgo + "denotes", f"<{person}>"), (f"{doc}#T1", nif + "anchorOf", r'"Ana \"B\" \\ Ñ\nx"'),
        (f"{doc}#T1", kgo + "annotationType", '"Person"'), (f"{doc}#T1", kgo + "annotationType", '"Agent"'),
        (f"{doc}#T2", kgo + "denotes", f"<{person}>"), (f"{doc}#T2", nif + "anchorOf", '"Ana"'),
        (f"{doc}#T2", kgo + "annotationType", '"Person"'),
        (f"{doc}#T3", kgo + "denotes", f"<{doc}/event/E1>"), (f"{doc}#T3", nif + "anchorOf", '"met"'),
        (f"{doc}#T3", kgo + "annotationType", '"Meet"'),
        (f"{doc}#T4", nif + "anchorOf", f'"says <{kgo}denotes> <{person}> ."'),  # a quad's words in a form
        (f"{doc}#T4", kgo + "annotationType", '"Person"'),
        (post, rdf + "type", f"<{kgo}Post>"), (post, rdfs + "label", '"chief, O"'),
        (f"{doc}/membership/E2", kgo + "post", f"<{post}>"), (f"{doc}/membership/E3", kgo + "post", f"<{post}>"),
        (doc, kgo + "publisher", f"<{outlet}>"), (doc, kgo + "author", f"<{outlet}>"),
        (person, owl + "sameAs", f"<{iris.WIKIDATA}Q76>"), (f"{doc}/group/T5", owl + "sameAs", f"<{iris.WIKIDATA}Q9>"),
    ]
    nquads = "".join(f"<{s}> <{p}> {o} <{graph}> .\n" for s, p, o in lines)
    store = EmbeddedStore()
    store.load_nquads(nquads.encode())
    from_store = gather_evidence(store)
    assert _plain(document_evidence(nquads)) == _plain(from_store)
    assert dict(from_store["person/a-b"].forms) == {'Ana "B" \\ Ñ\nx': 2, "Ana": 1}
    assert from_store["post/x"].forms["chief, O"] == 2 and from_store["organization/o"].references == 2
    assert dict(from_store["person/a-b"].items) == {iris.WIKIDATA + "Q76": 1}  # a local thing's link is no evidence
    dumped = store.dump_graph(graph)  # the store's own escaping, as an incremental build reads old graphs
    assert _plain(document_evidence(dumped)) == _plain(from_store)
    assert records_nquads(document_evidence(nquads), *_vocabulary_and_aliases()) == \
        records_nquads(from_store, *_vocabulary_and_aliases())


def test_document_evidence_finds_the_first_mentions_the_store_does() -> None:
    """Each entity's first mention (date, article, offset, sentence) read off one document's lines equals
    the store's answer: the earlier of two mentions of an entity, a mention without a sentence (no
    first), an entity named only there, a long escaped sentence (cut), and a literal that quotes the
    predicates a first is read from (not a line of them)."""
    kgo, nif, xsd = iris.ONTOLOGY, iris.FIXED_PREFIXES["nif"], iris.FIXED_PREFIXES["xsd"]
    dcterms = iris.FIXED_PREFIXES["dcterms"]
    person, place = iris.resource_iri("person/a-b"), iris.resource_iri("place/c")
    doc, graph = iris.document_iri("d"), iris.graph_iri("d")
    long = r'"Ana \"B\" met \u00D1 in C.' + " and then" * 40 + '"'
    lines = [(doc, dcterms + "date", f'"2019-03-01"^^<{xsd}date>')]
    for mention, entity, begin, sentence in (("T1", person, 40, "S2"), ("T2", person, 3, "S1"), ("T3", place, 60, None)):
        lines += [(f"{doc}#{mention}", kgo + "denotes", f"<{entity}>"), (f"{doc}#{mention}", nif + "anchorOf", '"Ana"'),
                  (f"{doc}#{mention}", kgo + "annotationType", '"Person"'),
                  (f"{doc}#{mention}", nif + "beginIndex", f'"{begin}"^^<{xsd}integer>'),
                  (f"{doc}#{mention}", nif + "referenceContext", f"<{doc}>")]
        if sentence:
            lines.append((f"{doc}#{mention}", kgo + "sentence", f"<{doc}#{sentence}>"))
    lines += [(f"{doc}#S1", nif + "anchorOf", long),
              (f"{doc}#S2", nif + "anchorOf", rf'"x <{kgo}sentence> <{doc}#S2> . <{nif}beginIndex> \"1\""')]
    nquads = "".join(f"<{s}> <{p}> {o} <{graph}> .\n" for s, p, o in sorted(lines))
    store = EmbeddedStore()
    store.load_nquads(nquads.encode())
    from_store = {key: (c.first, c.stale) for key, c in gather_evidence(store).items()}
    read = {key: (c.first, c.stale) for key, c in document_evidence(nquads).items()}
    assert read == from_store
    date, document, offset, sentence = read["person/a-b"][0]
    assert (date, document, offset) == ("2019-03-01", doc, 3) and sentence.startswith('Ana "B" met Ñ in C.')
    assert len(sentence) == MAX_SENTENCE and read["place/c"][0] is None


def _vocabulary_and_aliases():
    from kg.formats.corpus import scan_corpus
    from kg.pipeline.inputs import Inputs

    listing = scan_corpus(CORPUS)
    inputs = Inputs(CORPUS, listing.configs, listing.documents)
    return inputs.vocabulary, inputs.aliases
