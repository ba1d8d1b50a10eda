"""Frozen records for what the parsers read. Downstream code trusts them:
input is validated once, in kg.formats.brat.ann and kg.formats.corpus."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from kg.errors import InputWarning


def id_order(ann_id: str) -> tuple[int, str]:
    """Sort key of annotation ids in the order brat numbers them: T9 before T10, then by the id."""
    digits = "".join(c for c in ann_id if c.isdigit())
    return (int(digits) if digits else 0, ann_id)


@dataclass(frozen=True)
class Span:
    """A 0-based, end-exclusive character range."""

    begin: int
    end: int


@dataclass(frozen=True)
class TextBound:
    """A brat T line: an entity mention or an event trigger."""

    id: str
    type: str
    spans: tuple[Span, ...]
    text: str
    line: int

    # Computed once per mention (a graph asks for them for every fact the mention is in); kept in
    # the instance's __dict__, outside the fields that compare, hash and print it.
    @cached_property
    def begin(self) -> int:
        """Where the first of its fragments starts (brat lets fragments be written in any order)."""
        return min(s.begin for s in self.spans)

    @cached_property
    def end(self) -> int:
        return max(s.end for s in self.spans)


@dataclass(frozen=True)
class Relation:
    """A brat R line: `ID	TYPE LABEL1:ID LABEL2:ID` (the labels are Arg1 and Arg2 unless the
    configuration names them otherwise)."""

    id: str
    type: str
    arg1: str
    arg2: str
    line: int
    arg1_role: str = "Arg1"
    arg2_role: str = "Arg2"


@dataclass(frozen=True)
class Event:
    """A brat E line: a trigger and (role, argument id) pairs. A role is named as annotation.conf
    declares it: `Theme2` is a second `Theme` where the configuration declares Theme, `Arg1` is
    itself where it declares Arg1 (kg.formats.brat.ann.declared_role)."""

    id: str
    type: str
    trigger: str
    args: tuple[tuple[str, str], ...]
    line: int


@dataclass(frozen=True)
class Attribute:
    """A brat A line: a binary attribute (value None) or a multi-valued one."""

    id: str
    name: str
    target: str
    value: str | None
    line: int


@dataclass(frozen=True)
class Normalization:
    """A brat N line: `target` refers to `db:ref`."""

    id: str
    target: str
    db: str
    ref: str
    line: int


@dataclass(frozen=True)
class Equiv:
    """A brat `*	Equiv` line (or another symmetric-transitive type): mentions of one thing."""

    members: tuple[str, ...]
    line: int
    type: str = "Equiv"


@dataclass(frozen=True)
class Note:
    """A brat `#` line."""

    id: str
    target: str
    text: str
    line: int


@dataclass(frozen=True)
class Annotations:
    """Everything one .ann file says, validated against its text and annotation.conf."""

    textbounds: dict[str, TextBound] = field(default_factory=dict)
    relations: tuple[Relation, ...] = ()
    events: tuple[Event, ...] = ()
    attributes: tuple[Attribute, ...] = ()
    normalizations: tuple[Normalization, ...] = ()
    equivs: tuple[Equiv, ...] = ()
    notes: tuple[Note, ...] = ()
    warnings: tuple[InputWarning, ...] = ()  # what the annotation tool only marks: read as written, or left out
    undeclared: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # entity and event types annotation.conf lacks


@dataclass(frozen=True)
class Metadata:
    """One article's metadata record (<slug>.json)."""

    title: str
    publisher: str | None = None
    author: str | None = None
    date: str | None = None
    date_note: str | None = None
    language: str = "en"


@dataclass(frozen=True)
class Document:
    """One article: its text, metadata and annotations."""

    slug: str
    text: str
    metadata: Metadata
    annotations: Annotations
    source: str = ""  # the file the annotations come from, for located errors found after parsing


@dataclass(frozen=True)
class BratDocument:
    """One document of another format as brat has it, in memory: the text, the .ann lines and an
    annotation.conf for them (what the registry's readers return, kg.formats.registry).

    `warnings` lists what was not carried over (layers and features kg does not
    read, spans with no text): (one sentence, how many times it was found, the line of the
    element it is about in the source file, or None); the reader gives them the document's path.
    `labels`: the display names its project gives the names of its annotation.conf (INCEpTION's
    uiName of a layer or feature), which the corpus vocabulary takes as their rdfs:label."""

    text: str
    ann: str
    conf: str
    warnings: tuple[tuple[str, int, int | None], ...] = ()
    labels: tuple[tuple[str, str], ...] = ()  # (name, display name) of the types, relations and attributes it declares
