"""The JSON API on the shipped corpus: entities, search, documents, stats,
health, OpenAPI, exports, and the one error shape of every error route."""

from __future__ import annotations

import json
import re
import time

import pyoxigraph as ox
import pytest

from kg.api.json_api import openapi
from kg.model.iris import ENTITIES_GRAPH, PREFIXES, RESOURCE, prologue
from kg.store import build_dirs
from tests.api.linked_support import reference
from tests.api.support import body, validator
from tests.helpers import CORPUS, made_app


def test_entities_paging_is_complete_and_disjoint(client):
    first = body(client.get("/api/entities?limit=40"))
    assert first["total"] > 40 and len(first["items"]) == 40
    seen = [item["id"] for item in first["items"]]
    nxt = first["next"]
    for _ in range(10):  # bounded walk over the pages
        if not nxt:
            break
        page = body(client.get(nxt))
        seen += [item["id"] for item in page["items"]]
        nxt = page["next"]
    assert len(seen) == len(set(seen)) == first["total"]
    for item in first["items"]:
        validator("EntityItem").validate(item)


def test_entities_filter_by_type_includes_subclasses(client, shipped_data):
    people = body(client.get("/api/entities?type=Person&limit=500"))
    assert people["total"] == len(people["items"]) > 0
    assert all("kgo:Person" in item["types"] for item in people["items"])
    assert "person/juan-guaido" in {item["id"] for item in people["items"]}
    units = body(client.get("/api/entities?type=MilitaryUnit&limit=500"))["items"]
    orgs = {i["id"] for i in body(client.get("/api/entities?type=Organization&limit=500"))["items"]}
    assert units and {u["id"] for u in units} <= orgs


@pytest.mark.parametrize("query", ["type=Per%20son", "type=", "limit=0", "limit=501", "offset=-1", "limit=ten", "limit=",
                                   "offset=", "limit=2.5", "limit=+5", "limit=%205", "offset=1000000001",
                                   "limit=%D9%A3"])
def test_entities_bad_parameters(client, query):
    """Each bad value is a 400 whose detail names the parameter (and, for `type`, the valid ones)."""
    error = body(client.get(f"/api/entities?{query}"), 400)["error"]
    name = query.partition("=")[0]
    assert error["status"] == 400
    assert (f"'{name}' must be" in error["detail"]) if name != "type" else ("Person" in error["valid"])


def test_entity_record(client):
    entity = body(client.get("/api/entities/person/juan-guaido"))
    validator("Entity").validate(entity)
    assert entity["label"] == "Juan Guaidó"
    assert entity["iri"] == RESOURCE + "person/juan-guaido"
    assert "kgo:Person" in entity["types"]
    assert "Guaido" in entity["labels"]["alternative"]
    assert "Guiado" in entity["labels"]["hidden"]
    assert entity["mentionsTotal"] == entity["mentionCount"] == len(entity["mentions"]) > 0
    for mention in entity["mentions"]:
        assert mention["sentence"] and mention["text"] in mention["sentence"]
        assert mention["document"]["id"] and mention["document"]["title"]
    relations = entity["relations"]["out"] + entity["relations"]["in"]
    assert relations
    for relation in relations:
        assert relation["sources"], relation
        for source in relation["sources"]:
            assert source["document"] and source["title"]


def test_entity_relations_have_sources_with_sentences(client):
    # Juan Carlos Mora is a member of the National Guard according to the articles
    entity = body(client.get("/api/entities/person/juan-carlos-mora"))
    member_of = [r for r in entity["relations"]["out"] if r["predicate"] == "memberOf"]
    assert member_of
    assert any(s["sentence"] for r in member_of for s in r["sources"])


def test_entity_same_as(client):
    venezuela = body(client.get("/api/entities/place/venezuela"))
    assert venezuela["sameAs"] == ["http://www.wikidata.org/entity/Q717"]


@pytest.mark.parametrize("key", ["person/nobody-at-all", "no-such/thing", "person/<script>"])
def test_unknown_entity_404(client, key):
    error = body(client.get(f"/api/entities/{key}"), 404)["error"]
    assert error["status"] == 404 and error["detail"].startswith("no entity ")


@pytest.mark.parametrize("text, expected", [
    ("guaido", "person/juan-guaido"),
    ("GUAIDÓ", "person/juan-guaido"),
    ("Guiado", "person/juan-guaido"),        # a misspelling listed as hidden label
    ("cucuta", "place/cucuta"),
    ("CÚCUTA", "place/cucuta"),
    ("bogota", "place/bogota"),
    ("refugee agency", "organization/unhcr"),  # an alternative label, inside
    ("nicolas maduro", "person/nicolas-maduro"),
])
def test_search_accent_and_case_insensitive(client, text, expected):
    result = body(client.get("/api/search", query_string={"q": text}))
    validator("Search").validate(result)
    assert result["items"][0]["id"] == expected


def test_search_ranks_whole_label_first(client):
    items = body(client.get("/api/search?q=venezuela&limit=50"))["items"]
    assert items[0]["id"] == "place/venezuela" and items[0]["rank"] == "exact"
    order = ["exact", "prefix", "word", "substring"]
    ranks = [(item.get("local", False), order.index(item["rank"])) for item in items]
    assert ranks == sorted(ranks)  # shared entities, then things local to a document, each by rank
    assert any(local for local, _ in ranks)


@pytest.mark.parametrize("query", ["", "q=", "q=%20%20", "q=x&limit=0", "q=x&limit="])
def test_search_bad_parameters(client, query):
    body(client.get(f"/api/search?{query}"), 400)


@pytest.mark.parametrize("text", [" ", "\x85", "\u3000", "\t\n\u2028", "a", " a ", "\u0301", "\x00"])
def test_search_refuses_exactly_what_the_description_calls_blank(client, text):
    """Found by schemathesis: U+0085 fitted `minLength: 1` and was refused as blank."""
    status = client.get("/api/search", query_string={"q": text}).status_code
    assert status == (200 if re.search(openapi.NOT_BLANK, text) else 400)


def test_documents(client):
    result = body(client.get("/api/documents"))
    slugs = {p.stem for p in CORPUS.glob("*.txt")}
    assert result["total"] == len(result["items"]) == len(slugs)
    assert {i["id"] for i in result["items"]} == slugs
    for item in result["items"]:
        validator("Document").validate(item)
        metadata = json.loads((CORPUS / f"{item['id']}.json").read_text(encoding="utf-8"))
        assert item["title"] == metadata["title"]
        publisher = item["publisher"]
        assert (publisher and publisher["iri"]) == (metadata.get("publisher") and RESOURCE + metadata["publisher"])
        assert publisher is None or publisher["label"]
        assert item["graph"].endswith("/graph/" + item["id"])


def test_documents_by_date_are_the_latest_first_as_sparql_orders_them(client, shipped_data):
    store = ox.Store.read_only(str(build_dirs.store_path(build_dirs.current_build(shipped_data))))
    rows = store.query(prologue() + """SELECT ?doc ?date WHERE { ?doc a kgo:NewsArticle
      OPTIONAL { ?doc dcterms:date ?date } } ORDER BY DESC(?date) ?doc""", use_default_graph_as_union=True)
    expected = [(row["doc"].value, row["date"] and row["date"].value) for row in rows]
    items, url = [], "/api/documents?sort=date&limit=2"
    while url:
        page = body(client.get(url))
        items += page["items"]
        url = page["next"]
    assert [(i["iri"], i["date"]) for i in items] == expected
    assert len({d for _, d in expected}) > 1 and page["total"] == len(expected)
    assert body(client.get("/api/documents?sort=title"), 400)["error"]["valid"] == ["id", "date"]


def test_a_page_of_documents_by_date_asks_the_store_of_its_own_documents_only(client, sparql_sent):
    """The order is read once per build: after that, a page is one query about its own articles
    (VALUES), however many the corpus holds."""
    body(client.get("/api/documents?sort=date&limit=1"))
    asked = sparql_sent
    asked.clear()
    page = body(client.get("/api/documents?sort=date&limit=2&offset=1"))
    assert len(asked) == 1 and "VALUES ?doc" in asked[0]
    assert all(f"<{item['iri']}>" in asked[0] for item in page["items"])


def test_stats_match_the_store(client, shipped_data):
    stats = body(client.get("/api/stats"))
    validator("Stats").validate(stats)
    store = ox.Store.read_only(str(build_dirs.store_path(build_dirs.current_build(shipped_data))))
    assert stats["counts"]["quads"] == len(store)
    assert stats["counts"]["documents"] == len(list(CORPUS.glob("*.txt")))
    assert stats["counts"]["graphs"] == len(list(store.named_graphs()))
    people = {q.subject for q in store.quads_for_pattern(None, ox.NamedNode(PREFIXES["rdf"] + "type"),
                                                         ox.NamedNode(PREFIXES["kgo"] + "Person"),
                                                         ox.NamedNode(ENTITIES_GRAPH))}
    assert stats["entityTypes"]["Person"] == len(people) > 0



def test_stats_are_not_bound_by_the_query_time_limit(shipped_data):
    """The counts describe the whole build and are computed once, in the background with their own
    budget: a time limit that stops every query still lets them be computed; meanwhile the request
    is told so (503, Retry-After), and a later one gets them."""
    # 1 µs: far below one round trip to a worker (1 ms was answered in time on an idle machine)
    with made_app({"DATA": str(shipped_data), "WORKERS": 1, "QUERY_TIMEOUT": 0.000001}) as app:
        client = app.test_client()
        assert client.get("/api/entities/person/juan-guaido").status_code == 503
        answer, give_up = client.get("/api/stats"), time.monotonic() + 60
        while answer.status_code == 503 and time.monotonic() < give_up:
            assert answer.headers["Retry-After"] and "being computed" in answer.get_data(as_text=True)
            time.sleep(0.05)
            answer = client.get("/api/stats")
        stats = body(answer)
        assert stats["counts"]["documents"] == len(list(CORPUS.glob("*.txt")))


def test_health(client, shipped_data):
    health = body(client.get("/health"))
    validator("Health").validate(health)
    assert health["status"] == "ok" and health["build"] == build_dirs.current_build(shipped_data).name
    assert health["in_memory"] is True  # the shipped corpus is far under the memory threshold


def test_health_without_a_graph(tmp_path):

    with made_app({"DATA": str(tmp_path / "empty"), "WORKERS": 1}) as app:
        client = app.test_client()
        health = body(client.get("/health"), 503)
        assert health["status"] == "unavailable"
        error = body(client.get("/sparql?query=ASK%7B%7D"), 503)["error"]
        assert "kg build" in error["detail"]


def test_openapi_names_every_json_route_and_sparql(app, client):
    doc = body(client.get("/api/openapi.json"))
    assert doc["openapi"].startswith("3.")
    documented = {(path, method.upper()) for path, item in doc["paths"].items() for method in item}
    routes = {(re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule), method) for rule in app.url_map.iter_rules()
              if rule.rule.startswith("/api/") or rule.rule in ("/health", "/sparql")
              for method in rule.methods - {"HEAD", "OPTIONS"}}
    assert routes == documented


@pytest.mark.parametrize("fmt, rdf_format", [("ttl", ox.RdfFormat.TURTLE), ("trig", ox.RdfFormat.TRIG),
                                             ("nq", ox.RdfFormat.N_QUADS), ("jsonld", ox.RdfFormat.JSON_LD)])
def test_exports_download_and_parse(client, shipped_data, fmt, rdf_format):
    response = client.get(f"/export.{fmt}")
    assert response.status_code == 200
    assert f"kg.{fmt}" in response.headers["Content-Disposition"]
    assert "attachment" in response.headers["Content-Disposition"]
    quads = list(ox.parse(response.data, format=rdf_format))
    assert quads
    if fmt in ("trig", "nq"):
        store = ox.Store.read_only(str(build_dirs.store_path(build_dirs.current_build(shipped_data))))
        assert len(set(quads)) == len(store)


# -- the one error shape --------------------------------------------------------

ERROR_REQUESTS = [
    ("GET", "/api/entities?limit=0", None, None),
    ("GET", "/api/entities/nobody/none", None, None),
    ("GET", "/api/search", None, None),
    ("GET", "/api/documents?offset=x", None, None),
    ("GET", "/export.xyz", None, None),
    ("GET", "/no/such/page", None, None),
    ("DELETE", "/sparql", None, None),
    ("PUT", "/api/entities", None, None),
    ("GET", "/sparql?query=SELECT", None, None),
    ("GET", "/sparql?query=ASK%7B%7D", None, {"Accept": "image/png"}),
    ("POST", "/sparql", b"ASK {}", {"Content-Type": "text/plain"}),
    ("POST", "/sparql", b"update=CLEAR%20ALL", {"Content-Type": "application/x-www-form-urlencoded"}),
    ("GET", "/sparql?query=SELECT%20*%20%7B%20SERVICE%20%3Chttp://127.0.0.1:1/%3E%20%7B%7D%20%7D", None, None),
]


@pytest.mark.parametrize("method, url, data, headers", ERROR_REQUESTS)
def test_every_error_has_the_one_shape(client, method, url, data, headers):
    response = client.open(url, method=method, data=data, headers=headers or {})
    assert response.status_code >= 400
    assert response.mimetype == "application/json"
    document = json.loads(response.data)
    validator("Error").validate(document)
    assert document["error"]["status"] == response.status_code


def test_error_shape_for_timeouts_and_size(small_client):
    """A query past the 1.5 s limit is a 503 saying it was stopped; a body past the 4,096 bytes a
    413; both in the one error shape."""
    slow = small_client.get("/sparql", query_string={"query": "SELECT (COUNT(*) AS ?n) { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"})
    large = small_client.post("/sparql", data=b"x" * 10000, content_type="application/sparql-query")
    for response, status in ((slow, 503), (large, 413)):
        assert response.status_code == status, response.data
        document = json.loads(response.data)
        validator("Error").validate(document)
        assert document["error"]["status"] == status
    assert "ran out of time and was stopped" in json.loads(slow.data)["error"]["detail"]


def test_entities_sorted_by_mentions_most_first(client, shipped_data):
    """`sort=mentions` pages the entities by their mention count, most first, against the counts of
    the entity records; every entity is still listed once, and the next page keeps the order."""
    counts = {s.subject.value: int(s.object.value) for s in reference(shipped_data).quads_for_pattern(
        None, ox.NamedNode(PREFIXES["kgo"] + "mentionCount"), None, ox.NamedNode(ENTITIES_GRAPH))}
    first = body(client.get("/api/entities?sort=mentions&limit=30"))
    rest = body(client.get(first["next"]))
    items = first["items"] + rest["items"]
    assert "sort=mentions" in first["next"]
    mentions = [item["mentions"] or 0 for item in items]
    assert mentions == sorted(mentions, reverse=True)
    assert mentions[0] == max(counts.values()) > mentions[-1]
    assert first["total"] == body(client.get("/api/entities?limit=1"))["total"]
    assert body(client.get("/api/entities?sort=count"), 400)["error"]["valid"] == ["label", "mentions"]
