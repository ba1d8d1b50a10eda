"""Read past what brat only warns about in an .ann file: an annotation that cannot be read because
of a configuration problem brat warns about (a type annotation.conf names in an argument list but
declares nowhere) is skipped, and so is every annotation that points to a skipped one, each with a
warning at its own line. The build goes on, and nothing is left out without a word."""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable

from kg.errors import InputWarning

DEPENDS = ("skipped: it points to an annotation that is skipped (expected its target read; see the warning on "
           "the target's line)")


def skip_dependents(reader) -> None:
    """Drop from `reader` (kg.formats.brat.ann's) every annotation that points to a skipped one, until
    none does: a relation or event pointing to a skipped one is skipped in turn."""
    while True:
        before = len(reader.skipped)
        reader.relations = [r for r in reader.relations
                            if _kept(reader, r.id, r.line, (r.arg1, r.arg2))]
        reader.events = [e for e in reader.events
                         if _kept(reader, e.id, e.line, (e.trigger, *(t for _, t in e.args)))]
        if len(reader.skipped) == before:
            break
    reader.attributes = [a for a in reader.attributes if _kept(reader, a.id, a.line, (a.target,))]
    reader.normalizations = [n for n in reader.normalizations if _kept(reader, n.id, n.line, (n.target,))]
    reader.notes = [n for n in reader.notes if _kept(reader, n.id, n.line, (n.target,))]
    reader.equivs = [_without_skipped(reader, e) for e in reader.equivs]
    reader.equivs = [e for e in reader.equivs if len(e.members) > 1]


def _kept(reader, ann_id: str, line: int, targets: Iterable[str]) -> bool:
    if not any(t in reader.skipped for t in targets):
        return True
    reader.skipped.add(ann_id)
    reader.warnings.append(InputWarning(DEPENDS, reader.path, line))
    return False


def _without_skipped(reader, equiv):
    members = tuple(m for m in equiv.members if m not in reader.skipped)
    if len(members) == len(equiv.members):
        return equiv
    reader.warnings.append(InputWarning(f"{equiv.type} read without its skipped members"
                                        + ("" if len(members) > 1 else ", so not at all")
                                        + " (expected every member read; see the warnings on their lines)",
                                        reader.path, equiv.line))
    return replace(equiv, members=members)
