"""The reconciliation service behind a real `kg serve` on 127.0.0.1, on a corpus of its own: namesakes of two
types (an exact name two entities share is never a match, unless a type tells them apart), markup in a name
(escaped in every answer), a browser's CORS preflight and an over-sized batch over HTTP."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import requests

from kg.testing.servers import Server
from tests.api.services.reconciliation_schemas import assert_valid
from tests.helpers import ROOT, run_kg

TIMEOUT = 30
TEXT = "Jordan met the king of Jordan. <b>Bold</b> Smith said so.\n"
ANN = "T1\tPerson 0 6\tJordan\nT2\tCountry 23 29\tJordan\nT3\tPerson 31 48\t<b>Bold</b> Smith\n"


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Server:
    root = tmp_path_factory.mktemp("namesakes")
    corpus = root / "corpus"
    corpus.mkdir()
    shutil.copy(ROOT / "corpus" / "annotation.conf", corpus)
    (corpus / "namesakes.txt").write_text(TEXT, encoding="utf-8")
    (corpus / "namesakes.ann").write_text(ANN, encoding="utf-8")
    done = run_kg("build", "--corpus", str(corpus), "--data", str(root / "data"), "--quiet")
    assert done.exit_code == 0, done.output
    server = Server(Path(root / "data"), "--workers", "1", "--max-batch", "5")
    yield server
    server.stop()


def reconcile(served: Server, queries: dict) -> dict:
    response = requests.post(served.url + "reconcile", data={"queries": json.dumps(queries)}, timeout=TIMEOUT)
    assert response.status_code == 200, response.text
    answer = response.json()
    assert_valid("0.2", "reconciliation-result-batch", answer)
    return answer


def test_an_exact_name_two_entities_share_is_no_match(served):
    answer = reconcile(served, {"any": {"query": "Jordan"}, "person": {"query": "Jordan", "type": "Person"},
                                "country": {"query": "jordan", "type": "Country", "type_strict": "any"}})
    assert {c["id"] for c in answer["any"]["result"]} == {"person/jordan", "place/jordan"}
    assert not any(c["match"] for c in answer["any"]["result"])
    person = answer["person"]["result"]
    assert person[0]["id"] == "person/jordan" and person[0]["match"] is True
    assert [c["match"] for c in person[1:]] == [False] * (len(person) - 1)  # the country, halved, stays a candidate
    assert [c["id"] for c in answer["country"]["result"]] == ["place/jordan"]
    assert answer["country"]["result"][0]["match"] is True


def test_markup_in_a_name_stays_text(served):
    answer = reconcile(served, {"q": {"query": "<b>Bold</b> Smith"}})
    assert answer["q"]["result"][0]["name"] == "<b>Bold</b> Smith"  # JSON carries it as the text it is
    page = requests.get(served.url + "reconcile/preview", params={"id": answer["q"]["result"][0]["id"]},
                        timeout=TIMEOUT)
    assert "&lt;b&gt;Bold&lt;/b&gt; Smith" in page.text and "<b>Bold" not in page.text
    flyout = requests.get(served.url + "reconcile/flyout", timeout=TIMEOUT,
                          params={"id": answer["q"]["result"][0]["id"], "callback": "cb"})
    assert "<b>" not in flyout.text and "\\u003cb" not in flyout.text.split('"html"')[0]
    html = json.loads(flyout.text[len("/**/cb("):-3])["html"]
    assert "&lt;b&gt;Bold&lt;/b&gt; Smith" in html


def test_a_browsers_preflight_and_post_from_another_origin(served):
    origin = {"Origin": "http://openrefine.test:3333"}
    preflight = requests.options(served.url + "reconcile/1.0-draft/match", timeout=TIMEOUT, headers={
        **origin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type"})
    assert preflight.status_code == 200
    assert preflight.headers["Access-Control-Allow-Origin"] == "*"
    assert "POST" in preflight.headers["Access-Control-Allow-Methods"]
    assert "content-type" in preflight.headers["Access-Control-Allow-Headers"].lower()
    answer = requests.post(served.url + "reconcile/1.0-draft/match", timeout=TIMEOUT, headers=origin,
                           json={"queries": [{"conditions": [{"matchType": "name", "propertyValue": "Jordan"}],
                                              "type": "Country"}]})
    assert answer.headers["Access-Control-Allow-Origin"] == "*"
    assert_valid("1.0-draft", "reconciliation-result-batch", answer.json())
    assert [c["id"] for c in answer.json()["results"][0]["candidates"]] == ["place/jordan"]


def test_an_oversized_batch_is_413_in_the_one_error_shape(served):
    response = requests.post(served.url + "reconcile", timeout=TIMEOUT,
                             data={"queries": json.dumps({f"q{i}": {"query": "Jordan"} for i in range(6)})})
    assert response.status_code == 413 and response.headers["Content-Type"].startswith("application/json")
    assert response.json() == {"error": {"status": 413, "title": "Request Entity Too Large",
                                         "detail": "6 queries in one request; at most 5 (--max-batch): send them in "
                                                   "several batches", "limit": 5}}
    extension = requests.post(served.url + "reconcile/1.0-draft/extend", timeout=TIMEOUT,
                              json={"ids": [f"person/p{i}" for i in range(6)], "properties": [{"id": "memberOf"}]})
    assert extension.status_code == 413 and extension.json()["error"]["limit"] == 5
