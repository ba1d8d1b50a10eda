"""Every example query of the query page answers its question on the shipped corpus. The expected
answers are read from the articles (corpus/*.txt, their .json metadata, corpus/aliases.toml), and each
one is first checked to be there, so a test fails if the corpus stops saying it."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from typing import Callable

import pyoxigraph as ox
import pytest

from kg.api.page.examples import EXAMPLES, Example
from kg.model.iris import prologue
from kg.pipeline.builder import build
from kg.store import build_dirs
from kg.store.embedded import EmbeddedStore
from tests.helpers import CORPUS, ROOT

NPR = "npr-venezuelan-armed-forces-fled"
HRW = "hrw-defection-turned-into-exile"
F24 = "france24-soldiers-desert-posts"


def text(slug: str) -> str:
    return (CORPUS / f"{slug}.txt").read_text(encoding="utf-8")


def meta(slug: str) -> dict:
    return json.loads((CORPUS / f"{slug}.json").read_text(encoding="utf-8"))


def says(slug: str, passage: str) -> str:
    """`passage`, after checking that the article says it."""
    assert " ".join(passage.split()) in " ".join(text(slug).split()), f"{slug} no longer says {passage!r}"
    return passage


def same(a: str | None, b: str) -> bool:
    return a is not None and " ".join(a.split()) == " ".join(b.split())  # the texts hold no-break spaces


@pytest.fixture
def rows(client):
    def answer(example_id: str, query: str | None = None) -> list[dict[str, str]]:
        example = next(e for e in EXAMPLES if e.id == example_id)
        response = client.post("/sparql", data={"query": query or example.query})
        assert response.status_code == 200, response.get_data(as_text=True)
        assert response.headers["X-KG-Truncated"] == "false"
        return [{k: v["value"] for k, v in r.items()} for r in json.loads(response.data)["results"]["bindings"]]
    return answer


@pytest.fixture(scope="module")
def bare_store(shipped_data):
    """The build's store opened by plain pyoxigraph: no prefix is predefined there."""
    return ox.Store.read_only(str(build_dirs.store_path(build_dirs.current_build(shipped_data))))


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.id)
def test_example_runs_here_as_shown_and_elsewhere_with_its_prefixes(rows, bare_store, example):
    assert "PREFIX" not in example.query  # the endpoint predefines them
    here = rows(example.id)
    assert len(here) >= 2, "an example should show more than one answer"
    assert rows(example.id, example.portable) == here
    # elsewhere: a SPARQL engine that knows none of our prefixes runs the portable text as it is
    elsewhere = bare_store.query(example.portable, use_default_graph_as_union=True)
    assert len(list(elsewhere)) == len(here)


# The plain forms of the examples (api/page/examples.py reads facts in sub-selects, distinct ones first where a
# fact repeats, and looks labels up once per thing, to answer in seconds on 10,000 articles): on the
# shipped corpus and a small generated one they still answer in time, and the examples must answer
# exactly as they do.
PLAIN = {
    "offices": """
SELECT DISTINCT ?holderLabel ?role ?inLabel ?holder ?post WHERE {
  ?holder kgo:holds ?post .
  ?post kgo:role ?r ; kgo:postIn ?in .
  ?r skos:prefLabel ?role .
  OPTIONAL { ?holder skos:prefLabel|rdfs:label|nif:anchorOf ?holderLabel }
  OPTIONAL { ?in skos:prefLabel ?inLabel }
}
ORDER BY ?inLabel ?role ?holderLabel""",
    "timeline": """
SELECT ?date ?end ?precision ?basis ?type ?event ?status ?claimedBy
       (GROUP_CONCAT(DISTINCT ?placeLabel; separator=", ") AS ?places)
       (GROUP_CONCAT(DISTINCT ?whoLabel; separator=", ") AS ?participants)
WHERE {
  ?e a kgo:Event ; a ?t ; kgo:date|kgo:startDate ?date .
  FILTER(?t != kgo:Event && STRSTARTS(STR(?t), STR(kgo:)))
  OPTIONAL { ?e kgo:endDate ?end }
  OPTIONAL { ?e kgo:datePrecision ?precision }
  OPTIONAL { ?e kgo:dateBasis ?basis }
  BIND(STRAFTER(STR(?t), STR(kgo:)) AS ?type)
  OPTIONAL { ?e skos:prefLabel ?event }
  OPTIONAL { ?e kgo:asserted ?asserted } OPTIONAL { ?e kgo:speculated ?speculated }
  OPTIONAL { ?e kgo:negated ?negated }
  BIND(IF(COALESCE(?negated, false), "did not happen", IF(!COALESCE(?asserted, true), "claimed",
       IF(COALESCE(?speculated, false), "planned or hypothetical", "asserted"))) AS ?status)
  OPTIONAL { SELECT ?e (GROUP_CONCAT(DISTINCT ?byLabel; separator=", ") AS ?claimedBy)
             WHERE { ?e kgo:claimedBy ?by . ?by skos:prefLabel|rdfs:label|nif:anchorOf ?byLabel } GROUP BY ?e }
  OPTIONAL { ?e kgo:place ?place . ?place skos:prefLabel|rdfs:label|nif:anchorOf ?placeLabel }
  OPTIONAL { ?e kgo:agent|kgo:participant|kgo:patient ?who . ?who skos:prefLabel|rdfs:label|nif:anchorOf ?whoLabel }
}
GROUP BY ?date ?end ?precision ?basis ?type ?event ?status ?claimedBy ?e
ORDER BY ?date ?type""",
    "claims": """
SELECT ?claimantLabel ?sentence
       (GROUP_CONCAT(DISTINCT ?what; separator=" | ") AS ?claims)
       (GROUP_CONCAT(DISTINCT ?topicLabel; separator=", ") AS ?about)
       ?article
WHERE {
  ?c a kgo:Claim ; kgo:claimant ?who ; kgo:trigger ?t ; prov:wasDerivedFrom ?document .
  ?t kgo:sentence ?s . ?s nif:anchorOf ?sentence .
  OPTIONAL { ?who skos:prefLabel|rdfs:label|nif:anchorOf ?claimantLabel }
  OPTIONAL { ?c kgo:content ?x . ?x kgo:quoteText|skos:prefLabel|rdfs:label ?what }
  OPTIONAL { ?c kgo:topic ?tp . ?tp skos:prefLabel|rdfs:label ?topicLabel }
  OPTIONAL { ?document dcterms:title ?article }
}
GROUP BY ?claimantLabel ?sentence ?article ?c
ORDER BY ?article ?claimantLabel""",
    "quotes": """
SELECT DISTINCT ?speakerLabel ?quote ?sentence ?article ?speaker WHERE {
  ?q a kgo:Quote ; kgo:quoteText ?quote ; kgo:saidBy ?speaker ; prov:wasDerivedFrom ?document .
  OPTIONAL { ?speaker skos:prefLabel|rdfs:label|nif:anchorOf ?speakerLabel }
  OPTIONAL { ?q kgo:mention ?m . ?m kgo:sentence ?s . ?s nif:anchorOf ?sentence }
  OPTIONAL { ?document dcterms:title ?article }
}
ORDER BY ?article ?speakerLabel""",
    "figures": """
SELECT DISTINCT ?figure ?value ?qualifier ?unit ?countsLabel ?sourceLabel ?asOf ?article ?source WHERE {
  ?f a kgo:Figure ; rdfs:label ?figure ; prov:wasDerivedFrom ?document .
  OPTIONAL { ?f kgo:value ?value }
  OPTIONAL { ?f kgo:qualifier ?qualifier }
  OPTIONAL { ?f kgo:unit ?unit }
  OPTIONAL { ?f kgo:counts ?counts . ?counts skos:prefLabel ?countsLabel }
  ?f kgo:reportedBy ?source .
  OPTIONAL { ?source skos:prefLabel|rdfs:label|nif:anchorOf ?sourceLabel }
  OPTIONAL { ?f kgo:asOf ?date . OPTIONAL { ?date kgo:dateValue ?asOf } }
  OPTIONAL { ?document dcterms:title ?article }
}
ORDER BY ?sourceLabel DESC(?value)""",
    "spellings": """
SELECT ?person ?label
       (GROUP_CONCAT(DISTINCT ?spelling; separator=" | ") AS ?spellings)
       (COUNT(DISTINCT ?spelling) AS ?count)
WHERE {
  ?e a kgo:Person ; skos:prefLabel ?label .
  BIND(STRAFTER(STR(?e), STR(kgr:)) AS ?person)
  { ?e skos:prefLabel|skos:altLabel|skos:hiddenLabel ?spelling }
  UNION
  { ?m kgo:denotes ?e ; nif:anchorOf ?spelling }
}
GROUP BY ?person ?label
ORDER BY DESC(?count) ?label""",
    "documents": """
SELECT ?article ?publisher ?date (COUNT(DISTINCT ?m) AS ?mentions) WHERE {
  ?document a kgo:NewsArticle ; dcterms:title ?article .
  OPTIONAL { ?document kgo:publisher/skos:prefLabel ?publisher }
  OPTIONAL { ?document dcterms:date ?date }
  OPTIONAL { ?m a kgo:Mention ; nif:referenceContext ?document }
}
GROUP BY ?article ?publisher ?date
ORDER BY ?date""",
}


_CONCATENATED = {"places": ", ", "participants": ", ", "claimedBy": ", ", "about": ", ", "claims": " | ", "spellings": " | "}


def _sorted_rows(found: list[dict[str, str]]) -> list[list[tuple[str, str]]]:
    """Rows comparable whatever the order of ties and of a GROUP_CONCAT's parts."""
    def value(key: str, text: str) -> str:
        separator = _CONCATENATED.get(key)
        return separator.join(sorted(text.split(separator))) if separator else text
    return sorted(sorted((k, value(k, v)) for k, v in row.items()) for row in found)


def _order(query: str, found: list[dict[str, str]]) -> list[tuple[str | None, ...]]:
    """The rows' values of the query's ORDER BY variables, in the order they came."""
    keys = re.findall(r"\?(\w+)", query[query.rindex("ORDER BY"):])
    return [tuple(row.get(k) for k in keys) for row in found]


def _same_answers(example: Example, answer: Callable[[str], list[dict[str, str]]]) -> None:
    plain, rewritten = answer(PLAIN[example.id]), answer(example.query)
    assert _sorted_rows(rewritten) == _sorted_rows(plain)
    assert _order(example.query, rewritten) == _order(example.query, plain)


@pytest.mark.parametrize("example_id", sorted(PLAIN))
def test_an_example_answers_as_its_plain_form(rows, example_id):
    _same_answers(_example(example_id), lambda query: rows(example_id, query))


@pytest.fixture(scope="module")
def generated_store(tmp_path_factory):
    """A build of a small generated corpus (benchmarks/corpus/generate.py), its store opened read-only."""
    root = tmp_path_factory.mktemp("examples-generated")
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "corpus" / "generate.py"), "--docs", "60", "--seed", "11",
                    "--out", str(root / "corpus")], check=True, capture_output=True, timeout=120)
    build(root / "corpus", root / "data", validate=False)
    store = EmbeddedStore(build_dirs.store_path(build_dirs.current_build(root / "data")), read_only=True)
    yield store
    store.close()


@pytest.mark.parametrize("example_id", sorted(PLAIN))
def test_an_example_answers_as_its_plain_form_on_a_generated_corpus(generated_store, example_id):
    example = _example(example_id)
    assert generated_store.select(prologue() + example.query), "the generated corpus should answer it"
    _same_answers(example, lambda query: generated_store.select(prologue() + query))


def _example(example_id: str) -> Example:
    return next(e for e in EXAMPLES if e.id == example_id)


def test_offices(rows):
    found = rows("offices")
    says(NPR, "For Mora, the National Guard lieutenant,")
    assert any(r.get("holderLabel") == "Juan Carlos Mora" and r.get("role") == "lieutenant"
               and "National Guard" in r.get("inLabel", "") for r in found)
    says(HRW, "Juan Guaidó, National Assembly president")
    assert any(r.get("holderLabel") == "Juan Guaidó" and r.get("role") == "president"
               and r.get("inLabel") == "National Assembly of Venezuela" for r in found)
    # Venezuela's presidency: Maduro's, as every article says; Guaidó's is only claimed
    says(NPR, "Guaidó \"is president and military commander,\" Mora said")
    in_venezuela = {(r.get("holderLabel"), r.get("role")) for r in found if r.get("inLabel") == "Venezuela"}
    assert in_venezuela == {("Nicolás Maduro", "president")}


def test_claims(rows):
    found = rows("claims")
    says(F24, "US Secretary of State Mike Pompeo said confidently on Sunday, blaming the border violence on "
              "armed loyalists known as \"colectivos.\"")
    pompeo = [r for r in found if r.get("claimantLabel") == "Mike Pompeo"]
    assert any("colectivos" in r["about"] and "blaming" in r["sentence"] for r in pompeo)
    assert any("days are numbered" in r.get("claims", "") for r in pompeo)
    mora = [r for r in found if r.get("claimantLabel") == "Juan Carlos Mora"]
    assert any("is president and military commander" in r.get("claims", "") for r in mora)
    assert all(r["sentence"] and r["article"] for r in found)


def test_quotes(rows):
    found = rows("quotes")
    says(NPR, "\"Why don't they rise up? Because they are afraid,\" Mora said.")
    mora = [r for r in found if r.get("speakerLabel") == "Juan Carlos Mora" and "they are afraid" in r["quote"]]
    assert mora and mora[0]["article"] == meta(NPR)["title"]
    assert mora[0]["sentence"] in text(NPR) and "Why don't they rise up?" in mora[0]["sentence"]
    assert all(r.get("sentence") and r.get("article") for r in found)


def test_figures(rows):
    found = rows("figures")
    says(HRW, "Colombian authorities say that more than 1,400 members of Venezuela’s security forces")
    assert any(r["figure"] == "more than 1,400" and r["value"] == "1400" and r["qualifier"] == "MoreThan"
               and r["article"] == meta(HRW)["title"] and "Colombia" in r["sourceLabel"] for r in found)
    says(F24, "\"Currently, we have welcomed over one hundred members of Venezuela's National Guard,\" "
              "Colombia's migration agency said")
    assert any(r["figure"] == "over one hundred" and r["value"] == "100" and r["sourceLabel"] == "Migración Colombia"
               and r["unit"] == "Person" and r["countsLabel"] == "Bolivarian National Guard of Venezuela" for r in found)
    says(F24, "Scores of Venezuelan soldiers desert posts")  # the headline: no source, so not listed
    says(NPR, "Mora estimates that up to 90 percent of Venezuelan troops oppose Maduro")
    assert any(r["figure"] == "up to 90 percent" and r["unit"] == "Percent" and r["qualifier"] == "UpTo"
               for r in found)


def test_timeline(rows):
    found = rows("timeline")
    dates = [r["date"] for r in found]
    assert dates == sorted(dates)
    says(HRW, "February 23rd, the day that Juan Guaidó")
    assert any(r["date"] == "2019-02-23" for r in found)
    says(NPR, "Guaidó swore himself in as Venezuela's interim president")
    assert any(r["type"] == "Inauguration" and "Juan Guaidó" in r["participants"] for r in found)
    says(F24, "The first defections occured early on Saturday morning")
    assert any(r["date"] == "2019-02-23" and r.get("basis") == "ArticleDate" and r["precision"] == "day"
               and r["type"] == "Defection" and r["status"] == "asserted" for r in found)
    # periods: their start and end, a start alone for "since"
    says(HRW, "the events of February 22nd and February 23rd was the widely broadcasted defection")
    assert any(r["type"] == "Defection" and r["date"] == "2019-02-22" and r.get("end") == "2019-02-23" for r in found)
    says(NPR, "Since 2014, scores of protesters have been reported killed and thousands arrested.")
    assert {r["type"] for r in found if r["date"] == "2014" and "end" not in r} >= {"Attack", "Detention"}
    # a claimed event says so, and whose claim it is
    says(HRW, "Colombian authorities say that more than 1,400 members")
    assert any(r["type"] == "Flight" and r["status"] == "claimed" and "Colombia" in r.get("claimedBy", "")
               for r in found)


def test_defections(rows):
    found = rows("defections")
    # France 24: the defections of "more than one hundred" are what the migration services said
    says(F24, "More than one hundred Venezuelan soldiers have defected to Colombia")
    says(F24, "Colombia's migration agency said in a press release Sunday")
    assert any(r["kind"] == "Defection" and same(r.get("whoLabel"), "More than one hundred")
               and r.get("destinationLabel") == "Colombia" and r["article"] == meta(F24)["title"]
               and r["status"] == "claimed" and r.get("claimedByLabel") == "Migración Colombia" for r in found)
    says(F24, "The first defections occured early on Saturday morning")
    assert any(r["kind"] == "Defection" and r["article"] == meta(F24)["title"] and r["status"] == "asserted"
               for r in found)
    says(NPR, "Juan Carlos Mora fled to Colombia last month")
    assert any(r.get("whoLabel") == "Juan Carlos Mora" for r in found)
    # HRW's defections of 22-23 February: dated by their period
    says(HRW, "the events of February 22nd and February 23rd was the widely broadcasted defection")
    assert any(r["kind"] == "Defection" and r["article"] == meta(HRW)["title"] and r.get("date") == "2019-02-22"
               and r.get("end") == "2019-02-23" for r in found)
    # the Colombian authorities' arrivals of "more than 1,400": their claim, not the article's fact
    says(HRW, "Most arrived on, or since February 23rd")
    claimed = [r for r in found if r["article"] == meta(HRW)["title"] and r["status"] == "claimed"]
    assert any(same(r.get("whoLabel"), "more than 1,400") and "Colombia" in r.get("claimedByLabel", "")
               for r in claimed)
    assert {r["status"] for r in found} <= {"asserted", "claimed", "planned or hypothetical", "did not happen"}


def test_connections(rows):
    found = {(r["how"], r.get("label")) for r in rows("connections")}
    says(HRW, "HRW’s Tamara Taraciuk talked to some of them")
    assert ("memberOf", "Tamara Taraciuk") in found
    assert meta(HRW)["publisher"] == "organization/human-rights-watch"
    assert ("publisher", meta(HRW)["title"]) in found
    says(HRW, "The 15 people we interviewed")
    assert ("reportedBy", "15") in found and any(how == "agent" for how, _ in found)
    assert not {how for how, _ in found} & {"denotes", "subject", "object", "mentionCount"}


def test_spellings(rows):
    aliases = tomllib.loads((CORPUS / "aliases.toml").read_text(encoding="utf-8"))["entity"]
    guaido = next(e for e in aliases if e["key"] == "person/juan-guaido")
    spellings = {r["person"]: r["spellings"].split(" | ") for r in rows("spellings")}
    assert {guaido["label"], *guaido["aliases"], *guaido["hidden"]} <= set(spellings["person/juan-guaido"])


def test_documents(rows):
    found = rows("documents")
    slugs = sorted(p.stem for p in CORPUS.glob("*.txt"))
    assert sorted(r["article"] for r in found) == sorted(meta(s)["title"] for s in slugs)
    npr = next(r for r in found if r["article"] == meta(NPR)["title"])
    assert npr["publisher"] == "NPR" and npr["date"] == meta(NPR)["date"]
