"""Write brat standoff: the .ann lines and the annotation.conf of annotations collected from a CAS.

kg.formats.inception.cas_to_brat fills a Standoff from INCEpTION's layers and numbers its T and E
ids; this module decides nothing about layers: it writes the lines in a stable
order (T, E, R, Equiv, A, N, #), numbering R, A, N and # as it goes, and
declares every type, relation, role and attribute they use in brat's
configuration language.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field

_BREAKS = re.compile(r"[\r\n\t\u2028\u2029\x0b\x0c\x1c-\x1e\x85]+")


@dataclass
class Bound:
    """A T line in the making."""

    key: tuple  # (begin, end, type, xmi id): the order of the T lines
    type: str
    begin: int
    end: int
    event: bool = False
    link: bool = False  # a chain link with no entity on its span
    id: str = ""
    target: str = ""  # the id that attributes, notes and normalizations refer to (E for an event)


@dataclass
class Standoff:
    """Everything collected from one CAS before it is written out."""

    text: str
    ts: object = None
    warnings: list[str] = field(default_factory=list)
    located: list[tuple[str, int]] = field(default_factory=list)  # warnings about one feature structure: (what, xmi:id)
    bounds: list[Bound] = field(default_factory=list)
    by_fs: dict[int, Bound] = field(default_factory=dict)
    at: dict[tuple[int, int], Bound] = field(default_factory=dict)  # the first entity span at (begin, end)
    all_at: dict[tuple[int, int], list[Bound]] = field(default_factory=lambda: defaultdict(list))  # every one
    events: dict[int, list[tuple[str, int]]] = field(default_factory=dict)  # trigger fs id -> (role, target fs id)
    relations: list[tuple[str, int, int, list[str]]] = field(default_factory=list)
    chains: list[list[int]] = field(default_factory=list)
    attributes: list[tuple[int, str, str | None]] = field(default_factory=list)  # fs id, name, value
    normalizations: list[tuple[int, str, str]] = field(default_factory=list)
    notes: list[tuple[object, str]] = field(default_factory=list)  # fs id (or R id), text
    roles: dict[tuple[str, str], set] = field(default_factory=lambda: defaultdict(set))  # (event, role) -> types
    labels: dict[str, str] = field(default_factory=dict)  # a type's, relation's or attribute's display name


def clean_name(name: str) -> str:
    """`name` as a brat type, role or attribute name: letters, digits, _ and -, starting with a letter."""
    ascii_ = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    clean = re.sub(r"[^A-Za-z0-9_-]+", "_", ascii_).strip("_") or "X"
    return clean if clean[0].isalpha() else "X" + clean


def brat_name(name: str, brat: Standoff, what: str) -> str:
    """`name` as a brat type, role or attribute name (clean_name), reported when changed."""
    clean = clean_name(name)
    if clean != name:
        brat.warnings.append(f"{what} {name!r} written as {clean!r} (expected a name of ASCII letters, digits, _ "
                             f"and -, starting with a letter: brat reads no other)")
    return clean


def settle_attributes(brat: Standoff) -> None:
    """Names in brat's form; a name that has values somewhere writes a Boolean `true` as the value
    `true` (brat declares an attribute either binary or with a list of values, not both)."""
    named = [(key, brat_name(name, brat, "attribute"), value) for key, name, value in brat.attributes]
    valued = {name for _, name, value in named if value is not None}
    brat.attributes = [(key, name, "true" if value is None and name in valued else value)
                       for key, name, value in named]


def ann_lines(brat: Standoff) -> list[str]:
    """Every .ann line, T ids and E ids as numbered by the collector."""
    lines = [f"{b.id}\t{b.type} {_offsets(brat.text, b.begin, b.end)}\t{_covered(brat.text, b.begin, b.end)}"
             for b in brat.bounds]
    lines += _event_lines(brat)
    lines += _relation_lines(brat)
    for members in sorted(brat.chains, key=lambda m: [brat.by_fs[x].key for x in m]):
        ids = list(dict.fromkeys(brat.by_fs[x].id for x in members))
        if len(ids) > 1:
            lines.append("*\tEquiv " + " ".join(ids))
    lines += _attribute_lines(brat)
    for number, (key, database, reference) in enumerate(_by_target(brat, brat.normalizations), start=1):
        bound = brat.by_fs[key]
        lines.append(f"N{number}\tReference {bound.target} {database}:{reference}\t"
                     f"{_covered(brat.text, bound.begin, bound.end)}")
    lines += [f"#{number}\tAnnotatorNotes {target}\t{text}"
              for number, (target, text) in enumerate(_note_targets(brat), start=1)]
    return lines


def _by_target(brat: Standoff, items: list) -> list:
    return sorted(items, key=lambda item: (brat.by_fs[item[0]].key, item[1:]))


def _offsets(text: str, begin: int, end: int) -> str:
    """brat offsets, split into fragments at line breaks and tabs as brat splits multi-line spans."""
    fragments, start = [], begin
    for match in _BREAKS.finditer(text, begin, end):
        if match.start() > start:
            fragments.append(f"{start} {match.start()}")
        start = match.end()
    if end > start:
        fragments.append(f"{start} {end}")
    return ";".join(fragments)


def _covered(text: str, begin: int, end: int) -> str:
    return " ".join(part for part in _BREAKS.split(text[begin:end]) if part)


def _event_lines(brat: Standoff) -> list[str]:
    lines = []
    for bound in (b for b in brat.bounds if b.event):
        args, counts = [], defaultdict(int)
        for role, target in brat.events.get(bound.key[-1], []):
            argument = brat.by_fs.get(target)
            if argument is None:
                brat.warnings.append(f"{bound.type} slot {role!r} skipped (expected its target an annotation kg reads: "
                                     f"a NamedEntity, SemArg or custom span over some text)")
                continue
            role = brat_name(role, brat, "role")
            counts[role] += 1
            args.append(f"{role}{counts[role] if counts[role] > 1 else ''}:{argument.target}")
            brat.roles[bound.type, role].add(argument.type)
        lines.append(f"{bound.target}\t{bound.type}:{bound.id}" + "".join(" " + a for a in args))
    return lines


def _relation_lines(brat: Standoff) -> list[str]:
    lines = []
    ordered = sorted(brat.relations, key=lambda r: (brat.by_fs[r[1]].key, brat.by_fs[r[2]].key, r[0]))
    for number, (type_, governor, dependent, notes) in enumerate(ordered, start=1):
        lines.append(f"R{number}\t{type_} Arg1:{brat.by_fs[governor].target} Arg2:{brat.by_fs[dependent].target}")
        brat.notes += [(f"R{number}", note) for note in notes]
    return lines


def _attribute_lines(brat: Standoff) -> list[str]:
    lines = []
    for number, (key, name, value) in enumerate(_by_target(brat, brat.attributes), start=1):
        lines.append(f"A{number}\t{name} {brat.by_fs[key].target}" + (f" {value}" if value is not None else ""))
    return lines


def _note_targets(brat: Standoff) -> list[tuple[str, str]]:
    spans = [(brat.by_fs[key].target, text) for key, text in _by_target(brat, [n for n in brat.notes
                                                                               if isinstance(n[0], int)])]
    return spans + [(key, text) for key, text in brat.notes if isinstance(key, str)]


def conf_text(brat: Standoff) -> str:
    """annotation.conf declaring every type, relation, role and attribute the .ann uses."""
    events = sorted({b.type for b in brat.bounds if b.event})
    entities = sorted({b.type for b in brat.bounds if not b.event})
    out = ["[entities]", *entities, "", "[relations]",
           "<OVERLAP>\tArg1:<ENTITY>, Arg2:<ENTITY>, <OVL-TYPE>:<ANY>"]
    out += _relation_declarations(brat)
    out += ["", "[events]"]
    for event in events:
        roles = sorted((role, types) for (type_, role), types in brat.roles.items() if type_ == event)
        declared = ", ".join(f"{role}*:{'|'.join(sorted(types))}" for role, types in roles)
        out.append(f"{event}\t{declared}" if declared else event)
    out += ["", "[attributes]"] + _attribute_declarations(brat)
    return "\n".join(out) + "\n"


def _relation_declarations(brat: Standoff) -> list[str]:
    args: dict[str, tuple[set, set]] = {}
    for type_, governor, dependent, _ in brat.relations:
        pair = args.setdefault(type_, (set(), set()))
        pair[0].add(brat.by_fs[governor].type)
        pair[1].add(brat.by_fs[dependent].type)
    out = [f"{type_}\tArg1:{'|'.join(sorted(a1))}, Arg2:{'|'.join(sorted(a2))}"
           for type_, (a1, a2) in sorted(args.items())]
    members = {brat.by_fs[x].type for chain in brat.chains if len({brat.by_fs[y].id for y in chain}) > 1
               for x in chain}
    if members:
        types = "|".join(sorted(members))
        out.append(f"Equiv\tArg1:{types}, Arg2:{types}, <REL-TYPE>:symmetric-transitive")
    return out


def _attribute_declarations(brat: Standoff) -> list[str]:
    targets: dict[str, set] = defaultdict(set)
    values: dict[str, set] = defaultdict(set)
    for key, name, value in brat.attributes:
        bound = brat.by_fs[key]
        targets[name].add("<EVENT>" if bound.event else bound.type)
        if value is not None:
            values[name].add(value)
    return [f"{name}\tArg:{'|'.join(sorted(targets[name]))}"
            + (f", Value:{'|'.join(sorted(values[name]))}" if values[name] else "")
            for name in sorted(targets)]
