"""A rebuild swaps data/current while the server runs: the next request
answers from the new build, with no restart."""

from __future__ import annotations

import json
import shutil
import time

from kg.pipeline.builder import build
from kg.store import build_dirs
from tests.helpers import made_app

DOCS = "SELECT (COUNT(DISTINCT ?d) AS ?n) WHERE { ?d a <https://kg.example.org/ontology#NewsArticle> }"


def documents(client) -> int:
    response = client.get("/sparql", query_string={"query": DOCS})
    assert response.status_code == 200, response.get_data(as_text=True)
    return int(json.loads(response.data)["results"]["bindings"][0]["n"]["value"])


def test_swap_is_noticed(tmp_path, tiny_copy, corpus_copy):
    data = tmp_path / "data"
    build(tiny_copy, data)
    first = build_dirs.current_build(data)
    with made_app({"DATA": str(data), "WORKERS": 2}) as app:
        client = app.test_client()
        before = documents(client)
        stats_before = json.loads(client.get("/api/stats").data)
        assert stats_before["version"] == first.name
        assert json.loads(client.get("/api/search?q=guaido").data)["items"] == []

        for path in tiny_copy.iterdir():  # the next build is of the shipped corpus
            if path.suffix in (".txt", ".ann", ".json"):
                path.unlink()
        for path in corpus_copy.iterdir():
            shutil.copy(path, tiny_copy / path.name)
        build(tiny_copy, data)
        second = build_dirs.current_build(data)
        assert second != first

        # the old build answers until the new one is loaded, then the new one does
        seen = []
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and (not seen or seen[-1] != 4):
            seen.append(documents(client))
            time.sleep(0.05)
        assert set(seen) <= {before, 4} and seen[-1] == 4
        for _ in range(4):  # whichever worker serves, it is the new build
            assert documents(client) == 4 != before
        stats_after = json.loads(client.get("/api/stats").data)
        assert stats_after["version"] == second.name
        assert stats_after["counts"]["documents"] == 4
        items = json.loads(client.get("/api/search?q=guaido").data)["items"]
        assert items[0]["id"] == "person/juan-guaido"
        health = json.loads(client.get("/health").data)
        assert health["build"] == second.name and health["in_memory"] is True
