"""Pre-annotation: which of the names, dates, figures, quotes and event triggers found in a
text are suggested.

Where candidates overlap, the longest wins, then the earliest, then dates before figures
before names, then the type and key in alphabetical order; a name of another entity inside
a chosen name is suggested too where the configuration lets it nest ('Maduro' in 'the
Maduro government').
"""

from __future__ import annotations

import re

from kg.formats.brat.conf import AnnotationConfig
from kg.suggest.events import TriggerModel
from kg.suggest.matchers.dates import match_dates
from kg.suggest.matchers.figures import match_figures
from kg.suggest.matchers.spans import Lexicon, match_names
from kg.suggest.suggestion import Suggestion

_KIND_ORDER = {"date": 0, "figure": 1, "name": 2, "event": 3}  # who wins a tie between overlapping candidates


def suggest(text: str, lexicon: Lexicon, config: AnnotationConfig, *, published: str | None = None,
            date_type: str | None = None, figure_type: str | None = None,
            quote_type: str | None = None, triggers: TriggerModel | None = None,
            others: list[Suggestion] | None = None) -> list[Suggestion]:
    """Suggestions for one text, in text order (a quote before what it holds). Names, dates and figures never overlap each
    other, but a name of another entity nests in a name where the configuration allows it;
    quotations are suggested beside them (a quote holds the names it mentions) when
    the configuration has a quote type that may contain them. Dates, figures and quotes are
    suggested when the configuration has a type for them (`date_type`, `figure_type`, `quote_type`);
    event triggers and their arguments when a trigger model is given (kg.suggest.events): triggers
    never overlap each other but may stand inside a name ('president' in 'Colombian president').
    `others` are names from elsewhere (a named-entity model's, kg.suggest.ner): each is taken
    where no known name, date or figure stands."""
    found = match_names(text, lexicon)
    if date_type and config.usable(date_type):
        found += match_dates(text, published, date_type)
    if figure_type and config.usable(figure_type):
        found += match_figures(text, figure_type)
    chosen = _choose(found)
    chosen += _nested(found, chosen, config)
    chosen += [s for s in _choose(others or []) if not any(s.begin < c.end and c.begin < s.end for c in chosen)]
    if triggers:
        chosen = triggers.argued(chosen + _choose(triggers.found(text)), text, config)
    if quote_type and config.usable(quote_type):
        entities = [s for s in chosen if s.kind != "event"]
        chosen += [q for q in match_quotes(text, quote_type) if _may_hold(q, entities, config)]
    return sorted(chosen, key=lambda s: (s.begin, -s.end))


_QUOTATION = re.compile(r"“([^“”\n]+)”|\"([^\"\n]+)\"")


def match_quotes(text: str, type_: str) -> list[Suggestion]:
    """What stands between a pair of quotation marks on one line (“…” or "…"), without the
    marks and the spaces inside them, as brat annotators of quotes mark it."""
    found = []
    for match in _QUOTATION.finditer(text):
        begin, end = match.span(1 if match.group(1) is not None else 2)
        inner = text[begin:end]
        begin, end = begin + len(inner) - len(inner.lstrip()), end - (len(inner) - len(inner.rstrip()))
        if end > begin:
            found.append(Suggestion(begin, end, text[begin:end], type_, None, None,
                                    "between quotation marks", "quote"))
    return found


def _may_hold(quote: Suggestion, chosen: list[Suggestion], config: AnnotationConfig) -> bool:
    """Whether every suggestion the quote overlaps may nest in it (or cross it) by the configuration."""
    for s in chosen:
        if s.end <= quote.begin or quote.end <= s.begin:
            continue
        inside = quote.begin <= s.begin and s.end <= quote.end
        if not config.overlap_allowed(s.type, quote.type, "contain" if inside else "cross"):
            return False
    return True


def _choose(found: list[Suggestion]) -> list[Suggestion]:
    """Longest first, then earliest, then dates, figures, names, then type and key: a
    candidate overlapping one already taken is dropped."""
    taken: list[Suggestion] = []
    order = sorted(found, key=lambda s: (s.begin - s.end, s.begin, _KIND_ORDER[s.kind], s.type, s.ref or ""))
    for candidate in order:
        if all(candidate.end <= t.begin or t.end <= candidate.begin for t in taken):
            taken.append(candidate)
    return taken


def _nested(found: list[Suggestion], chosen: list[Suggestion], config: AnnotationConfig) -> list[Suggestion]:
    """Names of another entity inside a chosen name, as annotators nest them ('Maduro' in 'the
    Maduro government', 'Venezuela' in "Venezuela's armed forces"), where the configuration lets
    the inner type nest in the outer. Not a shorter spelling of the same entity ('Guaidó' in
    'Juan Guaidó'): another key, or another type when either has no key."""
    outers = [s for s in chosen if s.kind == "name"]
    inner = [s for s in found if s.kind == "name" and s not in chosen
             and any(_inside(s, o) and _other_entity(s, o) and config.overlap_allowed(s.type, o.type, "contain")
                     for o in outers)]
    return _choose(inner)


def _inside(inner: Suggestion, outer: Suggestion) -> bool:
    return outer.begin <= inner.begin and inner.end <= outer.end and (inner.begin, inner.end) != (outer.begin, outer.end)


def _other_entity(inner: Suggestion, outer: Suggestion) -> bool:
    if inner.ref and outer.ref:
        return inner.ref != outer.ref
    return inner.type != outer.type
