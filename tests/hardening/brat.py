"""Hypothesis strategies for brat standoff input, and a writer for .ann records.

Three kinds of input:
- `ann_bytes()`: anything, from raw bytes to lines made of brat-like tokens;
- `near_valid_ann()`: the lines of a valid file (tests/data/tiny/alpha.ann)
  with a few mutations (offsets, ids, types, separators, unicode, lines
  dropped, doubled or swapped);
- `valid_document()`: a generated text and valid annotations over it of every
  kind (entities, discontinuous spans, relations, events with numbered
  roles, attributes, normalizations, Equiv groups, notes), with the records
  the reader must return.

The writer here is independent of kg.formats.brat.ann: it follows the brat
standoff format, so a round trip checks the reader against the format.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path

from hypothesis import strategies as st

from kg.errors import InputError
from kg.formats.brat.conf import AnnotationConfig, load_config
from kg.formats.corpus import CONTROL_CHARACTERS
from kg.formats.records import Annotations, Attribute, Equiv, Event, Normalization, Note, Relation, Span, TextBound
from tests.helpers import CORPUS, TINY

CONFIG: AnnotationConfig = load_config(CORPUS / "annotation.conf")
VALID_ANN = (TINY / "alpha.ann").read_text(encoding="utf-8")
VALID_TXT = (TINY / "alpha.txt").read_text(encoding="utf-8")

# Text that is hard on a reader: accents (precomposed and combining), RTL and
# zero-width marks, emoji (astral, with variation selector and ZWJ), quotes,
# markup, and the separators a line splitter may trip on (brat splits on \n only).
HOSTILE_CHARS = ["é", "e\u0301", "ñ", "\u200f", "\u202e", "\u200d", "\u2066", "😀", "👩\u200d👩\u200d👧",
                 "❤\ufe0f", '"', "'", "“", "”", "<", ">", "&", "\\", "\u00a0", "\u2028", "\u2029", "\u0085",
                 "\x0b", "\x0c", "\x1c", "\x00", "\x7f", "\ufffd", "ﬁ", "Å"]
TOKENS = ["T1", "T2", "T3", "T99", "R1", "E1", "E2", "A1", "M1", "N1", "#1", "#", "*", "\t", " ", "  ", "\n",
          "\r\n", "\r", "Person", "City", "Flight", "Membership", "Figure", "Quote", "Date", "Wizard",
          "Arg1:", "Arg2:", "Agent:", "Agent2:", "Member:", "Organization:", "Time:", ":", "Reference",
          "ISO8601:", "Number:", "Wikidata:", "KG:", "Q717", "Q0", "2019-02-23", "2019-02-30", "1400", "1e5",
          "person/ana-ruiz", "person/Ana", "Equiv", "AnnotatorNotes", "Qualifier", "MoreThan", "Negated",
          "Unnamed", "0", "4", "12", "9000", "-1", "99999999999999999999", ";", "Ana Ruiz", "MemberOf",
          "SaidBy", "\ufeff", *HOSTILE_CHARS]


def ann_bytes() -> st.SearchStrategy[bytes]:
    """Any bytes, valid UTF-8 text, or lines of brat-like tokens."""
    token_line = st.lists(st.sampled_from(TOKENS) | st.text(max_size=4), max_size=12).map("".join)
    token_file = st.lists(token_line, max_size=8).map("\n".join).map(lambda s: s.encode("utf-8"))
    return st.binary(max_size=400) | st.text(max_size=200).map(lambda s: s.encode("utf-8")) | token_file


def _mutate_line(draw, line: str) -> str:
    kind = draw(st.sampled_from(["offsets", "id", "type", "separator", "insert", "delete", "truncate"]))
    if kind == "offsets" and re.search(r"\d+", line):
        numbers = list(re.finditer(r"\d+", line))
        m = draw(st.sampled_from(numbers))
        new = str(draw(st.integers(min_value=-5, max_value=400)))
        return line[:m.start()] + new + line[m.end():]
    if kind == "id":
        ids = list(re.finditer(r"\b[TREAN]\d+\b", line))
        if ids:
            m = draw(st.sampled_from(ids))
            new = draw(st.sampled_from(["T", "R", "E", "A", "N", "X"])) + str(draw(st.integers(0, 120)))
            return line[:m.start()] + new + line[m.end():]
    if kind == "type":
        names = list(re.finditer(r"[A-Z][A-Za-z0-9]+", line))
        if names:
            m = draw(st.sampled_from(names))
            new = draw(st.sampled_from(CONFIG.entity_types + list(CONFIG.events) + list(CONFIG.relations)
                                       + list(CONFIG.attributes) + ["Wizard", "person", "Reference", ""]))
            return line[:m.start()] + new + line[m.end():]
    if kind == "separator" and re.search(r"[\t ]", line):
        seps = list(re.finditer(r"[\t ]", line))
        m = draw(st.sampled_from(seps))
        new = draw(st.sampled_from(["\t", " ", "  ", "\t\t", "", "\u00a0", "\u3000", "\r"]))
        return line[:m.start()] + new + line[m.end():]
    if kind == "truncate" and line:
        return line[:draw(st.integers(0, len(line) - 1))]
    if kind == "delete" and line:
        at = draw(st.integers(0, len(line) - 1))
        return line[:at] + line[at + 1:]
    at = draw(st.integers(0, len(line)))
    return line[:at] + draw(st.sampled_from(HOSTILE_CHARS) | st.text(min_size=1, max_size=3)) + line[at:]


@st.composite
def near_valid_ann(draw, source: str = VALID_ANN) -> str:
    """A valid .ann file with one to four mutations: lines changed, dropped, doubled or swapped."""
    lines = source.splitlines()
    for _ in range(draw(st.integers(1, 4))):
        what = draw(st.sampled_from(["line", "line", "line", "drop", "double", "swap"]))
        i = draw(st.integers(0, len(lines) - 1))
        if what == "line":
            lines[i] = _mutate_line(draw, lines[i])
        elif what == "drop" and len(lines) > 1:
            del lines[i]
        elif what == "double":
            lines.insert(i, lines[i])
        else:
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
    ending = draw(st.sampled_from(["\n", "\r\n", ""]))
    return ending.join(lines) + (ending or "\n")


# --- valid documents -------------------------------------------------------------

# What a span may hold: anything but brat's line and field separators (pieces of one or more characters).
# Control characters XML cannot carry are bad input (kg.formats.corpus.CONTROL_CHARACTERS), so never in a valid text.
SPAN_PIECES = (st.characters(codec="utf-8", exclude_characters="\n\r\t").filter(lambda c: not CONTROL_CHARACTERS.search(c))
               | st.sampled_from([c for c in HOSTILE_CHARS if not CONTROL_CHARACTERS.search(c)]))
TEXT_PIECES = SPAN_PIECES | st.sampled_from(["\n", " ", ".", " ", "A", "z"])


def joined(pieces: st.SearchStrategy[str], min_size: int = 0, max_size: int = 40) -> st.SearchStrategy[str]:
    return st.lists(pieces, min_size=min_size, max_size=max_size).map("".join)


@dataclass(frozen=True)
class ValidDocument:
    """A text, the .ann lines written for it, and the records a correct reader returns."""

    text: str
    ann: str
    expected: Annotations


def _allowed(types: tuple[str, ...], bounds: list[TextBound]) -> list[TextBound]:
    return [b for b in bounds if CONFIG.matches(b.type, types)]


@st.composite
def _spans(draw, text: str) -> tuple[Span, ...]:
    """One span, or two in order for a discontinuous one, none holding a separator."""
    cuts = [i for i, c in enumerate(text) if c in "\n\r\t"]

    def piece(start_min: int) -> Span | None:
        if start_min >= len(text):
            return None
        begin = draw(st.integers(start_min, len(text) - 1))
        stop = min([c for c in cuts if c >= begin] + [len(text)])
        if stop <= begin:
            return None
        return Span(begin, draw(st.integers(begin + 1, min(stop, begin + 40))))

    first = piece(0)
    if first is None:
        return ()
    if draw(st.booleans()) and draw(st.booleans()):
        second = piece(first.end + 1)
        if second is not None:
            return (first, second)
    return (first,)


def _tb_line(b: TextBound) -> str:
    offsets = ";".join(f"{s.begin} {s.end}" for s in b.spans)
    return f"{b.id}\t{b.type} {offsets}\t{b.text}"


@st.composite
def valid_document(draw) -> ValidDocument:
    """A generated text with valid annotations of every kind, and the records expected back."""
    text = "A" + draw(joined(TEXT_PIECES, min_size=20, max_size=250))
    types = CONFIG.entity_types + list(CONFIG.events)
    bounds: list[TextBound] = []
    for n in range(1, draw(st.integers(1, 14)) + 1):
        spans = draw(_spans(text))
        if spans:
            type_ = draw(st.sampled_from(types))
            bounds.append(TextBound(f"T{n}", type_, spans, " ".join(text[s.begin:s.end] for s in spans), 0))
    if not bounds:
        bounds.append(TextBound("T1", "Person", (Span(0, 1),), "A", 0))
    items: list[tuple[str, object]] = [(_tb_line(b), b) for b in bounds]
    items += _relations(draw, bounds)
    events = _events(draw, bounds)
    items += events
    items += _attributes(draw, bounds, [e for _, e in events])
    items += _normalizations(draw, bounds, [e for _, e in events])
    items += _equivs_and_notes(draw, bounds)
    order = draw(st.permutations(range(len(items))))
    blank = draw(st.sets(st.integers(0, len(items)), max_size=2))
    lines: list[str] = []
    records: list[object] = []
    for position, index in enumerate(order):
        if position in blank:
            lines.append("")
        line, record = items[index]
        lines.append(line)
        records.append(_with_line(record, len(lines)))
    ending = draw(st.sampled_from(["\n", "\r\n"]))
    return ValidDocument(text, ending.join(lines) + ending, _annotations(records))


def _relations(draw, bounds: list[TextBound]) -> list[tuple[str, object]]:
    out = []
    for n in range(1, draw(st.integers(0, 4)) + 1):
        type_ = draw(st.sampled_from([t for t in CONFIG.relations if t not in CONFIG.equiv_types()]))
        declared = CONFIG.relations[type_][0]
        arg1_types, arg2_types = declared.arg1.types, declared.arg2.types
        first, second = _allowed(arg1_types, bounds), _allowed(arg2_types, bounds)
        if first and second:
            a, b = draw(st.sampled_from(first)), draw(st.sampled_from(second))
            out.append((f"R{n}\t{type_} Arg1:{a.id} Arg2:{b.id}", Relation(f"R{n}", type_, a.id, b.id, 0)))
    return out


def _events(draw, bounds: list[TextBound]) -> list[tuple[str, Event]]:
    out = []
    n = 0
    for trigger in [b for b in bounds if b.type in CONFIG.events]:
        roles = {r.name: r for r in CONFIG.events[trigger.type].roles}
        args: list[tuple[str, str]] = []
        written: list[str] = []
        possible = True
        for name, role in roles.items():
            # an argument names an entity here: an event argument would need its E id, not its trigger
            candidates = [b for b in _allowed(role.types, bounds) if b.type not in CONFIG.events]
            count = draw(st.integers(0 if role.optional else 1, 2 if role.repeatable else 1))
            if count and not candidates:
                possible = possible and role.optional
                continue
            for k in range(count):
                target = draw(st.sampled_from(candidates))
                args.append((name, target.id))
                written.append(f"{name}{k + 1 if k else ''}:{target.id}")
        if possible and draw(st.booleans() | st.just(True)):
            n += 1
            line = f"E{n}\t{trigger.type}:{trigger.id}" + "".join(" " + w for w in written)
            out.append((line, Event(f"E{n}", trigger.type, trigger.id, tuple(args), 0)))
    return out


def _attributes(draw, bounds: list[TextBound], events: list[Event]) -> list[tuple[str, object]]:
    out = []
    n = 0
    for event in events:
        for name in ("Negated", "Speculated"):
            if draw(st.booleans()):
                n += 1
                out.append((f"A{n}\t{name} {event.id}", Attribute(f"A{n}", name, event.id, None, 0)))
    for bound in bounds:
        if CONFIG.matches(bound.type, CONFIG.attributes["Unnamed"].targets) and draw(st.booleans()):
            n += 1
            out.append((f"A{n}\tUnnamed {bound.id}", Attribute(f"A{n}", "Unnamed", bound.id, None, 0)))
        if bound.type == "Figure" and draw(st.booleans()):
            n += 1
            # not Vague: a vague figure with a Number is refused on purpose (tests/corpora/test_fidelity.py)
            value = draw(st.sampled_from([v for v in CONFIG.attributes["Qualifier"].values if v != "Vague"]))
            out.append((f"A{n}\tQualifier {bound.id} {value}", Attribute(f"A{n}", "Qualifier", bound.id, value, 0)))
    return out


def _normalizations(draw, bounds: list[TextBound], events: list[Event]) -> list[tuple[str, object]]:
    out = []
    n = 0
    for bound in bounds:
        family = CONFIG.top(bound.type).lower() if bound.type in CONFIG.parents else None
        if family is None or not draw(st.booleans()):
            continue
        if family == "date":
            db, ref = "ISO8601", draw(st.sampled_from(["2019", "2019-02", "2019-02-23", "2020-02-29"]))
        elif family == "figure":
            db, ref = "Number", str(draw(st.integers(0, 10**7)))
        elif family in ("person", "organization", "place") and draw(st.booleans()):
            db, ref = "Wikidata", f"Q{draw(st.integers(1, 10**8))}"
        elif family in ("person", "organization", "place"):
            db, ref = "KG", f"{family}/{draw(st.sampled_from(['ana-ruiz', 'unhcr', 'x', 'cucuta', 'a-b-9']))}"
        else:
            continue
        n += 1
        out.append((f"N{n}\tReference {bound.id} {db}:{ref}\t{bound.text}",
                    Normalization(f"N{n}", bound.id, db, ref, 0)))
    for event in events:
        if event.type != "Membership" and draw(st.booleans()):  # a membership's node is its own, never linked
            n += 1
            ref = f"event/{draw(st.sampled_from(['aid-convoy', 'e1', 'march-2019']))}"
            out.append((f"N{n}\tReference {event.id} KG:{ref}\tx", Normalization(f"N{n}", event.id, "KG", ref, 0)))
    return out


def _equivs_and_notes(draw, bounds: list[TextBound]) -> list[tuple[str, object]]:
    out: list[tuple[str, object]] = []
    kinds: dict[str, list[str]] = {}  # Equiv joins entity mentions of one top-level type
    for b in bounds:
        if b.type in CONFIG.parents and CONFIG.top(b.type) in ("Person", "Organization", "Place", "Date"):
            kinds.setdefault(CONFIG.top(b.type), []).append(b.id)
    joinable = sorted(ids for ids in kinds.values() if len(ids) >= 2)
    if joinable and draw(st.booleans()):
        members = tuple(draw(st.lists(st.sampled_from(draw(st.sampled_from(joinable))), min_size=2, max_size=3,
                                      unique=True)))
        out.append(("*\tEquiv " + " ".join(members), Equiv(members, 0)))
    entities = [b for b in bounds if b.type in CONFIG.parents]  # brat refuses notes on event triggers
    for n, bound in enumerate(draw(st.lists(st.sampled_from(entities), max_size=2)) if entities else [], start=1):
        note = draw(joined(SPAN_PIECES, max_size=12))
        out.append((f"#{n}\tAnnotatorNotes {bound.id}\t{note}", Note(f"#{n}", bound.id, note, 0)))
    return out


def _with_line(record, line: int):
    return dataclasses.replace(record, line=line)


def _annotations(records: list[object]) -> Annotations:
    def of(kind: type) -> tuple:
        return tuple(r for r in records if type(r) is kind)

    return Annotations({r.id: r for r in of(TextBound)}, of(Relation), of(Event), of(Attribute),
                       of(Normalization), of(Equiv), of(Note))


# --- checking errors ---------------------------------------------------------------

LOCATION = re.compile(r"^(?P<path>.+?)(?::(?P<line>\d+)(?::(?P<col>\d+))?)?: \S")


def assert_located(exc: InputError, files: dict[Path, bytes]) -> None:
    """Every problem in `exc` names one of `files`, and a line (and column) inside it when it gives one."""
    problems = getattr(exc, "errors", None) or [exc]
    report = str(exc)
    assert all(problem.reason in report for problem in problems), f"a problem missing from the report:\n{report}"
    names = {str(p): data for p, data in files.items()}
    for problem in problems:
        text = InputError._render(problem)  # its own line, or one of the places of its kind's line
        assert problem.path in names, f"{problem.path!r} is not one of {sorted(names)}: {text}"
        match = LOCATION.match(text)
        assert match and match.group("path") == problem.path, f"not path:line: {text!r}"
        if problem.line is not None:
            lines = len(re.split(rb"\r\n|\r|\n", names[problem.path]))  # brat's line breaks
            assert 1 <= problem.line <= lines, f"line {problem.line} outside 1..{lines}: {text}"
            assert match.group("line") == str(problem.line), text
        if problem.column is not None:
            assert problem.column >= 1 and match.group("col") == str(problem.column), text
