"""The header of a WebAnno TSV 3.x file: its layer declarations, as the body's columns.

`#T_SP=type|feature|...` declares a span layer (a `ROLE_<type>:<feature>_<link type>`
item and the target type after it make a slot feature: a role column and a target
column), `#T_CH=type|referenceType|referenceRelation` a chain layer (its link type),
`#T_RL=type|feature|...|BT_<base type>` a relation layer whose last column names the
governor. A span layer declared without features has one column that only marks it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

FORMAT_PREFIX = "#FORMAT=WebAnno TSV 3"
KINDS = {"#T_SP=": "span", "#T_CH=": "chain", "#T_RL=": "relation"}
TYPE_NAME = re.compile(r"[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*")
FEATURE_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
RESERVED = {"begin", "end", "sofa", "type", "xmiID"}  # the CAS's own attributes


class TsvError(ValueError):
    """A malformed line of the file: what is wrong (expected ...), and its line number (the reader
    adds the path)."""

    def __init__(self, message: str, line: int = 1) -> None:
        super().__init__(message)
        self.line = line


@dataclass(frozen=True)
class Slot:
    feature: str  # the host's FSArray feature
    link_type: str  # the type of its elements (role, target)
    target_type: str


@dataclass
class Layer:
    kind: str  # span, chain or relation
    type_name: str
    features: list[str] = field(default_factory=list)  # primitive (string) features
    slots: list[Slot] = field(default_factory=list)
    base: str = ""  # a relation's governor and dependent type


@dataclass(frozen=True)
class Column:
    """One annotation column of the body: its layer and what it holds (a feature's values, a
    slot's roles or targets, a chain's type or relation, a relation's governor, or the mark of a
    layer without features)."""

    layer: Layer
    role: str  # feature, mark, slot-role, slot-target, chain-type, chain-relation, governor
    name: str = ""  # the feature's name; for slot columns, the slot feature


def parse_header(lines: list[str]) -> list[Column]:
    """The body's annotation columns, from the header lines (the format line first)."""
    if not lines or not lines[0].startswith(FORMAT_PREFIX):
        raise TsvError(f"first line is {lines[0][:40]!r} (expected '#FORMAT=WebAnno TSV 3.x', the first line "
                       "INCEpTION and WebAnno write)" if lines else "empty file (expected WebAnno TSV 3.x)")
    columns: list[Column] = []
    for number, line in enumerate(lines[1:], start=2):
        prefix = line[:6]
        if prefix not in KINDS:
            raise TsvError(f"unknown header line {line[:40]!r} (expected #T_SP=, #T_CH= or #T_RL= "
                           "declarations, then two empty lines)", number)
        try:
            added = _layer_columns(KINDS[prefix], line[6:].split("|"))
        except TsvError as exc:
            raise TsvError(str(exc), number) from None
        if any(column.layer.type_name == added[0].layer.type_name for column in columns):
            raise TsvError(f"layer {added[0].layer.type_name} declared twice (expected one line per layer)", number)
        columns += added
    return columns


def _layer_columns(kind: str, items: list[str]) -> list[Column]:
    name, items = items[0], [item for item in items[1:] if item]
    if not TYPE_NAME.fullmatch(name):
        raise TsvError(f"layer name {name!r} (expected a UIMA type name such as webanno.custom.Span)")
    layer = Layer(kind, name)
    if kind == "relation":
        if not items or not items[-1].startswith("BT_"):
            raise TsvError(f"relation layer {name} without its base type (expected a last item BT_<type>)")
        layer.base = items.pop()[3:]
        layer.features = [_feature(item, name) for item in items]
        return [Column(layer, "feature", f) for f in items] + [Column(layer, "governor")]
    if kind == "chain":
        unknown = set(items) - {"referenceType", "referenceRelation"}
        if unknown or len(items) != 2:
            raise TsvError(f"chain layer {name} with features {'|'.join(items)} (expected referenceType "
                           "and referenceRelation)")
        layer.features = items
        return [Column(layer, "chain-type" if f == "referenceType" else "chain-relation", f) for f in items]
    return _span_columns(layer, items)


def _span_columns(layer: Layer, items: list[str]) -> list[Column]:
    if not items:
        return [Column(layer, "mark")]
    columns, index = [], 0
    while index < len(items):
        item = items[index]
        if not item.startswith("ROLE_"):
            layer.features.append(_feature(item, layer.type_name))
            columns.append(Column(layer, "feature", item))
            index += 1
            continue
        if index + 1 == len(items):
            raise TsvError(f"slot feature {item} without its target type (expected the type after it)")
        slot = _slot(item, items[index + 1])
        layer.slots.append(slot)
        columns += [Column(layer, "slot-role", slot.feature), Column(layer, "slot-target", slot.feature)]
        index += 2
    return columns


def _feature(name: str, layer: str) -> str:
    if not FEATURE_NAME.fullmatch(name) or name in RESERVED:
        raise TsvError(f"feature name {name!r} of layer {layer} (expected a UIMA feature name: a letter, then "
                       f"letters, digits and _, other than {', '.join(sorted(RESERVED))})")
    return name


def _slot(item: str, target: str) -> Slot:
    """`ROLE_<host>:<feature>_<link type>`: the feature name may hold '_', the link type's first
    part does not, so the split is at the last '_' before the link type's first dot."""
    _, _, rest = item[5:].partition(":")
    before_dot = rest.split(".", 1)[0]
    feature, _, package = before_dot.rpartition("_")
    link_type = package + rest[len(before_dot):]
    if not feature or not TYPE_NAME.fullmatch(link_type) or not TYPE_NAME.fullmatch(target):
        raise TsvError(f"slot feature {item}|{target} (expected ROLE_<layer>:<feature>_<link type>|<target type>)")
    return Slot(feature, link_type, target)
