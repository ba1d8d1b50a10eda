"""The user's namespace: with a base IRI of their own (`kg build --base-iri`, KG_BASE_IRI), no IRI
under the default base is left in the store, the exports, the view or the API's answers, on our
corpus and on one of brat's example collections; only the ontology's own terms keep their fixed
namespace (kg.model.iris.ONTOLOGY_IRI). Changing the base rebuilds everything."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from kg.model import iris
from kg.store import build_dirs
from tests.brat_reference import brat_source
from tests.helpers import CORPUS, export_file, made_app, run_kg, store_quads, view_file

BASE = "https://news.example.net/kg/"
OTHER = "http://other.example.com/"
DEFAULT = iris.DEFAULT_BASE
EXAMPLES = brat_source().parent.parent / "example-data" / "corpora"


def stray(text: str) -> list[str]:
    """Places in `text` that name the default base other than through the ontology (its IRI, its terms)."""
    leftover = text.replace(iris.ONTOLOGY_IRI, "")
    found, start = [], leftover.find(DEFAULT)
    while start >= 0 and len(found) < 5:
        found.append(leftover[max(0, start - 60):start + 80])
        start = leftover.find(DEFAULT, start + 1)
    return found


def build(corpus: Path, data: Path, *args: str, env: dict[str, str] | None = None):
    from click.testing import CliRunner

    from kg.cli import main

    return CliRunner(env=env).invoke(main, ["build", "--corpus", str(corpus), "--data", str(data), "--quiet", *args],
                                     catch_exceptions=False)


@pytest.fixture(scope="module", params=[CORPUS, EXAMPLES / "NCBI-disease"], ids=["ours", "brat-NCBI-disease"])
def based(request, tmp_path_factory) -> Path:
    """A corpus built under BASE: the data directory."""
    work = tmp_path_factory.mktemp("based")
    shutil.copytree(request.param, work / "corpus")
    result = build(work / "corpus", work / "data", "--base-iri", BASE)
    assert result.exit_code == 0, result.output
    return work / "data"


def test_every_iri_in_the_store_is_under_the_base(based: Path) -> None:
    terms = {t.value for q in store_quads(based) for t in (q.subject, q.predicate, q.object, q.graph_name)
             if type(t).__name__ == "NamedNode"}
    assert any(t.startswith(BASE + "id/") for t in terms) and any(t.startswith(BASE + "doc/") for t in terms)
    assert BASE + "graph/entities" in terms and BASE + "graph/ontology" in terms
    assert not [t for t in terms if t.startswith(DEFAULT) and not t.startswith(iris.ONTOLOGY_IRI)]
    assert build_dirs.base_iri(build_dirs.current_build(based)) == BASE


@pytest.mark.parametrize("fmt", ["ttl", "trig", "nq", "jsonld"])
def test_exports_and_view_name_nothing_under_the_default_base(based: Path, fmt: str) -> None:
    """Exports and the view are written on first request, here outside any build: under the build's base."""
    text = export_file(based, fmt).read_text(encoding="utf-8")
    assert BASE in text and not stray(text)
    html = view_file(build_dirs.current_build(based)).read_text(encoding="utf-8")
    assert BASE in html and not stray(html)


def test_cli_query_abbreviates_with_the_builds_base(based: Path) -> None:
    result = run_kg("query", "--data", str(based), "SELECT ?g WHERE { GRAPH ?g { } } ORDER BY ?g LIMIT 3")
    assert result.exit_code == 0 and "kgg:" in result.stdout and not stray(result.stdout)
    full = run_kg("query", "--data", str(based), "--iris", "full", "SELECT ?g WHERE { GRAPH kgg:entities { } }")
    assert "kgg:entities" not in full.stdout and "1 rows" in full.stdout  # kgg: is the build's graph namespace
    turtle = run_kg("query", "--data", str(based), "CONSTRUCT { ?e ?p ?o } WHERE { GRAPH kgg:entities { ?e ?p ?o } } LIMIT 20")
    assert turtle.exit_code == 0 and BASE in turtle.stdout and not stray(turtle.stdout)


@pytest.fixture(scope="module")
def client(based: Path):
    with made_app({"DATA": str(based), "WORKERS": 1}) as app:
        yield app.test_client()


API_PATHS = ["/api/prefixes", "/api/entities?limit=20", "/api/documents", "/api/stats", "/examples.json",
             "/sparql", "/export.ttl", "/export.jsonld", "/context.jsonld"]


@pytest.mark.parametrize("path", API_PATHS)
def test_api_answers_under_the_base(client, path: str) -> None:
    response = client.get(path, headers={"Accept": "text/turtle"} if path == "/sparql" else {})
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    text = response.get_data(as_text=True)
    assert not stray(text), stray(text)
    if path in ("/api/prefixes", "/sparql", "/export.ttl", "/context.jsonld"):
        assert BASE in text


def test_sparql_prefixes_and_entity_ids_follow_the_base(client) -> None:
    answer = client.get("/sparql", query_string={"query": "CONSTRUCT { ?e a ?t } WHERE { GRAPH kgg:entities { ?e a ?t } } LIMIT 10"},
                        headers={"Accept": "text/turtle"})
    text = answer.get_data(as_text=True)
    assert answer.status_code == 200 and f"<{BASE}id/>" in text and not stray(text)
    entities = client.get("/api/entities?limit=40").get_json()
    assert entities["items"] and all(e["iri"].startswith(BASE + "id/") for e in entities["items"])
    for item in entities["items"]:  # any family the build minted (NCBI-disease's disease/...)
        detail = client.get(item["href"])
        assert detail.status_code == 200 and detail.get_json()["iri"] == item["iri"], item
        assert client.get(f"/api/neighbourhood/{item['id']}").status_code == 200
    family = entities["items"][0]["id"].partition("/")[0]
    assert client.get(f"/api/entities/{family}/no-such-thing").status_code == 404


def test_linked_data_and_json_ld_follow_the_base(client) -> None:
    """IRIs dereference at their path under the base; the JSON-LD is framed under the build's context
    and says what the Turtle says."""
    import rdflib
    from rdflib.compare import isomorphic

    entity = client.get("/api/entities?limit=1").get_json()["items"][0]["iri"]
    path = "/" + entity[len(BASE):]
    turtle = client.get(path, headers={"Accept": "text/turtle"})
    framed = client.get(path, headers={"Accept": "application/ld+json"})
    assert turtle.status_code == framed.status_code == 200
    assert isomorphic(rdflib.Graph().parse(data=framed.data, format="json-ld"),
                      rdflib.Graph().parse(data=turtle.data, format="turtle"))
    document = json.loads(framed.data)
    assert document["@context"] == client.get("/context.jsonld").get_json()["@context"]
    prefix, _, rest = document["@id"].partition(":")
    assert document["@context"][prefix] + rest == entity and not stray(framed.get_data(as_text=True))


def test_changing_the_base_rebuilds_everything(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    assert build(corpus, tmp_path / "data", "--base-iri", BASE).exit_code == 0
    again = build(corpus, tmp_path / "data", env={"KG_BASE_IRI": BASE})
    assert "unchanged" in again.output  # the same base, from the environment this time
    moved = build(corpus, tmp_path / "data", "--base-iri", OTHER)
    assert moved.exit_code == 0
    manifest = json.loads((build_dirs.current_build(tmp_path / "data") / build_dirs.MANIFEST_FILE).read_text())
    assert manifest["mode"] == "full" and manifest["base_iri"] == OTHER
    terms = {q.graph_name.value for q in store_quads(tmp_path / "data")}
    assert terms and all(t.startswith(OTHER + "graph/") for t in terms)


@pytest.mark.parametrize("bad", ["kg.example.org/", "ftp://example.org/", "https://example.org/kg",
                                 "https://example.org/k g/", "https://example.org/kg#"])
def test_a_base_that_cannot_prefix_iris_is_refused(tmp_path: Path, bad: str) -> None:
    shutil.copytree(CORPUS, tmp_path / "corpus")
    result = build(tmp_path / "corpus", tmp_path / "data", "--base-iri", bad)
    assert result.exit_code == 2
    assert "cannot prefix kg's IRIs (expected an absolute http or https IRI ending in '/'" in result.output
    assert build_dirs.current_build(tmp_path / "data") is None


def test_no_module_binds_a_namespace_of_the_base_at_import_time() -> None:
    """`from kg.model.iris import RESOURCE` would freeze the default base into a module: code reads
    iris.RESOURCE (or iris.current()) when it runs."""
    dynamic = "|".join(["BASE", "VOCABULARY", "RESOURCE", "DOCUMENT", "GRAPH", "ENTITIES_GRAPH", "ONTOLOGY_GRAPH",
                        "PREFIXES"])
    pattern = re.compile(rf"from kg\.iris import [^\n]*\b({dynamic})\b")
    root = Path(iris.__file__).resolve().parent.parent
    offenders = [str(p.relative_to(root)) for folder in ("kg", "api", "viz") for p in (root / folder).rglob("*.py")
                 if pattern.search(p.read_text(encoding="utf-8"))]
    assert offenders == []
