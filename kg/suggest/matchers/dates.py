"""Date expressions in a text, with their ISO 8601 value where the text (or the article's date) fixes one.

Written dates ('April 30, 2019', '30 April', 'February 2019', '2014') take their value from
the text; a date missing its year, a weekday, 'today' or 'last month' from the article's
date. Expressions that name a span of time or a date relative to another event ('the past
month', 'two days later') are suggested without a value, for the annotator to settle. The
word before a date may make it the start or the end of a period ('since 2014', 'until March').
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from kg.model.iris import fold
from kg.suggest.suggestion import Suggestion

_MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
           "october", "november", "december"]
_MONTH_WORD = (r"(?:Jan(?:uary|\.)?|Feb(?:ruary|\.)?|Mar(?:ch|\.)?|Apr(?:il|\.)?|May|June?\.?|July?\.?"
               r"|Aug(?:ust|\.)?|Sept?(?:ember|\.)?|Oct(?:ober|\.)?|Nov(?:ember|\.)?|Dec(?:ember|\.)?)")
_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_WEEKDAY = r"(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)"
SPACE = r"[ \u00a0]+"
_DAY = r"(?:[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?"
_YEAR = r"(?:1[89]\d\d|20\d\d)"
_COUNTS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
           "eight": 8, "nine": 9, "ten": 10, "a few": None, "few": None, "several": None}
_COUNT = r"(?:\d{1,3}|(?i:a(?:n|[ \u00a0]+few)?|few|several|one|two|three|four|five|six|seven|eight|nine|ten))"
_DATE = re.compile(
    rf"(?<![\w,.])(?:(?P<wd>{_WEEKDAY}),?{SPACE})?(?:"
    rf"(?P<m1>{_MONTH_WORD}){SPACE}(?P<d1>{_DAY})\b(?:,?{SPACE}(?P<y1>{_YEAR}))?"
    rf"|(?P<d2>{_DAY}){SPACE}(?P<m2>{_MONTH_WORD})(?:,?{SPACE}(?P<y2>{_YEAR}))?"
    rf"|(?P<m3>{_MONTH_WORD})(?:,?{SPACE}(?P<y3>{_YEAR}))"
    rf"|(?P<m4>January|February|March|April|June|July|August|September|October|November|December)"
    rf"|(?P<y4>{_YEAR}))(?![\w,]\w|\.\d)"
    rf"|(?<![\w,.])(?P<wd2>{_WEEKDAY})(?:{SPACE}(?:morning|afternoon|evening|night))?\b"
    rf"|(?<![\w,.])(?P<period>(?:[Tt]he{SPACE})?(?:past|previous|last){SPACE}(?:{_COUNT}{SPACE})?(?:days|weeks|months|years)"
    rf"|(?:[Tt]he{SPACE})?(?:past|previous){SPACE}(?:day|week|month|year))\b"
    rf"|(?<![\w,.])(?P<shift>(?P<count>{_COUNT}){SPACE}(?P<unit>day|week|month|year)s?{SPACE}"
    rf"(?P<way>ago|later|earlier|before|after))\b"
    rf"|(?<![\w,.])(?P<rel>(?:[Ll]ast|[Tt]his|[Nn]ext){SPACE}(?:month|year)|[Tt]oday|[Yy]esterday)\b")


def match_dates(text: str, published: str | None, type_: str) -> list[Suggestion]:
    """Written dates with their ISO 8601 value. A date missing its year, a weekday, 'today' or
    'last month' takes its value from the article's date when that date fixes it; otherwise
    it is suggested without a value."""
    found = []
    for match in _DATE.finditer(text):
        value, why = _date_value(match, _published(published))
        note = f"date expression: {why}" if value else f"date expression without a value: {why}"
        found.append(Suggestion(match.start(), match.end(), match.group(), type_,
                                "ISO8601" if value else None, value, note, "date"))
    return found


def _published(value: str | None) -> tuple[int, int | None, int | None] | None:
    if not value:
        return None
    parts = [int(p) for p in value.split("-")]
    return (parts + [None, None])[0], (parts + [None, None])[1], (parts + [None, None])[2]


def _date_value(match: re.Match, published) -> tuple[str | None, str]:
    g = match.groupdict()
    month_word = g["m1"] or g["m2"] or g["m3"] or g["m4"]
    if month_word:
        month = next(i for i, m in enumerate(_MONTHS, 1) if fold(month_word).startswith(m[:3]))
        day = g["d1"] or g["d2"]
        day = int(re.match(r"\d+", day).group()) if day else None
        year = g["y1"] or g["y2"] or g["y3"]
        if year:
            return _iso(int(year), month, day), "written date"
        if published is None:
            return None, "no year, and the article has no date"
        year = published[0] if published[1] is None or month <= published[1] else published[0] - 1
        return _iso(year, month, day), f"year from the article date {_show(published)}"
    if g["y4"]:
        return g["y4"], "a year"
    if g["period"]:
        return None, f"'{g['period']}' is a span of time before the article, not one date"
    if g["shift"]:
        return _shifted(g, published)
    return _relative(g["wd2"] or g["rel"], published)


def _relative(word: str, published) -> tuple[str | None, str]:
    word = fold(word)
    if word in _WEEKDAYS or word.split()[0] in _WEEKDAYS:
        if published is None or published[2] is None:
            return None, "a weekday, and the article's date is not a day"
        day = date(*published)
        back = (day.weekday() - _WEEKDAYS.index(word.split()[0])) % 7
        return (day - timedelta(days=back)).isoformat(), f"the {word.split()[0].title()} on or before the article date {day}"
    unit = word.split()[-1]
    if unit in ("today", "yesterday"):
        if published is None or published[2] is None:
            return None, f"'{word}', and the article's date is not a day"
        day = date(*published) - timedelta(days=unit == "yesterday")
        return day.isoformat(), f"'{word}' of the article date {_show(published)}"
    shift = {"last": -1, "this": 0, "next": 1}[word.split()[0]]
    if unit == "year" and published:
        return str(published[0] + shift), f"'{word}' from the article date {_show(published)}"
    if unit == "month" and published and published[1]:
        index = published[0] * 12 + published[1] - 1 + shift
        return f"{index // 12:04d}-{index % 12 + 1:02d}", f"'{word}' from the article date {_show(published)}"
    return None, f"'{word}', and the article's date does not fix it"


def _shifted(g: dict, published) -> tuple[str | None, str]:
    """'two years ago' counts back from the article's date; 'two days later' from another event's."""
    phrase = " ".join(g["shift"].split())
    if fold(g["way"]) != "ago":
        return None, f"'{phrase}' counts from another event's date (set it by hand)"
    count = _COUNTS.get(" ".join(fold(g["count"]).split())) if not g["count"].isdigit() else int(g["count"])
    unit = fold(g["unit"])
    if count is None or published is None:
        return None, f"'{phrase}', and the article's date or the count does not fix it"
    if unit == "year":
        return str(published[0] - count), f"'{phrase}' from the article date {_show(published)}"
    if unit == "month" and published[1]:
        index = published[0] * 12 + published[1] - 1 - count
        return f"{index // 12:04d}-{index % 12 + 1:02d}", f"'{phrase}' from the article date {_show(published)}"
    if published[2] is None or unit == "month":
        return None, f"'{phrase}', and the article's date is not precise enough"
    back = timedelta(days=count * (7 if unit == "week" else 1))
    return (date(*published) - back).isoformat(), f"'{phrase}' from the article date {_show(published)}"


def _iso(year: int, month: int, day: int | None) -> str:
    if day is None:
        return f"{year:04d}-{month:02d}"
    try:
        return date(year, month, day).isoformat()
    except ValueError:
        return f"{year:04d}-{month:02d}"


def _show(published) -> str:
    return "-".join(f"{p:02d}" for p in published if p is not None)


# The word before a date that makes it the start or the end of a period ("since 2014", "until
# March"), per ISO 639-1 language; a language not listed has no period words.
_PERIOD_WORDS = {
    "en": {"since": "start", "from": "start", "until": "end", "till": "end", "to": "end"},
    "es": {"desde": "start", "hasta": "end"},
    "pt": {"desde": "start", "ate": "end"},
    "fr": {"depuis": "start"},
    "it": {"dal": "start", "dalla": "start"},
    "de": {"seit": "start", "ab": "start", "bis": "end"},
    "nl": {"sinds": "start", "vanaf": "start", "tot": "end"},
}
_WORD_BEFORE = re.compile(r"(\w+)[\s,]*$")


def period_bound(text: str, begin: int, language: str | None) -> str | None:
    """'start' when the date at `begin` follows a word that opens a period ('since', 'from'),
    'end' when one that closes it ('until', 'to'), else None (a point in time, or unsaid)."""
    words = _PERIOD_WORDS.get((language or "").split("-")[0].lower(), {})
    before = _WORD_BEFORE.search(text, max(0, begin - 40), begin)
    return words.get(fold(before.group(1))) if before and words else None
