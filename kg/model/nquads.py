"""Write N-Quads lines fast, as text: the builder's output format and the store's bulk-load input.

Terms are formatted once here so the rest of kg never deals with escaping.
IRIs reaching this module are built by kg.model.iris from checked slugs, keys and ids.
"""

from __future__ import annotations

from kg.model.iris import FIXED_PREFIXES

XSD = FIXED_PREFIXES["xsd"]
_ESCAPES = str.maketrans({"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r"})


def iri(value: str) -> str:
    return f"<{value}>"


def literal(value: str, datatype: str | None = None, lang: str | None = None) -> str:
    text = '"' + value.translate(_ESCAPES) + '"'
    if lang:
        return f"{text}@{lang}"
    if datatype and datatype != XSD + "string":
        return f"{text}^^<{datatype}>"
    return text


def integer(value: int) -> str:
    return literal(str(value), XSD + "integer")


def boolean(value: bool) -> str:
    return literal("true" if value else "false", XSD + "boolean")


def decimal(value: str) -> str:
    """An xsd:decimal in the canonical form Oxigraph stores: '1400', '1.5' (never '1400.0', '1.50')."""
    if "." in value:
        value = value.rstrip("0").rstrip(".")
    return literal(value, XSD + "decimal")


def date_literal(value: str) -> str:
    """An ISO 8601 date as xsd:date, xsd:gYearMonth or xsd:gYear, by its precision."""
    kind = {10: "date", 7: "gYearMonth", 4: "gYear"}[len(value)]
    return literal(value, XSD + kind)


class QuadWriter:
    """Collects the triples of one named graph as unique N-Quads lines."""

    def __init__(self, graph: str) -> None:
        self._graph = iri(graph)
        self._lines: set[str] = set()

    def add(self, subject: str, predicate: str, obj: str) -> None:
        """subject and predicate are IRIs (plain strings); obj is a formatted term."""
        self._lines.add(f"<{subject}> <{predicate}> {obj} {self._graph} .\n")

    def text(self) -> str:
        """The graph as N-Quads, sorted so that the same input always gives the same bytes."""
        return "".join(sorted(self._lines))

    def __len__(self) -> int:
        return len(self._lines)
