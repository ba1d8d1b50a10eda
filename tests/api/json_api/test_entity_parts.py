"""An entity's answer is bounded whatever the entity's size: each of its lists (memberships,
relations out and in, mentions) is one page, says how much there is and links the next page,
and the pages together hold exactly what the store says (shipped corpus, pages of 3)."""

from __future__ import annotations

import pyoxigraph as ox
import pytest

from kg.api.json_api import routes
from kg.model.iris import PREFIXES, RESOURCE
from kg.store import build_dirs
from tests.api.support import body, validator

SMALL = 3


@pytest.fixture
def small_pages(monkeypatch):
    monkeypatch.setattr(routes, "PART_LIMIT", SMALL)


def _store_rows(shipped_data, query: str) -> set[tuple[str, ...]]:
    store = ox.Store.read_only(str(build_dirs.store_path(build_dirs.current_build(shipped_data))))
    prologue = "".join(f"PREFIX {p}: <{iri}>\n" for p, iri in PREFIXES.items())
    rows = store.query(prologue + query, use_default_graph_as_union=True)
    return {tuple(term.value for term in row) for row in rows}


def _walk(client, first: dict, part: str, take) -> list:
    """Every item of one part, following its `next` links from the first answer."""
    items, answer = list(take(first)), first
    while answer["parts"][part]["next"]:
        answer = body(client.get(answer["parts"][part]["next"]))
        validator("Entity").validate(answer)
        assert answer["parts"][part]["shown"] <= SMALL
        items += take(answer)
    return items


def test_a_cut_list_says_so_and_its_pages_hold_the_whole(client, shipped_data, small_pages):
    key = "person/juan-guaido"
    first = body(client.get(f"/api/entities/{key}"))
    validator("Entity").validate(first)
    iri = RESOURCE + key
    mentions = _store_rows(shipped_data, f"SELECT DISTINCT ?m WHERE {{ ?m kgo:denotes <{iri}> }}")
    assert len(mentions) > SMALL
    assert first["complete"] is False
    part = first["parts"]["mentions"]
    assert part == {"offset": 0, "shown": SMALL, "total": len(mentions), "totalExact": True,
                    "next": part["next"]} and part["next"]
    assert len(first["mentions"]) == SMALL and first["mentionsTotal"] == len(mentions)
    walked = _walk(client, first, "mentions", lambda a: [m["iri"] for m in a["mentions"]])
    assert len(walked) == len(set(walked)) and {(m,) for m in walked} == mentions

    statements = _store_rows(shipped_data, f"""SELECT DISTINCT ?p ?o WHERE {{
        ?st rdf:subject <{iri}> ; rdf:predicate ?p ; rdf:object ?o . FILTER NOT EXISTS {{ ?o a kgo:Membership }} }}""")
    walked_out = _walk(client, first, "out", lambda a: [(r["predicateIri"], r["object"]["iri"])
                                                         for r in a["relations"]["out"]])
    assert set(walked_out) == statements


def test_a_small_entity_is_complete_and_says_so(client):
    entity = body(client.get("/api/entities/person/juan-carlos-mora"))
    validator("Entity").validate(entity)
    assert entity["complete"] is True
    for part in entity["parts"].values():
        assert part["offset"] == 0 and part["next"] is None and part["total"] == part["shown"]
    assert entity["parts"]["mentions"]["total"] == len(entity["mentions"])


@pytest.mark.parametrize("query", ["mentionsOffset=-1", "outOffset=x", "inOffset=1000000001"])
def test_bad_offsets_are_400(client, query):
    error = body(client.get(f"/api/entities/person/juan-guaido?{query}"), 400)["error"]
    assert error["status"] == 400 and f"'{query.partition('=')[0]}' must be" in error["detail"]


def test_a_count_past_its_cap_says_it_is_not_exact(client, small_pages, monkeypatch):
    monkeypatch.setattr(routes, "COUNT_CAPS", {part: SMALL + 1 for part in routes.COUNT_CAPS})
    part = body(client.get("/api/entities/person/juan-guaido"))["parts"]["mentions"]
    assert part["total"] == SMALL + 1 and part["totalExact"] is False and part["next"]


@pytest.mark.parametrize("key, trips", [
    ("person/juan-carlos-mora", 2),  # whole: the record and pages, then the titles
    ("person/juan-guaido", 2),  # cut (pages of 3): the counts go with the titles
    ("hrw-defection-turned-into-exile/person/T57", 3),  # document-local: its IRI is known after the first
])
def test_an_answer_takes_a_fixed_number_of_trips_to_a_worker(client, small_pages, worker_trips, key, trips):
    """Under load each trip waits for a free worker, so the route's time must not grow with the
    number of queries it makes (it made 7 to 11 trips, one per query)."""
    answer = body(client.get(f"/api/entities/{key}"))
    validator("Entity").validate(answer)
    assert answer["mentions"] and all(m["document"]["title"] for m in answer["mentions"])
    assert worker_trips == ["select_many"] * trips


def test_an_unknown_id_takes_one_trip(client, worker_trips):
    assert body(client.get("/api/entities/person/nobody-at-all"), 404)["error"]["status"] == 404
    assert worker_trips == ["select_many"]
