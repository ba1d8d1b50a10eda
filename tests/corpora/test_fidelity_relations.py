"""The third fidelity round (issue 30), asked in SPARQL as a researcher would ask it: one question
per class of what an audit of the four shipped articles found missing or wrong (stated relations
not annotated, dated events without their date, reports asserted as facts, figures tied to
nothing, canonical events with two types or a point date for a period). The comment above each
question quotes the sentence that answers it. The shapes reject the same errors in any corpus."""

from __future__ import annotations

from pathlib import Path

import pyshacl
import pytest
import rdflib
from rdflib.namespace import SH

from kg.errors import ValidationError
from kg.model.iris import PREFIXES
from kg.model.resources import shapes_graph
from kg.pipeline.validation.shacl import check_shapes
from tests.corpora.test_fidelity import ask

KGR, KGO = PREFIXES["kgr"], PREFIXES["kgo"]
HRW, VICE, NPR = "hrw-defection-turned-into-exile", "vice-defectors-trapped-in-colombia", "npr-venezuelan-armed-forces-fled"


# --- stated relations ---------------------------------------------------------------------------

def test_stated_relations_between_named_things(shipped_data: Path) -> None:
    # VICE: "the U.N. refugee agency ... is Colombia's main partner in supporting Venezuelans under asylum proceedings"
    assert ask(shipped_data, "ASK { organization:unhcr kgo:partnerOf place:colombia }") is True
    # VICE: "the U.S., the closest political partner to the Venezuelan opposition"
    assert ask(shipped_data, "ASK { place:united-states kgo:partnerOf organization:venezuelan-opposition }") is True
    # NPR: "Like most Venezuelan soldiers across the border, Mora now lives in Cúcuta"
    assert ask(shipped_data, "ASK { person:juan-carlos-mora kgo:livesIn place:cucuta }") is True
    # VICE: "the Venezuelan consulate in Colombia's capital"; "move them to Bogotá"
    assert ask(shipped_data, "ASK { place:bogota kgo:capitalOf place:colombia }") is True
    # NPR: "drove to Táchira River, which forms the border"
    assert ask(shipped_data, "ASK { place:tachira-river kgo:borders place:colombia, place:venezuela }") is True
    # NPR: "He told NPR that he initially supported the socialist revolution ushered in by the late Hugo
    # Chávez": a past stance, in his own account (tests/corpora/test_fidelity_audit.py)
    assert ask(shipped_data, """ASK { ?s a kgo:Stance ; kgo:agent person:harry-solano ; kgo:target person:hugo-chavez ;
                                kgo:position "Supports" }""") is True


def test_the_recognition_by_about_50_countries_is_tied_to_its_figure(shipped_data: Path) -> None:
    # NPR: "Juan Guaidó, the opposition leader now recognized by the U.S. and about 50 other countries"
    rows = ask(shipped_data, """SELECT ?value ?qualifier ?unit WHERE { ?f kgo:counts ?countries ; kgo:value ?value ;
                                  kgo:qualifier ?qualifier ; kgo:unit ?unit .
                                  ?countries kgo:recognizes person:juan-guaido }""")
    assert rows == [("50", "About", "Country")]


# --- dated events -------------------------------------------------------------------------------

def test_dated_events_have_their_dates(shipped_data: Path) -> None:
    # HRW: "the events of February 22nd and February 23rd was the widely broadcasted defection of Venezuelan soldiers"
    assert ask(shipped_data, f"""SELECT ?start ?end WHERE {{ GRAPH kgg:{HRW} {{ ?e a kgo:Defection ;
                                  kgo:startDate ?start ; kgo:endDate ?end }} }}""") == [("2019-02-22", "2019-02-23")]
    # HRW: "more than 1,400 members of Venezuela's security forces have arrived in their country ...
    # Most arrived on, or since February 23rd"
    arrivals = ask(shipped_data, f"""SELECT ?where ?start WHERE {{ GRAPH kgg:{HRW} {{ ?e kgo:agent ?f ;
                                     kgo:destination ?where ; kgo:startDate ?start .
                                     ?f rdfs:label "more than 1,400" }} }}""")
    assert arrivals == [(KGR + "place/colombia", "2019-02-23")]
    # France 24: "his 'days are numbered,' US Secretary of State Mike Pompeo said confidently on Sunday"
    said = ask(shipped_data, """SELECT DISTINCT ?d WHERE { ?c a kgo:Claim ; kgo:claimant person:mike-pompeo ;
                                kgo:date ?d }""")
    assert said == [("2019-02-24",)]
    # VICE: "Earlier this month, the defectors on social media announced plans to march 300 miles"
    march = ask(shipped_data, f"""SELECT ?who ?speculated WHERE {{ GRAPH kgg:{VICE} {{ ?e a kgo:Protest ;
                                  kgo:trigger/nif:anchorOf "march" ; kgo:agent ?g ; kgo:speculated ?speculated .
                                  ?g skos:prefLabel ?who }} }}""")
    assert march == [("the defectors", "true")]


# --- attribution --------------------------------------------------------------------------------

def test_a_report_is_the_claim_of_its_reporter(shipped_data: Path) -> None:
    # NPR: "The report said that Colombian officials ... pulled the plug on the plan and troops loyal to
    # Maduro blocked the aid from entering Venezuela" (the report is Bloomberg's)
    blocked = ask(shipped_data, """SELECT ?asserted ?by WHERE { ?c a kgo:Claim ; kgo:claimant organization:bloomberg ;
                                    kgo:content ?e . ?e kgo:trigger/nif:anchorOf "blocked" ; kgo:asserted ?asserted ;
                                    kgo:claimedBy ?by }""")
    assert blocked == [("false", KGR + "organization/bloomberg")]
    asserted = ask(shipped_data, f"""SELECT ?e WHERE {{ GRAPH kgg:{NPR} {{ ?e kgo:trigger/nif:anchorOf "blocked" }}
                                     FILTER NOT EXISTS {{ ?e kgo:asserted false }} }}""")
    assert asserted == []
    # ... and the canonical confrontation it is linked to stays asserted
    assert ask(shipped_data, "ASK { event:aid-convoy-confrontation-2019-02-23 kgo:asserted false }") is False
    assert ask(shipped_data, f"""ASK {{ GRAPH kgg:{NPR} {{ ?e kgo:trigger/nif:anchorOf "blocked" ;
                                kgo:linkedEvent event:aid-convoy-confrontation-2019-02-23 }} }}""") is True


def test_a_claimed_stance_with_its_share(shipped_data: Path) -> None:
    # NPR: "Mora estimates that up to 90 percent of Venezuelan troops oppose Maduro"
    rows = ask(shipped_data, """SELECT ?position ?value ?qualifier ?unit ?asserted WHERE {
        ?c a kgo:Claim ; kgo:claimant person:juan-carlos-mora ; kgo:content ?s .
        ?s a kgo:Stance ; kgo:position ?position ; kgo:target person:nicolas-maduro ; kgo:share ?f ;
           kgo:asserted ?asserted .
        ?f kgo:value ?value ; kgo:qualifier ?qualifier ; kgo:unit ?unit }""")
    assert rows == [("Opposes", "90", "UpTo", "Percent", "false")]
    # the stance is Mora's estimate: no group of the NPR article is said to oppose Maduro on its strength
    assert ask(shipped_data, f"""ASK {{ GRAPH kgg:{NPR} {{ ?g a kgo:Group ; kgo:opposes person:nicolas-maduro }} }}""") is False


# --- figures ------------------------------------------------------------------------------------

def test_every_figure_with_a_unit_counts_or_measures_something(shipped_data: Path) -> None:
    # VICE: "how will he support an army of 300,000?"; HRW: "seven hotels", a shelter "designed to accommodate
    # just 10" (its capacity); NPR: "interrogated four times"
    untied = ask(shipped_data, """SELECT ?g ?label WHERE { GRAPH ?g { ?f a kgo:Figure ; kgo:unit ?unit ; rdfs:label ?label
                                  FILTER NOT EXISTS { ?f kgo:counts|kgo:capacityOf|^kgo:measure|^kgo:share ?what } } }""")
    assert untied == []
    army = ask(shipped_data, """SELECT DISTINCT ?type WHERE { ?f rdfs:label "300,000" ; kgo:counts ?army . ?army a ?type }""")
    assert (KGO + "MilitaryUnit",) in army


def test_durations_are_figures_with_a_unit(shipped_data: Path) -> None:
    # VICE: "the most delicate situation I've confronted during my 14 months in this position," said
    # Colombia's border manager, Felipe Muñoz
    rows = ask(shipped_data, """SELECT ?value ?unit ?who WHERE { ?f rdfs:label "14 months" ; kgo:value ?value ;
                                  kgo:unit ?unit . ?m kgo:measure ?f ; a kgo:Membership ; kgo:member ?p .
                                  ?p skos:prefLabel ?who }""")
    assert rows == [("14", "Month", "Felipe Muñoz")]
    # NPR: "After eight years in Venezuela's National Guard, Lt. Juan Carlos Mora"
    assert ask(shipped_data, """ASK { ?f kgo:value 8.0 ; kgo:unit "Year" .
                                ?m kgo:measure ?f ; kgo:member person:juan-carlos-mora }""") is True


# --- canonical events and dates -----------------------------------------------------------------

def test_a_canonical_event_keeps_one_type(shipped_data: Path) -> None:
    types = ask(shipped_data, """SELECT DISTINCT ?t WHERE { event:aid-convoy-confrontation-2019-02-23 a ?t
                                 FILTER (?t != kgo:Event) }""")
    assert types == [(KGO + "Confrontation",)]
    # NPR: "people tried to carry humanitarian aid into Venezuela on Feb. 23": an aid delivery of its
    # own, linked to the confrontation it was part of
    carried = ask(shipped_data, f"""SELECT DISTINCT ?d WHERE {{ GRAPH kgg:{NPR} {{ ?e a kgo:AidDelivery ;
                                    kgo:linkedEvent event:aid-convoy-confrontation-2019-02-23 ; kgo:date ?d }} }}""")
    assert carried == [("2019-02-23",)]


def test_a_period_bound_gives_no_point_date(shipped_data: Path) -> None:
    # NPR: "Since 2014, scores of protesters have been reported killed and thousands arrested."
    assert ask(shipped_data, """ASK { ?e kgo:startDate ?start ; kgo:time ?t }""") is False
    starts = ask(shipped_data, """SELECT DISTINCT ?t WHERE { ?e a kgo:Attack ; kgo:startTime ?t }""")
    assert starts == [(KGR + "date/2014",)]


# --- the shapes reject the same errors in any graph ---------------------------------------------

CONTEXT = ("<x:t> a kgo:Mention ; nif:beginIndex 0 ; nif:endIndex 1 ; nif:anchorOf \"S\" ; nif:referenceContext <x:d> ; "
           "kgo:annotationType \"Date\" ; kgo:sentence <x:s> . <x:s> a kgo:Sentence ; nif:beginIndex 0 ; "
           "nif:endIndex 1 ; nif:anchorOf \"S\" ; nif:referenceContext <x:d> . "
           "<x:d> a kgo:NewsArticle ; dcterms:title \"t\" ; nif:isString \"S\" . ")
FIGURE = ("<x:f> a kgo:Figure ; prov:wasDerivedFrom <x:d> ; kgo:mention <x:t> ; skos:prefLabel \"14 months\" ; "
          "rdfs:label \"14 months\" ; kgo:unit \"Month\" ; kgo:value 14.0 . ")
STATEMENT = ("<x:st> a kgo:Statement ; rdf:subject <x:e> ; rdf:object date:2014 ; prov:wasDerivedFrom <x:d> ; "
             "kgo:evidence <x:s> ; kgo:objectMention <x:t> ; ")
SHAPE_CASES = {
    "a claimed event that no claim states": (
        "<x:e> a kgo:Attack ; kgo:asserted false .",
        "<x:e> a kgo:Attack ; kgo:asserted false . <x:c> a kgo:Claim ; kgo:content <x:e> ."),
    "a stance without its position": (
        "<x:e> a kgo:Stance ; kgo:agent person:a ; kgo:target person:b .",
        "<x:e> a kgo:Stance ; kgo:agent person:a ; kgo:target person:b ; kgo:position \"Opposes\" ."),
    "a duration that measures nothing": (
        FIGURE, FIGURE + "<x:m> kgo:measure <x:f> ."),
    "an event of two event types": (
        "<x:e> a kgo:Event, kgo:Confrontation, kgo:AidDelivery .", "<x:e> a kgo:Event, kgo:Confrontation ."),
    "a period bound given as a point time": (
        STATEMENT + "rdf:predicate kgo:time . <x:t> kgo:periodBound \"Start\" .",
        STATEMENT + "rdf:predicate kgo:startTime . <x:t> kgo:periodBound \"Start\" ."),
    "a period bound beside a point date": (
        "<x:e> a kgo:Event, kgo:Attack ; kgo:startDate \"2014\"^^xsd:gYear ; kgo:date \"2014\"^^xsd:gYear .",
        "<x:e> a kgo:Event, kgo:Attack ; kgo:startDate \"2014\"^^xsd:gYear ."),
}


# what brat lets an annotator write (an attribute left unset, a figure no role takes, two Time
# arguments) is a SHACL warning, so that a corpus brat accepts still builds
# (and a canonical event the alias table gives no type, which merges linked events of any type)
WARNED = {"a stance without its position", "a duration that measures nothing", "a period bound beside a point date",
          "an event of two event types"}


@pytest.mark.parametrize("case", sorted(SHAPE_CASES))
def test_shapes_reject(case: str) -> None:
    wrong, right = SHAPE_CASES[case]
    turtle = "".join(f"@prefix {p}: <{n}> .\n" for p, n in PREFIXES.items())
    check_shapes(rdflib.Graph().parse(data=turtle + right + CONTEXT, format="turtle"))
    assert _severities(turtle + right + CONTEXT) == set()
    if case in WARNED:
        check_shapes(rdflib.Graph().parse(data=turtle + wrong + CONTEXT, format="turtle"))
        assert _severities(turtle + wrong + CONTEXT) == {SH.Warning}
        return
    with pytest.raises(ValidationError):
        check_shapes(rdflib.Graph().parse(data=turtle + wrong + CONTEXT, format="turtle"))


def _severities(turtle: str) -> set:
    """The severities of what shapes.ttl finds in a graph, warnings included."""
    _, report, _ = pyshacl.validate(rdflib.Graph().parse(data=turtle, format="turtle"), shacl_graph=shapes_graph(),
                                    allow_warnings=True)
    return set(report.objects(None, SH.resultSeverity))
