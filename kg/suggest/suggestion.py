"""One suggested annotation: the record kg.suggest.spans and its date and figure matchers return."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Suggestion:
    """One suggested text-bound annotation, with its normalization and the reason for it."""

    begin: int
    end: int
    text: str
    type: str
    db: str | None
    ref: str | None
    note: str
    kind: str = "name"
    qualifier: str | None = None  # for a figure: MoreThan, Nearly, About, UpTo or LessThan
