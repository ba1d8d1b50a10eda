"""Pre-annotation: suggest brat text-bound annotations for known names, dates and figures.

Pure: a text, a lexicon of known names (the alias table, optionally names annotated
elsewhere in the corpus) and the annotation configuration give suggestions; nothing is
read or written here (kg.suggest.files does that).

Names match like the resolver compares them (kg.model.resolve.normalize): accents, case,
possessive 's and punctuation do not count ("Venezuela’s security forces" is one name), a
leading "the" is not part of the name, and a match starts and ends on word boundaries. Two
exceptions: a name written in capitals in the lexicon ("US", "UN") matches only capitals in
the text, since "us" is a pronoun; and a name every known spelling of which starts with a
capital does not match a word in lower case ("Segunda" is a name, "segunda" an adjective).
Where candidates overlap, the longest wins, then the earliest, then dates before figures
before names, then the type and key in alphabetical order; a name of another entity inside
a chosen name is suggested too where the configuration lets it nest ('Maduro' in 'the
Maduro government').
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from kg.formats.brat.conf import AnnotationConfig, AttributeType
from kg.model.iris import fold
from kg.formats.records import Annotations
from kg.model.aliases import AliasTable, normalize
from kg.suggest.dates import match_dates
from kg.suggest.figures import match_figures
from kg.suggest.suggestion import Suggestion

if TYPE_CHECKING:
    from kg.suggest.events import TriggerModel

# Scripts written without spaces between words (Han, kana, Thai): each character is a token, so
# that a name is found inside a run of them ('北京' in '习近平访问北京').
_UNSPACED = "[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]"
_THAI_MARKS = "[\u0e31\u0e34-\u0e3a\u0e47-\u0e4e]*"  # vowel and tone marks, part of the character before
_TOKEN = re.compile(rf"{_UNSPACED}{_THAI_MARKS}|(?:(?!{_UNSPACED})[^\W_])(?:(?!{_UNSPACED})[^\W_]|[\u0300-\u036f])*")
_GAP = re.compile(r"[ \u00a0.'’\-]{1,3}|['’][sS][ \u00a0]{1,2}")  # between two words of one name ("Venezuela's army")
_KIND_ORDER = {"date": 0, "figure": 1, "name": 2, "event": 3}


@dataclass(frozen=True)
class Candidate:
    """What a known name stands for: a type, a key (None: no KG link) and where it is known from."""

    type: str
    key: str | None
    source: str
    cased: bool = False  # every known spelling starts with a capital: 'segunda' is not 'Segunda'


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
            form = lexicon_form(name)
            if not form or any(form.startswith(r + " ") and form[len(r) + 1:] in names for r in roles):
                continue
            known = [c for c in lexicon[form] if c.key == entry.key]
            if not known:
                lexicon[form].append(Candidate(entry.type, entry.key, f"alias table: {entry.key}", _capitalized(name)))
            elif known[0].cased and not _capitalized(name):
                lexicon[form][lexicon[form].index(known[0])] = replace(known[0], cased=False)
    return dict(lexicon)


def corpus_lexicon(names: list[tuple[str, str, str | None, str]]) -> Lexicon:
    """Names annotated elsewhere, as (text, type, key or None, document): each normalized
    name takes its most frequent type and key (ties: alphabetical). Only proper names are
    taken (every word capitalized but short connectives), not descriptions such as "the soldier"."""
    seen: dict[str, Counter] = defaultdict(Counter)
    where: dict[tuple[str, str, str | None], str] = {}
    lower: set[str] = set()
    for text, type_, key, slug in names:
        form = lexicon_form(text)
        if form and not _capitalized(text):
            lower.add(form)
        if form and is_proper_name(text):
            seen[form][(type_, key)] += 1
            where.setdefault((form, type_, key), slug)
    lexicon: Lexicon = {}
    for form, counts in seen.items():
        (type_, key), _ = min(counts.items(), key=lambda item: (-item[1], item[0][0], item[0][1] or ""))
        lexicon[form] = [Candidate(type_, key, f"annotated in {where[(form, type_, key)]} as {type_}"
                                                + (f" {key}" if key else ""), form not in lower)]
    return lexicon


def merge_lexicons(first: Lexicon, second: Lexicon) -> Lexicon:
    """`first` wins where both know a name (the alias table over names annotated elsewhere)."""
    return {**second, **first}


def is_proper_name(text: str) -> bool:
    """'Juan Guaidó', 'Human Rights Watch', 'Villa del Rosario' yes; 'the soldier', 'a Venezuelan soldier' no.
    A script without capitals ('北京') cannot say, and is taken as a name."""
    words = re.findall(r"[^\W\d_]+", text)
    if words and words[0].lower() == "the":
        words = words[1:]
    if not words or not _initial(words[0]):
        return False
    return all(_initial(w) or (len(w) <= 3 and w.islower()) for w in words)


def _initial(word: str) -> bool:
    """A capital first letter, or one of a script without case."""
    return word[0].isupper() or word[0].lower() == word[0].upper()


def _capitalized(name: str) -> bool:
    """Whether the name's first word (after a leading 'the') starts with a capital letter."""
    words = name.split()
    if len(words) > 1 and words[0].lower() == "the":
        words = words[1:]
    return bool(words) and not words[0][:1].islower()


def lexicon_form(name: str) -> str:
    """The normalized form, with an all-capitals name marked so it matches capitals only."""
    form = " ".join(re.sub(f"({_UNSPACED})", r" \1 ", normalize(name)).split())
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


def match_names(text: str, lexicon: Lexicon, stem: Callable[[str], str] | None = None) -> list[Suggestion]:
    """Every occurrence of a lexicon name on word boundaries (overlapping ones included); with
    `stem`, the lexicon's forms are of stemmed words (kg.suggest.stems) and so are the text's."""
    words = tokens(text)
    if stem:
        words = [(stem(word), begin, end) for word, begin, end in words]
    longest = max((form.lstrip("^").count(" ") + 1 for form in lexicon), default=0)
    found = []
    for i, (_, begin, _) in enumerate(words):
        for n in range(1, min(longest, len(words) - i) + 1):
            last = words[i + n - 1]
            if n > 1 and not _joined(text, words[i + n - 2][2], last[1]):
                break
            form = " ".join(w[0] for w in words[i:i + n])
            end = last[2] + (text[last[2]:last[2] + 1] == "." and "." in text[begin:last[2]])
            span = text[begin:end]
            candidates = lexicon.get(form, [])
            if re.fullmatch(r"[A-Z]{2,4}", span):
                candidates = candidates + lexicon.get("^" + form, [])
            for candidate in candidates:
                if not (candidate.cased and span[:1].islower()):
                    found.append(_name_suggestion(begin, end, span, candidate))
    return found


def _joined(text: str, end: int, begin: int) -> bool:
    """Whether two words (one ending at `end`, the next beginning at `begin`) may belong to one
    name: a short gap of spaces and punctuation, or none between two characters of an unspaced script."""
    if end == begin:
        return bool(re.match(_UNSPACED, text[end - 1])) and bool(re.match(_UNSPACED, text[begin]))
    return bool(_GAP.fullmatch(text[end:begin]))


def _name_suggestion(begin: int, end: int, span: str, candidate: Candidate) -> Suggestion:
    db, ref = ("KG", candidate.key) if candidate.key else (None, None)
    return Suggestion(begin, end, span, candidate.type, db, ref, f"{candidate.source} (matched {span!r})")


# --- choosing ----------------------------------------------------------------------------------

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
        events = [replace(s, kind="event") for s in match_names(text, triggers.lexicon, triggers.stem)]
        chosen = triggers.argued(chosen + _choose(events), text, config)
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

    def __add__(self, other: "Score") -> "Score":
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
