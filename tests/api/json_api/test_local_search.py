"""Things local to one document (kg.model.entities.resolve: descriptions, a caseless script's single
mentions) are found by the search index (kg.publish.search_index) as local results tied to their
document: /api/search marks them `local` with the document's id and href and ranks them after every
shared entity, whatever their text; reconciliation and INCEpTION's full-text search never offer them
(a description of one article is no thing to link another's mention to); an incremental build keeps
them right (a changed document's local things replaced, a removed document's gone), as a full build of
the same corpus has them."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Iterator

import pytest
import requests

from kg.pipeline.builder import build
from kg.publish.search import RANKS, read_index
from kg.publish.search_index import index_path
from kg.store import build_dirs
from kg.testing.servers import Server
from tests.api.support import body
from tests.helpers import shared_corpus

PUBLIC = Path(__file__).resolve().parents[2] / "data" / "public"
TIMEOUT = 60
SHORTAGES = "https://kg.example.org/doc/shortages"
EMBARGO = "https://kg.example.org/doc/embargo"


@pytest.fixture(scope="module")
def sanskrit(tmp_path_factory) -> Iterator[Server]:
    """ullekhanam unedited: each passage annotated once, in a script without case, is local."""
    data = tmp_path_factory.mktemp("ullekhanam") / "data"
    build(PUBLIC / "ullekhanam", data)
    server = Server(data, "--workers", "1", "--threads", "4")
    try:
        yield server
    finally:
        server.stop()


def _search(server: Server, text: str) -> list[dict]:
    response = requests.get(server.url + "api/search", params={"q": text}, timeout=TIMEOUT)
    assert response.status_code == 200, response.text
    return response.json()["items"]


def test_a_caseless_scripts_local_passages_are_found_tied_to_their_document(sanskrit: Server) -> None:
    items = _search(sanskrit, "गन्धवती")
    assert [item["label"] for item in items] == ["तत्र गन्धवती पृथिवी"]
    assert items[0]["local"] is True and items[0]["rank"] == "word"
    assert items[0]["document"]["id"] == "tarka-sangrahaH/tarka-sangraha-1-10"
    assert requests.get(sanskrit.url + items[0]["document"]["href"].lstrip("/"), timeout=TIMEOUT).status_code == 200


def _corpus(root: Path) -> Path:
    """Two documents of the commodity-news corpus, with its configuration."""
    published = shared_corpus("brat-commodity-news")
    corpus = root / "corpus"
    corpus.mkdir()
    for name in ("annotation.conf", "tools.conf", "visual.conf", "embargo.txt", "embargo.ann",
                 "shortages.txt", "shortages.ann"):
        shutil.copy(published / name, corpus / name)
    return corpus


def _rows(data: Path) -> set[tuple]:
    """Every entity row of the current build's index with its labels."""
    db = sqlite3.connect(index_path(build_dirs.current_build(data)))
    try:
        return set(db.execute("SELECT e.iri, e.document, e.label, e.types, e.mentions, l.label, l.kind "
                              "FROM entities e JOIN labels l ON l.entity = e.id"))
    finally:
        db.close()


def _local_hits(data: Path, text: str) -> list[tuple[str, str | None]]:
    index = read_index(build_dirs.current_build(data))
    return sorted((hit.label, hit.document) for hit in index.search(text, 50))


def test_descriptions_are_local_results_and_an_incremental_build_keeps_them_right(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path)
    data = tmp_path / "data"
    build(corpus, data)
    assert ("light sweet crudes", SHORTAGES) in _local_hits(data, "light sweet crudes")
    assert any(document == EMBARGO for _, document in _local_hits(data, "oil"))
    shale = _local_hits(data, "shale").count(("shale", SHORTAGES))
    text = (corpus / "shortages.txt").read_text(encoding="utf-8")
    begin = text.index("shale")
    with (corpus / "shortages.ann").open("a", encoding="utf-8") as ann:
        ann.write(f"T9999\tCommodity {begin} {begin + 5}\tshale\n")
    (corpus / "embargo.txt").unlink()
    (corpus / "embargo.ann").unlink()
    report = build(corpus, data)
    assert report.mode.value != "full"
    assert _local_hits(data, "shale").count(("shale", SHORTAGES)) == shale + 1  # the changed document's new thing
    assert not any(document == EMBARGO for _, document in _local_hits(data, "oil"))  # the removed one's gone
    assert _local_hits(data, "light sweet crudes").count(("light sweet crudes", SHORTAGES)) == 1
    full = tmp_path / "full"
    build(corpus, full)
    assert _rows(data) == _rows(full)


# on the shipped corpus, words of shared entities' names and of local things ("military members",
# "the Colombian police", "border guard")
NEEDLES = ("military", "guard", "venezuelan", "colombia", "forces")


def _items(client, text: str) -> list[dict]:
    return body(client.get("/api/search", query_string={"q": text, "limit": 100}))["items"]


@pytest.mark.parametrize("text", NEEDLES)
def test_local_results_rank_after_every_shared_entity(client, text: str) -> None:
    items = _items(client, text)
    sides = [item.get("local", False) for item in items]
    assert True in sides and False in sides, items  # both sides found
    assert sides == sorted(sides), [(item["label"], item.get("local")) for item in items]
    for side in (False, True):  # within each side, by how well the text matches
        ranks = [RANKS.index(item["rank"]) for item in items if item.get("local", False) is side]
        assert ranks == sorted(ranks), (side, items)


@pytest.mark.parametrize("text", ["military", "venezuelan", "colombia"])
def test_a_local_prefix_ranks_after_a_shared_word(client, text: str) -> None:
    """What the text alone would put first (a local thing's label starting with the needle) comes after
    the shared entities that only have it as a later word: the order of sides is not the text's."""
    items = _items(client, text)
    first_local = next(i for i, item in enumerate(items) if item.get("local"))
    assert items[first_local]["rank"] == "prefix"
    assert items[first_local - 1]["rank"] == "word" and not items[first_local - 1].get("local"), items


def _locals(client, text: str) -> dict[str, dict]:
    """The local results /api/search gives for `text`, by id."""
    return {item["id"]: item for item in _items(client, text) if item.get("local")}


def _match(client, text: str) -> set[str]:
    query = {"conditions": [{"matchType": "name", "propertyValue": text}], "limit": 100}
    answer = body(client.post("/reconcile/1.0-draft/match", json={"queries": [query]}))
    return {candidate["id"] for candidate in answer["results"][0]["candidates"]}


@pytest.mark.parametrize("text", ["military", "Colombian police", "border guard"])
def test_reconciliation_offers_shared_entities_only(client, text: str) -> None:
    local = _locals(client, text)
    assert local, text  # what the search finds as local results
    assert not _match(client, text) & set(local)
    for root in ("/reconcile", "/reconcile/1.0-draft"):
        suggested = body(client.get(f"{root}/suggest/entity", query_string={"prefix": text, "limit": 100}))
        assert not {item["id"] for item in suggested["result"]} & set(local), root
    assert _match(client, "military")  # the shared entities with the word are offered


def test_inceptions_full_text_search_offers_shared_entities_only(client) -> None:
    local = {item["iri"] for item in _locals(client, "military").values()}
    assert local
    query = ('PREFIX text: <http://jena.apache.org/text#>\n'
             'SELECT ?s ?m WHERE { ( ?s ?sc ?m ) text:query ( ?p "military" 2000 ) }')
    response = client.post("/sparql", data={"query": query}, headers={"Accept": "application/sparql-results+json"})
    assert response.status_code == 200, response.get_data(as_text=True)
    found = {b["s"]["value"] for b in json.loads(response.data)["results"]["bindings"]}
    assert found and not found & local, found
