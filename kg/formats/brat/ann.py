"""Read a brat standoff .ann file into validated records.

Every line is checked once, here, as brat reads and verifies it. What brat cannot display is an
AnnotationError `path:line: what is wrong (expected ...)`: a line its parser cannot read (its
shape, offsets outside the text, a span text that is not the text's slice, a duplicate id), an id
that does not exist, an event whose trigger is no span of its type, a reference to a trigger.
What brat's verifier only marks on an annotation it displays (a type, relation, role or attribute
annotation.conf does not declare, an argument of another type, a missing or extra argument, an
attribute on a type it does not apply to, an overlap the conf does not allow) is read as written,
with an InputWarning naming the conf rule it breaks; `--strict` makes those errors. What the
graph cannot hold is left out, with a warning that says so. All problems of a file are reported
together in one InputErrors.
"""

from __future__ import annotations

import datetime
import difflib
import re
from collections import Counter
from pathlib import Path

from kg.errors import AnnotationError, InputErrors, InputWarning
from kg.formats.brat.conf import AnnotationConfig
from kg.formats.records import Annotations, Attribute, Equiv, Event, Normalization, Note, Relation, Span, TextBound

NORMALIZATION_DBS = ("Wikidata", "ISO8601", "Number", "KG")  # checked and used by kg; other DBs are kept as given
NOT_KNOWLEDGE_BASES = ("KG", "ISO8601", "Number")  # kg's own: a canonical key, a date, a figure
NO_LINK = ("null", "nil", "", "-")  # an annotator's way of saying "no item", case aside
_NORM_REF = re.compile(r"^[^\s:]+:\S*$")
_ID = {"T": r"T\d+", "R": r"R\d+", "E": r"E\d+", "A": r"[AM]\d+", "N": r"N\d+", "#": r"#\d*"}
_OFFSETS = re.compile(r"^\d{1,10} \d{1,10}(;\d{1,10} \d{1,10})*$")  # bounded before int() converts them
# brat's lines end at \n, \r\n or \r only; str.splitlines() would also split at U+2028,
# U+0085, \x0b, \x0c and \x1c-\x1e, which may occur inside a span's text.
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_ROLE_SUFFIX = re.compile(r"^(.*?)\d*$")  # brat numbers repeated roles: Theme2, Theme3
_REF_PATTERNS = {
    "ISO8601": re.compile(r"^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?$"),
    "Number": re.compile(r"^-?\d+(\.\d+)?$"),
    "KG": re.compile(r"^[a-z]+/[a-z0-9]+(-[a-z0-9]+)*$"),
}


class _Reader:
    """Accumulates records and errors while reading one file."""

    def __init__(self, path: Path, text: str, config: AnnotationConfig) -> None:
        self.path, self.text, self.config = path, text, config
        self.errors: list[AnnotationError] = []
        self.warnings: list[InputWarning] = []
        self.textbounds: dict[str, TextBound] = {}
        self.relations: list[Relation] = []
        self.events: list[Event] = []
        self.attributes: list[Attribute] = []
        self.normalizations: list[Normalization] = []
        self.equivs: list[Equiv] = []
        self.notes: list[Note] = []
        self.seen: dict[str, int] = {}
        self.broken: set[str] = set()
        self.undeclared_types: dict[str, None] = {}  # text-bound types annotation.conf does not declare
        self.dropped: set[tuple[str, int]] = set()  # (event id, argument index) the graph cannot hold
        self.current_id = ""

    def fail(self, line: int, message: str) -> None:
        self.errors.append(AnnotationError(message, self.path, line))
        self.broken.add(self.current_id)

    def mark(self, line: int, message: str) -> None:
        """What brat's verifier marks on an annotation it displays: read as written, with a warning."""
        self.warnings.append(InputWarning(f"{message}; read as written", self.path, line))

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
        raise InputErrors(reader.errors, reader.warnings)
    triggers = {reader.textbounds[e.trigger].type for e in reader.events if e.trigger in reader.textbounds}
    undeclared = ([t for t in reader.undeclared_types if t not in triggers],
                  [t for t in reader.undeclared_types if t in triggers])
    return Annotations(reader.textbounds, tuple(reader.relations), tuple(reader.events),
                       tuple(reader.attributes), tuple(reader.normalizations), tuple(reader.equivs),
                       tuple(reader.notes), tuple(reader.warnings), (tuple(undeclared[0]), tuple(undeclared[1])))


def _read_line(reader: _Reader, number: int, line: str) -> None:
    kind = line[0]
    handler = _HANDLERS.get(kind)
    if handler is None:
        reader.fail(number, f"unknown annotation line {line[:20]!r} (expected an id starting with T, R, E, A, M, N, * or #, then a tab)")
        return
    fields = line.split("\t")
    pattern = _ID.get("A" if kind == "M" else kind, r"\*")
    if not re.fullmatch(pattern, fields[0]):
        spaced = re.match(rf"^({pattern}) +\S", fields[0])
        if spaced:  # the usual slip: spaces where brat wants tabs; its id is marked so no follow-on errors
            reader.current_id = spaced.group(1)
            reader.fail(number, f"spaces after the id {spaced.group(1)} (expected a tab: brat separates the id, "
                                "the annotation and its text with tabs)")
        else:
            reader.fail(number, f"bad id {fields[0]!r} (expected an id such as {kind}1 followed by a tab)")
        return
    reader.current_id = fields[0]
    handler(reader, number, fields)


def _textbound(reader: _Reader, number: int, fields: list[str]) -> None:
    if len(fields) != 3 or " " not in fields[1]:
        reader.fail(number, "malformed text-bound line (expected ID<TAB>TYPE START END<TAB>TEXT)")
        return
    ann_id, (type_, offsets), text = fields[0], fields[1].split(" ", 1), fields[2]
    if not _OFFSETS.match(offsets):
        reader.fail(number, f"bad offsets {offsets[:40]!r} (expected START END, or START END;START END for a "
                            "discontinuous span, each a number of at most 10 digits)")
        return
    spans = tuple(Span(int(b), int(e)) for b, e in (p.split(" ") for p in offsets.split(";")))
    if not _spans_fit(reader, number, spans):
        return
    expected = " ".join(reader.text[s.begin:s.end] for s in spans)
    if expected != text:
        reader.fail(number, f"span text {text!r} differs from the text at {offsets}: {expected!r} "
                            f"(expected the exact slice of the .txt{_nearest_hint(reader.text, text, spans[0].begin)})")
        return
    if reader.claim(ann_id, number):
        _usable_type(reader, number, type_)
        reader.textbounds[ann_id] = TextBound(ann_id, type_, spans, text, number)


def _nearest_hint(text: str, wanted: str, near: int) -> str:
    """'; found at 704 710': the occurrence of the annotated words closest to the given offset."""
    if not wanted or "\n" in wanted:
        return ""
    starts = [m.start() for m in re.finditer(re.escape(wanted), text)]
    if not starts:
        return ""
    best = min(starts, key=lambda start: (abs(start - near), start))
    return f"; {wanted!r} is at {best} {best + len(wanted)}"


def _did_you_mean(name: str, choices: list[str]) -> str:
    """' (did you mean Person?)' for a near miss of a declared name, else ''."""
    close = difflib.get_close_matches(name, choices, n=1, cutoff=0.6)
    close = close or [c for c in choices if c.casefold() == name.casefold()]
    return f"; did you mean {close[0]}?" if close else ""


def _usable_type(reader: _Reader, number: int, type_: str) -> None:
    """A text-bound type annotation.conf does not declare (or declares abstract): brat displays the
    span and marks it; kg reads it as written, as a type of the document's own."""
    config = reader.config
    if config.usable(type_):
        return
    if type_ not in config.entities and type_ not in config.events:
        reader.undeclared_types[type_] = None
    usable = [t for t in [*config.entities, *config.events] if config.usable(t)]
    if type_ in config.entities or type_ in config.events:
        reader.mark(number, f"type {type_!r} is abstract in annotation.conf (expected one of: {', '.join(usable)})")
    elif type_ in config.undeclared:
        reader.mark(number, f"type {type_!r} is named in an argument list of annotation.conf but declared nowhere "
                            f"(expected {type_} in [entities] or [events])")
    else:
        reader.mark(number, f"undeclared type {type_!r} (expected one of annotation.conf: {', '.join(usable)}"
                            f"{_did_you_mean(type_, usable)})")


def _spans_fit(reader: _Reader, number: int, spans: tuple[Span, ...]) -> bool:
    """brat's parser: each fragment inside the text, start before end, and not overlapping an earlier
    one (fragments may come in any order; one may start where the one before it ends, not end where
    an earlier one starts)."""
    size = len(reader.text)
    for i, span in enumerate(spans):
        if span.end > size or span.begin >= span.end:
            reader.fail(number, f"offsets {span.begin} {span.end} out of range (expected 0 <= start < end <= {size})")
            return False
        for other in spans[:i]:
            if span.end >= other.begin and span.begin < other.end:
                reader.fail(number, f"fragments {other.begin} {other.end} and {span.begin} {span.end} overlap "
                                    "(expected the fragments of a discontinuous span apart, as brat reads them)")
                return False
    return True


def _relation(reader: _Reader, number: int, fields: list[str]) -> None:
    parts = fields[1].split() if len(fields) >= 2 else []
    args = [p.split(":", 1) for p in parts[1:]]
    if len(parts) != 3 or any(len(a) != 2 or not a[0] or not a[1] for a in args):
        reader.fail(number, "malformed relation (expected ID<TAB>TYPE Arg1:ID Arg2:ID)")
        return
    type_, ((role1, arg1), (role2, arg2)) = parts[0], args
    if role1 == role2:
        reader.fail(number, f"relation arguments both labelled {role1} (expected two different labels, e.g. Arg1 and Arg2)")
        return
    if not reader.claim(fields[0], number):
        return
    if not reader.config.relations.get(type_):
        declared = [n for n, decls in reader.config.relations.items() if decls]
        reader.mark(number, f"undeclared relation {type_!r} (expected one of {', '.join(declared) or 'none'}"
                            f"{_did_you_mean(type_, declared)})")
    reader.relations.append(Relation(fields[0], type_, arg1, arg2, number, role1, role2))


def _event(reader: _Reader, number: int, fields: list[str]) -> None:
    parts = fields[1].split() if len(fields) >= 2 else []
    pairs = [p.split(":", 1) for p in parts]
    if not parts or any(len(p) != 2 or not p[0] or not p[1] for p in pairs):
        reader.fail(number, "malformed event (expected ID<TAB>TYPE:TRIGGER ROLE:ID ...)")
        return
    (type_, trigger), rest = pairs[0], pairs[1:]
    if not reader.claim(fields[0], number):
        return
    if type_ not in reader.config.events or reader.config.events[type_].abstract:
        usable = [t for t, node in reader.config.events.items() if not node.abstract]
        reader.mark(number, f"undeclared event type {type_!r} (expected one of {', '.join(usable) or 'none'}"
                            f"{_did_you_mean(type_, usable)})")
    args = tuple((declared_role(reader.config, type_, role), target) for role, target in rest)
    reader.events.append(Event(fields[0], type_, trigger, args, number))


def declared_role(config: AnnotationConfig, event_type: str, role: str) -> str:
    """The role an argument label stands for, as annotation.conf declares it: the label itself when
    declared (`Arg1`), else the label without its number when that is declared (`Theme2` is a second
    `Theme`), first for the event's type, then for any event type; a role declared nowhere loses its
    number as brat numbers repeats."""
    base = _ROLE_SUFFIX.match(role).group(1) or role
    own = {r.name for r in config.events[event_type].roles} if event_type in config.events else set()
    anywhere = {r.name for node in config.events.values() for r in node.roles}
    for names in (own, anywhere):
        if role in names:
            return role
        if base in names:
            return base
    return base


def _attribute(reader: _Reader, number: int, fields: list[str]) -> None:
    parts = fields[1].split() if len(fields) >= 2 else []
    if len(parts) not in (2, 3):
        reader.fail(number, "malformed attribute (expected ID<TAB>NAME TARGET [VALUE])")
        return
    name, target, value = parts[0], parts[1], (parts[2] if len(parts) == 3 else None)
    if not reader.claim(fields[0], number):
        return
    declared = reader.config.attributes.get(name)
    if declared is None:
        names = list(reader.config.attributes)
        reader.mark(number, f"undeclared attribute {name!r} (expected one of {', '.join(names) or 'none'}"
                            f"{_did_you_mean(name, names)})")
    elif (declared.values is None) != (value is None) or (declared.values is not None and value not in declared.values):
        wanted = "no value" if declared.values is None else "one of " + ", ".join(declared.values)
        reader.mark(number, f"value {value!r} of attribute {name} is not declared (expected {wanted})")
    reader.attributes.append(Attribute(fields[0], name, target, value, number))


def _normalization(reader: _Reader, number: int, fields: list[str]) -> None:
    parts = fields[1].split() if len(fields) >= 2 else []
    if len(fields) not in (2, 3) or len(parts) != 3 or not _NORM_REF.match(parts[2]):
        # brat keeps such a line unparsed and shows the rest of the document; a link is optional
        reader.warnings.append(InputWarning("malformed normalization, not read (expected ID<TAB>Reference "
                                            "TARGET DB:ID<TAB>TEXT, as brat reads it)", reader.path, number))
        return
    db, ref = parts[2].split(":", 1)
    if db not in NOT_KNOWLEDGE_BASES and is_no_link(ref):
        reader.warnings.append(InputWarning(_no_link(db, ref), reader.path, number))
        return
    pattern = _REF_PATTERNS.get(db)
    if pattern is not None and (not pattern.match(ref) or (db == "ISO8601" and not _real_date(ref))):
        reader.fail(number, f"bad {db} identifier {ref!r} (expected {pattern.pattern}, a real date for ISO8601)")
        return
    if reader.claim(fields[0], number):
        reader.normalizations.append(Normalization(fields[0], parts[1], db, ref, number))


def is_no_link(reference: str) -> bool:
    """Whether a normalization's identifier is a conventional "no link" value (NULL, NIL, empty, -)."""
    return reference.strip().lower() in NO_LINK


def _no_link(db: str, ref: str) -> str:
    """The warning for a conventional "no link" value: brat stores it, kg links nothing."""
    example = "an item such as Q76" if db == "Wikidata" else f"an identifier of {db}"
    return f"{db} identifier {ref!r} names no item: the mention stays unlinked (expected {example}, or no N line)"


def _real_date(value: str) -> bool:
    try:
        if len(value) == 10:
            datetime.date.fromisoformat(value)
        return True
    except ValueError:
        return False


def _equiv(reader: _Reader, number: int, fields: list[str]) -> None:
    parts = fields[1].split() if len(fields) >= 2 else []
    if fields[0] != "*" or len(parts) < 3:
        reader.fail(number, "malformed equivalence (expected *<TAB>Equiv ID ID ...)")
        return
    if parts[0] not in reader.config.equiv_types():
        reader.mark(number, f"{parts[0]} is not an equivalence in annotation.conf (expected [relations] "
                            f"{parts[0]}\tArg1:TYPE, Arg2:TYPE, <REL-TYPE>:symmetric-transitive)")
    reader.equivs.append(Equiv(tuple(parts[1:]), number, parts[0]))


def _note(reader: _Reader, number: int, fields: list[str]) -> None:
    parts = fields[1].split() if len(fields) >= 2 else []
    if len(parts) != 2:
        reader.fail(number, "malformed note (expected #ID<TAB>AnnotatorNotes TARGET<TAB>TEXT)")
        return
    reader.notes.append(Note(fields[0], parts[1], "\t".join(fields[2:]), number))


_HANDLERS = {"T": _textbound, "R": _relation, "E": _event, "A": _attribute, "M": _attribute,
             "N": _normalization, "*": _equiv, "#": _note}


def _check_references(reader: _Reader) -> None:
    """Every id an annotation names exists (else an error: brat cannot display it); whether its type
    fits the slot, as brat's verifier checks, is marked (read as written)."""
    types = _types_by_id(reader)
    for rel in reader.relations:
        _check_relation(reader, rel, types)
    for event in reader.events:
        _check_event(reader, event, types)
    reader.events = [_without_dropped(reader, e) for e in reader.events]
    triggers = {e.trigger: e.id for e in reader.events}
    for attr in reader.attributes:
        declared = reader.config.attributes.get(attr.name)
        if _check_target(reader, attr.line, f"attribute {attr.name}", attr.target, types, triggers) \
                and declared is not None and not reader.config.matches(types[attr.target], declared.targets):
            reader.mark(attr.line, f"attribute {attr.name} on a {types[attr.target]} (expected "
                                   f"{'|'.join(declared.targets)}: {_rule(reader, declared.line)})")
    for norm in reader.normalizations:
        _check_target(reader, norm.line, "normalization", norm.target, types, triggers)
    for note in reader.notes:
        _check_target(reader, note.line, "note", note.target, types, triggers)
    for equiv in reader.equivs:
        for member in equiv.members:
            if member not in reader.textbounds and member not in reader.broken:
                reader.fail(equiv.line, f"{equiv.type} refers to undefined id {member} (expected T ids of this file)")
        _check_equiv_types(reader, equiv)
    _check_overlaps(reader)
    _check_contradictions(reader)


def _rule(reader: _Reader, line: int) -> str:
    """Where annotation.conf states the rule an annotation breaks."""
    return f"{Path(reader.config.path).name} line {line}"


def _check_contradictions(reader: _Reader) -> None:
    """One value per slot: two Number, ISO8601 or KG normalizations, or two values of one
    attribute, on the same annotation would leave the graph to pick one silently."""
    seen: dict[tuple[str, str], int] = {}
    slots = [((n.target, n.db), n.line, f"{n.db} normalization") for n in reader.normalizations
             if n.db in ("Number", "ISO8601", "KG")]
    slots += [((a.target, a.name), a.line, f"{a.name} attribute") for a in reader.attributes]
    for key, line, what in slots:
        if key in seen:
            reader.fail(line, f"a second {what} on {key[0]} (expected one; the first is on line {seen[key]})")
        else:
            seen[key] = line


def _types_by_id(reader: _Reader) -> dict[str, str]:
    types = {tid: bound.type for tid, bound in reader.textbounds.items()}
    types.update((e.id, e.type) for e in reader.events)
    types.update((r.id, r.type) for r in reader.relations)
    return types


def _check_target(reader: _Reader, line: int, what: str, target: str, types: dict[str, str],
                  triggers: dict[str, str]) -> bool:
    """A, N and # lines name a T, E or R id, never an event's trigger (brat refuses that)."""
    if target in reader.broken:
        return False
    if target not in types:
        reader.fail(line, f"{what} refers to undefined id {target} (expected a T, E or R id of this file)")
        return False
    if target in triggers:
        reader.fail(line, f"{what} refers to {target}, the trigger of {triggers[target]} "
                          f"(expected {triggers[target]}: brat refuses references to event triggers)")
        return False
    return True


def _check_relation(reader: _Reader, rel: Relation, types: dict[str, str]) -> None:
    ends = ((rel.arg1_role, rel.arg1), (rel.arg2_role, rel.arg2))
    if any(target in reader.broken for _, target in ends):
        return
    missing = [(role, target) for role, target in ends if target not in types]
    for role, target in missing:
        reader.fail(rel.line, f"{rel.type} {role} refers to undefined id {target} (expected a T id of this file)")
    declared = reader.config.relations.get(rel.type)
    if missing or not declared or any(_relation_fits(reader, d, ends, types) for d in declared):
        return
    labelled = [d for d in declared if {d.arg1.name, d.arg2.name} == {rel.arg1_role, rel.arg2_role}]
    if not labelled:
        wanted = " or ".join(f"{d.arg1.name}:ID {d.arg2.name}:ID" for d in declared)
        reader.mark(rel.line, f"{rel.type} has arguments {rel.arg1_role}, {rel.arg2_role} (expected {wanted}: "
                              f"{_rule(reader, declared[0].line)})")
        return
    for role, target in _unfit(labelled, ends, reader, types):
        allowed = sorted({t for d in labelled for t in (d.arg1 if d.arg1.name == role else d.arg2).types})
        reader.mark(rel.line, f"{rel.type} {role} is a {types[target]} (expected {'|'.join(allowed)}: "
                              f"{_rule(reader, labelled[0].line)})")


def _unfit(labelled, ends, reader: _Reader, types: dict[str, str]) -> list[tuple[str, str]]:
    """The (label, id) arguments of a relation whose type no declaration with its labels allows there."""
    return [(role, target) for role, target in ends
            if not any(reader.config.matches(types[target], (d.arg1 if d.arg1.name == role else d.arg2).types)
                       for d in labelled)]


def _relation_fits(reader: _Reader, declared, ends, types: dict[str, str]) -> bool:
    """brat accepts a relation whose labels and types fit a declaration, read either way round."""
    slots = ((declared.arg1, ends[0]), (declared.arg2, ends[1]))
    swapped = ((declared.arg1, ends[1]), (declared.arg2, ends[0]))
    return any(all(slot.name == role and reader.config.matches(types[target], slot.types)
                   for slot, (role, target) in pairing) for pairing in (slots, swapped))


def _check_equiv_types(reader: _Reader, equiv: Equiv) -> None:
    """brat's verifier: every pair of its members' types must fit the equivalence's declaration.
    (An equivalence joining several types is one entity all the same: kg.model.entities.identity.)"""
    config = reader.config
    declared = config.relations.get(equiv.type)
    if not declared:
        return  # marked where it was read
    member_types = sorted({b.type for b in (reader.textbounds.get(m) for m in equiv.members) if b is not None})
    for a in member_types:
        for b in member_types:
            if not any(config.matches(a, d.arg1.types) and config.matches(b, d.arg2.types) for d in declared):
                reader.mark(equiv.line, f"{equiv.type} between {a} and {b} is not declared (expected {a} and {b} in "
                                        f"both arguments of {equiv.type}: {_rule(reader, declared[0].line)})")
                return


def _check_slot(reader: _Reader, event: Event, index: int, slot: str, allowed: tuple[str, ...] | None,
                types: dict[str, str]) -> None:
    """One argument of an event: an undefined id is an error; a type the slot does not allow is
    marked; an event-type span that triggers no event cannot be an argument in the graph (an
    argument is a thing or an event): left out."""
    target = event.args[index][1]
    if target in reader.broken:
        return  # its own line is already reported
    if target not in types:
        reader.fail(event.line, f"{slot} refers to undefined id {target} (expected a T id of this file)")
        return
    if target in reader.textbounds and (types[target] in reader.config.events
                                        or any(e.trigger == target for e in reader.events)) \
            and all(e.trigger != target for e in reader.events):
        reader.dropped.add((event.id, index))
        reader.warnings.append(InputWarning(
            f"{slot} is a {types[target]} span that triggers no event: argument left out (expected the E id of a "
            f"{types[target]} event)", reader.path, event.line))
    elif allowed is not None and not reader.config.matches(types[target], allowed):
        reader.mark(event.line, f"{slot} is a {types[target]} (expected {'|'.join(allowed)}: "
                                f"{_rule(reader, reader.config.events[event.type].line)})")


def _without_dropped(reader: _Reader, event: Event) -> Event:
    if not any(event_id == event.id for event_id, _ in reader.dropped):
        return event
    args = tuple(arg for i, arg in enumerate(event.args) if (event.id, i) not in reader.dropped)
    return Event(event.id, event.type, event.trigger, args, event.line)


def _check_event(reader: _Reader, event: Event, types: dict[str, str]) -> None:
    trigger = reader.textbounds.get(event.trigger)
    if event.trigger in reader.broken:
        pass
    elif trigger is None:
        reader.fail(event.line, f"event trigger refers to undefined id {event.trigger} (expected a T id of this file)")
    elif trigger.type != event.type:
        reader.fail(event.line, f"event {event.type} has trigger {event.trigger} of type {trigger.type} (expected a {event.type} span)")
    node = reader.config.events.get(event.type)
    if node is None:  # an event type annotation.conf lacks: marked where it was read, its roles are its own
        for index, (role, _) in enumerate(event.args):
            _check_slot(reader, event, index, f"{event.type} {role}", None, types)
        return
    roles = {r.name: r for r in node.roles}
    counts = Counter(role for role, _ in event.args)
    for index, (role, _) in enumerate(event.args):
        declared = roles.get(role)
        if declared is None:
            reader.mark(event.line, f"undeclared role {role!r} for {event.type} (expected one of "
                                    f"{', '.join(roles) or 'none'}: {_rule(reader, node.line)})")
        _check_slot(reader, event, index, f"{event.type} {role}", declared.types if declared else None, types)
    for name, role in roles.items():
        if counts[name] < role.minimum:
            wanted = f"{name}:ID" if role.minimum == 1 else f"at least {role.minimum} {name} arguments"
            reader.mark(event.line, (f"{event.type} lacks its {name} argument" if counts[name] == 0 else
                                     f"{event.type} has {counts[name]} {name} arguments")
                        + f" (expected {wanted}: {_rule(reader, node.line)})")
        if counts[name] > role.maximum:
            wanted = "at most one" if role.maximum == 1 else f"at most {role.maximum}"
            reader.mark(event.line, f"{event.type} has {counts[name]} {name} arguments (expected {wanted}: "
                                    f"{_rule(reader, node.line)})")


def _check_overlaps(reader: _Reader) -> None:
    """Entity spans that overlap need an <OVERLAP> rule allowing it, as brat's verifier demands."""
    config = reader.config
    bounds = sorted((b for b in reader.textbounds.values() if b.type not in config.events),
                    key=lambda b: (b.begin, -b.end, b.line))
    open_: list[TextBound] = []
    for bound in bounds:
        open_ = [o for o in open_ if o.end > bound.begin]
        for other in open_:
            kind = _overlap_kind(other, bound)
            if not config.overlap_allowed(bound.type, other.type, kind):
                where = {"equal": "has the same span as", "contain": "is inside", "cross": "crosses"}[kind]
                reader.mark(bound.line, f"a {bound.type} {where} a {other.type} (expected <OVERLAP>\tArg1:{bound.type}, "
                                        f"Arg2:{other.type}, <OVL-TYPE>:{kind} in annotation.conf, or spans that do "
                                        "not overlap)")
        open_.append(bound)


def _overlap_kind(first: TextBound, second: TextBound) -> str:
    """How `second` (starting no earlier) overlaps `first`."""
    if first.spans == second.spans:
        return "equal"
    if first.begin <= second.begin and second.end <= first.end:
        return "contain"
    return "cross"
