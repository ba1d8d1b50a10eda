"""The candidates of INCEpTION's starts-with search without full text (api/sparql/label_candidates.py): every thing
the engine's case-insensitive REGEX keeps is among them, whatever the case folding of its name."""

from __future__ import annotations

import pyoxigraph as ox
import pytest

from kg.api.sparql import label_candidates
from kg.api.sparql.label_candidates import candidates, table

LABEL = label_candidates.RDFS + "label"
ALT = label_candidates.SKOS + "altLabel"
# names whose letters case-fold in the ways Unicode's tables differ on: German sharp s, Greek final sigma, the Kelvin
# and Angstrom signs, long s, dotted and dotless i, a title-case digraph, a ligature
NAMES = ["Straße", "STRASSE", "ẞtraße", "Σίσυφος", "σίσυφος", "ΣΊΣΥΦΟΣ", "Kelvin", "kelvin", "Ångström", "ångström",
         "Ångström", "ſtraße", "İstanbul", "istanbul", "Isparta", "ıspanak", "ǅemal", "ǆemal", "ﬁnal", "final",
         "Guaidó", "guaido", "Juan Guaidó"]
NEEDLES = ["straß", "STRASS", "ss", "σίσ", "ΣΊΣ", "ς", "k", "K", "Å", "å", "s", "İs", "is", "ı", "I", "ǆe", "Ǆ",
           "ﬁ", "fi", "guai", "GUAIDÓ", "juan"]


def _engine_keeps(store: ox.Store, start: str) -> set[str]:
    pattern = "^" + start + ".*"
    rows = store.query(f'SELECT ?s WHERE {{ ?s <{LABEL}> ?m FILTER (REGEX(STR(?m), "{pattern}", "i")) }}')
    return {row["s"].value for row in rows}


@pytest.mark.parametrize("start", NEEDLES)
def test_every_name_the_engine_keeps_is_a_candidate(start):
    store = ox.Store()
    rows = []
    for i, name in enumerate(NAMES):
        store.add(ox.Quad(ox.NamedNode(f"http://example.org/{i}"), ox.NamedNode(LABEL), ox.Literal(name)))
        rows.append({"s": f"http://example.org/{i}", "o": name, "text": name, "iri": "false"})
    names = table(LABEL, rows, blank_named=False)
    kept = {f"<{thing}>" for thing in _engine_keeps(store, start)}
    found = {s for s, _, _ in candidates(lambda prop: names, frozenset({LABEL}), [start], []) or []}
    assert kept <= found, (start, sorted(kept - found))
    assert len(found) < len(NAMES)


def _table(*texts: str, prop: str = LABEL, blank_named: bool = False):
    return table(prop, [{"s": f"http://example.org/{i}", "o": text, "text": text} for i, text in enumerate(texts)],
                 blank_named)


def _things(found) -> list[str]:
    return sorted(s.rsplit("/", 1)[-1][:-1] for s, _, _ in found)


def test_the_longest_start_and_every_test_narrow_the_candidates():
    names = _table("Juan Guaidó", "Juan Pérez", "Juana")
    assert _things(candidates(lambda prop: names, frozenset({LABEL}), ["ju", "juan "], [])) == ["0", "1"]
    assert _things(candidates(lambda prop: names, frozenset({LABEL}), ["juan"], [lambda t: "Guai" in t])) == ["0"]
    tables = {LABEL: names, ALT: _table("Juan Guaido", prop=ALT)}
    both = candidates(tables.get, frozenset({LABEL, ALT}), ["juan"], [])
    assert _things(both) == ["0", "0", "1", "2"] and {p for _, p, _ in both} == {f"<{LABEL}>", f"<{ALT}>"}


def test_each_statement_keeps_its_object_term():
    rows = [{"s": "http://example.org/a", "o": "Caracas", "text": "Caracas", "lang": "es"},
            {"s": "http://example.org/b", "o": "Ca\"r\\a\ncas", "text": "Ca\"r\\a\ncas"},
            {"s": "http://example.org/c", "o": "Cara", "text": "Cara", "datatype": "http://example.org/dt"},
            {"s": "http://example.org/d", "o": "http://example.org/Caracas", "text": "http://example.org/Caracas",
             "iri": "true"}]
    names = table(LABEL, rows, blank_named=False)
    terms = {o for _, _, o in candidates(lambda prop: names, frozenset({LABEL}), ["ca"], [])}
    assert terms == {'"Caracas"@es', '"Ca\\"r\\\\a\\ncas"', '"Cara"^^<http://example.org/dt>'}
    assert {o for _, _, o in candidates(lambda prop: names, frozenset({LABEL}), ["http"], [])} == {
        "<http://example.org/Caracas>"}


def test_no_candidates_are_told_where_they_may_miss_a_thing(monkeypatch):
    names = _table("Juan")
    assert candidates(lambda prop: names, frozenset({LABEL}), [], []) is None  # nothing anchored
    assert candidates(lambda prop: names, frozenset({"http://example.org/name"}), ["j"], []) is None
    assert candidates(lambda prop: None, frozenset({LABEL}), ["j"], []) is None  # not read yet
    assert _table("Juan", blank_named=True) is None
    monkeypatch.setattr(label_candidates, "MAX_CANDIDATES", 0)
    assert candidates(lambda prop: names, frozenset({LABEL}), ["j"], []) is None
    monkeypatch.setattr(label_candidates, "MAX_NAMES", 0)
    assert _table("Juan") is None


def test_a_table_finds_by_folded_start():
    names = _table("Straße", "STRASSE", "Strand")
    assert sorted(i for i, _ in names.starting_with("straß")) == [1, 2]
    assert [text for _, text in names.starting_with("STRAN")] == ["Strand"]
    assert names.starting_with("x") == [] and _table().starting_with("a") == []
