"""Read a brat standoff .ann file into validated records.

Every line is checked once, here: its shape, its offsets against the text,
its span text against the text slice, its types against annotation.conf, and
every id it refers to. Each problem becomes an AnnotationError
`path:line: what is wrong (expected ...)`; all problems of a file are
reported together in one InputErrors.
"""

from __future__ import annotations

import datetime
import re
from collections import Counter
from pathlib import Path

from kg.conf import AnnotationConfig
from kg.errors import AnnotationError, InputErrors
from kg.model import (Annotations, Attribute, Equiv, Event, Normalization, Note, Relation, Span,
                      TextBound)

NORMALIZATION_DBS = ("Wikidata", "ISO8601", "Number", "KG")
_ID = {"T": r"T\d+", "R": r"R\d+", "E": r"E\d+", "A": r"[AM]\d+", "N": r"N\d+", "#": r"#\d*"}
_OFFSETS = re.compile(r"^\d+ \d+(;\d+ \d+)*$")
# brat's lines end at \n, \r\n or \r only; str.splitlines() would also split at U+2028,
# U+0085, \x0b, \x0c and \x1c-\x1e, which may occur inside a span's text.
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_ROLE_SUFFIX = re.compile(r"^([A-Za-z][A-Za-z_-]*?)(\d*)$")
_REF_PATTERNS = {
    "Wikidata": re.compile(r"^Q[1-9]\d*$"),
    "ISO8601": re.compile(r"^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?$"),
    "Number": re.compile(r"^-?\d+(\.\d+)?$"),
    "KG": re.compile(r"^[a-z]+/[a-z0-9]+(-[a-z0-9]+)*$"),
}


class _Reader:
    """Accumulates records and errors while reading one file."""

    def __init__(self, path: Path, text: str, config: AnnotationConfig) -> None:
        self.path, self.text, self.config = path, text, config
        self.errors: list[AnnotationError] = []
        self.textbounds: dict[str, TextBound] = {}
        self.relations: list[Relation] = []
        self.events: list[Event] = []
        self.attributes: list[Attribute] = []
        self.normalizations: list[Normalization] = []
        self.equivs: list[Equiv] = []
        self.notes: list[Note] = []
        self.seen: dict[str, int] = {}
        self.broken: set[str] = set()
        self.current_id = ""

    def fail(self, line: int, message: str) -> None:
        self.errors.append(AnnotationError(message, self.path, line))
        self.broken.add(self.current_id)

    def claim(self, ann_id: str, line: int) -> bool:
        if ann_id in self.seen:
            self.fail(line, f"duplicate id {ann_id} (expected ids unique in the file; first used on line {self.seen[ann_id]})")
            return False
        self.seen[ann_id] = line
        return True


def parse_ann(path: Path, ann_text: str, text: str, config: AnnotationConfig) -> Annotations:
    """Parse and check one .ann file against its text; raise InputErrors listing every problem."""
    reader = _Reader(Path(path), text, config)
    for number, line in enumerate(_LINE_BREAK.split(ann_text), start=1):
        if line.strip():
            _read_line(reader, number, line)
    _check_references(reader)
    if reader.errors:
        raise InputErrors(reader.errors)
    return Annotations(reader.textbounds, tuple(reader.relations), tuple(reader.events),
                       tuple(reader.attributes), tuple(reader.normalizations), tuple(reader.equivs),
                       tuple(reader.notes))


def _read_line(reader: _Reader, number: int, line: str) -> None:
    kind = line[0]
    handler = _HANDLERS.get(kind)
    if handler is None:
        reader.fail(number, f"unknown annotation line {line[:20]!r} (expected an id starting with T, R, E, A, M, N, * or #, then a tab)")
        return
    fields = line.split("\t")
    if kind != "*" and not re.fullmatch(_ID["A" if kind == "M" else kind], fields[0]):
        reader.fail(number, f"bad id {fields[0]!r} (expected {_ID['A' if kind == 'M' else kind]} followed by a tab)")
        return
    reader.current_id = fields[0]
    handler(reader, number, fields)


def _textbound(reader: _Reader, number: int, fields: list[str]) -> None:
    if len(fields) != 3 or " " not in fields[1]:
        reader.fail(number, "malformed text-bound line (expected ID<TAB>TYPE START END<TAB>TEXT)")
        return
    ann_id, (type_, offsets), text = fields[0], fields[1].split(" ", 1), fields[2]
    if type_ not in reader.config.parents and type_ not in reader.config.events:
        declared = ", ".join(reader.config.entity_types + list(reader.config.events))
        reader.fail(number, f"undeclared type {type_!r} (expected one of annotation.conf: {declared})")
        return
    if not _OFFSETS.match(offsets):
        reader.fail(number, f"bad offsets {offsets!r} (expected START END, or START END;START END for a discontinuous span)")
        return
    spans = tuple(Span(int(b), int(e)) for b, e in (p.split(" ") for p in offsets.split(";")))
    if not _spans_fit(reader, number, spans):
        return
    expected = " ".join(reader.text[s.begin:s.end] for s in spans)
    if expected != text:
        reader.fail(number, f"span text {text!r} differs from the text at {offsets}: {expected!r} (expected the exact slice of the .txt)")
        return
    if reader.claim(ann_id, number):
        reader.textbounds[ann_id] = TextBound(ann_id, type_, spans, text, number)


def _spans_fit(reader: _Reader, number: int, spans: tuple[Span, ...]) -> bool:
    size = len(reader.text)
    previous_end = 0
    for span in spans:
        if span.end > size or span.begin >= span.end or span.begin < previous_end:
            reader.fail(number, f"offsets {span.begin} {span.end} out of range (expected 0 <= start < end <= {size}, fragments in order)")
            return False
        previous_end = span.end
    return True


def _relation(reader: _Reader, number: int, fields: list[str]) -> None:
    parts = fields[1].split() if len(fields) >= 2 else []
    if len(parts) != 3 or not parts[1].startswith("Arg1:") or not parts[2].startswith("Arg2:"):
        reader.fail(number, "malformed relation (expected ID<TAB>TYPE Arg1:ID Arg2:ID)")
        return
    type_ = parts[0]
    if type_ not in reader.config.relations:
        reader.fail(number, f"undeclared relation {type_!r} (expected one of {', '.join(reader.config.relations)})")
        return
    if reader.claim(fields[0], number):
        reader.relations.append(Relation(fields[0], type_, parts[1][5:], parts[2][5:], number))


def _event(reader: _Reader, number: int, fields: list[str]) -> None:
    parts = fields[1].split() if len(fields) >= 2 else []
    pairs = [p.split(":", 1) for p in parts]
    if not parts or any(len(p) != 2 or not p[0] or not p[1] for p in pairs):
        reader.fail(number, "malformed event (expected ID<TAB>TYPE:TRIGGER ROLE:ID ...)")
        return
    (type_, trigger), rest = pairs[0], pairs[1:]
    if type_ not in reader.config.events:
        reader.fail(number, f"undeclared event type {type_!r} (expected one of {', '.join(reader.config.events)})")
        return
    args = []
    for role, target in rest:
        match = _ROLE_SUFFIX.match(role)
        if not match:
            reader.fail(number, f"bad role {role!r} (expected a role name, optionally numbered)")
            return
        args.append((match.group(1), target))
    if reader.claim(fields[0], number):
        reader.events.append(Event(fields[0], type_, trigger, tuple(args), number))


def _attribute(reader: _Reader, number: int, fields: list[str]) -> None:
    parts = fields[1].split() if len(fields) >= 2 else []
    if len(parts) not in (2, 3):
        reader.fail(number, "malformed attribute (expected ID<TAB>NAME TARGET [VALUE])")
        return
    name, target, value = parts[0], parts[1], (parts[2] if len(parts) == 3 else None)
    declared = reader.config.attributes.get(name)
    if declared is None:
        reader.fail(number, f"undeclared attribute {name!r} (expected one of {', '.join(reader.config.attributes)})")
        return
    values = declared[1]
    if (values is None) != (value is None) or (values is not None and value not in values):
        wanted = "no value" if values is None else "one of " + ", ".join(values)
        reader.fail(number, f"bad value {value!r} for attribute {name} (expected {wanted})")
        return
    if reader.claim(fields[0], number):
        reader.attributes.append(Attribute(fields[0], name, target, value, number))


def _normalization(reader: _Reader, number: int, fields: list[str]) -> None:
    parts = fields[1].split() if len(fields) >= 2 else []
    if len(fields) not in (2, 3) or len(parts) != 3 or parts[0] != "Reference" or ":" not in parts[2]:
        reader.fail(number, "malformed normalization (expected ID<TAB>Reference TARGET DB:ID<TAB>TEXT)")
        return
    db, ref = parts[2].split(":", 1)
    if db not in NORMALIZATION_DBS:
        reader.fail(number, f"unknown normalization database {db!r} (expected one of {', '.join(NORMALIZATION_DBS)})")
        return
    if not _REF_PATTERNS[db].match(ref) or (db == "ISO8601" and not _real_date(ref)):
        reader.fail(number, f"bad {db} identifier {ref!r} (expected {_REF_PATTERNS[db].pattern}, a real date for ISO8601)")
        return
    if reader.claim(fields[0], number):
        reader.normalizations.append(Normalization(fields[0], parts[1], db, ref, number))


def _real_date(value: str) -> bool:
    try:
        if len(value) == 10:
            datetime.date.fromisoformat(value)
        return True
    except ValueError:
        return False


def _equiv(reader: _Reader, number: int, fields: list[str]) -> None:
    parts = fields[1].split() if len(fields) >= 2 else []
    if fields[0] != "*" or len(parts) < 3 or parts[0] != "Equiv":
        reader.fail(number, "malformed equivalence (expected *<TAB>Equiv ID ID ...)")
        return
    reader.equivs.append(Equiv(tuple(parts[1:]), number))


def _note(reader: _Reader, number: int, fields: list[str]) -> None:
    parts = fields[1].split() if len(fields) >= 2 else []
    if len(parts) != 2:
        reader.fail(number, "malformed note (expected #ID<TAB>AnnotatorNotes TARGET<TAB>TEXT)")
        return
    reader.notes.append(Note(fields[0], parts[1], fields[2] if len(fields) > 2 else "", number))


_HANDLERS = {"T": _textbound, "R": _relation, "E": _event, "A": _attribute, "M": _attribute,
             "N": _normalization, "*": _equiv, "#": _note}


def _check_references(reader: _Reader) -> None:
    """Every id an annotation names exists and has a type its slot allows."""
    config, bounds = reader.config, reader.textbounds
    events = {e.id: e for e in reader.events}
    for rel in reader.relations:
        arg1_types, arg2_types = config.relations[rel.type]
        for role, target, allowed in (("Arg1", rel.arg1, arg1_types), ("Arg2", rel.arg2, arg2_types)):
            _check_slot(reader, rel.line, f"{rel.type} {role}", target, allowed)
    for event in reader.events:
        _check_event(reader, event)
    for attr in reader.attributes:
        target_type = bounds[attr.target].type if attr.target in bounds else (
            events[attr.target].type if attr.target in events else None)
        if target_type is None and attr.target not in reader.broken:
            reader.fail(attr.line, f"attribute {attr.name} refers to undefined id {attr.target} (expected a T or E id of this file)")
        elif target_type is not None and not config.matches(target_type, config.attributes[attr.name][0]):
            reader.fail(attr.line, f"attribute {attr.name} cannot apply to a {target_type} (expected {'|'.join(config.attributes[attr.name][0])})")
    for norm in reader.normalizations:
        if norm.target not in bounds and norm.target not in events and norm.target not in reader.broken:
            reader.fail(norm.line, f"normalization refers to undefined id {norm.target} (expected a T or E id of this file)")
    for equiv in reader.equivs:
        for member in equiv.members:
            if member not in bounds and member not in reader.broken:
                reader.fail(equiv.line, f"Equiv refers to undefined id {member} (expected T ids of this file)")
        _check_equiv_kinds(reader, equiv)
    for note in reader.notes:
        if note.target not in reader.seen and note.target not in reader.broken:
            reader.fail(note.line, f"note refers to undefined id {note.target} (expected an id of this file)")


def _check_equiv_kinds(reader: _Reader, equiv: Equiv) -> None:
    """Equiv joins mentions of one thing: all entity mentions of one top-level type (resolution
    gives them one IRI, so a Place joined to a Person would become a person)."""
    config = reader.config
    kinds = {config.top(b.type) if b.type in config.parents else b.type
             for b in (reader.textbounds.get(m) for m in equiv.members) if b is not None}
    if len(kinds) > 1 or kinds - set(config.parents):
        reader.fail(equiv.line, f"Equiv joins mentions of {', '.join(sorted(kinds))} "
                                f"(expected entity mentions of one type: all Person, all Place, ...)")


def _check_slot(reader: _Reader, line: int, slot: str, target: str, allowed: tuple[str, ...]) -> None:
    bound = reader.textbounds.get(target)
    if target in reader.broken:
        return  # its own line is already reported
    if bound is None:
        reader.fail(line, f"{slot} refers to undefined id {target} (expected a T id of this file)")
    elif not reader.config.matches(bound.type, allowed):
        reader.fail(line, f"{slot} is {target}, a {bound.type} (expected {'|'.join(allowed)})")


def _check_event(reader: _Reader, event: Event) -> None:
    trigger = reader.textbounds.get(event.trigger)
    if event.trigger in reader.broken:
        pass
    elif trigger is None:
        reader.fail(event.line, f"event trigger refers to undefined id {event.trigger} (expected a T id of this file)")
    elif trigger.type != event.type:
        reader.fail(event.line, f"event {event.type} has trigger {event.trigger} of type {trigger.type} (expected a {event.type} span)")
    roles = reader.config.events[event.type]
    counts = Counter(role for role, _ in event.args)
    for role, target in event.args:
        declared = roles.get(role)
        if declared is None:
            reader.fail(event.line, f"undeclared role {role!r} for {event.type} (expected one of {', '.join(roles)})")
            continue
        _check_slot(reader, event.line, f"{event.type} {role}", target, declared.types)
    for name, role in roles.items():
        if counts[name] == 0 and not role.optional:
            reader.fail(event.line, f"{event.type} lacks its {name} argument (expected {name}:ID)")
        if counts[name] > 1 and not role.repeatable:
            reader.fail(event.line, f"{event.type} has {counts[name]} {name} arguments (expected at most one)")
