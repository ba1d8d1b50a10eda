"""The JSON API's events, timeline, quotes, figures, documents with their text and neighbourhoods on
the shipped corpus. Expected answers are read from the articles (corpus/*.txt), not from the API."""

from __future__ import annotations

import pytest

from tests.api.support import body, validator
from tests.helpers import CORPUS


def walk(client, url: str) -> list[dict]:
    """Every item of a paged list, page by page."""
    items, nxt = [], url
    for _ in range(100):
        if not nxt:
            break
        page = body(client.get(nxt))
        items += page["items"]
        nxt = page["next"]
    return items


@pytest.mark.parametrize("route,schema", [("/api/events", "Event"), ("/api/timeline", "Event"),
                                          ("/api/quotes", "Quote"), ("/api/figures", "Figure")])
def test_every_item_has_an_id_that_resolves_to_itself(client, route, schema):
    items = walk(client, route + "?limit=25")
    assert items
    check = validator(schema)
    for item in items:
        check.validate(item)
        assert item["id"] and item["href"]
        assert body(client.get(item["href"]))["iri"] == item["iri"]
        for ref in item.get("participants", []) + [item.get("speaker"), item.get("source"), item["document"]]:
            if ref:  # every thing an item points to resolves too
                assert ref["id"] and body(client.get(ref["href"]))["iri"] == ref["iri"]


def test_events_and_timeline(client):
    events = walk(client, "/api/events?limit=50")
    timeline = walk(client, "/api/timeline?limit=50")
    assert {e["id"] for e in timeline} <= {e["id"] for e in events}
    assert [e["date"] for e in timeline] == sorted(e["date"] for e in timeline) and all(e["date"] for e in timeline)
    # France 24: "More than one hundred Venezuelan soldiers have defected to Colombia"
    defections = walk(client, "/api/events?type=defection&limit=50")
    assert defections == walk(client, "/api/events?type=DEFECTION&limit=50")
    assert all("kgo:Defection" in e["types"] for e in defections)
    france24 = [e for e in defections if e["document"]["id"] == "france24-soldiers-desert-posts"]
    assert any({"role": "destination", "id": "place/colombia"}.items() <= p.items()
               for e in france24 for p in e["participants"])


def test_event_tells_its_sentence(client):
    event = next(e for e in walk(client, "/api/events?type=Defection&limit=50")
                 if e["document"]["id"] == "france24-soldiers-desert-posts" and e["participants"])
    detail = body(client.get(event["href"]))
    text = (CORPUS / "france24-soldiers-desert-posts.txt").read_text(encoding="utf-8")
    assert detail["sentences"] and all(s in text for s in detail["sentences"])


def test_quotes_are_whole_with_their_speaker(client):
    quotes = walk(client, "/api/quotes?limit=100")
    npr = (CORPUS / "npr-venezuelan-armed-forces-fled.txt").read_text(encoding="utf-8")
    # NPR: 'By contrast, "if you denounce soldiers for coup-plotting they will award you with a new house ...'
    long_one = "if you denounce soldiers for coup-plotting they will award you with a new house or a car."
    assert long_one in npr
    harry = [q for q in quotes if q["text"].startswith(long_one)]
    assert harry and len(harry[0]["text"]) > 80 and harry[0]["speaker"]["id"] == "person/harry-solano"
    # NPR: '"Why don't they rise up? Because they are afraid," Mora said.'
    assert "\"Why don't they rise up? Because they are afraid,\" Mora said." in npr
    mora = walk(client, "/api/quotes?speaker=person/juan-carlos-mora")
    assert any("Why don't they rise up? Because they are afraid" in q["text"] for q in mora)
    assert all(q["speaker"]["id"] == "person/juan-carlos-mora" and q["sentence"] for q in mora)
    assert all(q["text"].strip('"“”,. ')[:15] in q["sentence"] for q in mora)  # a quote may run on


def test_figures_keep_source_value_qualifier_and_date(client):
    figures = walk(client, "/api/figures?limit=100")
    # HRW: "Colombian authorities say that more than 1,400 members of Venezuela's security forces have arrived"
    hrw = [f for f in figures if f["value"] == 1400 and f["document"]["id"] == "hrw-defection-turned-into-exile"]
    assert hrw and hrw[0]["qualifier"] == "MoreThan" and hrw[0]["unit"] is None
    assert "Colombian authorities" in hrw[0]["sentence"]
    # France 24: "More than one hundred Venezuelan soldiers have defected ... migration services said Sunday" (24 Feb)
    f24 = [f for f in figures if " ".join(f["label"].split()) == "More than one hundred"]  # a no-break space
    assert f24 and f24[0]["value"] == 100 and f24[0]["source"]["id"] == "organization/migracion-colombia"
    assert f24[0]["date"] == "2019-02-24"
    reported = walk(client, "/api/figures?source=organization/migracion-colombia")
    assert f24[0]["id"] in {f["id"] for f in reported}


def test_document_with_its_text(client):
    doc = body(client.get("/api/documents/npr-venezuelan-armed-forces-fled"))
    validator("Document").validate(doc)
    assert doc["text"] == (CORPUS / "npr-venezuelan-armed-forces-fled.txt").read_text(encoding="utf-8")
    listed = body(client.get("/api/documents"))["items"]
    assert doc["href"] in {d["href"] for d in listed}
    body(client.get("/api/documents/no-such-article"), 404)


def test_roles_come_with_their_organization(client):
    # NPR: "For Mora, the National Guard lieutenant, ..."
    mora = body(client.get("/api/entities/person/juan-carlos-mora"))
    validator("Entity").validate(mora)
    assert any(m["role"] and m["role"]["id"] == "role/lieutenant" and "national-guard" in m["organization"]["id"]
               for m in mora["memberships"])
    # HRW: "Juan Guaidó, National Assembly president"
    guaido = body(client.get("/api/entities/person/juan-guaido"))
    assert any(m["role"] and m["role"]["label"] == "president"
               and m["organization"]["id"] == "organization/national-assembly-of-venezuela"
               for m in guaido["memberships"])
    for relation in guaido["relations"]["in"] + guaido["relations"]["out"]:
        other = relation.get("subject") or relation.get("object")
        assert other["id"] and other["label"], relation
        assert body(client.get(other["href"]))["iri"] == other["iri"]


def test_neighbourhood_without_provenance_noise(client):
    # HRW: "HRW's Tamara Taraciuk talked to some of them in Cucuta"
    hood = body(client.get("/api/neighbourhood/organization/human-rights-watch"))
    validator("Neighbourhood").validate(hood)
    ids = {n["id"] for n in hood["neighbours"]}
    assert "person/tamara-taraciuk" in ids
    assert all("#" not in n["iri"] for n in hood["neighbours"])  # no mentions, statements or sentences
    people = body(client.get("/api/neighbourhood/organization/human-rights-watch?type=person"))["neighbours"]
    assert [n["id"] for n in people] == ["person/tamara-taraciuk"]
    body(client.get("/api/neighbourhood/person/nobody"), 404)


@pytest.mark.parametrize("route", ["/api/entities", "/api/events", "/api/timeline"])
def test_type_is_case_insensitive_and_unknown_types_are_listed(client, route):
    kind = "person" if route == "/api/entities" else "flight"
    assert body(client.get(f"{route}?type={kind}")) == body(client.get(f"{route}?type={kind.upper()}"))
    assert body(client.get(f"{route}?type={kind}"))["total"] > 0
    error = body(client.get(f"{route}?type=Persn"), 400)["error"]
    assert kind.capitalize() in error["valid"] and kind.capitalize() in error["detail"]


@pytest.mark.parametrize("url", ["/api/events/no/event/E1", "/api/quotes/x/quote/T1", "/api/figures/x/figure/T1",
                                 "/api/events/person/juan-guaido"])
def test_unknown_items_are_404(client, url):
    body(client.get(url), 404)


@pytest.mark.parametrize("kind", ["events", "quotes", "figures"])
def test_one_fact_takes_three_trips_to_a_worker(client, worker_trips, kind):
    """Its id, then its page with its roles and sentences in one job, then its document's title
    (a job per query made four or five)."""
    first = body(client.get(f"/api/{kind}?limit=1"))["items"][0]
    worker_trips.clear()
    item = body(client.get(first["href"]))
    assert item["iri"] == first["iri"] and item["document"]["title"]
    assert item.get("sentences") or item.get("sentence")
    assert worker_trips == ["select", "select_many", "select"]
