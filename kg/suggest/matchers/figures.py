"""Figures in a text: numbers and quantities with their value and qualifier ('more than 1,400').

Durations, distances and ages are left out; vague quantities ('hundreds', 'scores of') are
suggested without a value, since the text gives none.
"""

from __future__ import annotations

import re

from kg.model.iris import fold
from kg.suggest.matchers.dates import SPACE
from kg.suggest.suggestion import Suggestion

_UNITS = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve thirteen "
                                     "fourteen fifteen sixteen seventeen eighteen nineteen".split())}
_TENS = {w: 10 * i for i, w in enumerate("_ _ twenty thirty forty fifty sixty seventy eighty ninety".split(), ) if i > 1}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 10**6, "billion": 10**9}
_NUMBER_WORD = "|".join(sorted([*_UNITS, *_TENS], key=len, reverse=True))
_QUALIFIERS = (r"(?:more|fewer|less)\s+than|over|nearly|almost|about|around|roughly|approximately|some|"
               r"up\s+to|at\s+least|at\s+most|as\s+many\s+as|just\s+over|just\s+under|under")
_FIGURE = re.compile(
    rf"(?<![\w,.$])(?:(?P<q>{_QUALIFIERS}){SPACE})?(?:"
    rf"(?P<n>\d{{1,3}}(?:,\d{{3}})+|\d+(?:\.\d+)?)(?:{SPACE}(?P<ns>hundred|thousand|million|billion))?"
    rf"|(?P<w>(?:{_NUMBER_WORD})(?:[- ](?:{_NUMBER_WORD}))?)(?:{SPACE}(?P<ws>hundred|thousand|million|billion))?"
    rf"|(?P<vague>(?:a{SPACE}few|few|several|many){SPACE}(?:dozen|hundred|thousand)s?|(?:dozens|hundreds|thousands|millions)"
    rf"|scores(?={SPACE}of\b)))"
    rf"(?:{SPACE}(?P<pct>percent|per{SPACE}cent)|%)?(?![\w]|[.,]\d)", re.IGNORECASE)

_QUALIFIER_VALUES = {"more than": "MoreThan", "over": "MoreThan", "just over": "MoreThan", "nearly": "Nearly",
                     "almost": "Nearly", "just under": "Nearly", "about": "About", "around": "About",
                     "roughly": "About", "approximately": "About", "some": "About", "up to": "UpTo",
                     "at most": "UpTo", "as many as": "UpTo", "less than": "LessThan", "fewer than": "LessThan",
                     "under": "LessThan"}
_MEASURE = re.compile(r"[ \u00a0-]+(?:years?|months?|weeks?|days?|hours?|minutes?|miles?|kilomet(?:er|re)s?|km|meals?)\b",
                      re.IGNORECASE)
_AGE = re.compile(r", \d{1,3},")


def match_figures(text: str, type_: str) -> list[Suggestion]:
    """Numbers and quantities with their value ('more than 1,400' -> 1400). Left out: a bare
    'one' (rarely a figure), durations, distances and ages ('two years', '14-year veteran',
    'Harry Solano, 36,'); vague quantities ('hundreds') get no value."""
    found = []
    for match in _FIGURE.finditer(text):
        g = match.groupdict()
        if (g["w"] and fold(g["w"]) == "one" and not g["ws"]) or _MEASURE.match(text, match.end()) \
                or _AGE.fullmatch(text, max(match.start() - 2, 0), min(match.end() + 1, len(text))):
            continue
        value = _figure_value(g)
        qualifier = f", qualifier {' '.join(g['q'].split())!r}" if g["q"] else ""
        note = f"figure: {value}{qualifier}" if value is not None else f"figure without a value (vague){qualifier}"
        found.append(Suggestion(match.start(), match.end(), match.group(), type_,
                                "Number" if value is not None else None, value, note, "figure",
                                _QUALIFIER_VALUES.get(" ".join(fold(g["q"] or "").split()))))
    return found


def _figure_value(g: dict) -> str | None:
    if g["vague"]:
        return None
    if g["n"]:
        number = float(g["n"].replace(",", "")) * _SCALES.get(fold(g["ns"] or ""), 1)
    else:
        parts = re.split(r"[- ]", fold(g["w"]))
        number = float(sum(_UNITS.get(p, 0) + _TENS.get(p, 0) for p in parts)) * _SCALES.get(fold(g["ws"] or ""), 1)
    return str(int(number)) if number == int(number) else str(round(number, 6))
