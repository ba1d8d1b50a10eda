"""A generated corpus builds cleanly with `kg build`, and its aliases, misspellings and
Equiv groups resolve to the canonical entities they were generated from."""

from __future__ import annotations

import statistics
import tomllib
from pathlib import Path

import pytest

from kg.model.iris import fragment_iri, resource_iri
from kg.store import build_dirs
from kg.store.embedded import EmbeddedStore


@pytest.fixture(scope="module")
def store(built: tuple[Path, Path]):
    _, data = built
    store = EmbeddedStore(build_dirs.store_path(build_dirs.current_build(data)), read_only=True)
    yield store
    store.close()


def _denotes(store: EmbeddedStore, slug: str, tid: str) -> str:
    rows = store.select(f"SELECT ?e WHERE {{ <{fragment_iri(slug, tid)}> <https://kg.example.org/ontology#denotes> ?e }}")
    assert len(rows) == 1, (slug, tid, rows)
    return rows[0]["e"]


def test_every_generated_document_is_an_article(built: tuple[Path, Path], store: EmbeddedStore) -> None:
    corpus, _ = built
    rows = store.select("SELECT (COUNT(?d) AS ?n) WHERE { ?d a <https://kg.example.org/ontology#NewsArticle> }")
    assert int(rows[0]["n"]) == len(list(corpus.glob("*.txt"))) == 20


def test_misspelled_mentions_resolve_to_the_entity_listing_the_misspelling(built, store) -> None:
    corpus, _ = built
    table = tomllib.loads((corpus / "aliases.toml").read_text(encoding="utf-8"))["entity"]
    owner = {h: e["key"] for e in table for h in e.get("hidden", [])}
    checked = 0
    for ann in corpus.glob("*.ann"):
        lines = ann.read_text(encoding="utf-8").splitlines()
        texts = {line.split("\t")[0]: line.split("\t")[2] for line in lines if line.startswith("T")}
        for line in lines:
            if line.startswith("#") and line.endswith("Misspelled in the source"):
                tid = line.split("\t")[1].split()[1]
                assert _denotes(store, ann.stem, tid) == resource_iri(owner[texts[tid]])
                checked += 1
    assert checked >= 2


def test_acronyms_in_equiv_groups_denote_the_same_entity_as_the_full_name(built, store) -> None:
    corpus, _ = built
    checked = 0
    for ann in corpus.glob("*.ann"):
        for line in ann.read_text(encoding="utf-8").splitlines():
            if line.startswith("*\tEquiv "):
                first, *others = line.split()[2:]
                entity = _denotes(store, ann.stem, first)
                assert entity.startswith(resource_iri("organization/"))
                assert all(_denotes(store, ann.stem, other) == entity for other in others)
                checked += 1
    assert checked >= 5


def test_entity_popularity_is_skewed(store: EmbeddedStore) -> None:
    rows = store.select("SELECT ?e ?n WHERE { GRAPH <https://kg.example.org/graph/entities> "
                        "{ ?e <https://kg.example.org/ontology#mentionCount> ?n } }")
    counts = sorted((int(r["n"]) for r in rows), reverse=True)
    assert len(counts) > 100
    assert counts[0] >= 5 * statistics.median(counts)
