"""Pre-annotation: suggest brat text-bound annotations for known names, dates and figures.

Pure: a text, a lexicon of known names (the alias table, optionally names annotated
elsewhere in the corpus) and the annotation configuration give suggestions; nothing is
read or written here (kg.suggest_files does that).

Names match like the resolver compares them (kg.resolve.normalize): accents, case,
possessive 's and punctuation do not count, a leading "the" is not part of the name,
and a match starts and ends on word boundaries. One exception: a name written in
capitals in the lexicon ("US", "UN") matches only capitals in the text, since "us" is a
pronoun. Where candidates overlap, the longest wins, then the earliest, then dates
before figures before names, then the type and key in alphabetical order.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import date, timedelta

from kg.conf import AnnotationConfig, AttributeType
from kg.iris import fold
from kg.model import Annotations
from kg.aliases import AliasTable, normalize

_TOKEN = re.compile(r"[^\W_](?:[^\W_]|[\u0300-\u036f])*")  # a word, with its combining accents (NFD text)
_GAP = re.compile(r"[ \u00a0.'’\-]{1,3}")  # what may separate two words of one name in the text
_KIND_ORDER = {"date": 0, "figure": 1, "name": 2}


@dataclass(frozen=True)
class Candidate:
    """What a known name stands for: a type, a key (None: no KG link) and where it is known from."""

    type: str
    key: str | None
    source: str


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


Lexicon = dict[str, list[Candidate]]


def alias_lexicon(aliases: AliasTable, config: AnnotationConfig) -> Lexicon:
    """Every label, alias and hidden label of an entry whose type is an entity type of the
    configuration. A title and a name ('President Nicolás Maduro', where 'President' names a
    role and 'Nicolás Maduro' the same entry) is left out: the title is a Membership trigger."""
    roles = {normalize(n) for e in aliases.entries.values() if e.family == "role"
             for n in (e.label, *e.aliases, *e.hidden)}
    lexicon: Lexicon = defaultdict(list)
    for entry in aliases.entries.values():
        if not config.usable(entry.type) or entry.type not in config.entities:
            continue
        names = {normalize(n) for n in (entry.label, *entry.aliases, *entry.hidden)}
        for name in dict.fromkeys((entry.label, *entry.aliases, *entry.hidden)):
            form = _lexicon_form(name)
            if any(form.startswith(r + " ") and form[len(r) + 1:] in names for r in roles):
                continue
            if form and not any(c.key == entry.key for c in lexicon[form]):
                lexicon[form].append(Candidate(entry.type, entry.key, f"alias table: {entry.key}"))
    return dict(lexicon)


def corpus_lexicon(names: list[tuple[str, str, str | None, str]]) -> Lexicon:
    """Names annotated elsewhere, as (text, type, key or None, document): each normalized
    name takes its most frequent type and key (ties: alphabetical). Only proper names are
    taken (every word capitalized but short connectives), not descriptions such as "the soldier"."""
    seen: dict[str, Counter] = defaultdict(Counter)
    where: dict[tuple[str, str, str | None], str] = {}
    for text, type_, key, slug in names:
        form = _lexicon_form(text)
        if form and is_proper_name(text):
            seen[form][(type_, key)] += 1
            where.setdefault((form, type_, key), slug)
    lexicon: Lexicon = {}
    for form, counts in seen.items():
        (type_, key), _ = min(counts.items(), key=lambda item: (-item[1], item[0][0], item[0][1] or ""))
        lexicon[form] = [Candidate(type_, key, f"annotated in {where[(form, type_, key)]} as {type_}"
                                                + (f" {key}" if key else ""))]
    return lexicon


def merge_lexicons(first: Lexicon, second: Lexicon) -> Lexicon:
    """`first` wins where both know a name (the alias table over names annotated elsewhere)."""
    return {**second, **first}


def is_proper_name(text: str) -> bool:
    """'Juan Guaidó', 'Human Rights Watch', 'Villa del Rosario' yes; 'the soldier', 'a Venezuelan soldier' no."""
    words = re.findall(r"[^\W\d_]+", text)
    if words and words[0].lower() == "the":
        words = words[1:]
    if not words or not words[0][0].isupper():
        return False
    return all(w[0].isupper() or (len(w) <= 3 and w.islower()) for w in words)


def _lexicon_form(name: str) -> str:
    """The normalized form, with an all-capitals name marked so it matches capitals only."""
    form = normalize(name)
    if re.fullmatch(r"[A-Z]{2,4}", name.strip()):
        return "^" + form
    return form


def tokens(text: str) -> list[tuple[str, int, int]]:
    """Words of the text as (folded form, begin, end); a possessive 's is not a word (normalize drops it)."""
    found: list[tuple[str, int, int]] = []
    for match in _TOKEN.finditer(text):
        word = match.group()
        if word in ("s", "S") and found and found[-1][2] == match.start() - 1 and text[match.start() - 1] in "'’":
            continue
        found.append((fold(word), match.start(), match.end()))
    return found


def match_names(text: str, lexicon: Lexicon) -> list[Suggestion]:
    """Every occurrence of a lexicon name on word boundaries (overlapping ones included)."""
    words = tokens(text)
    longest = max((form.lstrip("^").count(" ") + 1 for form in lexicon), default=0)
    found = []
    for i, (_, begin, _) in enumerate(words):
        for n in range(1, min(longest, len(words) - i) + 1):
            last = words[i + n - 1]
            if n > 1 and not _GAP.fullmatch(text[words[i + n - 2][2]:last[1]]):
                break
            form = " ".join(w[0] for w in words[i:i + n])
            end = last[2] + (text[last[2]:last[2] + 1] == "." and "." in text[begin:last[2]])
            span = text[begin:end]
            candidates = lexicon.get(form, [])
            if re.fullmatch(r"[A-Z]{2,4}", span):
                candidates = candidates + lexicon.get("^" + form, [])
            for candidate in candidates:
                found.append(_name_suggestion(begin, end, span, candidate))
    return found


def _name_suggestion(begin: int, end: int, span: str, candidate: Candidate) -> Suggestion:
    db, ref = ("KG", candidate.key) if candidate.key else (None, None)
    return Suggestion(begin, end, span, candidate.type, db, ref, f"{candidate.source} (matched {span!r})")


# --- dates -------------------------------------------------------------------------------------

_MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
           "october", "november", "december"]
_MONTH_WORD = (r"(?:Jan(?:uary|\.)?|Feb(?:ruary|\.)?|Mar(?:ch|\.)?|Apr(?:il|\.)?|May|June?\.?|July?\.?"
               r"|Aug(?:ust|\.)?|Sept?(?:ember|\.)?|Oct(?:ober|\.)?|Nov(?:ember|\.)?|Dec(?:ember|\.)?)")
_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_WEEKDAY = r"(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)"
_SP = r"[ \u00a0]+"
_DAY = r"(?:[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?"
_YEAR = r"(?:1[89]\d\d|20\d\d)"
_DATE = re.compile(
    rf"(?<![\w,.])(?:(?P<wd>{_WEEKDAY}),?{_SP})?(?:"
    rf"(?P<m1>{_MONTH_WORD}){_SP}(?P<d1>{_DAY})\b(?:,?{_SP}(?P<y1>{_YEAR}))?"
    rf"|(?P<d2>{_DAY}){_SP}(?P<m2>{_MONTH_WORD})(?:,?{_SP}(?P<y2>{_YEAR}))?"
    rf"|(?P<m3>{_MONTH_WORD})(?:,?{_SP}(?P<y3>{_YEAR}))"
    rf"|(?P<m4>January|February|March|April|June|July|August|September|October|November|December)"
    rf"|(?P<y4>{_YEAR}))(?![\w,]\w|\.\d)"
    rf"|(?<![\w,.])(?P<wd2>{_WEEKDAY})(?:{_SP}(?:morning|afternoon|evening|night))?\b"
    rf"|(?<![\w,.])(?P<rel>(?:[Ll]ast|[Tt]his|[Nn]ext){_SP}(?:month|year)|[Tt]oday|[Yy]esterday)\b")


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


def _iso(year: int, month: int, day: int | None) -> str:
    if day is None:
        return f"{year:04d}-{month:02d}"
    try:
        return date(year, month, day).isoformat()
    except ValueError:
        return f"{year:04d}-{month:02d}"


def _show(published) -> str:
    return "-".join(f"{p:02d}" for p in published if p is not None)


# --- figures -----------------------------------------------------------------------------------

_UNITS = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve thirteen "
                                     "fourteen fifteen sixteen seventeen eighteen nineteen".split())}
_TENS = {w: 10 * i for i, w in enumerate("_ _ twenty thirty forty fifty sixty seventy eighty ninety".split(), ) if i > 1}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 10**6, "billion": 10**9}
_NUMBER_WORD = "|".join(sorted([*_UNITS, *_TENS], key=len, reverse=True))
_QUALIFIERS = (r"(?:more|fewer|less)\s+than|over|nearly|almost|about|around|roughly|approximately|some|"
               r"up\s+to|at\s+least|at\s+most|as\s+many\s+as|just\s+over|just\s+under|under")
_FIGURE = re.compile(
    rf"(?<![\w,.$])(?:(?P<q>{_QUALIFIERS}){_SP})?(?:"
    rf"(?P<n>\d{{1,3}}(?:,\d{{3}})+|\d+(?:\.\d+)?)(?:{_SP}(?P<ns>hundred|thousand|million|billion))?"
    rf"|(?P<w>(?:{_NUMBER_WORD})(?:[- ](?:{_NUMBER_WORD}))?)(?:{_SP}(?P<ws>hundred|thousand|million|billion))?"
    rf"|(?P<vague>(?:a{_SP}few|few|several|many){_SP}(?:dozen|hundred|thousand)s?|(?:dozens|hundreds|thousands|millions)"
    rf"|scores(?={_SP}of\b)))"
    rf"(?:{_SP}(?P<pct>percent|per{_SP}cent)|%)?(?![\w]|[.,]\d)", re.IGNORECASE)

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


# --- choosing ----------------------------------------------------------------------------------

def suggest(text: str, lexicon: Lexicon, config: AnnotationConfig, *, published: str | None = None,
            date_type: str | None = None, figure_type: str | None = None) -> list[Suggestion]:
    """Non-overlapping suggestions for one text, in text order. Dates and figures are
    suggested when the configuration has a type for them (`date_type`, `figure_type`)."""
    found = match_names(text, lexicon)
    if date_type and config.usable(date_type):
        found += match_dates(text, published, date_type)
    if figure_type and config.usable(figure_type):
        found += match_figures(text, figure_type)
    return sorted(_choose(found), key=lambda s: (s.begin, s.end))


def _choose(found: list[Suggestion]) -> list[Suggestion]:
    """Longest first, then earliest, then dates, figures, names, then type and key: a
    candidate overlapping one already taken is dropped."""
    taken: list[Suggestion] = []
    order = sorted(found, key=lambda s: (s.begin - s.end, s.begin, _KIND_ORDER[s.kind], s.type, s.ref or ""))
    for candidate in order:
        if all(candidate.end <= t.begin or t.end <= candidate.begin for t in taken):
            taken.append(candidate)
    return taken


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
    return kept


def ann_lines(suggestions: list[Suggestion], first: dict[str, int] | None = None,
              qualifier: AttributeType | None = None) -> list[str]:
    """brat standoff lines (T, N, AnnotatorNotes, and the `qualifier` attribute of a figure
    when the configuration declares that value) for the suggestions; ids start after `first`
    (the highest T, N, A and # numbers already used)."""
    used = {"T": 0, "N": 0, "A": 0, "#": 0, **(first or {})}
    lines = []
    for s in suggestions:
        used["T"] += 1
        tid = f"T{used['T']}"
        lines.append(f"{tid}\t{s.type} {s.begin} {s.end}\t{s.text}")
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
    """The highest number used for T, N, A (and M) and # ids in an .ann file."""
    highest = {"T": 0, "N": 0, "A": 0, "#": 0}
    for match in re.finditer(r"^([TNAM#])(\d+)\t", ann_text, re.MULTILINE):
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

    def __add__(self, other: "Score") -> "Score":
        return Score(self.suggested + other.suggested, self.human + other.human,
                     self.exact + other.exact, self.span + other.span)


def score(suggestions: list[Suggestion], human: Annotations, config: AnnotationConfig) -> Score:
    """Compare with the human entity annotations (event triggers are not suggested, so not counted)."""
    bounds = [b for b in human.textbounds.values() if b.type in config.entities and len(b.spans) == 1]
    typed = {(b.begin, b.end, b.type) for b in bounds}
    spans = {(b.begin, b.end) for b in bounds}
    exact = sum((s.begin, s.end, s.type) in typed for s in suggestions)
    span = sum((s.begin, s.end) in spans for s in suggestions)
    return Score(len(suggestions), len(bounds), exact, span)
