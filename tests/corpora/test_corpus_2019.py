"""The pinned counts of the shipped corpus, and the only test that pins them. It builds from
tests/data/corpus-2019/, a fixed copy of corpus/ as re-annotated to the model of docs/model.md
(groups, posts, claims, date bases, figure units), so that re-annotating or adding articles in
corpus/ changes nothing here. No other test may depend on the counts of the shipped corpus
(tests/corpora/test_fifth_article.py shows they hold with one more).

Checked against the .ann files of the copy (line counts, redone below):
- 696 mentions: the T lines; 47 quotes, 42 figures and 49 groups: the T lines of those types.
- 180 E lines, 32 of them Membership (n-ary memberships, every one naming its organization:
  32 organization, 32 post, 32 postIn); the other 148 carry 281 arguments.
- 170 R lines.
- 117 entity records: 23 people, 30 organizations, 15 places, 13 dates, 15 roles, 18 posts,
  3 canonical events.
- NPR's two "carry" AidDelivery events, linked to the canonical Confrontation of 23 February, stay
  local with kgo:linkedEvent (2 more events, 2 more statements; one type per canonical event), and
  "Since 2014" dates its Attack and Detention by kgo:startTime, not kgo:time (time 38 -> 36).
- 18,481 quads (18,134 before names were told from other forms): 350 mentions whose words are a name
  carry kgo:isName; 30 forms that are no name (anaphora, common nouns, relative dates) moved from
  skos:altLabel to kgo:mentionForm, with 12 fewer skos:hiddenLabel (the folded forms of those); the
  two properties declared in the ontology graph (7 quads).
- 18,778 quads with the knowledge-base terms: 18,481, plus a description (rdfs:comment) on each of the 117
  entity records and a label on the 28 classes of other vocabularies kg's classes specialize (145), plus
  every property the graph uses typed rdf:Property and labelled, with the 21 properties of other
  vocabularies kg's specialize named (152).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kg.pipeline.builder import build
from tests.helpers import CORPUS_2019, run_kg

PINNED = {"counts": {"quads": 18778,
            "graphs": 6,
            "documents": 4,
            "entities": 117,
            "mentions": 696,
            "statements": 747,
            "events": 136,
            "figures": 42,
            "quotes": 47},
 "entityTypes": {"Organization": 30,
                 "Person": 23,
                 "Post": 18,
                 "Place": 15,
                 "Role": 15,
                 "Date": 13,
                 "GovernmentBody": 8,
                 "MediaOrganization": 8,
                 "City": 6,
                 "Country": 5,
                 "NGO": 5,
                 "MilitaryUnit": 4,
                 "Event": 3,
                 "Facility": 2,
                 "IntergovernmentalOrganization": 2,
                 "PoliticalGroup": 2,
                 "Uprising": 2,
                 "Confrontation": 1,
                 "Region": 1,
                 "Waterway": 1},
 "eventTypes": {"Claim": 27,
                "Defection": 18,
                "Flight": 18,
                "AidDelivery": 12,
                "Announcement": 11,
                "Attack": 10,
                "Interview": 9,
                "AsylumRequest": 8,
                "Detention": 8,
                "Uprising": 5,
                "BorderClosure": 2,
                "Inauguration": 2,
                "Protest": 2,
                "Appointment": 1,
                "Confrontation": 1,
                "Election": 1,
                "Expulsion": 1},
 "relations": {"agent": 88,
               "role": 64,
               "saidBy": 46,
               "memberOf": 42,
               "time": 36,
               "counts": 33,
               "member": 32,
               "organization": 32,
               "post": 32,
               "postIn": 32,
               "claimant": 28,
               "hasRole": 28,
               "holds": 28,
               "patient": 24,
               "content": 23,
               "topic": 22,
               "place": 20,
               "claimedBy": 18,
               "destination": 17,
               "reportedBy": 17,
               "locatedIn": 14,
               "opposes": 13,
               "participant": 13,
               "subOrganizationOf": 10,
               "supports": 10,
               "asOf": 9,
               "origin": 8,
               "recognizes": 4,
               "linkedEvent": 2,
               "startTime": 2}}


@pytest.fixture(scope="module")
def data_2019(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = tmp_path_factory.mktemp("corpus-2019")
    build(CORPUS_2019, data)
    return data


def test_the_2019_corpus_builds_into_the_pinned_counts(data_2019):
    assert json.loads(run_kg("stats", "--data", str(data_2019), "--json").stdout) == PINNED


def test_the_hand_counts_agree_with_the_files():
    """The derivations above, redone on the files, so that the copy and this docstring stay one."""
    lines = [line.split("\t") for path in sorted(CORPUS_2019.glob("*.ann"))
             for line in path.read_text(encoding="utf-8").splitlines()]
    spans = [fields[1].split()[0] for fields in lines if fields[0].startswith("T")]
    events = [fields[1].split() for fields in lines if fields[0].startswith("E")]
    memberships = [e for e in events if e[0].startswith("Membership:")]
    assert (len(spans), spans.count("Quote"), spans.count("Figure"), spans.count("Group")) == (696, 47, 42, 49)
    assert (len(events), len(memberships)) == (180, 32)
    assert sum(len(e) - 1 for e in events if e not in memberships) == 281
    assert sum(1 for e in memberships for arg in e[1:] if arg.startswith("Organization:")) == 32
    assert sum(1 for fields in lines if fields[0].startswith("R")) == 170
    assert len(list(CORPUS_2019.glob("*.txt"))) == 4
