"""One suggested annotation: the record the name, date and figure matchers return (kg.suggest.matchers.spans, dates, figures)."""

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
    # for an event: (role, begin, end, id) of each argument: the span of a suggested name (id None)
    # or, in a merge, of a human entity (its T id; kg.suggest.human.without_human sets it)
    args: tuple[tuple[str, int, int, str | None], ...] = ()
