"""Pre-annotation beside the human annotations: what a human already annotated is not
suggested again, suggestions become .ann lines after the human ones, and are scored against them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from kg.formats.brat.conf import AnnotationConfig, AttributeType
from kg.formats.records import Annotations
from kg.suggest.suggestion import Suggestion


def without_human(suggestions: list[Suggestion], human: Annotations, config: AnnotationConfig) -> list[Suggestion]:
    """Suggestions a merge may add: none on a span a human annotated (whatever the type), none
    overlapping a human entity span in a way the configuration does not allow."""
    bounds = [b for b in human.textbounds.values()]
    kept = []
    for s in suggestions:
        clash = False
        for b in bounds:
            if b.end <= s.begin or s.end <= b.begin:
                continue
            if (b.begin, b.end) == (s.begin, s.end) and len(b.spans) == 1:
                clash = True
            elif b.type in config.entities:
                inside = b.begin <= s.begin and s.end <= b.end
                kind = "contain" if inside or (s.begin <= b.begin and b.end <= s.end) else "cross"
                inner, outer = (s.type, b.type) if inside else (b.type, s.type)
                clash = clash or not config.overlap_allowed(inner, outer, kind)
        if not clash:
            kept.append(s)
    return _arguments_found(kept, human, config)


def _arguments_found(kept: list[Suggestion], human: Annotations, config: AnnotationConfig) -> list[Suggestion]:
    """Each event's arguments point at a kept suggestion or at the human entity of that span (by
    its id); an argument with neither is dropped, and an event with it if its role is required."""
    suggested = {(s.begin, s.end) for s in kept if s.kind != "event"}
    humans = {(b.begin, b.end): b.id for b in human.textbounds.values()
              if b.type in config.entities and len(b.spans) == 1}
    found = []
    for s in kept:
        roles = {role.name: role for role in config.events[s.type].roles} if s.kind == "event" else {}
        args = []
        for role, begin, end, _ in s.args:
            if (begin, end) in humans or (begin, end) in suggested:
                args.append((role, begin, end, humans.get((begin, end))))
            elif not roles[role].optional:
                break
        else:
            found.append(replace(s, args=tuple(args)) if s.args else s)
    return found


def ann_lines(suggestions: list[Suggestion], first: dict[str, int] | None = None,
              qualifier: AttributeType | None = None) -> list[str]:
    """brat standoff lines (T, E for an event trigger with its arguments, N, AnnotatorNotes, and
    the `qualifier` attribute of a figure when the configuration declares that value) for the
    suggestions; ids start after `first` (the highest T, E, N, A and # numbers already used). An
    event's note is on the event, since brat allows none on its trigger."""
    used = {"T": 0, "E": 0, "N": 0, "A": 0, "#": 0, **(first or {})}
    tids = [f"T{used['T'] + n}" for n in range(1, len(suggestions) + 1)]
    spans = {(s.begin, s.end): tid for s, tid in zip(suggestions, tids) if s.kind != "event"}
    used["T"] += len(suggestions)
    lines = []
    for s, tid in zip(suggestions, tids):
        lines.append(f"{tid}\t{s.type} {s.begin} {s.end}\t{s.text}")
        if s.kind == "event":
            used["E"] += 1
            args = "".join(f" {role}:{hid or spans[(begin, end)]}" for role, begin, end, hid in s.args
                           if hid or (begin, end) in spans)
            lines.append(f"E{used['E']}\t{s.type}:{tid}{args}")
            tid = f"E{used['E']}"
        if qualifier and s.qualifier in (qualifier.values or ()):
            used["A"] += 1
            lines.append(f"A{used['A']}\t{qualifier.name} {tid} {s.qualifier}")
        if s.db:
            used["N"] += 1
            lines.append(f"N{used['N']}\tReference {tid} {s.db}:{s.ref}\t{s.text}")
        used["#"] += 1
        lines.append(f"#{used['#']}\tAnnotatorNotes {tid}\t{_one_line(s.note)}")
    return lines


def _one_line(text: str) -> str:
    return " ".join(text.split())


def highest_ids(ann_text: str) -> dict[str, int]:
    """The highest number used for T, E, N, A (and M) and # ids in an .ann file."""
    highest = {"T": 0, "E": 0, "N": 0, "A": 0, "#": 0}
    for match in re.finditer(r"^([TENAM#])(\d+)\t", ann_text, re.MULTILINE):
        kind = "A" if match.group(1) == "M" else match.group(1)
        highest[kind] = max(highest[kind], int(match.group(2)))
    return highest


@dataclass(frozen=True)
class Score:
    """Suggestions against human annotations: exact (span and type) and span-only matches."""

    suggested: int
    human: int
    exact: int
    span: int

    def precision(self, exact: bool = True) -> float:
        return (self.exact if exact else self.span) / self.suggested if self.suggested else 0.0

    def recall(self, exact: bool = True) -> float:
        return (self.exact if exact else self.span) / self.human if self.human else 0.0

    def __add__(self, other: Score) -> Score:
        return Score(self.suggested + other.suggested, self.human + other.human,
                     self.exact + other.exact, self.span + other.span)


def score(suggestions: list[Suggestion], human: Annotations, config: AnnotationConfig) -> Score:
    """Compare the entity suggestions with the human entity annotations (events: kg.suggest.events)."""
    bounds = [b for b in human.textbounds.values() if b.type in config.entities and len(b.spans) == 1]
    typed = {(b.begin, b.end, b.type) for b in bounds}
    spans = {(b.begin, b.end) for b in bounds}
    suggestions = [s for s in suggestions if s.kind != "event"]
    exact = sum((s.begin, s.end, s.type) in typed for s in suggestions)
    span = sum((s.begin, s.end) in spans for s in suggestions)
    return Score(len(suggestions), len(bounds), exact, span)
