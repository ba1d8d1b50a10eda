"""`/graph` on a real HTTP server on 127.0.0.1: the build's own page, or one rendered from the store."""

from __future__ import annotations

import gzip
import html
import re
import shutil
import threading
from pathlib import Path

import pytest
import requests
from werkzeug.serving import make_server

from kg.api import create_app
from kg.api.app_state import app_state
from kg.model.iris import RDF_TYPE, RESOURCE
from kg.store import build_dirs
from kg.store.embedded import EmbeddedStore
from tests.helpers import generated_build
from tests.viz.support import DATA_BLOCK, publish_sample


@pytest.fixture
def serve():
    """Start the endpoint on a free loopback port for a data directory; stopped after the test."""
    servers = []

    def start(data_dir: Path) -> str:
        app = create_app({"DATA": str(data_dir), "WORKERS": 1, "QUERY_TIMEOUT": 20})
        server = make_server("127.0.0.1", 0, app, threaded=True)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        servers.append((server, thread, app))
        return f"http://127.0.0.1:{server.server_port}"

    yield start
    for server, thread, app in servers:
        server.shutdown()
        thread.join(timeout=10)
        app_state(app).close()


def test_serves_the_page_the_build_wrote(sample_data: Path, serve):
    base = serve(sample_data)
    response = requests.get(f"{base}/graph", timeout=30)
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/html")
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    built = build_dirs.current_build(sample_data) / build_dirs.VIEW_FILE
    assert response.content == built.read_bytes()
    assert_page_policy(response)
    again = requests.get(f"{base}/graph", headers={"If-None-Match": response.headers["ETag"]}, timeout=30)
    assert again.status_code == 304


def assert_page_policy(response: requests.Response) -> None:
    """The header is the page's own policy (its <meta>: two scripts by hash, nothing inline
    else) and forbids framing by other sites, which a <meta> cannot say."""
    policy = response.headers["Content-Security-Policy"]
    meta = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', response.text).group(1)
    assert policy == html.unescape(meta) + "; frame-ancestors 'self'"
    script_src = next(d for d in policy.split(";") if d.strip().startswith("script-src")).split()[1:]
    assert len(script_src) == 2 and all(s.startswith("'sha256-") for s in script_src), policy
    assert "default-src 'none'" in policy and "unsafe-eval" not in policy


def test_the_page_goes_compressed_to_clients_that_take_gzip(sample_data: Path, serve):
    stale = sample_data / "cache" / "a-build-removed-since" / "graph.html.gz"
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"old")
    base = serve(sample_data)
    built = build_dirs.current_build(sample_data) / build_dirs.VIEW_FILE
    packed = requests.get(f"{base}/graph", headers={"Accept-Encoding": "gzip"}, stream=True, timeout=30)
    assert packed.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed.headers["Vary"]
    body = packed.raw.read(decode_content=False)
    assert len(body) < built.stat().st_size and gzip.decompress(body) == built.read_bytes()
    plain = requests.get(f"{base}/graph", headers={"Accept-Encoding": "identity"}, timeout=30)
    assert "Content-Encoding" not in plain.headers and plain.content == built.read_bytes()
    assert packed.headers["ETag"] != plain.headers["ETag"]
    assert (sample_data / "cache" / built.parent.name / "graph.html.gz").is_file()
    assert not stale.parent.exists()  # the cache of a build that no longer exists is removed


def test_the_compressed_page_is_found_with_a_relative_data_directory(sample_data: Path, monkeypatch):
    monkeypatch.chdir(sample_data.parent)
    app = create_app({"DATA": sample_data.name, "WORKERS": 1})
    try:
        response = app.test_client().get("/graph", headers={"Accept-Encoding": "gzip"})
        assert response.status_code == 200 and response.headers["Content-Encoding"] == "gzip"
        built = build_dirs.current_build(sample_data) / build_dirs.VIEW_FILE
        assert gzip.decompress(response.get_data()) == built.read_bytes()
    finally:
        app_state(app).close()


def test_renders_from_the_store_when_the_build_has_no_page(tmp_path: Path, serve):
    data = tmp_path / "data"
    publish_sample(data, with_view=False)
    base = serve(data)
    response = requests.get(f"{base}/graph?focus=person/juan-guaido&depth=2", timeout=60)
    assert response.status_code == 200
    assert '"nodes":11' in DATA_BLOCK.search(response.text).group(1)
    assert "<script>window.__pwned" not in response.text
    assert_page_policy(response)


def test_no_build_is_a_503_in_the_api_error_shape(tmp_path: Path, serve):
    base = serve(tmp_path / "nothing")
    response = requests.get(f"{base}/graph", timeout=30)
    assert response.status_code == 503
    assert "kg build" in response.json()["error"]["detail"]


@pytest.mark.browser
def test_focus_link_on_the_server(sample_data: Path, serve, page, sample_graph):
    base = serve(sample_data)
    page.open(f"{base}/graph?focus=kgr:person/juan-carlos-mora&depth=1")
    state = page.page.evaluate("kgView.state()")
    assert state["focus"]["id"] == "https://kg.example.org/id/person/juan-carlos-mora"
    mora = state["focus"]["id"]
    linked = {RESOURCE + k for k in ("organization/venezuelan-national-guard", "place/venezuela", "place/cucuta")}
    assert set(state["visible"]) == {mora} | linked  # the actors Mora is linked to (the Guard, the defection's places)
    assert page.errors == [] and page.blocked == []


@pytest.mark.browser
def test_the_served_view_draws_under_its_policy_header(sample_data: Path, serve, strict_page):
    """Chromium honouring the header (and the page's <meta>): the view draws, nothing is blocked,
    and an inline script the page did not bring does not run."""
    base = serve(sample_data)
    with strict_page.page.expect_response(f"{base}/graph") as sent:
        strict_page.open(f"{base}/graph")
    assert "frame-ancestors 'self'" in sent.value.headers["content-security-policy"]
    assert strict_page.page.evaluate("network.body.data.nodes.length") == 7
    assert strict_page.errors == [] and strict_page.blocked == []
    assert not strict_page.inline_script_runs(), "an inline script without the page's hash ran"


NEIGHBOURS_OF = """PREFIX kgo: <https://kg.example.org/ontology#>
SELECT DISTINCT ?n WHERE {
  VALUES ?c { kgo:Person kgo:Group kgo:Organization kgo:Place kgo:Date kgo:Figure kgo:Quote kgo:Event }
  { <NODE> ?p ?n } UNION { ?n ?p <NODE> } ?n a ?c }"""


@pytest.fixture
def capped_data(shipped_data: Path, tmp_path: Path, monkeypatch) -> Path:
    """A copy of the shipped corpus's build whose page holds only its overview of 60 nodes."""
    return capped_copy(shipped_data, tmp_path, monkeypatch, 60)


@pytest.fixture(scope="module")
def generated_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A build of 30 generated articles: events stated by articles other than those that mention a node."""
    return generated_build(tmp_path_factory.mktemp("view-generated"), 30, 5)


@pytest.fixture
def capped_generated(generated_data: Path, tmp_path: Path, monkeypatch) -> Path:
    """A copy of the generated build whose page holds only its overview of 10 nodes."""
    return capped_copy(generated_data, tmp_path, monkeypatch, 10)


def capped_copy(source: Path, tmp_path: Path, monkeypatch, nodes: int) -> Path:
    """A copy of the data directory `source` (without its page), served with a page of `nodes` nodes."""
    data = tmp_path / "data"
    shutil.copytree(source, data, symlinks=True, ignore=shutil.ignore_patterns("*.lock", "graph.html*"))
    monkeypatch.setenv("KG_VIEW_NODES", str(nodes))
    return data


def neighbours_in_store(data: Path, node: str) -> set[str]:
    store = EmbeddedStore(build_dirs.store_path(build_dirs.current_build(data)), read_only=True)
    try:
        return {r["n"] for r in store.select(NEIGHBOURS_OF.replace("NODE", node))}
    finally:
        store.close()


def test_the_neighbours_route_answers_the_page_data_of_a_node(capped_data: Path, serve):
    base = serve(capped_data)
    node = RESOURCE + "person/juan-guaido"
    response = requests.get(f"{base}/graph/neighbours", params={"node": node}, timeout=120)
    assert response.status_code == 200 and response.headers["Content-Type"] == "application/json"
    assert not set("<>&") & set(response.text)
    block = response.json()
    ids = {n["id"] for n in block["nodes"]}
    assert node in ids and neighbours_in_store(capped_data, node) <= ids
    assert all("x" not in n for n in block["nodes"])  # the page places them
    assert {"edges", "relations", "nodeDetails", "sentences", "docs"} <= set(block)
    # the sentences of the node asked about only (its panel); the others' are fetched on a click
    about = [r for r in block["relations"] if node in (block["nodes"][r["from"]]["id"], block["nodes"][r["to"]]["id"])]
    assert about and all(r["sentences"] is not None for r in about)
    assert block["nodeDetails"][node]["sentences"] and len(block["relations"]) > len(about)
    assert all(r["sentences"] is None for r in block["relations"] if r not in about)
    assert all(d["sentences"] is None for iri, d in block["nodeDetails"].items() if iri != node)
    missing = requests.get(f"{base}/graph/neighbours", params={"node": "<script>"}, timeout=30)
    assert missing.status_code == 404 and missing.json()["error"]["status"] == 404
    assert "<script>" not in missing.text or missing.headers["Content-Type"] != "text/html"


STATED_BY = """PREFIX kgo: <https://kg.example.org/ontology#>
PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>
PREFIX nif: <http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#>
PREFIX dcterms: <http://purl.org/dc/terms/>
SELECT DISTINCT ?text ?doc ?title WHERE { ?st rdf:subject <S> ; rdf:predicate <P> ; rdf:object <O> ; kgo:evidence ?sent .
  ?sent nif:anchorOf ?text ; nif:referenceContext ?doc . ?doc dcterms:title ?title }"""
MENTIONED_IN = """PREFIX kgo: <https://kg.example.org/ontology#>
PREFIX nif: <http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#>
PREFIX dcterms: <http://purl.org/dc/terms/>
SELECT DISTINCT ?text ?doc ?title WHERE { ?m kgo:denotes <X> ; kgo:sentence ?sent .
  ?sent nif:anchorOf ?text ; nif:referenceContext ?doc . ?doc dcterms:title ?title }"""


def in_store(data: Path, query: str) -> set[tuple[str, str, str]]:
    """(sentence text, document IRI, document title) of `query`'s answers in the build's store."""
    store = EmbeddedStore(build_dirs.store_path(build_dirs.current_build(data)), read_only=True)
    try:
        return {(r["text"], r["doc"], r["title"]) for r in store.select(query)}
    finally:
        store.close()


def stated_by(data: Path, s: str, p: str, o: str) -> set[tuple[str, str, str]]:
    return in_store(data, STATED_BY.replace("<S>", f"<{s}>").replace("<P>", f"<{p}>").replace("<O>", f"<{o}>"))


def test_the_sources_route_answers_the_sentences_and_documents_behind_nodes_and_relations(capped_data: Path, serve):
    base = serve(capped_data)
    centre = RESOURCE + "person/juan-guaido"
    block = requests.get(f"{base}/graph/neighbours", params={"node": centre}, timeout=120).json()
    ids = [n["id"] for n in block["nodes"]]
    lacking = [[ids[r["from"]], r["predicate"], ids[r["to"]]] for r in block["relations"] if r["sentences"] is None]
    other = next(iri for iri, d in block["nodeDetails"].items() if d["sentences"] is None and d["mentions"])
    asked = {"nodes": [other, RESOURCE + "person/nobody"], "relations": lacking + [[centre, RDF_TYPE, other]]}
    response = requests.post(f"{base}/graph/sources", json=asked, timeout=60)
    assert response.status_code == 200 and response.headers["Content-Type"] == "application/json"
    answer = response.json()

    def cited(numbers: list[int]) -> set[tuple[str, str, str]]:
        docs = answer["docs"]
        return {(answer["sentences"][k]["text"], docs[answer["sentences"][k]["doc"]]["iri"],
                 docs[answer["sentences"][k]["doc"]]["title"]) for k in numbers}

    assert len(answer["relations"]) == len(asked["relations"]) and answer["relations"][-1] == []
    for (s, p, o), numbers in zip(lacking, answer["relations"]):
        assert numbers and cited(numbers) <= stated_by(capped_data, s, p, o), (s, p, o)
    assert set(answer["mentions"]) == {other}
    assert cited(answer["mentions"][other]) <= in_store(capped_data, MENTIONED_IN.replace("<X>", f"<{other}>"))
    for wrong in ({"nodes": "x"}, {"relations": [["a", "b"]]}, {"nodes": ["a"] * 51}, [1]):
        refused = requests.post(f"{base}/graph/sources", json=wrong, timeout=30)
        assert refused.status_code == 400 and "expected a JSON object" in refused.json()["error"]["detail"], wrong


DOCUMENTS = """PREFIX kgo: <https://kg.example.org/ontology#>
PREFIX dcterms: <http://purl.org/dc/terms/>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
SELECT ?doc ?title ?date ?publisher WHERE { VALUES ?doc { DOCS } ?doc a kgo:NewsArticle ; dcterms:title ?title .
  OPTIONAL { ?doc dcterms:date ?date } OPTIONAL { ?doc kgo:publisher/skos:prefLabel ?publisher } }"""
EVENT_DOCS = """PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>
PREFIX kgo: <https://kg.example.org/ontology#>
PREFIX nif: <http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#>
PREFIX dcterms: <http://purl.org/dc/terms/>
SELECT DISTINCT ?title WHERE { ?st rdf:subject <EVENT> ; kgo:evidence ?sent .
  ?sent nif:referenceContext ?doc . ?doc dcterms:title ?title }"""


def documents_in_store(data: Path, docs: list[str]) -> dict[str, dict[str, str]]:
    """{document: {title, date, publisher}} of `docs` as the build's store gives them."""
    store = EmbeddedStore(build_dirs.store_path(build_dirs.current_build(data)), read_only=True)
    try:
        rows = store.select(DOCUMENTS.replace("DOCS", " ".join(f"<{d}>" for d in docs)))
    finally:
        store.close()
    return {r["doc"]: {"title": r["title"], "date": r.get("date", ""), "publisher": r.get("publisher", "")} for r in rows}


def test_a_block_lists_its_events_documents_by_reference_and_the_sources_route_completes_them(
        capped_generated: Path, serve):
    """A fetched block (here the best events) sends whole the documents its sentences and figures
    cite, and those its dated events alone list as references (their IRI); POST /graph/sources with
    `docs` answers each with its title, date and publisher as the store holds them."""
    base = serve(capped_generated)
    block = requests.get(f"{base}/graph/nodes", params={"family": "Event"}, timeout=120).json()
    listed = {k for day in block["timeline"] for event in day["events"] for k in event["docs"]}
    cited = {s["doc"] for s in block["sentences"]} | {row["doc"] for g in block["figures"] for row in g["rows"]}
    references = sorted(listed - cited)
    assert references and all(block["docs"][k] == {"iri": block["docs"][k]["iri"]} for k in references)
    assert all(block["docs"][k]["title"] for k in cited if k >= 0)
    asked = [block["docs"][k]["iri"] for k in references]
    answer = requests.post(f"{base}/graph/sources", json={"docs": asked + [RESOURCE + "nothing"]}, timeout=60).json()
    stored = documents_in_store(capped_generated, asked)
    assert {d["iri"]: {k: d[k] for k in ("title", "date", "publisher")} for d in answer["docs"]} == stored
    assert set(stored) == set(asked) and answer["sentences"] == [] and answer["relations"] == []
    refused = requests.post(f"{base}/graph/sources", json={"docs": ["a"] * 1001}, timeout=30)
    assert refused.status_code == 400 and "docs is not a list of IRIs" in refused.json()["error"]["detail"]


@pytest.mark.browser
def test_a_fetched_events_timeline_entry_names_the_articles_that_state_it(capped_generated: Path, serve,
                                                                         strict_page):
    """The dated events a fetch brought in (the legend's "+" of events) list their articles by
    reference; the timeline fetches them when it shows them, and each event names articles the
    store says state it."""
    base = serve(capped_generated)
    page = strict_page
    page.open(f"{base}/graph")
    held = set(page.page.evaluate("kgView.data.timeline.flatMap(d => d.events.map(e => e.id))"))
    page.page.evaluate("kgView.fetchSelection({family: 'Event'}, 'events')")
    page.page.evaluate("kgView.idle()")
    fetched = page.page.evaluate("""held => kgView.data.timeline.flatMap(d => d.events).filter(e => !held.includes(e.id)
        && e.docs.some(k => kgView.data.docs[k].title === undefined)).map(e => e.id)""", sorted(held))
    assert fetched, "the fetched events came with their articles whole"
    page.page.evaluate("kgView.openTab('timeline')")
    page.page.evaluate("kgView.idle()")
    assert any(url.endswith("/graph/sources") for url in page.requests)
    body = page.page.locator("#timeline-body")
    assert body.locator(".fetching").count() == 0
    for event in fetched:
        titles = body.locator(f'li.tl-event[data-node="{event}"] .from').first.get_attribute("title").split("\n")
        assert titles and set(titles) <= {t for (t,) in in_store_titles(capped_generated, event)}, event
    assert page.errors == [] and page.blocked == []


def in_store_titles(data: Path, event: str) -> set[tuple[str]]:
    store = EmbeddedStore(build_dirs.store_path(build_dirs.current_build(data)), read_only=True)
    try:
        return {(r["title"],) for r in store.select(EVENT_DOCS.replace("<EVENT>", f"<{event}>"))}
    finally:
        store.close()


@pytest.mark.browser
def test_a_fetched_nodes_panel_cites_the_sentence_and_document_of_every_fact_it_lists(capped_data: Path, serve,
                                                                                    strict_page):
    """A node a click brought in comes without its sentences; its panel fetches them and then
    shows, for every relation it lists and for its mentions, the sentences the store says state
    them and their article."""
    base = serve(capped_data)
    page = strict_page
    page.open(f"{base}/graph")
    centre = page.page.evaluate("kgView.data.nodes.filter(n => !n.layer && n.outside).sort((a, b) => b.outside - a.outside)[0].id")
    page.page.evaluate("id => kgView.selectNode(id)", centre)
    page.page.evaluate("kgView.idle()")
    fetched = page.page.evaluate("""() => kgView.data.nodes.map(n => n.id).filter(id => kgView.data.nodeDetails[id].sentences === null
        && kgView.data.nodeDetails[id].relations.some(i => kgView.data.relations[i].sentences === null))""")
    assert fetched, "the neighbours came with every sentence"
    node = fetched[0]
    page.page.evaluate("id => kgView.selectNode(id)", node)
    page.page.evaluate("kgView.idle()")
    page.drawn()
    assert any(url.endswith("/graph/sources") for url in page.requests)
    assert page.page.locator("#panel-body").get_attribute("data-node") == node
    assert page.page.locator("#panel-body .fetching").count() == 0
    show_every_item(page)
    assert_relations_cite_the_store(page, capped_data, node)
    mentioned = page.page.evaluate("id => kgView.data.nodeDetails[id].sentences.map(k => kgView.data.sentences[k].text)", node)
    assert mentioned and set(mentioned) <= {t for t, _, _ in in_store(capped_data, MENTIONED_IN.replace("<X>", f"<{node}>"))}
    assert page.errors == [] and page.blocked == []


def show_every_item(page) -> int:
    """Click each list's "show more" under the panel until every item is laid out; how many clicks."""
    clicks = 0
    while page.page.locator("#panel-body .list-more").count():
        page.page.locator("#panel-body .list-more").first.click()
        clicks += 1
    return clicks


def assert_relations_cite_the_store(page, data: Path, node: str) -> None:
    """The panel of `node` lists every relation of its data, each with the sentences (text and
    article) the page holds for it, which the store says state it."""
    listed = page.page.evaluate("""id => kgView.data.nodeDetails[id].relations.map(i => kgView.data.relations[i]).map(r =>
        [r.from, r.predicate, r.to, r.sentences.map(k => [kgView.data.sentences[k].text, kgView.data.docs[kgView.data.sentences[k].doc].iri,
                                                          kgView.data.docs[kgView.data.sentences[k].doc].title])])""", node)
    items = page.page.locator("#panel-body .relations li.relation")
    assert items.count() == len(listed) > 0
    for k, (s, p, o, said) in enumerate(listed):
        shown, stated = {tuple(x) for x in said}, stated_by(data, s, p, o)
        assert shown <= stated and bool(shown) == bool(stated), (s, p, o)
        quoted = items.nth(k).locator("blockquote").all_text_contents()
        assert sorted(quoted) == sorted(text for text, _, _ in said)
        assert all(title in cite for cite, (_, _, title) in zip(items.nth(k).locator("cite").all_text_contents(), said))


@pytest.mark.browser
def test_a_long_panel_lays_out_its_first_relations_and_the_rest_on_scroll_or_click(capped_data: Path, serve,
                                                                                 strict_page):
    """The panel of a node with more relations than a screenful lays out the first of them; the
    others come as the visitor scrolls to the list's end or clicks under it, until every relation
    the node has is listed with the sentences the store says state it."""
    base = serve(capped_data)
    page = strict_page
    page.open(f"{base}/graph")
    node = RESOURCE + "person/juan-guaido"
    page.page.evaluate("id => kgView.selectNode(id)", node)
    page.page.evaluate("kgView.idle()")
    page.drawn()
    relations = page.page.evaluate("id => kgView.data.nodeDetails[id].relations.length", node)
    items = page.page.locator("#panel-body .relations li.relation")
    first = items.count()
    assert 0 < first < relations, "the panel laid out every relation at once"
    assert page.page.locator("#panel-body .relations .list-more").count() == 1
    page.page.evaluate("() => { const p = document.getElementById('panel'); p.scrollTop = p.scrollHeight; }")
    page.page.wait_for_function("n => document.querySelectorAll('#panel-body .relations li.relation').length > n", arg=first,
                                timeout=15_000)
    show_every_item(page)
    assert page.page.locator("#panel-body .list-more").count() == 0
    assert_relations_cite_the_store(page, capped_data, node)
    page.page.evaluate("id => kgView.selectNode(id)", node)  # the same panel drawn again keeps what was shown
    assert items.count() == relations
    assert page.errors == [] and page.blocked == []


@pytest.mark.browser
def test_a_served_page_fetches_the_neighbours_it_lacks_and_a_file_does_not(capped_data: Path, serve, strict_page):
    """Served by `kg serve`, a page holding part of a graph fetches a clicked node's other
    neighbours (under its own CSP: connect-src 'self'); the same page as a file keeps to its data."""
    base = serve(capped_data)
    page = strict_page
    page.open(f"{base}/graph")
    held = set(page.page.evaluate("kgView.data.nodes.map(n => n.id)"))
    assert len(held) == 60
    node = page.page.evaluate("kgView.data.nodes.filter(n => !n.layer && n.outside).sort((a, b) => b.outside - a.outside)[0].id")
    wanted = neighbours_in_store(capped_data, node)
    assert wanted - held
    page.page.evaluate("id => kgView.selectNode(id)", node)
    page.page.evaluate("kgView.idle()")
    page.drawn()
    now = set(page.page.evaluate("kgView.data.nodes.map(n => n.id)"))
    assert wanted <= now
    assert any("/graph/neighbours?node=" in url for url in page.requests)
    drawn = set(page.page.evaluate("kgView.state().visible"))
    assert drawn & (wanted - held), "no fetched neighbour is drawn"
    assert page.page.locator("#panel-body h2").text_content()
    assert page.errors == [] and page.blocked == []

    offline = build_dirs.current_build(capped_data) / build_dirs.VIEW_FILE
    page.requests.clear()
    page.open(offline.as_uri())
    page.page.evaluate("id => kgView.selectNode(id)", node)
    page.page.evaluate("kgView.idle()")
    assert set(page.page.evaluate("kgView.data.nodes.map(n => n.id)")) == held
    assert all(url.startswith("file:") for url in page.requests)
    assert page.errors == []


@pytest.mark.browser
def test_a_served_overview_brings_what_a_visitor_asks_for(capped_data: Path, serve, strict_page):
    """The page of a graph over `view_nodes` holds its overview; served, a search hit it lacks, a
    legend entry's "+", a day of the timeline and an article each fetch what they select, and it
    lands on the canvas; as a file, the page says how to see the rest."""
    base = serve(capped_data)
    page = strict_page
    page.open(f"{base}/graph")
    assert page.page.evaluate("kgView.partial && kgView.served")
    held = set(page.page.evaluate("kgView.data.nodes.map(n => n.id)"))
    assert len(held) == 60 and "overview" in page.page.locator("#status").text_content()
    stranger = next(n for n in everything(capped_data) if n not in held and "/person/" in n)
    name = page.page.evaluate("iri => fetch('/api/search?q=' + encodeURIComponent(iri.split('/').pop().replace(/-/g, ' ')))"
                              ".then(r => r.json()).then(a => (a.items.find(i => i.iri === iri) || {}).label)", stranger)
    assert name
    page.page.fill("#search", name)
    remote = page.page.locator(f'#results button[data-node="{stranger}"][data-remote="true"]')
    remote.wait_for(timeout=15_000)
    remote.click()
    page.page.wait_for_function("id => network.body.data.nodes.get(id) !== null", arg=stranger, timeout=15_000)
    page.page.evaluate("kgView.idle()")
    assert page.page.locator("#panel-body h2").text_content() == name

    before = page.page.evaluate("kgView.data.nodes.length")
    page.page.locator("#legend-list .more-of").first.click()
    page.page.evaluate("kgView.idle()")
    assert page.page.evaluate("kgView.data.nodes.length") > before
    assert any("/graph/nodes?family=" in url for url in page.requests)

    page.page.evaluate("kgView.openTab('timeline')")
    day = page.page.evaluate("kgView.data.timelineSummary.find(d => d.count > kgView.data.timeline.filter(t => t.date === d.date)"
                             ".reduce((n, t) => n + t.events.length, 0))")
    if day:
        page.page.evaluate("date => kgView.showDay(date)", day["date"])
        page.page.evaluate("kgView.idle()")
        assert page.page.evaluate("kgView.state().focus.date") == day["date"]
        shown = page.page.evaluate("date => kgView.data.timeline.find(d => d.date === date).events.length", day["date"])
        assert shown == day["count"]
    assert page.errors == [] and page.blocked == []

    offline = build_dirs.current_build(capped_data) / build_dirs.VIEW_FILE
    page.open(offline.as_uri())
    assert "kg serve" in page.page.locator("#status").text_content()
    assert page.page.locator("#legend-list .more-of").count() == 0


def everything(data: Path) -> list[str]:
    store = EmbeddedStore(build_dirs.store_path(build_dirs.current_build(data)), read_only=True)
    try:
        return sorted(r["x"] for r in store.select(
            "SELECT DISTINCT ?x WHERE { GRAPH <https://kg.example.org/graph/entities> { ?x a ?c } }"))
    finally:
        store.close()


def test_a_new_server_opens_the_view_index_before_its_first_visitor(shipped_data: Path):
    """The kept index is opened (and its checksum verified: a whole read of the file) by the app as
    it starts, not by the first `/graph/neighbours`; a request meanwhile waits for it."""
    import time

    app = create_app({"DATA": str(shipped_data), "WORKERS": 1, "QUERY_TIMEOUT": 20})
    try:
        state = app_state(app)
        version = f"{state.backend.kind}:{build_dirs.require_current_build(shipped_data).name}"
        deadline = time.monotonic() + 60
        while state.view.get("index", version) is None and time.monotonic() < deadline:
            time.sleep(0.05)
        index = state.view.get("index", version)
        assert index is not None and len(index) > 100
        node = index.overview()[0]
        answer = app.test_client().get("/graph/neighbours", query_string={"node": node})
        assert answer.status_code == 200 and state.view.get("index", version) is index
    finally:
        app_state(app).close()
