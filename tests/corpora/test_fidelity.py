"""What the shipped articles say, asked as a researcher would ask it in SPARQL: each test pins one
class of error the model used to make (groups typed as people, offices without their state,
opinions stored as facts, dates without precision or basis, invented figures), with answers read
from the articles (the comment says which sentence). The shapes reject the same errors in any
corpus."""

from __future__ import annotations

from pathlib import Path

import pyoxigraph as ox
import pytest
import rdflib

import kg
from kg.errors import ValidationError
from kg.model.iris import PREFIXES
from kg.pipeline.validation.shacl import check_shapes
from kg.store import build_dirs
from tests.helpers import run_kg

PREFIX = "".join(f"PREFIX {p}: <{n}>\n" for p, n in PREFIXES.items())
NPR = "npr-venezuelan-armed-forces-fled"


def ask(data: Path, sparql: str) -> list[tuple] | bool:
    """Rows of a SELECT (distinct, sorted), or the answer of an ASK."""
    store = ox.Store.read_only(str(build_dirs.store_path(build_dirs.current_build(data))))
    rows = store.query(PREFIX + sparql, use_default_graph_as_union=True)
    if isinstance(rows, ox.QueryBoolean):
        return bool(rows)
    return sorted({tuple(None if v is None else v.value for v in row) for row in rows}, key=str)


def labels(data: Path, sparql: str) -> set[str]:
    return {row[0] for row in ask(data, sparql)}


def test_people_in_the_npr_article_are_individuals_not_groups(shipped_data: Path) -> None:
    people = labels(shipped_data, f"""
        SELECT DISTINCT ?label WHERE {{
          GRAPH kgg:{NPR} {{ ?m kgo:denotes ?p }} ?p a kgo:Person ; skos:prefLabel ?label }}""")
    # "After eight years ..., Lt. Juan Carlos Mora fled"; "They include Harry Solano, 36, a sergeant"
    assert {"Juan Carlos Mora", "Harry Solano", "Nicolás Maduro", "Juan Guaidó", "Hugo Chávez"} <= people
    # "Venezuelan troops used armored cars", "Pro-Maduro officials say", "Some troops have risked
    # their necks", "he gathered up his wife and daughter": groups, never people
    for group in ("Venezuelan troops", "Pro-Maduro officials", "Some troops", "his wife and daughter",
                  "military agents", "troops loyal to Maduro"):
        assert group not in people
    groups = labels(shipped_data, f"""
        SELECT DISTINCT ?label WHERE {{ GRAPH kgg:{NPR} {{ ?g a kgo:Group ; skos:prefLabel ?label }} }}""")
    assert {"Venezuelan troops", "Pro-Maduro officials", "his wife and daughter"} <= groups


def test_no_pronoun_is_an_entity(shipped_data: Path) -> None:
    pronouns = ask(shipped_data, """
        SELECT ?text WHERE { ?m a kgo:Mention ; kgo:denotes ?x ; nif:anchorOf ?text .
          { ?x a kgo:Person } UNION { ?x a kgo:Group }
          FILTER (LCASE(?text) IN ("they", "some", "he", "him", "them", "we", "us", "she", "her")) }""")
    assert pronouns == []


def test_who_holds_office_in_venezuela(shipped_data: Path) -> None:
    holders = ask(shipped_data, """
        SELECT DISTINCT ?holder ?role WHERE {
          ?holder kgo:holds ?post . ?post kgo:postIn place:venezuela ; kgo:role ?role }""")
    # "President Nicolas Maduro" (every article); Guaidó's presidency is claimed ("Guaidó 'is
    # president ...,' Mora said"; the ministry "recognizes Guaidó as Venezuela's interim president")
    assert holders == [(PREFIXES["kgr"] + "person/nicolas-maduro", PREFIXES["kgr"] + "role/president")]


def test_presidents_of_different_states_hold_different_posts(shipped_data: Path) -> None:
    posts = ask(shipped_data, """
        SELECT DISTINCT ?post ?in WHERE { ?post a kgo:Post ; kgo:role role:president ; kgo:postIn ?in }""")
    places = {where for _, where in posts}
    # VICE: "Felipe Muñoz, who was appointed by the Colombian president"; HRW: "Juan Guaidó,
    # National Assembly president"
    assert {PREFIXES["kgr"] + "place/venezuela", PREFIXES["kgr"] + "place/colombia",
            PREFIXES["kgr"] + "organization/national-assembly-of-venezuela"} <= places
    assert len({post for post, _ in posts}) == len(posts)


def test_a_quoted_opinion_is_a_claim_of_its_speaker_not_a_fact(shipped_data: Path) -> None:
    # NPR: Guaidó "is president and military commander," Mora said in an interview in Cúcuta.
    claims = ask(shipped_data, """
        SELECT ?quote ?asserted WHERE {
          ?claim a kgo:Claim ; kgo:claimant person:juan-carlos-mora ; kgo:content ?q, ?m .
          ?q kgo:quoteText ?quote . ?m a kgo:Membership ; kgo:member person:juan-guaido ; kgo:asserted ?asserted }""")
    assert claims == [("is president and military commander,", "false")]
    stated = ask(shipped_data, "ASK { person:juan-guaido kgo:hasRole role:military-commander }")
    assert stated is False


def test_claims_by_mike_pompeo(shipped_data: Path) -> None:
    # France 24: "his 'days are numbered,' US Secretary of State Mike Pompeo said ... blaming the
    # border violence on armed loyalists known as 'colectivos.'"
    claims = ask(shipped_data, """
        SELECT ?what ?topic WHERE {
          ?claim a kgo:Claim ; kgo:claimant person:mike-pompeo ; kgo:topic ?t .
          ?t skos:prefLabel ?topic .
          OPTIONAL { ?claim kgo:content ?c . ?c kgo:quoteText ?quote }
          OPTIONAL { ?claim kgo:content ?c2 . ?c2 a kgo:Attack ; kgo:agent ?accused . ?accused skos:prefLabel ?a }
          BIND (COALESCE(?quote, CONCAT("accuses ", ?a)) AS ?what) }""")
    assert claims == [("accuses colectivos", "colectivos"), ("days are numbered,", "Nicolás Maduro")]
    # the accusation is not stored as a fact about the colectivos
    assert ask(shipped_data, """SELECT ?e WHERE { ?e kgo:agent organization:colectivos
                                 FILTER NOT EXISTS { ?e kgo:asserted false } }""") == []


def test_stances_are_stated(shipped_data: Path) -> None:
    # France 24: "Juan Guaido-- who most Western nations recognize as Venezuela's legitimate leader";
    # NPR: "recognized by the U.S. and about 50 other countries";
    # HRW: "armed pro-government thugs, colectivos"; Maduro "claims the aid is a smokescreen for a US
    # invasion" (France 24's "armed loyalists known as 'colectivos'" is Pompeo's: test_fidelity_audit.py)
    assert labels(shipped_data, """SELECT ?l WHERE { ?g kgo:recognizes person:juan-guaido ; a kgo:Group ;
                                   skos:prefLabel ?l }""") == {"most Western nations", "about 50 other countries"}
    assert ask(shipped_data, "ASK { organization:colectivos kgo:supports organization:maduro-government }") is True
    topics = ask(shipped_data, """SELECT ?type WHERE { ?c a kgo:Claim ; kgo:claimant person:nicolas-maduro ;
                                  kgo:topic ?t . ?t a ?type }""")
    assert (PREFIXES["kgo"] + "AidDelivery",) in topics


def test_security_forces_are_not_the_armed_forces(shipped_data: Path) -> None:
    # HRW: "more than 1,400 members of Venezuela's security forces"; France 24: Maduro "ordered
    # security forces to halt the convoys"; VICE caption: "security forces fire tear gas"
    docs = labels(shipped_data, """SELECT DISTINCT ?g WHERE { GRAPH ?g { ?m kgo:denotes
                                   organization:venezuelan-security-forces } }""")
    assert {PREFIXES["kgg"] + s for s in ("hrw-defection-turned-into-exile", "france24-soldiers-desert-posts",
                                          "vice-defectors-trapped-in-colombia")} == docs
    assert ask(shipped_data, """SELECT ?m WHERE { ?m kgo:denotes organization:venezuelan-armed-forces ;
                                nif:anchorOf ?t FILTER CONTAINS(LCASE(?t), "security") }""") == []


def test_events_on_2019_04_30(shipped_data: Path) -> None:
    # VICE: "Two days before [the third straight day] ... Juan Guaidó announced his final plan to
    # depose Maduro"; "Guaidó said Tuesday morning near a military air base in eastern Caracas"
    events = ask(shipped_data, """
        SELECT DISTINCT ?e ?basis WHERE { ?e kgo:date "2019-04-30"^^xsd:date ; kgo:dateBasis ?basis }""")
    assert (PREFIXES["kgr"] + "event/uprising-2019-04-30", "ArticleDate") in events
    assert all(basis == "ArticleDate" for _, basis in events)  # the VICE article never states the day


def test_inferred_dates_can_be_told_from_stated_ones(shipped_data: Path) -> None:
    stated = ask(shipped_data, """SELECT DISTINCT ?text ?d WHERE { ?m kgo:dateBasis "Stated" ; nif:anchorOf ?text ;
                                  kgo:denotes ?date . ?date kgo:dateValue ?d }""")
    # France 24 caption "February 24, 2019"; VICE caption "Monday, Feb. 25, 2019"
    assert ("February 24, 2019", "2019-02-24") in stated and ("Monday, Feb. 25, 2019", "2019-02-25") in stated
    inferred = labels(shipped_data, """SELECT DISTINCT ?text WHERE { ?m kgo:dateBasis "ArticleDate" ;
                                       nif:anchorOf ?text }""")
    assert {"Saturday", "last month", "Tuesday morning"} <= inferred


def test_since_2014_is_the_start_of_a_period(shipped_data: Path) -> None:
    # NPR: "Since 2014, scores of protesters have been reported killed and thousands arrested."
    rows = ask(shipped_data, """SELECT ?type ?start ?precision WHERE { ?e kgo:startDate ?start ;
                                kgo:datePrecision ?precision ; a ?type FILTER (?type IN (kgo:Attack, kgo:Detention)) }""")
    assert [(t.rsplit("#", 1)[1], s, p) for t, s, p in rows] == [("Attack", "2014", "year"), ("Detention", "2014", "year")]
    assert ask(shipped_data, """SELECT ?e WHERE { ?e a kgo:Attack ; kgo:date "2014"^^xsd:gYear }""") == []


def test_the_aid_convoy_confrontation_has_one_date(shipped_data: Path) -> None:
    dates = ask(shipped_data, "SELECT DISTINCT ?d WHERE { event:aid-convoy-confrontation-2019-02-23 kgo:date ?d }")
    assert dates == [("2019-02-23",)]


def test_figures_about_defectors_with_sources_and_qualifiers(shipped_data: Path) -> None:
    rows = ask(shipped_data, """
        SELECT ?label ?value ?qualifier ?unit ?source WHERE {
          ?f a kgo:Figure ; rdfs:label ?label ; kgo:counts ?what ; kgo:unit ?unit .
          OPTIONAL { ?f kgo:value ?value } OPTIONAL { ?f kgo:qualifier ?qualifier }
          OPTIONAL { ?f kgo:reportedBy ?s . ?s skos:prefLabel ?source }
          ?what skos:prefLabel|rdfs:label ?w FILTER (CONTAINS(LCASE(?w), "defector") || CONTAINS(LCASE(?w), "soldier")
                                                  || CONTAINS(LCASE(?w), "troops") || CONTAINS(LCASE(?w), "security forces")) }""")
    by_label = {r[0]: r[1:] for r in rows}
    # HRW: "Colombian authorities say that more than 1,400 members of Venezuela's security forces"
    assert by_label["more than 1,400"] == ("1400", "MoreThan", "Person", "Government of Colombia")
    # NPR: "nearly 1,000 Venezuelan troops have fled ..., according to the Colombian Foreign Ministry"
    assert by_label["nearly 1,000"][:3] == ("1000", "Nearly", "Person")
    # VICE: "a few hundred Venezuelan military defectors"; France 24 headline: "Scores of Venezuelan soldiers"
    assert by_label["a few hundred"][:3] == (None, "Vague", "Person")
    assert by_label["Scores"][:3] == (None, "Vague", "Person")


def test_no_vague_quantity_has_a_number_and_percentages_are_not_head_counts(shipped_data: Path) -> None:
    assert ask(shipped_data, """SELECT ?f WHERE { ?f kgo:qualifier "Vague" ; kgo:value ?v }""") == []
    vague = labels(shipped_data, """SELECT ?l WHERE { ?f kgo:qualifier "Vague" ; rdfs:label ?l }""")
    assert {"Scores", "scores", "thousands", "Hundreds", "hundreds", "a few hundred", "several dozen"} <= vague
    # NPR: "less than 1 percent of the 160,000-strong Venezuelan military"; the headline's "1,000" is not exact
    units = ask(shipped_data, """SELECT ?l ?unit WHERE { ?f kgo:mention ?m ; kgo:unit ?unit ; rdfs:label ?l .
                                 ?m nif:referenceContext doc:npr-venezuelan-armed-forces-fled
                                 FILTER (?l IN ("less than 1 percent", "up to 90 percent", "160,000")) }""")
    assert units == [("160,000", "Person"), ("less than 1 percent", "Percent"), ("up to 90 percent", "Percent")]
    headline = ask(shipped_data, """SELECT ?q WHERE { ?f rdfs:label "1,000" ; kgo:mention ?m ; kgo:qualifier ?q .
                                    ?m nif:beginIndex 0 }""")
    assert headline == []


# --- the shapes reject the same errors in any graph ---------------------------------------------

SHAPE_CASES = {
    "a group typed as a person": ("<x:g> a kgo:Group, kgo:Person ; skos:prefLabel \"Venezuelan troops\" ; "
                                  "rdfs:label \"Venezuelan troops\" .", "<x:g> a kgo:Group ; skos:prefLabel \"Venezuelan "
                                  "troops\" ; rdfs:label \"Venezuelan troops\" ."),
    "a value for a vague quantity": ("<x:f> a kgo:Figure ; kgo:qualifier \"Vague\" ; kgo:value 40.0 .",
                                     "<x:f> a kgo:Figure ; kgo:qualifier \"Vague\" ."),
    "an office with no organization": ("<x:m> kgo:post <x:p> . <x:p> a kgo:Post ; kgo:role role:president .",
                                       "<x:m> kgo:post <x:p> . <x:p> a kgo:Post ; kgo:role role:president ; "
                                       "kgo:postIn place:venezuela ."),
    "a membership with no organization": (
        "<x:m> a kgo:Membership ; kgo:member person:a ; kgo:role role:president ; kgo:post <x:p> ; kgo:trigger <x:t> . "
        "<x:p> a kgo:Post ; kgo:role role:president ; kgo:postIn place:venezuela .",
        "<x:m> a kgo:Membership ; kgo:member person:a ; kgo:role role:president ; kgo:post <x:p> ; kgo:trigger <x:t> ; "
        "kgo:organization place:venezuela . "
        "<x:p> a kgo:Post ; kgo:role role:president ; kgo:postIn place:venezuela . "),
}


@pytest.mark.parametrize("case", sorted(SHAPE_CASES))
def test_shapes_reject(case: str) -> None:
    wrong, right = SHAPE_CASES[case]
    turtle = "".join(f"@prefix {p}: <{n}> .\n" for p, n in PREFIXES.items())
    # the span and article the figure and membership point at, well-formed themselves
    context = ("<x:t> a kgo:Mention ; nif:beginIndex 0 ; nif:endIndex 1 ; nif:anchorOf \"S\" ; nif:referenceContext <x:d> ; "
               "kgo:annotationType \"Figure\" ; kgo:sentence <x:s> . <x:s> a kgo:Sentence ; nif:beginIndex 0 ; "
               "nif:endIndex 1 ; nif:anchorOf \"S\" ; nif:referenceContext <x:d> . "
               "<x:d> a kgo:NewsArticle ; dcterms:title \"t\" ; nif:isString \"S\" . ")
    if "x:f" in wrong:
        context += "<x:f> prov:wasDerivedFrom <x:d> ; kgo:mention <x:t> ; skos:prefLabel \"f\" ; rdfs:label \"f\" . "
    extra = context
    check_shapes(rdflib.Graph().parse(data=turtle + right + extra, format="turtle"))
    with pytest.raises(ValidationError):
        check_shapes(rdflib.Graph().parse(data=turtle + wrong + extra, format="turtle"))


def test_a_build_refuses_a_number_on_a_vague_figure(corpus_copy: Path, tmp_path: Path) -> None:
    """The France 24 headline's "Scores" (Qualifier Vague) given the old invented value 40."""
    ann = corpus_copy / "france24-soldiers-desert-posts.ann"
    ann.write_text(ann.read_text() + "N900\tReference T1 Number:40\tScores\n")
    result = run_kg("build", "--corpus", str(corpus_copy), "--data", str(tmp_path / "data"), "--quiet")
    assert result.exit_code == 3  # the graph breaks the shapes (kg.errors.ValidationError), naming its document
    assert "france24-soldiers-desert-posts" in result.stderr
    assert "Vague" in result.stderr or "vague" in result.stderr


# --- a corpus with its own schema gets the same semantics through kg.toml -----------------------

FOREIGN_CONF = """[entities]
Human
Crowd
When

[relations]
<OVERLAP>\tArg1:<ENTITY>, Arg2:<ENTITY>, <OVL-TYPE>:<ANY>

[events]
Assertion\tSpeaker:Human, Said?:Attack
Attack\tAttacker:Crowd|Human, Time?:When

[attributes]
Certainty\tArg:When, Value:Read|Guessed
"""
FOREIGN_ALIGN = """[align]
Human = "Person"
Crowd = "Group"
When = "Date"
Assertion = "Claim"
Speaker = "claimant"
Said = "content"
Attacker = "agent"
Certainty = "dateBasis"
"""
FOREIGN_TEXT = "Ann said that a mob attacked the mayor on 1 May 2019.\n"


def test_a_corpus_with_its_own_schema_gets_groups_claims_and_date_bases(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "annotation.conf").write_text(FOREIGN_CONF)
    (corpus / "kg.toml").write_text(FOREIGN_ALIGN)
    (corpus / "one.txt").write_text(FOREIGN_TEXT)

    def span(words: str) -> str:
        begin = FOREIGN_TEXT.index(words)
        return f"{begin} {begin + len(words)}\t{words}"

    (corpus / "one.ann").write_text(
        f"T1\tHuman {span('Ann')}\nT2\tAssertion {span('said')}\nT3\tCrowd {span('a mob')}\n"
        f"T4\tAttack {span('attacked')}\nT5\tWhen {span('1 May 2019')}\nT6\tHuman {span('the mayor')}\n"
        "E1\tAttack:T4 Attacker:T3 Time:T5\nE2\tAssertion:T2 Speaker:T1 Said:E1\n"
        "A1\tCertainty T5 Read\nN1\tReference T5 ISO8601:2019-05-01\t1 May 2019\n")
    data = tmp_path / "data"
    result = run_kg("build", "--corpus", str(corpus), "--data", str(data), "--quiet")
    assert result.exit_code == 0, result.stderr
    assert labels(data, "SELECT ?l WHERE { ?p a kgo:Person ; skos:prefLabel ?l }") == {"Ann", "the mayor"}
    assert labels(data, "SELECT ?l WHERE { ?g a kgo:Group ; skos:prefLabel ?l }") == {"a mob"}
    attack = ask(data, """SELECT ?asserted ?by ?date ?precision ?basis WHERE {
        ?c a kgo:Claim ; kgo:claimant ?by ; kgo:content ?e .
        ?e kgo:asserted ?asserted ; kgo:claimedBy ?by ; kgo:date ?date ; kgo:datePrecision ?precision ;
           kgo:dateBasis ?basis }""")
    assert attack == [("false", PREFIXES["kgr"] + "person/ann", "2019-05-01", "day", "Read")]


def test_an_argument_naming_a_trigger_without_event_is_left_out_and_named(corpus_copy: Path, tmp_path: Path) -> None:
    """A claim's content must be an event (its E id), not a role word left without its event: brat
    shows the event, the graph cannot hold that argument, so it is left out with a warning at its
    line (an error under --strict), and the event is built without it."""
    ann = corpus_copy / "france24-soldiers-desert-posts.ann"
    lines = ann.read_text().splitlines()
    said = next(line.split("\t")[0] for line in lines if line.startswith("T") and line.split("\t")[1].startswith("Claim "))
    ann.write_text("\n".join(lines) + "\nT900\tMembership 0 6\tScores\n"
                   f"E900\tClaim:{said} Claimant:T94 Content:T900\n")
    line = len(lines) + 2
    named = (f"france24-soldiers-desert-posts.ann:{line}: Claim Content is a Membership span that triggers no event: "
             "argument left out (expected the E id")
    result = run_kg("build", "--corpus", str(corpus_copy), "--data", str(tmp_path / "data"), "--quiet")
    assert result.exit_code == 0, result.output
    assert named in result.output
    with kg.open(tmp_path / "data") as graph:
        claims = graph.query("""SELECT ?content WHERE { GRAPH ?g { ?c a kgo:Claim ; kgo:claimant ?by
            OPTIONAL { ?c kgo:content ?content } FILTER(STRENDS(STR(?c), "/event/E900")) } }""")
    assert [row.get("content") for row in claims] == [None]
    strict = run_kg("build", "--strict", "--corpus", str(corpus_copy), "--data", str(tmp_path / "strict"), "--quiet")
    assert strict.exit_code == 2
    assert named in strict.output
