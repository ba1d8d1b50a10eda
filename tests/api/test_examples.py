"""Every example query of the query page answers with rows on the shipped corpus."""

from __future__ import annotations

import json

import pytest

from api.examples import EXAMPLES
from kg.iris import PREFIXES


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.id)
def test_example_returns_rows(client, example):
    response = client.post("/sparql", data={"query": example.query})
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.headers["X-KG-Truncated"] == "false"
    rows = json.loads(response.data)["results"]["bindings"]
    assert len(rows) >= 2, f"{example.id} answers {len(rows)} rows"
    variables = json.loads(response.data)["head"]["vars"]
    filled = {v for row in rows for v in row}
    assert len(filled) >= 2, f"{example.id} binds only {filled} of {variables}"


def test_examples_declare_every_prefix():
    for example in EXAMPLES:
        for prefix, iri in PREFIXES.items():
            assert f"PREFIX {prefix}: <{iri}>" in example.query


def test_example_answers(client):
    """Spot checks that the examples answer their question, not just any rows."""
    def rows(example_id):
        example = next(e for e in EXAMPLES if e.id == example_id)
        data = client.post("/sparql", data={"query": example.query}).data
        return [{k: v["value"] for k, v in r.items()} for r in json.loads(data)["results"]["bindings"]]

    members = rows("membership")
    assert any(r.get("memberLabel") == "Juan Carlos Mora" for r in members)
    spellings = {r["person"]: r["spellings"].split(" | ") for r in rows("spellings")}
    assert {"Juan Guaidó", "Guaidó", "Guaido"} <= set(spellings["person/juan-guaido"])
    timeline = [r["date"] for r in rows("timeline")]
    assert timeline == sorted(timeline)
    figures = rows("figures")
    assert any(r.get("sourceLabel") for r in figures) and any(r.get("value") for r in figures)
    quotes = rows("quotes")
    assert all(r.get("quote") and r.get("article") for r in quotes)
