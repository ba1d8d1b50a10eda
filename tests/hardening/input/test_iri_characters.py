"""Names and references holding what an IRI cannot (controls, <, `, a stray %): brat shows such an
undeclared type, role, relation or normalization, so the build holds it, percent-encoded in its IRI,
instead of failing to parse its own N-Quads (found by the reader fuzz: a SyntaxError, exit 1)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kg.errors import KgError
from kg.model.iris import iri_escaped
from kg.pipeline.builder import build
from tests.helpers import TINY, store_quads

EDITS = {  # what is changed in tests/data/tiny/alpha.ann, and how ({c}: the character tried)
    "role": ("Agent:T2", "Ag{c}ent:T2"),
    "relation type": ("SaidBy Arg1", "Said{c}By Arg1"),
    "entity type": ("T2\tPerson 4", "T2\tPer{c}son 4"),
    "normalization database": ("ISO8601:", "ISO{c}8601:"),
    "normalization identifier": ("Number:1400", "Number:14{c}00"),
}


@pytest.mark.parametrize("char", ["<", "\x7f", "`", "{"])
@pytest.mark.parametrize("field", sorted(EDITS))
def test_a_name_an_iri_cannot_hold_is_built_escaped(tmp_path: Path, field: str, char: str) -> None:
    corpus = tmp_path / "corpus"
    shutil.copytree(TINY, corpus)
    before, after = EDITS[field]
    ann = corpus / "alpha.ann"
    ann.write_text(ann.read_text(encoding="utf-8").replace(before, after.format(c=char), 1), encoding="utf-8")
    try:
        build(corpus, tmp_path / "data")
    except KgError as exc:  # refused with a reason is fine (a number that is no number); a crash is not
        assert "alpha.ann" in str(exc) or field.startswith("normalization"), exc
        return
    escaped = iri_escaped(char)
    assert escaped != char
    assert any(escaped in q.subject.value + q.predicate.value + q.object.value
               for q in store_quads(tmp_path / "data") if not isinstance(q.object, str))


def test_escaping_leaves_names_an_iri_holds_as_written() -> None:
    assert [iri_escaped(n) for n in ("Person", "Ação", "B-PER", "T1", "char=1,2", "7%41")] == [
        "Person", "Ação", "B-PER", "T1", "char=1,2", "7%41"]
    assert iri_escaped("a b<c>%") == "a%20b%3Cc%3E%25"
