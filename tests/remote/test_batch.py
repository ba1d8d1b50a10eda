"""Many graphs per request (kg.store.remote.batch), against the real engines of tests/remote/conftest.py.

What a batched push leaves in the store is the local build, graph by graph (isomorphism when a
blank node occurs): the shipped corpus with a document of hard text (quotes, backslashes,
newlines, non-BMP characters, right-to-left scripts), graphs of literals no brat document makes
(a NUL, control characters, a literal larger than a request), blank nodes with the same label
in two graphs, IRIs with unusual characters; with bounds so small that batches end mid-way
through the build and large graphs are cut into several GRAPH blocks. A push that fails
mid-way leaves the previous build published, and the next build pushes again."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pyoxigraph as ox
import pytest

from kg.errors import StoreError
from kg.pipeline.builder import build
from kg.store import build_dirs
from kg.store.embedded import EmbeddedStore
from kg.store.remote import ENGINES, RemoteStore
from kg.store.remote.batch import Batch, Batching, batches
from kg.store.remote.engines import VIRTUOSO_BATCHING
from kg.store.remote.push import push
from tests.helpers import assert_same_quads, edit_npr, store_quads
from tests.remote.test_stores import assert_holds, remote_quads

# bounds under which the shipped corpus makes batches of one and two graphs, GRAPH blocks, and PUTs
TINY = Batching(max_bytes=800_000, max_graphs=3, block_triples=50)
SMALL = Batching(max_bytes=50_000, max_graphs=2, block_triples=50)
HARD_TEXT = ('He said "stop" \\ then left.\nA path C:\\new\\u0041 and a tab\there.\n'
             'Emoji 😀 and 𝄞 beside עברית ו-العربية text, then Perro Loco.\n')
EX = "http://example.org/"


def hard_document(corpus: Path) -> None:
    """A document whose text and metadata hold what N-Triples and SPARQL escape differently."""
    text = HARD_TEXT
    (corpus / "zz-hard.txt").write_text(text, encoding="utf-8")
    spans = [("Person", "Perro Loco"), ("Organization", "العربية"), ("City", "עברית")]
    lines = [f"T{i}\t{kind} {text.index(word)} {text.index(word) + len(word)}\t{word}"
             for i, (kind, word) in enumerate(spans, 1)]
    (corpus / "zz-hard.ann").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (corpus / "zz-hard.json").write_text(json.dumps({"title": 'A "quoted" \\ title, ✓ and 𝔘'}), encoding="utf-8")


def batched(url: str, engine: str, batching: Batching = TINY) -> RemoteStore:
    """The store at `url` seen through its engine's profile with other batching bounds (and no bulk
    loader, which a full push from kg.nq would take instead: tests/remote/test_bulk.py)."""
    return RemoteStore.from_url(url, engine=dataclasses.replace(ENGINES[engine], batching=batching, bulk=""))


def test_the_shipped_corpus_and_hard_text_pushed_in_batches(engine, store_server, corpus_copy: Path,
                                                            tmp_path: Path) -> None:
    hard_document(corpus_copy)
    data = tmp_path / "data"
    build(corpus_copy, data, validate=False, store_url=store_server.url)  # the engine's own profile
    current = build_dirs.current_build(data)
    local = EmbeddedStore(build_dirs.store_path(current), read_only=True)
    sent = list(batches(((g, local.dump_graph(g, fmt="nt").encode()) for g in local.graphs()), TINY))
    assert sum(1 for b in sent if b.update) >= 2 and any(len(b.graphs) > 1 for b in sent)  # mid-way boundaries
    assert any(not b.update for b in sent)  # a graph larger than a request goes by PUT
    try:
        # the same build again in batches, from kg.nq and from the store
        for bounds, nquads in ((TINY, build_dirs.export_path(current, "nq")), (TINY, None),
                               (VIRTUOSO_BATCHING, build_dirs.export_path(current, "nq"))):
            remote = batched(store_server.url, engine, bounds)
            assert_holds(remote, data)
            remote.drop_graph(remote.graphs()[0])
            assert push(remote, local, current.name, nquads=nquads) == len(local.graphs())
            assert_holds(remote, data)
            remote.close()
    finally:
        local.close()


def hard_graphs() -> list[ox.Quad]:
    """Graphs no brat document makes: every control character, a NUL, a literal larger than a
    request, blank nodes labelled alike in two graphs, IRIs with unusual characters."""
    s, p = ox.NamedNode(EX + "s"), ox.NamedNode(EX + "p")
    literals = ["".join(map(chr, range(1, 32))) + "\x7f\x85\u2028\ufeff", "nul \x00 inside", 'q"uo\\te\\"d',
                "\\u0041 \\U0001F600 stays text", "x" * 20_000, "", "👩‍👩‍👧 עברית العربية हिन्दी 中文",
                "trailing backslash \\"]
    quads = [ox.Quad(s, p, ox.Literal(text), ox.NamedNode(EX + "literals")) for text in literals]
    quads.append(ox.Quad(s, p, ox.Literal("y" * 60_000), ox.NamedNode(EX + "huge")))  # more than a request
    quads += [ox.Quad(s, p, ox.Literal("مرحبا", language="ar"), ox.NamedNode(EX + "literals")),
              ox.Quad(s, p, ox.Literal("12", datatype=ox.NamedNode("http://www.w3.org/2001/XMLSchema#integer")),
                      ox.NamedNode(EX + "literals"))]
    for name in ("blank-a", "blank-b"):
        node, graph = ox.BlankNode("b1"), ox.NamedNode(EX + name)
        quads += [ox.Quad(node, p, ox.Literal(name), graph), ox.Quad(s, p, node, graph)]
    odd = ox.NamedNode(EX + "odd/%C3%A9t%C3%A9;a=b,c$d!e*f+g'(h)~i@j:k&l?m=n#frag-ü-ש")
    quads.append(ox.Quad(odd, p, odd, ox.NamedNode(EX + "iris/ü?x=1&y=2")))
    quads += [ox.Quad(s, ox.NamedNode(f"{EX}p{i}"), ox.Literal(str(i)), ox.NamedNode(EX + "many")) for i in range(130)]
    return quads


def test_hard_literals_blank_nodes_and_iris(engine, store_server, tmp_path: Path) -> None:
    local = EmbeddedStore(tmp_path / "local")
    quads = hard_graphs()
    local.load_nquads(ox.serialize(quads, format=ox.RdfFormat.N_QUADS))
    with batched(store_server.url, engine, SMALL) as remote:
        graphs = [(g, local.dump_graph(g, fmt="nt").encode()) for g in local.graphs()]
        assert [(b.graphs, bool(b.update)) for b in batches(graphs, SMALL)] == [
            ((EX + "blank-a",), False), ((EX + "blank-b",), False), ((EX + "huge",), False),
            ((EX + "iris/ü?x=1&y=2", EX + "literals"), True), ((EX + "many",), True)]
        assert push(remote, local, "hard") == 6
        assert remote.manifest(fresh=True).build == "hard"
        assert_same_quads(remote_quads(remote), quads, "hard graphs")
        # sent again over what the store holds: replaced, not added to
        assert push(remote, local, "hard-again") == 6
        assert_same_quads(remote_quads(remote), quads, "hard graphs pushed twice")
        local.close()


def test_a_push_failing_mid_way_leaves_the_previous_build_published(engine, store_server, corpus_copy: Path,
                                                                     tmp_path: Path, monkeypatch) -> None:
    """The server goes down after the second request of a push: the build is not published, the
    store's manifest no longer claims a complete build, and the next build pushes it all."""
    monkeypatch.setitem(ENGINES, engine, dataclasses.replace(ENGINES[engine], batching=TINY, bulk=""))
    data = tmp_path / "data"
    build(corpus_copy, data, validate=False, store_url=store_server.url)
    before = build_dirs.current_build(data)
    sent: list[Batch] = []
    replace_graphs = RemoteStore.replace_graphs

    def then_fail(self: RemoteStore, batch: Batch) -> None:
        sent.append(batch)
        if len(sent) == 2:
            store_server.stop()
        replace_graphs(self, batch)

    monkeypatch.setattr(RemoteStore, "replace_graphs", then_fail)
    edit_npr(corpus_copy)
    with pytest.raises(StoreError, match="not published"):
        build(corpus_copy, data, validate=False, store_url=store_server.url, full=True)
    assert build_dirs.current_build(data) == before and len(sent) >= 2
    monkeypatch.setattr(RemoteStore, "replace_graphs", replace_graphs)
    store_server.start()
    with batched(store_server.url, engine) as remote:
        assert remote.manifest(fresh=True).build == ""  # claimed, never completed
        report = build(corpus_copy, data, validate=False, store_url=store_server.url)
        assert report.mode == "incremental" and build_dirs.current_build(data) != before
        assert report.pushed == len(store_quads_graphs(data))  # the store held no complete build: all of it
        assert_holds(remote, data)


def test_batches_at_virtuoso_bounds(engine, store_server, tmp_path: Path) -> None:
    """A request of VIRTUOSO_BATCHING's most graphs, and graphs cut into blocks of its most triples."""
    s = ox.NamedNode(EX + "s")
    quads = [ox.Quad(s, ox.NamedNode(f"{EX}p{i}"), ox.Literal(f"v{i}"), ox.NamedNode(f"{EX}small/{g}"))
             for g in range(VIRTUOSO_BATCHING.max_graphs) for i in range(2)]
    quads += [ox.Quad(s, ox.NamedNode(f"{EX}p{i}"), ox.Literal("é" * 40), ox.NamedNode(f"{EX}large/{g}"))
              for g in range(2) for i in range(VIRTUOSO_BATCHING.block_triples * 2 + 500)]
    local = EmbeddedStore(tmp_path / "local")
    local.load_nquads(ox.serialize(quads, format=ox.RdfFormat.N_QUADS))
    graphs = [(g, local.dump_graph(g, fmt="nt").encode()) for g in local.graphs()]
    shapes = [len(b.graphs) for b in batches(graphs, VIRTUOSO_BATCHING) if b.update]
    assert VIRTUOSO_BATCHING.max_graphs in shapes and len(graphs) == sum(shapes)
    with batched(store_server.url, engine, VIRTUOSO_BATCHING) as remote:
        push(remote, local, "bounds")
        assert_same_quads(remote_quads(remote), quads, "graphs at the bounds")
        local.close()


def store_quads_graphs(data: Path) -> set[str]:
    return {q.graph_name.value for q in store_quads(data)}


# -- the batches themselves -------------------------------------------------------------------

def graph(name: str, triples: int, text: str = "v") -> tuple[str, bytes]:
    return EX + name, b"".join(b'<%ss> <%sp%d> "%s" .\n' % (EX.encode(), EX.encode(), i, text.encode())
                               for i in range(triples))


def test_batches_hold_every_graph_once_within_the_bounds() -> None:
    graphs = [graph(f"g{i}-\u00e9t\u00e9-\u05e9", 40 + i) for i in range(20)] + [graph("big", 2_000)] + [graph("last", 3)]
    bounds = Batching(max_bytes=12_000, max_graphs=4, block_triples=25)
    sent = list(batches(graphs, bounds))
    assert sorted(g for b in sent for g in b.graphs) == sorted(name for name, _ in graphs)
    for b in sent:
        if b.update:
            assert len(b.update) <= bounds.max_bytes and len(b.graphs) <= bounds.max_graphs
            assert b.update.count(b"CLEAR SILENT GRAPH") == len(b.graphs) and b.update.count(b"INSERT DATA") == 1
            blocks = b.update.split(b"GRAPH <")[1 + len(b.graphs):]
            assert all(block.count(b"\n") - 2 <= bounds.block_triples for block in blocks)
        else:
            assert b.graphs == (EX + "big",) and b.ntriples == dict(graphs)[EX + "big"]
    assert len(sent) > 5
    assert [b.graphs for b in batches(graphs[:2], None)] == [(graphs[0][0],), (graphs[1][0],)]  # no batching: PUTs


def test_blank_nodes_and_nul_characters() -> None:
    name, body = graph("blank", 2)
    blank = (name, body + b'_:b1 <http://example.org/p> "x" .\n')
    nul = (EX + "nul", b'<http://example.org/s> <http://example.org/p> "a\x00b" .\n')
    sent = list(batches([graph("a", 2), blank, nul], Batching(max_bytes=10_000)))
    assert [(b.graphs, bool(b.update)) for b in sent] == [((EX + "blank",), False), ((EX + "a", EX + "nul"), True)]
    assert b'"a\\u0000b"' in sent[1].update and b"\x00" not in sent[1].update
