"""Rows of a SELECT as kg reads them from any store: lexical values, booleans in canonical form."""

from __future__ import annotations

import json

from kg.store.protocol import rows_of

XSD = "http://www.w3.org/2001/XMLSchema#"


def _answer(*bindings: dict) -> bytes:
    return json.dumps({"head": {"vars": ["v", "lit"]}, "results": {"bindings": list(bindings)}}).encode()


def test_a_stored_boolean_virtuoso_answers_as_1_or_0_reads_true_or_false():
    """Virtuoso 7 answers `<s> <p> true` as "1"^^xsd:boolean (its answer, copied from a real server)."""
    rows = rows_of(_answer(
        {"v": {"type": "typed-literal", "datatype": XSD + "boolean", "value": "1"},
         "lit": {"type": "typed-literal", "datatype": XSD + "integer", "value": "1"}},
        {"v": {"type": "typed-literal", "datatype": XSD + "boolean", "value": "0"}},
        {"v": {"type": "literal", "datatype": XSD + "boolean", "value": "true"}}))
    assert [row["v"] for row in rows] == ["true", "false", "true"]


def test_an_integer_and_a_plain_1_stay_as_they_are():
    rows = rows_of(_answer(
        {"v": {"type": "typed-literal", "datatype": XSD + "integer", "value": "1"},
         "lit": {"type": "literal", "value": "0"}}))
    assert rows == [{"v": "1", "lit": "0"}]
