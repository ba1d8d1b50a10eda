"""The pinned counts of the shipped corpus, and the only test that pins them. It builds from
tests/data/corpus-2019/, a fixed copy of corpus/ as shipped with the four 2019 articles, so that
re-annotating or adding articles in corpus/ changes nothing here. No other test may depend on
the counts of the shipped corpus (tests/test_fifth_article.py shows they hold with one more).

Checked by hand against the .ann files of the copy (grep counts):
- 626 mentions: the T lines; 47 quotes and 40 figures: the T lines of type Quote and Figure.
- 102 events: 148 E lines less the 32 Membership ones (n-ary memberships, not events) is 116;
  17 of these are normalized (KG:event/...) to 3 canonical events, which replace them: 116 - 17 + 3.
- 470 statements: 128 R lines; 200 arguments of the 116 events (83 Agent, 37 Time, 22 Patient,
  19 Place, 17 Destination, 14 Participant, 8 Origin); per Membership its Member (32), its
  Organization when given (23), its role (32), the hasRole shortcut (32) and the memberOf shortcut
  when an organization is given (23): 128 + 200 + 32 + 23 + 32 + 32 + 23.
- relations: the R lines by type (46 SaidBy, 17 ReportedBy, 14 LocatedIn, 12 Opposes, 9 AsOf,
  9 SubOrganizationOf, 8 Supports, 3 Recognizes), memberOf = 10 MemberOf R lines + 23 shortcuts.
- 98 entity records: 23 people, 29 organizations, 15 places, 13 dates, 15 roles, 3 canonical events.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kg.builder import build
from tests.helpers import CORPUS_2019, run_kg

PINNED = {
    "counts": {"quads": 14209, "graphs": 6, "documents": 4, "entities": 98, "mentions": 626, "statements": 470,
               "events": 102, "figures": 40, "quotes": 47},
    "entityTypes": {"Organization": 29, "Person": 23, "Place": 15, "Role": 15, "Date": 13, "GovernmentBody": 8,
                    "MediaOrganization": 8, "City": 6, "Country": 5, "NGO": 5, "Event": 3, "MilitaryUnit": 3,
                    "Facility": 2, "IntergovernmentalOrganization": 2, "PoliticalGroup": 2, "Uprising": 2,
                    "Confrontation": 1, "Region": 1, "Waterway": 1},
    "eventTypes": {"Defection": 18, "Flight": 18, "Announcement": 12, "AidDelivery": 10, "Interview": 9,
                   "AsylumRequest": 8, "Detention": 7, "Attack": 6, "Uprising": 5, "BorderClosure": 2,
                   "Inauguration": 2, "Protest": 2, "Appointment": 1, "Confrontation": 1, "Election": 1,
                   "Expulsion": 1},
    "relations": {"agent": 83, "saidBy": 46, "time": 37, "memberOf": 33, "hasRole": 32, "member": 32, "role": 32,
                  "organization": 23, "patient": 22, "place": 19, "destination": 17, "reportedBy": 17,
                  "locatedIn": 14, "participant": 14, "opposes": 12, "asOf": 9, "subOrganizationOf": 9,
                  "origin": 8, "supports": 8, "recognizes": 3},
}


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
    assert (len(spans), spans.count("Quote"), spans.count("Figure")) == (626, 47, 40)
    assert (len(events), len(memberships)) == (148, 32)
    assert sum(len(e) - 1 for e in events if e not in memberships) == 200
    assert sum(1 for e in memberships for arg in e[1:] if arg.startswith("Organization:")) == 23
    assert sum(1 for fields in lines if fields[0].startswith("R")) == 128
    assert len(list(CORPUS_2019.glob("*.txt"))) == 4
