"""`kg serve --watch`: a real server, a real file change, and the new graph answered.

The server (a child process on 127.0.0.1) builds a copy of the two-document
test corpus, then an annotator "saves" an article: its text gains a
sentence and its .ann a mention. Without any other action the server must
answer a query that sees the new mention, from a new build; a broken save
must leave the served build answering.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import requests

from kg.model.iris import PREFIXES
from kg.testing.servers import Server

TIMEOUT = 120.0
ASK_NEW_MENTION = ("ASK { ?m <" + PREFIXES["nif"] + "anchorOf> \"Pedro Gomez\" ; <"
                   + PREFIXES["kgo"] + "denotes> ?e }")


@pytest.fixture
def watched(tiny_copy: Path, tmp_path: Path):
    server = Server(tmp_path / "data", "--corpus", str(tiny_copy), "--watch", "--workers", "1")
    yield tiny_copy, server
    server.stop()


def _ask(server: Server, sparql: str) -> bool:
    response = requests.get(server.url + "sparql", params={"query": sparql},
                            headers={"Accept": "application/sparql-results+json"}, timeout=30)
    assert response.status_code == 200, response.text
    return response.json()["boolean"]


def _build(server: Server) -> str:
    return requests.get(server.url + "health", timeout=30).json()["build"]


def _wait_for(condition, timeout: float = TIMEOUT) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return condition()


def _save_new_mention(corpus: Path) -> None:
    """What brat does when an annotator adds a sentence and marks a person in it."""
    txt, ann = corpus / "alpha.txt", corpus / "alpha.ann"
    text = txt.read_text(encoding="utf-8")
    start = len(text)
    txt.write_text(text + "Pedro Gomez agreed.\n", encoding="utf-8")
    ann.write_text(ann.read_text(encoding="utf-8") + f"T99\tPerson {start} {start + 11}\tPedro Gomez\n",
                   encoding="utf-8")


def test_a_saved_annotation_is_answered_without_a_restart(watched) -> None:
    corpus, server = watched
    first = _build(server)
    assert not _ask(server, ASK_NEW_MENTION)
    _save_new_mention(corpus)
    assert _wait_for(lambda: _ask(server, ASK_NEW_MENTION)), server.stderr()[-3000:]
    assert _build(server) != first
    assert "rebuilding" in server.stderr()


def test_a_broken_save_keeps_the_served_build(watched) -> None:
    corpus, server = watched
    first = _build(server)
    ann = corpus / "alpha.ann"
    ann.write_text(ann.read_text(encoding="utf-8") + "T98\tPerson 0 3\tNot the text\n", encoding="utf-8")
    assert _wait_for(lambda: "the build failed" in server.stderr()), server.stderr()[-3000:]
    assert "alpha.ann" in server.stderr()
    assert _build(server) == first
    assert _ask(server, "ASK { ?s ?p ?o }")


def test_the_query_page_offers_to_reload_after_a_rebuild(watched, browser) -> None:
    """Headless Chromium on the query page: the banner appears once the new build is served."""
    corpus, server = watched
    page = browser.new_page()
    try:
        page.goto(server.url)
        banner = page.locator("#new-build")
        page.wait_for_timeout(1000)  # the page has asked /health once
        assert banner.is_hidden()
        _save_new_mention(corpus)
        banner.wait_for(state="visible", timeout=TIMEOUT * 1000)
        banner.locator("button").click()
        page.wait_for_load_state()
        page.wait_for_timeout(1000)
        assert page.locator("#new-build").is_hidden()
    finally:
        page.close()


def _waiting_builds(server: Server) -> list[int]:
    """The server's child processes that wait to run the next build (kg.api.watch.warm_build)."""
    waiting = []
    for pid in server.children():
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:  # ended meanwhile
            continue
        if b"warm_build" in command:
            waiting.append(pid)
    return waiting


def _save_another_mention(corpus: Path) -> None:
    txt, ann = corpus / "beta.txt", corpus / "beta.ann"
    text = txt.read_text(encoding="utf-8")
    start = len(text)
    txt.write_text(text + "Zoe Quintana left.\n", encoding="utf-8")
    ann.write_text(ann.read_text(encoding="utf-8") + f"T97\tPerson {start} {start + 12}\tZoe Quintana\n", encoding="utf-8")


def test_each_save_is_built_by_the_process_waiting_for_it(watched) -> None:
    """A build process waits, imports done, for the next change; it builds that change (its own
    build directory carries its pid) and a new one waits for the change after; stopping the server
    ends the waiting one."""
    corpus, server = watched
    assert _wait_for(lambda: len(_waiting_builds(server)) == 1), server.stderr()[-3000:]
    first = _waiting_builds(server)[0]
    _save_new_mention(corpus)
    assert _wait_for(lambda: _ask(server, ASK_NEW_MENTION)), server.stderr()[-3000:]
    assert f"-{first}-" in _build(server), "the save was not built by the process that waited for it"
    assert _wait_for(lambda: len(_waiting_builds(server)) == 1 and _waiting_builds(server)[0] != first)
    second = _waiting_builds(server)[0]
    _save_another_mention(corpus)
    ask_second = ("ASK { ?m <" + PREFIXES["nif"] + "anchorOf> \"Zoe Quintana\" }")
    assert _wait_for(lambda: _ask(server, ask_second)), server.stderr()[-3000:]
    assert f"-{second}-" in _build(server), (second, _build(server), server.stderr()[-3000:])
    assert _ask(server, ASK_NEW_MENTION), "the second build lost the first save"
    waiting = _waiting_builds(server)
    server.stop()
    assert _wait_for(lambda: not [pid for pid in waiting if _running(pid)], 10), "a waiting build outlived the server"


def _running(pid: int) -> bool:
    """Whether the process exists and has not ended (an ended one may linger as a zombie until reaped)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.servers  # kg serve
def test_a_broken_save_is_built_once_until_the_next_change(tiny_copy: Path, tmp_path: Path) -> None:
    """A real watcher (in this process, real `kg build` children) on a corpus whose save is broken:
    one build, none while nothing changes (before, one every look: 6 builds in 10 s), then one
    again for the next save, broken or not."""
    from kg.api.watch import CorpusWatcher

    said: list[str] = []
    watcher = CorpusWatcher(tiny_copy, tmp_path / "data", interval=0.2, quiet=0.2, log=said.append)
    ann = tiny_copy / "alpha.ann"

    def builds() -> int:
        return sum("rebuilding" in line for line in said)

    watcher.start()
    try:
        time.sleep(1.0)  # the watcher has taken its first look
        ann.write_text(ann.read_text(encoding="utf-8") + "T98\tPerson 0 3\tNot the text\n", encoding="utf-8")
        assert _wait_for(lambda: any("the build failed" in line for line in said)), said
        time.sleep(3.0)  # 15 looks at the unchanged corpus
        assert builds() == 1, said
        ann.write_text(ann.read_text(encoding="utf-8") + "T97\tPerson 0 3\tStill not\n", encoding="utf-8")
        assert _wait_for(lambda: sum("the build failed" in line for line in said) == 2), said
        time.sleep(3.0)
        assert builds() == 2, said
    finally:
        watcher.stop()
