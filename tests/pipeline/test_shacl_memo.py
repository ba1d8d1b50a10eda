"""A graph that conformed once in a process is not validated again; one that failed is, every time."""

from __future__ import annotations

import pytest

from kg.errors import ValidationError
from kg.model.schema.ontology import KGO
from kg.pipeline.validation import shacl

LABEL = "<http://www.w3.org/2000/01/rdf-schema#label>"
TYPE = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>"


def _conforming(n: int) -> bytes:
    return f'<http://example.org/thing/{n}> {LABEL} "thing {n}" <http://example.org/g> .\n'.encode()


def _breaking() -> bytes:  # a mention with no sentence and no document breaks the mention shape
    return f"<http://example.org/mention/1> {TYPE} <{KGO.Mention}> <http://example.org/g> .\n".encode()


def test_a_conforming_graph_is_validated_once(monkeypatch: pytest.MonkeyPatch) -> None:
    shacl.validate_nquads(_conforming(1))
    calls: list[int] = []
    monkeypatch.setattr(shacl, "check_shapes", lambda graph: calls.append(len(graph)))
    shacl.validate_nquads(_conforming(1))
    assert calls == []
    shacl.validate_nquads(_conforming(2))
    assert calls == [1]


def test_the_declared_terms_are_part_of_what_is_remembered(monkeypatch: pytest.MonkeyPatch) -> None:
    shacl.validate_nquads(_conforming(3))
    calls: list[int] = []
    monkeypatch.setattr(shacl, "check_shapes", lambda graph: calls.append(len(graph)))
    shacl.validate_nquads(_conforming(3), frozenset({"http://example.org/vocabulary/Thing"}))
    assert calls == [1]


def test_a_graph_that_breaks_the_shapes_fails_every_time() -> None:
    for _ in range(2):
        with pytest.raises(ValidationError, match="does not conform"):
            shacl.validate_nquads(_breaking())


def test_what_is_remembered_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shacl, "REMEMBERED_CONFORMING", 3)
    for n in range(10, 16):
        shacl.validate_nquads(_conforming(n))
    assert len(shacl._CONFORMING) == 3


def test_of_several_documents_only_those_not_seen_conforming_are_validated(monkeypatch: pytest.MonkeyPatch) -> None:
    shacl.validate_documents([_conforming(20), _conforming(21)])
    calls: list[int] = []
    real = shacl.check_shapes
    monkeypatch.setattr(shacl, "check_shapes", lambda graph: calls.append(len(graph)) or real(graph))
    shacl.validate_documents([_conforming(21), _conforming(22), _conforming(20)])
    assert calls == [1], "the documents that conformed before were validated again"
    shacl.validate_documents([_conforming(22)])
    assert calls == [1]


def test_a_breaking_document_fails_beside_documents_seen_conforming() -> None:
    shacl.validate_documents([_conforming(30)])
    for _ in range(2):
        with pytest.raises(ValidationError, match="does not conform"):
            shacl.validate_documents([_conforming(30), _breaking()])
