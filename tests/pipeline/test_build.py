"""The shipped corpus builds into a valid graph whose facts all trace back to sentences."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kg.model.iris import PREFIXES, prologue
from kg.store import build_dirs
from kg.store.embedded import EmbeddedStore
from tests.helpers import CORPUS, run_kg

PROLOGUE = prologue()


@pytest.fixture(scope="module")
def store(shipped_data: Path) -> EmbeddedStore:
    return EmbeddedStore(build_dirs.store_path(build_dirs.current_build(shipped_data)), read_only=True)


def select(store: EmbeddedStore, query: str) -> list[dict[str, str]]:
    return store.select(PROLOGUE + query)


def test_kg_validate_accepts_the_shipped_build(shipped_data: Path) -> None:
    result = run_kg("validate", "--data", str(shipped_data))
    assert result.exit_code == 0, result.output
    assert "conform to shapes.ttl" in result.stdout


def test_every_spelling_of_guaido_is_one_person(store: EmbeddedStore) -> None:
    rows = select(store, """SELECT DISTINCT ?e ?text WHERE {
        ?m kgo:denotes ?e ; nif:anchorOf ?text ; kgo:annotationType "Person" .
        FILTER(REGEX(?text, "^(Juan )?Gu(aid[oó]|iado)$")) }""")
    texts = {r["text"] for r in rows}
    assert {"Guaidó", "Guiado", "Juan Guaidó"} <= texts
    assert {r["e"] for r in rows} == {PREFIXES["person"] + "juan-guaido"}


def test_every_name_of_unhcr_is_one_agency(store: EmbeddedStore) -> None:
    rows = select(store, """SELECT ?label WHERE { organization:unhcr skos:prefLabel|skos:altLabel ?label }""")
    labels = {r["label"] for r in rows}
    assert {"UNHCR", "United Nations High Commissioner for Refugees", "U.N. refugee agency"} <= labels
    denoted = select(store, """SELECT DISTINCT ?text WHERE { ?m kgo:denotes organization:unhcr ; nif:anchorOf ?text }""")
    assert {"UNHCR", "U.N. refugee agency", "United Nations High Commissioner for Refugees"} <= {r["text"] for r in denoted}


def test_labels_keep_preferred_alternate_and_hidden_spellings(store: EmbeddedStore) -> None:
    def labels(kind: str) -> set[str]:
        return {r["l"] for r in select(store, f"SELECT ?l WHERE {{ person:juan-guaido skos:{kind} ?l }}")}

    assert labels("prefLabel") == {"Juan Guaidó"}
    assert {"Guaido", "Guaidó"} <= labels("altLabel")
    assert {"Guiado", "guaido"} <= labels("hiddenLabel")


def test_people_sharing_a_surname_are_not_merged(tmp_path: Path, tiny_copy: Path) -> None:
    data = tmp_path / "data"
    assert run_kg("build", "--corpus", str(tiny_copy), "--data", str(data), "--quiet").exit_code == 0
    tiny = EmbeddedStore(build_dirs.store_path(build_dirs.current_build(data)), read_only=True)
    rows = select(tiny, """SELECT ?text ?e ?why WHERE { ?m kgo:denotes ?e ; nif:anchorOf ?text ;
        kgo:annotationType "Person" ; kgo:resolvedBy ?why }""")
    by_text = {}
    for row in rows:
        by_text.setdefault(row["text"], set()).add(row["e"])
    assert by_text["Pedro Ruiz"] == {PREFIXES["person"] + "pedro-ruiz"}
    assert by_text["Ana Ruiz"] == {PREFIXES["person"] + "ana-ruiz"}
    assert by_text["Ruiz"] == {PREFIXES["person"] + "ana-ruiz"}
    assert {r["why"] for r in rows if r["text"] == "Ruiz"} == {"alias table: person/ana-ruiz"}
    places = select(tiny, "SELECT DISTINCT ?e WHERE { ?m kgo:denotes ?e ; kgo:annotationType \"City\" }")
    assert [r["e"] for r in places] == [PREFIXES["place"] + "cucuta"]


def test_every_fact_has_a_statement_with_its_sentence(store: EmbeddedStore) -> None:
    """The facts of each article's graph and the triples its statements state are the same set."""
    facts = select(store, """SELECT DISTINCT ?g ?s ?p ?o WHERE { GRAPH ?g { ?s ?p ?o }
        VALUES ?p { kgo:memberOf kgo:saidBy kgo:reportedBy kgo:agent kgo:participant kgo:patient kgo:place
        kgo:origin kgo:destination kgo:time kgo:locatedIn kgo:asOf kgo:supports kgo:opposes kgo:recognizes
        kgo:subOrganizationOf kgo:member kgo:organization kgo:role kgo:hasRole kgo:post kgo:postIn kgo:holds
        kgo:claimant kgo:content kgo:topic kgo:claimedBy kgo:counts kgo:livesIn kgo:capitalOf kgo:borders
            kgo:partnerOf kgo:target kgo:share kgo:measure kgo:startTime kgo:endTime kgo:linkedEvent kgo:capacityOf }
            FILTER(?g != kgg:entities) }""")
    stated = select(store, """SELECT DISTINCT ?g ?s ?p ?o WHERE { GRAPH ?g {
        ?st a kgo:Statement ; rdf:subject ?s ; rdf:predicate ?p ; rdf:object ?o } }""")
    as_set = lambda rows: {(r["g"], r["s"], r["p"], r["o"]) for r in rows}  # noqa: E731
    assert facts and as_set(facts) == as_set(stated)
    unsupported = select(store, """SELECT ?g ?s ?p ?o WHERE { GRAPH ?g { ?s ?p ?o }
        VALUES ?p { kgo:memberOf kgo:saidBy kgo:reportedBy kgo:agent kgo:participant kgo:patient kgo:place
        kgo:origin kgo:destination kgo:time kgo:locatedIn kgo:asOf kgo:supports kgo:opposes kgo:recognizes
        kgo:subOrganizationOf kgo:member kgo:organization kgo:role kgo:hasRole kgo:post kgo:postIn kgo:holds
        kgo:claimant kgo:content kgo:topic kgo:claimedBy kgo:counts kgo:capacityOf }
        FILTER NOT EXISTS { GRAPH ?g { ?st rdf:subject ?s ; rdf:predicate ?p ; rdf:object ?o ;
                                           kgo:evidence ?sentence } } }""")
    assert unsupported == []


def test_evidence_sentences_are_exact_slices_of_the_text(store: EmbeddedStore) -> None:
    rows = select(store, """SELECT ?st ?file ?b ?e ?text WHERE { ?st kgo:evidence ?s .
        ?s nif:beginIndex ?b ; nif:endIndex ?e ; nif:anchorOf ?text ; nif:referenceContext ?d .
        ?d kgo:sourceFile ?file }""")
    statements = {r["st"] for r in select(store, "SELECT ?st WHERE { ?st a kgo:Statement }")}
    assert statements and {r["st"] for r in rows} == statements  # every statement has its sentence
    texts = {}
    for row in rows:
        text = texts.setdefault(row["file"], (CORPUS / row["file"]).read_text(encoding="utf-8"))
        assert text[int(row["b"]):int(row["e"])] == row["text"]


def test_figures_from_different_sources_are_kept_apart(store: EmbeddedStore) -> None:
    rows = select(store, """SELECT ?value ?text ?source ?doc WHERE {
        ?f a kgo:Figure ; kgo:value ?value ; rdfs:label ?text ; kgo:reportedBy ?s ; prov:wasDerivedFrom ?doc .
        ?s skos:prefLabel ?source . FILTER(?value IN (1400, 1000, 100)) }""")
    docs_by_value = {}
    for row in rows:
        docs_by_value.setdefault(float(row["value"]), set()).add(row["doc"].rsplit("/", 1)[1])
    # "more than 1,400" (HRW), "nearly 1,000" (NPR; VICE's "about 1,000"), "over one hundred" (France 24)
    assert docs_by_value == {1400.0: {"hrw-defection-turned-into-exile"},
                             1000.0: {"npr-venezuelan-armed-forces-fled", "vice-defectors-trapped-in-colombia"},
                             100.0: {"france24-soldiers-desert-posts"}}


def test_events_have_type_date_place_and_participants(store: EmbeddedStore) -> None:
    """Juan Guaidó's dated events, read from the articles: the aid he led in on 23 February (France 24;
    HRW, into Venezuela), his call of 30 April (VICE, once in Caracas)."""
    rows = select(store, """SELECT ?event ?type ?date ?place WHERE {
        ?event a kgo:Event , ?type ; kgo:date ?date ; kgo:agent person:juan-guaido . FILTER(?type != kgo:Event)
        OPTIONAL { ?event kgo:place|kgo:destination ?place }
        FILTER(DATATYPE(?date) = xsd:date) } ORDER BY ?date""")
    seen = {(r["event"].split("/")[-3], r["type"].rsplit("#", 1)[1], r["date"], r.get("place", "").rsplit("/", 1)[-1])
            for r in rows}
    assert {("france24-soldiers-desert-posts", "AidDelivery", "2019-02-23", ""),
            ("hrw-defection-turned-into-exile", "AidDelivery", "2019-02-23", "venezuela"),
            ("vice-defectors-trapped-in-colombia", "Announcement", "2019-04-30", "caracas")} <= seen


def test_kg_query_answers_who_the_quoted_people_work_for(shipped_data: Path) -> None:
    query = """SELECT DISTINCT ?person ?org ?sentence WHERE {
      GRAPH kgg:vice-defectors-trapped-in-colombia { ?q a kgo:Quote ; kgo:saidBy ?p }
      ?st rdf:subject ?p ; rdf:predicate kgo:memberOf ; rdf:object ?o ; kgo:evidence/nif:anchorOf ?sentence .
      ?p skos:prefLabel ?person . ?o skos:prefLabel ?org . }"""
    result = run_kg("query", query, "--data", str(shipped_data), "--format", "json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["results"]["bindings"]
    people = {r["person"]["value"]: r["org"]["value"] for r in rows}
    assert people.get("Geoff Ramsey") == "WOLA"
    assert all(r["sentence"]["value"] for r in rows)


def test_kg_query_reports_the_parser_position(shipped_data: Path) -> None:
    result = run_kg("query", "SELECT ?x WHERE { ?x ?y }", "--data", str(shipped_data))
    assert result.exit_code == 2
    assert "error at 1:26: expected" in result.stderr


def test_manifest_records_every_document(shipped_data: Path) -> None:
    manifest = json.loads((build_dirs.current_build(shipped_data) / build_dirs.MANIFEST_FILE).read_text())
    assert sorted(manifest["documents"]) == sorted(p.stem for p in CORPUS.glob("*.txt"))
    lines = (build_dirs.current_build(shipped_data) / build_dirs.MANIFEST_FILE).read_text().splitlines()
    for slug, entry in manifest["documents"].items():  # one line each, so that grep finds a document
        assert [json.loads("{" + line.rstrip(",") + "}") for line in lines if line.startswith(f'  "{slug}": ')] \
            == [{slug: entry}]
