"""The reconciliation service, 0.2 at /reconcile and 1.0-draft at /reconcile/1.0-draft, on the shipped corpus.

Every answer is validated against the official schema of its version (reconciliation_schemas.py). The request
shapes are OpenRefine's own, replayed as its tests record them (OpenRefine/OpenRefine, BSD, commit
ff43aa1b531e25b81cc715df63dca3d75ae87a50):
- modules/core/src/test/java/com/google/refine/model/recon/StandardReconConfigTests.java, batchReconTestSuccessful:
  a form body `queries=<url-encoded {"q0":{"query":..,"type":..,"properties":[{"pid":..,"v":..}],"type_strict":"should"}}>`;
- main/tests/server/src/com/google/refine/commands/recon/GuessTypesOfColumnCommandTests.java: `queries=` with
  {"q1":{"query":..,"limit":3},"q0":{"query":..,"limit":3}} (no type: guessing the column's type);
- main/tests/server/src/com/google/refine/operations/recon/ExtendDataOperationTests.java: a form body
  `extend=<{"ids":[..],"properties":[{"id":..}]}>`, also with `"settings":{"count":"on","rank":"any"}` and
  `{"rank":"best"}` (settings this service does not declare, which it must ignore);
with Wikidata's ids replaced by this graph's.
"""

from __future__ import annotations

import json
from urllib.parse import quote_plus

import pytest

from tests.api.services.reconciliation_schemas import assert_valid
from tests.api.support import body

FORM = "application/x-www-form-urlencoded"


def openrefine_post(client, name: str, payload: dict, path: str = "/reconcile"):
    """A POST as OpenRefine's HttpClient.postNameValue sends it: one form field, URLEncoder-encoded."""
    return client.post(path, data=f"{name}={quote_plus(json.dumps(payload, separators=(',', ':')))}",
                       content_type=FORM)


def match_batch(client, *queries: dict) -> list[dict]:
    answer = body(client.post("/reconcile/1.0-draft/match", json={"queries": list(queries)}))
    assert_valid("1.0-draft", "reconciliation-result-batch", answer)
    return [result["candidates"] for result in answer["results"]]


def test_manifests_validate_and_name_their_spaces(client):
    manifest = body(client.get("/reconcile"))
    assert_valid("0.2", "manifest", manifest)
    assert manifest["identifierSpace"] == "https://kg.example.org/id/"
    assert manifest["schemaSpace"] == "https://kg.example.org/ontology#"
    assert "{{id}}" in manifest["view"]["url"] and "{{id}}" in manifest["preview"]["url"]
    assert {"entity", "type", "property"} <= set(manifest["suggest"])
    assert manifest["extend"]["propose_properties"]["service_path"] == "/propose_properties"
    draft = body(client.get("/reconcile/1.0-draft"))
    assert_valid("1.0-draft", "manifest", draft)
    assert draft["versions"] == ["1.0-draft"] and draft["suggest"] == {"entity": True, "type": True, "property": True}


def test_openrefines_batch_with_type_and_property(client):
    batch = {"q0": {"query": "Juan Guaido", "type": "Person",
                    "properties": [{"pid": "memberOf", "v": "National Assembly of Venezuela"}], "type_strict": "should"}}
    answer = body(openrefine_post(client, "queries", batch))
    assert_valid("0.2", "reconciliation-result-batch", answer)
    best = answer["q0"]["result"][0]
    assert best["id"] == "person/juan-guaido" and best["name"] == "Juan Guaidó" and best["match"] is True
    assert best["score"] == 100.0  # an alias, exactly, and the membership given
    assert {"id": "Person", "name": "person"} in best["type"]
    assert {f["id"]: f["value"] for f in best["features"]}["property:memberOf"] is True


def test_openrefines_type_guessing_batch_keeps_its_keys(client):
    answer = body(openrefine_post(client, "queries", {"q1": {"query": "Colombia", "limit": 3},
                                                      "q0": {"query": "Venezuela", "limit": 3}}))
    assert_valid("0.2", "reconciliation-result-batch", answer)
    assert list(answer) == ["q1", "q0"]
    assert answer["q1"]["result"][0]["id"] == "place/colombia"
    assert answer["q0"]["result"][0]["id"] == "place/venezuela"
    assert all(len(answer[key]["result"]) <= 3 for key in answer)
    assert {"id": "Country", "name": "country"} in answer["q0"]["result"][0]["type"]


def test_a_get_batch_with_jsonp(client):
    queries = json.dumps({"a": {"query": "Maduro"}})
    response = client.get("/reconcile", query_string={"queries": queries, "callback": "jQuery123_456"})
    assert response.status_code == 200 and response.mimetype == "application/javascript"
    text = response.get_data(as_text=True)
    assert text.startswith("/**/jQuery123_456(") and text.endswith(");\n")
    answer = json.loads(text[len("/**/jQuery123_456("):-3])
    assert_valid("0.2", "reconciliation-result-batch", answer)
    assert answer["a"]["result"][0]["id"] == "person/nicolas-maduro"
    refused = client.get("/reconcile", query_string={"queries": queries, "callback": "alert(1)//"})
    assert body(refused, 400)["error"]["detail"].startswith("'callback' must be")


@pytest.mark.parametrize(("text", "kind", "score"), [("Juan Guaidó", "pref", 100.0), ("guaido", "alt", 95.0),
                                                     ("Guiado", "hidden", 85.0)])
def test_exact_name_alias_and_misspelling_score_in_that_order(client, text, kind, score):
    [candidates] = match_batch(client, {"conditions": [{"matchType": "name", "propertyValue": text}]})
    best = candidates[0]
    assert best["id"] == "person/juan-guaido" and best["score"] == score
    assert best["match"] is (kind != "hidden")  # a misspelling is a candidate, never an automatic match


def test_a_prefix_is_a_candidate_not_a_match(client):
    [candidates] = match_batch(client, {"conditions": [{"matchType": "name", "propertyValue": "Guai"}]})
    assert candidates[0]["id"] == "person/juan-guaido"
    assert candidates[0]["match"] is False and candidates[0]["score"] < 85


def test_a_type_restricts_and_a_membership_decides(client):
    [people, bodies] = match_batch(
        client, {"conditions": [{"matchType": "name", "propertyValue": "Maduro"}], "type": "Person"},
        {"conditions": [{"matchType": "name", "propertyValue": "Maduro"}], "type": "Organization"})
    assert [c["id"] for c in people] == ["person/nicolas-maduro"]
    assert all("Organization" in [t["id"] for t in c["type"]] for c in bodies)
    assert "organization/maduro-government" in [c["id"] for c in bodies]
    [with_value, without] = match_batch(
        client, {"conditions": [{"matchType": "name", "propertyValue": "Juan Guaidó"},
                                {"matchType": "property", "propertyId": "memberOf",
                                 "propertyValue": {"id": "organization/venezuelan-opposition"}}]},
        {"conditions": [{"matchType": "name", "propertyValue": "Juan Guaidó"},
                        {"matchType": "property", "propertyId": "memberOf", "propertyValue": "UNHCR"}]})
    assert with_value[0]["match"] is True and with_value[0]["score"] == 100.0
    assert without[0]["match"] is False and without[0]["score"] == 70.0  # the name's share only


def test_a_required_property_leaves_out_who_lacks_it(client):
    [found] = match_batch(client, {"conditions": [
        {"matchType": "name", "propertyValue": "Guaidó"},
        {"matchType": "property", "propertyId": "memberOf", "propertyValue": "UNHCR", "required": True}]})
    assert found == []


def test_a_knowledge_base_id_given_as_a_property(client):
    answer = body(openrefine_post(client, "queries", {"q0": {"query": "", "properties": [
        {"pid": "owl:sameAs", "v": "Q717"}]}}))
    assert_valid("0.2", "reconciliation-result-batch", answer)
    [best] = answer["q0"]["result"]
    assert best["id"] == "place/venezuela" and best["score"] == 100.0


def test_an_id_condition(client):
    [found] = match_batch(client, {"conditions": [{"matchType": "id", "propertyValue": "person/juan-carlos-mora"}]})
    assert [c["id"] for c in found] == ["person/juan-carlos-mora"]


def test_suggest_entity_type_and_property_validate(client):
    for version, root, offset in (("0.2", "/reconcile", "cursor"), ("1.0-draft", "/reconcile/1.0-draft", "offset")):
        entities = body(client.get(f"{root}/suggest/entity", query_string={"prefix": "guai"}))
        assert_valid(version, "suggest-entities-response", entities)
        assert entities["result"][0]["id"] == "person/juan-guaido"
        assert entities["result"][0]["notable"] == [{"id": "Person", "name": "person"}]
        types = body(client.get(f"{root}/suggest/type", query_string={"prefix": "milit"}))
        assert_valid(version, "suggest-types-response", types)
        military = next(t for t in types["result"] if t["id"] == "MilitaryUnit")
        assert {"id": "Organization", "name": "organization"} in military["broader"]
        properties = body(client.get(f"{root}/suggest/property", query_string={"prefix": "member"}))
        assert_valid(version, "suggest-properties-response", properties)
        assert "memberOf" in [p["id"] for p in properties["result"]]
        second = body(client.get(f"{root}/suggest/entity", query_string={"prefix": "ven", offset: 1, "limit": 2}))
        first = body(client.get(f"{root}/suggest/entity", query_string={"prefix": "ven", "limit": 3}))
        assert second["result"] == first["result"][1:3]


def test_preview_and_flyout(client):
    for path in ("/reconcile/preview", "/reconcile/1.0-draft/preview"):
        page = client.get(path, query_string={"id": "person/juan-guaido"})
        assert page.status_code == 200 and page.mimetype == "text/html"
        text = page.get_data(as_text=True)
        assert "<h1><bdi>Juan Guaidó</bdi></h1>" in text and "person/juan-guaido" in text and "<script" not in text
        assert "frame-ancestors *" in page.headers["Content-Security-Policy"]
        assert "script-src" not in page.headers["Content-Security-Policy"]  # default-src 'none': no script runs
    flyout = body(client.get("/reconcile/flyout", query_string={"id": "person/juan-guaido"}))
    assert flyout["id"] == "person/juan-guaido" and "Juan Guaidó" in flyout["html"]
    missing = client.get("/reconcile/preview", query_string={"id": "person/nobody"})
    assert body(missing, 404)["error"]["detail"] == "no entity 'person/nobody'"


def test_openrefines_data_extension(client):
    for settings in ({}, {"settings": {"count": "on", "rank": "any"}}, {"settings": {"rank": "best"}}):
        query = {"ids": ["person/juan-guaido", "place/venezuela"],
                 "properties": [{"id": "memberOf", **settings}, {"id": "mentionCount"}]}
        answer = body(openrefine_post(client, "extend", query))
        assert_valid("0.2", "data-extension-response", answer)
        assert [m["id"] for m in answer["meta"]] == ["memberOf", "mentionCount"]
        rows = answer["rows"]
        assert {"id": "organization/national-assembly-of-venezuela", "name": "National Assembly of Venezuela"} in \
            rows["person/juan-guaido"]["memberOf"]
        assert rows["person/juan-guaido"]["mentionCount"] == [{"int": 21}]
        assert rows["place/venezuela"]["memberOf"] == []
    draft = body(client.post("/reconcile/1.0-draft/extend", json={"ids": ["person/juan-guaido"],
                                                                   "properties": [{"id": "memberOf", "settings": {"limit": 1}}]}))
    assert_valid("1.0-draft", "data-extension-response", draft)
    assert len(draft["rows"][0]["properties"][0]["values"]) == 1


def test_property_proposals(client):
    proposed = body(client.get("/reconcile/propose_properties", query_string={"type": "Person", "limit": 30}))
    assert_valid("0.2", "data-extension-property-proposal", proposed)
    assert proposed["type"] == "Person" and "memberOf" in [p["id"] for p in proposed["properties"]]
    draft = body(client.get("/reconcile/1.0-draft/extend/propose", query_string={"type": "Person", "limit": 5}))
    assert_valid("1.0-draft", "data-extension-property-proposal", draft)
    assert len(draft["properties"]) == 5


def test_errors_leave_in_the_one_shape(client, app):
    cap = app.config["MAX_BATCH"]
    too_many = {f"q{i}": {"query": "Maduro"} for i in range(cap + 1)}
    over = body(openrefine_post(client, "queries", too_many), 413)["error"]
    assert over["status"] == 413 and over["limit"] == cap and f"at most {cap}" in over["detail"]
    draft = client.post("/reconcile/1.0-draft/match",
                        json={"queries": [{"conditions": [{"matchType": "name", "propertyValue": "x"}]}] * (cap + 1)})
    assert body(draft, 413)["error"]["limit"] == cap
    broken = body(client.post("/reconcile", data={"queries": '{"q0": {"query": "x",}}'}), 400)["error"]
    assert broken["detail"].startswith("'queries' is not JSON") and broken["line"] == 1 and broken["column"] == 22
    unknown = body(openrefine_post(client, "queries", {"q0": {"query": "x", "type": "Q11424"}}), 400)["error"]
    assert "unknown type 'Q11424'" in unknown["detail"]
    wrong = body(client.post("/reconcile/1.0-draft/match", json={"queries": [{"query": "old format"}]}), 400)
    assert "conditions" in wrong["error"]["detail"]
    assert body(client.get("/reconcile/suggest/entity", query_string={"prefix": "x" * 501}), 400)["error"]["detail"] \
        == "'prefix' is 501 characters long; at most 500"


def test_the_query_page_shows_the_walkthroughs(client):
    page = client.get("/", headers={"Accept": "text/html"}).get_data(as_text=True)
    assert "<code>http://localhost/reconcile</code>" in page and "Add standard service" in page
    assert "<code>http://localhost/sparql</code>" in page and 'href="inception/profile"' in page
