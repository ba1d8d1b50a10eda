"""One synthetic document being written: its text and its brat annotations.

Text is appended piece by piece; every annotated span records the offsets
of the characters it has just appended, so offsets are exact by
construction. The annotation helpers mirror what annotators do in real
articles: entity mentions in their varied spellings, event triggers,
relations, events with roles, attributes, normalizations, Equiv groups and
notes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from benchmarks.corpus import names
from benchmarks.corpus.pool import ORGANIZATION_TYPES, PLACE_TYPES, SHARES, Entity, Pool

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
QUALIFIERS = (("more than", "MoreThan"), ("nearly", "Nearly"), ("about", "About"),
              ("exactly", "Exactly"), ("up to", "UpTo"), ("fewer than", "LessThan"),
              ("over", "MoreThan"), ("some", "About"), ("almost", "Nearly"))
NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 10: "ten", 12: "twelve",
                20: "twenty", 50: "fifty", 100: "one hundred", 1000: "a thousand"}
TYPE_WEIGHTS = dict(SHARES, Country=0.1)


@dataclass
class Mention:
    """An entity mention written into the text."""

    id: str
    entity: Entity | None


@dataclass
class Document:
    """Text and annotations of one document, written front to back."""

    slug: str
    rng: random.Random
    pool: Pool
    year: int
    month: int
    parts: list[str] = field(default_factory=list)
    pos: int = 0
    _capitalize: bool = True
    _spans: list[str] = field(default_factory=list)
    _other: dict[str, list[str]] = field(default_factory=lambda: {k: [] for k in "ERAN*#"})
    _count: dict[str, int] = field(default_factory=lambda: {k: 0 for k in "TERAN#"})
    _seen: dict[str, list[Entity]] = field(default_factory=dict)
    _said: set[str] = field(default_factory=set)
    _equiv: dict[str, list[str]] = field(default_factory=dict)
    _bounds: dict[str, str] = field(default_factory=dict)  # Date id -> "Start" or "End" of a period
    mentions: int = 0

    @classmethod
    def resume(cls, slug: str, rng: random.Random, pool: Pool, text: str, ann: str) -> Document:
        """Continue an existing document: new text goes after `text`, new ids after those in `ann`
        (`ann` of the result then holds only the new lines)."""
        body = text[:-1] if text.endswith("\n") else text
        doc = cls(slug, rng, pool, 2019, 6, parts=[body], pos=len(body))
        for line in ann.splitlines():
            ident = line.split("\t", 1)[0]
            if ident[:1] in doc._count and ident[1:].isdigit():
                doc._count[ident[0]] = max(doc._count[ident[0]], int(ident[1:]))
        return doc

    # -- text -------------------------------------------------------------------

    def put(self, text: str) -> str:
        """Append text (capitalized when it opens a sentence); return what was written."""
        if self._capitalize and text:
            text = text[0].upper() + text[1:]
            self._capitalize = False
        self.parts.append(text)
        self.pos += len(text)
        return text

    def end_sentence(self, mark: str = ".") -> None:
        self.put(mark)
        self._capitalize = True

    def separate(self, paragraph: bool) -> None:
        self.parts.append("\n\n" if paragraph else " ")
        self.pos += 2 if paragraph else 1
        self._capitalize = True

    @property
    def text(self) -> str:
        return "".join(self.parts) + "\n"

    # -- annotations ------------------------------------------------------------

    def _next(self, kind: str) -> str:
        self._count[kind] += 1
        return f"{kind}{self._count[kind]}"

    def span(self, type_: str, text: str) -> str:
        """Append `text` as a text-bound annotation of `type_`; return its T id."""
        begin = self.pos
        written = self.put(text)
        tid = self._next("T")
        self._spans.append(f"{tid}\t{type_} {begin} {self.pos}\t{written}")
        return tid

    def span_type(self, tid: str) -> str:
        """The annotation type a text-bound annotation was written with."""
        return next(line.split("\t")[1].split(" ")[0] for line in self._spans if line.split("\t")[0] == tid)

    def relation(self, type_: str, arg1: str, arg2: str) -> str:
        rid = self._next("R")
        self._other["R"].append(f"{rid}\t{type_} Arg1:{arg1} Arg2:{arg2}")
        return rid

    def event(self, type_: str, trigger: str, roles: list[tuple[str, str | None]]) -> str:
        """An E line; roles whose argument is None are left out, repeated roles numbered. A Time
        that bounds a period ("since 2016") is the event's StartTime or EndTime."""
        eid = self._next("E")
        used: dict[str, int] = {}
        args = []
        for role, arg in roles:
            if arg is None:
                continue
            if role == "Time" and arg in self._bounds:
                role = f"{self._bounds[arg]}Time"
            used[role] = used.get(role, 0) + 1
            args.append(f"{role}{used[role] if used[role] > 1 else ''}:{arg}")
        self._other["E"].append(f"{eid}\t{type_}:{trigger} {' '.join(args)}")
        return eid

    def attribute(self, name: str, target: str, value: str | None = None) -> None:
        aid = self._next("A")
        self._other["A"].append(f"{aid}\t{name} {target}" + (f" {value}" if value else ""))

    def normalize(self, target: str, ref: str, label: str) -> None:
        nid = self._next("N")
        self._other["N"].append(f"{nid}\tReference {target} {ref}\t{label}")

    def note(self, target: str, text: str) -> None:
        hid = self._next("#")
        self._other["#"].append(f"{hid}\tAnnotatorNotes {target}\t{text}")

    @property
    def ann(self) -> str:
        """The .ann file: T lines in text order, then E, R, A, N, Equiv and note lines."""
        equiv = ["*\tEquiv " + " ".join(g) for g in self._equiv.values() if len(g) > 1]
        lines = self._spans + [line for k in "ERAN" for line in self._other[k]] + equiv + self._other["#"]
        return "\n".join(self._on_events(lines)) + "\n"

    def _on_events(self, lines: list[str]) -> list[str]:
        """A, N and # lines name the event, not its trigger (brat refuses references to triggers)."""
        events = {line.split("\t")[1].split(" ")[0].split(":")[1]: line.split("\t")[0] for line in self._other["E"]}
        out = []
        for line in lines:
            fields = line.split("\t")
            words = fields[1].split(" ")
            if line[0] in "AN#" and len(words) > 1 and words[1] in events:
                words[1] = events[words[1]]
                line = "\t".join([fields[0], " ".join(words), *fields[2:]])
            out.append(line)
        return out

    # -- entity mentions ----------------------------------------------------------

    def entity(self, *types: str, reuse: float = 0.4) -> Mention:
        """Mention an entity of one of `types` (or their subtypes): a popular one, or one
        this document already named; spelled as a reporter would on that occasion."""
        allowed = _expand(types)
        entity = self._reuse(allowed) if self.rng.random() < reuse else None
        if entity is None:
            weights = [TYPE_WEIGHTS[t] for t in allowed]
            entity = self.pool.draw(self.rng, self.rng.choices(allowed, weights)[0])
        return self.name(entity)

    def _reuse(self, allowed: list[str]) -> Entity | None:
        seen = [e for t in allowed for e in self._seen.get(t, ())]
        return self.rng.choice(seen) if seen else None

    def name(self, entity: Entity) -> Mention:
        """Write a mention of this entity (with 'the' where it takes one)."""
        first = entity.key not in self._equiv and not any(entity is e for e in self._seen.get(entity.type, ()))
        if entity.article:
            self.put("the ")
        type_ = entity.type
        # The annotator sometimes chose the parent type, but never inside an Equiv group
        # (its acronym): a group of mixed types is a mistake the checker reports.
        if type_ not in ("Person", "Country", "Organization", "Place") and self.rng.random() < 0.05 \
                and not entity.acronym:
            type_ = "Organization" if type_ in ORGANIZATION_TYPES else "Place"
        surface, note = self._surface(entity, first)
        tid = self.span(type_, surface)
        self.mentions += 1
        if first and entity.acronym and self.rng.random() < 0.5:
            self.put(" (")
            self._equiv[entity.key] = [tid, self.span(type_, entity.acronym)]
            self.put(")")
            self.mentions += 1
        elif surface == entity.acronym:
            self._equiv[entity.key].append(tid)
        if note:
            self.note(tid, note)
        if entity.wikidata and entity.type == "Country" and self.rng.random() < 0.4:
            self.normalize(tid, f"Wikidata:{entity.wikidata}", entity.label)
        if first:
            self._seen.setdefault(entity.type, []).append(entity)
        return Mention(tid, entity)

    def _surface(self, entity: Entity, first: bool) -> tuple[str, str | None]:
        r = self.rng.random()
        if not first:
            if entity.short and r < 0.65:
                return entity.short, None
            if entity.acronym and entity.key in self._equiv and r < 0.65:
                return entity.acronym, None
        if entity.hidden and r > 0.97:
            return entity.hidden[0], "Misspelled in the source"
        plain = names.strip_accents(entity.label)
        if plain != entity.label and r > 0.85:
            return plain, None
        return entity.label, None

    def unnamed(self, text: str) -> Mention:
        """A person the article does not name ('one defector')."""
        tid = self.span("Person", text)
        self.attribute("Unnamed", tid)
        self.mentions += 1
        return Mention(tid, None)

    # -- dates, figures, quotes --------------------------------------------------------

    def date(self, bare: bool = False) -> str:
        """Write a date phrase with its preposition (none when `bare`); the Date span is
        normalized with ISO8601 when the text is exact enough."""
        r = self.rng.random()
        on, in_ = ("", "") if bare else ("on ", "in ")
        year, month, day = self._nearby_day()
        basis, bound = "Stated", None
        if r < 0.35:
            self.put(on)
            tid = self.span("Date", f"{MONTHS[month - 1]} {day}, {year}")
            iso = f"{year}-{month:02d}-{day:02d}"
        elif r < 0.6:
            self.put(on)
            tid = self.span("Date", f"{MONTHS[month - 1]} {day}")
            iso, basis = f"{year}-{month:02d}-{day:02d}", "ArticleDate"
        elif r < 0.8:
            self.put(in_)
            tid = self.span("Date", f"{MONTHS[month - 1]} {year}")
            iso = f"{year}-{month:02d}"
        elif r < 0.9:
            period = self.rng.random() if not bare else 1.0
            since, until = period < 0.2, 0.2 <= period < 0.3  # "since 2016", "until 2019": a period's bounds
            self.put("since " if since else "until " if until else in_)
            iso = str(year - self.rng.randint(1, 5) if since else year)
            tid = self.span("Date", iso)
            bound = "Start" if since else "End" if until else None
        else:
            if self.rng.random() < 0.5:
                self.put(on)
                tid = self.span("Date", self.rng.choice(WEEKDAYS))
            else:
                tid = self.span("Date", self.rng.choice(("last week", "last month", "this week")))
            iso, basis = None, "ArticleDate"
        self.mentions += 1
        if iso:
            self.normalize(tid, f"ISO8601:{iso}", iso)
        self.attribute("DateBasis", tid, basis)
        if bound:
            self._bounds[tid] = bound
            if self.rng.random() < 0.5:  # the older way to say it, which kg still reads
                self.attribute("PeriodBound", tid, bound)
        return tid

    def _nearby_day(self) -> tuple[int, int, int]:
        month = self.month - self.rng.choice((0, 0, 0, 1, 1, 2))
        year = self.year
        if month < 1:
            month, year = month + 12, year - 1
        return year, month, self.rng.randint(1, 28)

    def figure(self, noun: str) -> str:
        """Write '[qualifier ]<number> <noun>'; the Figure span is the qualified number, as
        annotators mark it ('more than 1,400'), with its value, Qualifier and Unit; sometimes a
        vague quantity ('hundreds of') without value, and the counted noun as a Group."""
        if self.rng.random() < 0.1:
            tid = self.span("Figure", self.rng.choice(("hundreds of", "dozens of", "scores of", "thousands of")))
            self.attribute("Qualifier", tid, "Vague")
        else:
            words, qualifier = self.rng.choice(QUALIFIERS) if self.rng.random() < 0.6 else ("", None)
            value = self._number()
            shown = NUMBER_WORDS[value] if value in NUMBER_WORDS and self.rng.random() < 0.5 else f"{value:,}"
            tid = self.span("Figure", f"{words} {shown}" if words else shown)
            self.normalize(tid, f"Number:{value}", str(value))
            if qualifier:
                self.attribute("Qualifier", tid, qualifier)
        self.put(" ")
        self.mentions += 1
        self.attribute("Unit", tid, "Person")
        if self.rng.random() < 0.3:
            self.relation("Counts", tid, self.span("Group", noun))
        else:
            self.put(noun)
        return tid

    def _number(self) -> int:
        magnitude = self.rng.choice((1, 10, 10, 100, 100, 1000, 1000, 10000))
        return max(2, int(magnitude * self.rng.choice((1, 1.2, 1.4, 2, 2.5, 3, 5, 7.5))))

    def quote(self) -> str:
        """Write a quotation (inside straight quotes); the Quote span is the words only."""
        self.put('"')
        tid = self.span("Quote", _quote_text(self.rng))
        self.mentions += 1
        return tid

    def trigger(self, event_type: str, text: str) -> str:
        return self.span(event_type, text)


def _expand(types: tuple[str, ...]) -> list[str]:
    """Annotation types a slot accepts: 'Organization' admits every organization type."""
    out: list[str] = []
    for t in types:
        group = ORGANIZATION_TYPES if t == "Organization" else PLACE_TYPES if t == "Place" else (t,)
        out.extend(g for g in group if g not in out)
    return out


_QUOTE_OPENERS = ("We", "They", "Our families", "The soldiers", "The people", "My comrades",
                  "The authorities", "Our leaders", "The defectors", "You")
_QUOTE_MIDDLES = ("will not go back", "have been abandoned", "are waiting for orders", "need food and medicine",
                  "cannot return home", "want to join the fight", "are afraid of reprisals", "have lost everything",
                  "must respect the constitution", "will keep the border open", "are ready to help",
                  "did not receive any support", "have no choice", "will not negotiate", "are counting the days")
_QUOTE_TAILS = ("", "", " until this is over", " without guarantees", " after what happened", " at any cost",
                " for now", " and the world must know it")


def _quote_text(rng: random.Random) -> str:
    return f"{rng.choice(_QUOTE_OPENERS)} {rng.choice(_QUOTE_MIDDLES)}{rng.choice(_QUOTE_TAILS)}"
