"""The search index's rows of the entity records, read off the records' N-Quads.

A full build writes every record (kg.model.entities.entity_records) as text before the loader
takes it; the rows that LABELS, SUMMARIES and DESCRIPTIONS (kg.publish.search_index) find in
kgg:entities are read from that text, as those of the things local to a document are read off the
documents' (kg.publish.search_locals), instead of asking the loaded store. An incremental build
still asks the store for the records it rewrote. The two must agree
(tests/publish/test_search_records.py).
"""

from __future__ import annotations

import json

from kg.model.entities.evidence import literal_form
from kg.model.iris import FIXED_PREFIXES, RDF_TYPE
from kg.model.schema.ontology import KGO

Rows = list[dict[str, str]]

_KINDS = {f"<{FIXED_PREFIXES['skos']}prefLabel>": "pref", f"<{FIXED_PREFIXES['skos']}altLabel>": "alt",
          f"<{FIXED_PREFIXES['skos']}hiddenLabel>": "hidden", f"<{FIXED_PREFIXES['rdfs']}label>": "label"}
_TYPE, _COUNT = f"<{RDF_TYPE}>", f"<{KGO.mentionCount}>"
_COMMENT = f"<{FIXED_PREFIXES['rdfs']}comment>"


class _Record:
    """What the summary of one record is made of."""

    def __init__(self) -> None:
        self.preferred: list[str] = []
        self.types: dict[str, None] = {}
        self.counts: list[str] = []
        self.descriptions: dict[str, None] = {}  # the terms, so that equal forms of two terms stay two


def record_rows(nquads: str) -> tuple[Rows, Rows]:
    """The rows of LABELS, and those of SUMMARIES each with its record's DESCRIPTIONS (a JSON list of
    their forms, sorted), as the store would answer them once the records `nquads` (the kgg:entities
    graph's N-Quads) are loaded."""
    labels: dict[tuple[str, str, str], None] = {}  # (subject, label term, kind): SELECT DISTINCT
    records: dict[str, _Record] = {}
    for line in nquads.split("\n"):
        terms = line.split(" ", 2)
        if len(terms) < 3:
            continue
        subject, predicate, obj = terms[0], terms[1], terms[2].rsplit(" ", 2)[0]
        kind = _KINDS.get(predicate)
        if kind is not None:
            labels[subject, obj, kind] = None
            if kind == "pref":
                records.setdefault(subject, _Record()).preferred.append(_value(obj))
        elif predicate == _TYPE:
            records.setdefault(subject, _Record()).types[_value(obj)] = None
        elif predicate == _COUNT:
            records.setdefault(subject, _Record()).counts.append(literal_form(obj))
        elif predicate == _COMMENT:
            records.setdefault(subject, _Record()).descriptions[obj] = None
    rows = [{"e": _value(subject), "label": _value(obj), "kind": kind} for subject, obj, kind in labels]
    return rows, [_summary(subject, record) for subject, record in records.items() if record.preferred and record.types]


def _summary(subject: str, record: _Record) -> dict[str, str]:
    """A SUMMARIES row: the preferred label, the greatest mention count (none: no `mentions`), the types."""
    row = {"e": _value(subject), "label": record.preferred[0], "types": " ".join(record.types),
           "descriptions": json.dumps(sorted(_value(term) for term in record.descriptions), ensure_ascii=False)}
    if record.counts:
        row["mentions"] = max(record.counts, key=int)
    return row


def _value(term: str) -> str:
    """What a SELECT row holds of an N-Quads term: an IRI's text, a literal's lexical form."""
    return literal_form(term) if term.startswith('"') else term[1:-1]
