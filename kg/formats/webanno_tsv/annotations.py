"""The annotations of a WebAnno TSV 3.x body, read from its cells.

A cell holds `_` (no annotation), or stacked annotations separated by `|`, each a
value (`*` when the feature has none) with an optional `[N]`: the id that joins
the rows of one annotation over several tokens, or of a chain, in a chain's type
column. Slots are `;`-separated roles and `<sentence>-<token>[N]` targets; a
relation's last column is its governor `<sentence>-<token>`, `[g_d]` telling which
governor and dependent annotation when a token holds several. Reserved characters
are escaped with a backslash (`\\|`, `\\_`, `\\->`, `\\t`...).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kg.formats.webanno_tsv.body import Body, Row
from kg.formats.webanno_tsv.header import Column, Layer, TsvError

_ID = re.compile(r"(.*?)\[(\d+)(?:_(\d+))?\]")
_VALUE_ESCAPES = {"t": "\t", "n": "\n", "r": "\r"}


@dataclass
class Span:
    """One annotation of a span layer, or one link of a chain."""

    layer: Layer
    begin: int
    end: int
    units: list[str]
    line: int
    features: dict[str, str | None] = field(default_factory=dict)
    slots: list[tuple[str, str | None, str, int, int]] = field(default_factory=list)  # feature, role, unit, id, line
    link: tuple[int, int] | None = None  # a chain link's chain and place in it


@dataclass
class Relation:
    layer: Layer
    governor: tuple[str, int]  # unit and id (0: the one annotation of the base type there)
    dependent: tuple[str, int]
    features: dict[str, str | None]
    line: int


@dataclass
class Annotations:
    spans: dict[tuple, Span] = field(default_factory=dict)
    relations: list[Relation] = field(default_factory=list)


def read_annotations(body: Body, columns: list[Column]) -> Annotations:
    """Every annotation the rows' cells hold, a layer's columns read together."""
    found = Annotations()
    groups: dict[int, list[int]] = {}
    for index, column in enumerate(columns):
        groups.setdefault(id(column.layer), []).append(index)
    for row in body.rows:
        for indexes in groups.values():
            cells = {columns[i].role + ":" + columns[i].name: split(row.cells[i], "|")
                     for i in indexes if row.cells[i] != "_"}
            if cells:
                _read_layer(found, columns[indexes[0]].layer, cells, row)
    return found


def _read_layer(found: Annotations, layer: Layer, cells: dict[str, list[str]], row: Row) -> None:
    """One row's annotations of one layer: the n-th stacked value of each of its columns together."""
    for stack in range(max(len(values) for values in cells.values())):
        values = {key: values[stack] if stack < len(values) else "_" for key, values in cells.items()}
        if layer.kind == "relation":
            found.relations.append(_relation(layer, values, row))
        elif layer.kind == "chain":
            _add_link(found, layer, values, row)
        else:
            _add_span(found, layer, values, row, stack)


def _add_span(found: Annotations, layer: Layer, values: dict[str, str], row: Row, stack: int) -> None:
    ids = [parse_id(v)[1] for key, v in values.items() if not key.startswith("slot-target")]
    number = next((n for n in ids if n), 0)
    key = (layer.type_name, number) if number else (layer.type_name, row.unit, stack)
    span = found.spans.get(key)
    if span is not None:
        span.begin, span.end = min(span.begin, row.begin), max(span.end, row.end)
        span.units.append(row.unit)
        return
    span = found.spans[key] = Span(layer, row.begin, row.end, [row.unit], row.line)
    for feature in layer.features:
        span.features[feature] = value(parse_id(values.get("feature:" + feature, "*"))[0])
    for slot in layer.slots:
        roles = split(parse_id(values.get("slot-role:" + slot.feature, "_"))[0], ";")
        targets = split(values.get("slot-target:" + slot.feature, "_"), ";")
        if roles in (["_"], ["*"]):  # a host without slot fillers
            continue
        if len(roles) != len(targets):
            raise TsvError(f"{len(roles)} roles and {len(targets)} targets for slot {slot.feature} (expected one "
                            "target per role)", row.line)
        for role, target in zip(roles, targets):
            unit, number, _ = parse_id(target)
            span.slots.append((slot.feature, value(role), unit, number, row.line))


def _add_link(found: Annotations, layer: Layer, values: dict[str, str], row: Row) -> None:
    kind = parse_id(values.get("chain-type:referenceType", "*"))[0]  # its [N] repeats the chain of the link
    relation = values.get("chain-relation:referenceRelation", "*")
    head, arrow, place = rsplit_arrow(relation)
    link = re.fullmatch(r"(\d+)-(\d+)", place) if arrow else None
    if link is None:
        raise TsvError(f"chain value {relation!r} (expected <relation>-><chain>-<link>, e.g. *->1-2)", row.line)
    key = (layer.type_name, "link", int(link[1]), int(link[2]))
    span = found.spans.get(key)
    if span is not None:
        span.begin, span.end = min(span.begin, row.begin), max(span.end, row.end)
        span.units.append(row.unit)
        return
    found.spans[key] = Span(layer, row.begin, row.end, [row.unit], row.line,
                            {"referenceType": value(kind), "referenceRelation": value(head)},
                            link=(int(link[1]), int(link[2])))


def _relation(layer: Layer, values: dict[str, str], row: Row) -> Relation:
    unit, governor, dependent = parse_id(values.get("governor:", "_"))
    if unit == "_":
        raise TsvError(f"relation {layer.type_name} without its governor (expected <sentence>-<token> in its "
                        "last column)", row.line)
    features = {f: value(parse_id(values.get("feature:" + f, "*"))[0]) for f in layer.features}
    return Relation(layer, (unit, governor), (row.unit, dependent or 0), features, row.line)


def parse_id(raw: str) -> tuple[str, int, int]:
    """A value and its `[N]` (0 if none); a relation's `[g_d]` gives both."""
    match = _ID.fullmatch(raw)
    if match is None or _escaped(match[1]):
        return raw, 0, 0
    return match[1], int(match[2]), int(match[3] or 0)


def _escaped(text: str) -> bool:
    """Whether a backslash escapes the character after `text` (an odd number of them ends it)."""
    return (len(text) - len(text.rstrip("\\"))) % 2 == 1


def split(raw: str, separator: str) -> list[str]:
    """`raw` split at each `separator` that no backslash escapes."""
    parts, current, index = [], [], 0
    while index < len(raw):
        char = raw[index]
        if char == "\\" and index + 1 < len(raw):
            current.append(raw[index:index + 2])
            index += 2
            continue
        if char == separator:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
        index += 1
    return parts + ["".join(current)]


def rsplit_arrow(raw: str) -> tuple[str, str, str]:
    """`raw` split at its last `->` that no backslash escapes."""
    index = raw.rfind("->")
    while index > 0 and _escaped(raw[:index]):
        index = raw.rfind("->", 0, index)
    return (raw[:index], "->", raw[index + 2:]) if index >= 0 else (raw, "", "")


def value(raw: str) -> str | None:
    """A feature value: None for `*` (the annotation is there, the feature has no value), else unescaped."""
    if raw in ("*", "_"):
        return None
    return re.sub(r"\\(->|.)", lambda m: _VALUE_ESCAPES.get(m[1], m[1]), raw)
