"""The synthetic entity pool: who and what the benchmark documents talk about.

The pool grows with the corpus like a news vocabulary does (Heaps' law:
about 30 * N**0.75 entities for N documents), and mentions pick entities
with Zipf-distributed popularity, so a few entities appear everywhere and
most appear once or twice. About 70 % of the entities are listed in the
alias table with their aliases and misspellings; the rest resolve by their
own normalized text, as unlisted names do in real articles.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, TextIO

from benchmarks.corpus import names
from kg.model.iris import slugify

ZIPF_EXPONENT = 1.0
LISTED_SHARE = 0.7
ORGANIZATION_TYPES = ("Organization", "GovernmentBody", "MilitaryUnit", "NGO",
                      "IntergovernmentalOrganization", "MediaOrganization", "PoliticalGroup")
PLACE_TYPES = ("Place", "Country", "City", "Region", "Facility", "Waterway")
# share of the pool per annotation type (countries are counted apart: there are few)
SHARES = {
    "Person": 0.42, "Organization": 0.04, "GovernmentBody": 0.07, "MilitaryUnit": 0.05,
    "NGO": 0.04, "IntergovernmentalOrganization": 0.02, "MediaOrganization": 0.04,
    "PoliticalGroup": 0.03, "City": 0.15, "Region": 0.05, "Facility": 0.05, "Waterway": 0.02,
    "Place": 0.02,
}
ROLES = (  # (label, aliases): Membership triggers
    ("sergeant", ("Sgt.",)), ("lieutenant", ("Lt.",)), ("captain", ("Capt.",)),
    ("colonel", ("Col.",)), ("general", ("Gen.",)), ("major", ()), ("corporal", ()),
    ("spokesperson", ("spokesman", "spokeswoman")), ("minister", ()), ("director", ()),
    ("president", ()), ("interim president", ()), ("commander", ()), ("ambassador", ()),
    ("adviser", ("advisor",)), ("member", ()),
)
SHARED_EVENT_TYPES = ("Confrontation", "Uprising", "Protest", "AidDelivery")


@dataclass
class Entity:
    """One canonical thing of the pool."""

    key: str
    type: str
    label: str
    listed: bool
    aliases: list[str] = field(default_factory=list)
    hidden: list[str] = field(default_factory=list)
    short: str | None = None        # a listed alias used on later mentions (surname, acronym)
    acronym: str | None = None      # an unlisted short form, introduced with Equiv
    wikidata: str | None = None
    article: bool = False           # written with "the"

    def toml(self) -> str:
        lines = ["[[entity]]", f"key = {_q(self.key)}", f"type = {_q(self.type)}", f"label = {_q(self.label)}"]
        if self.aliases:
            lines.append(f"aliases = [{', '.join(_q(a) for a in self.aliases)}]")
        if self.hidden:
            lines.append(f"hidden = [{', '.join(_q(h) for h in self.hidden)}]")
        if self.wikidata:
            lines.append(f"wikidata = {_q(self.wikidata)}")
        return "\n".join(lines) + "\n"


def _q(text: str) -> str:
    """A TOML basic string (JSON string escapes are valid TOML)."""
    return json.dumps(text, ensure_ascii=False)


class Zipf:
    """Draw items with probability proportional to 1 / rank**s."""

    def __init__(self, items: list, exponent: float = ZIPF_EXPONENT) -> None:
        self.items = items
        self.cumulative = list(itertools.accumulate(1.0 / (r + 1) ** exponent for r in range(len(items))))

    def draw(self, rng: random.Random):
        return self.items[bisect.bisect_right(self.cumulative, rng.random() * self.cumulative[-1])]


def pool_size(docs: int) -> int:
    """Distinct entities for a corpus of `docs` documents (Heaps' law)."""
    return int(30 * max(docs, 1) ** 0.75) + 150


class Pool:
    """Every entity, role and shared event of one corpus, and Zipf samplers per type."""

    def __init__(self, seed: int, docs: int) -> None:
        rng = random.Random(f"{seed}:pool")
        self._forms: dict[str, set[str]] = {}
        self._qids = itertools.count(90000001)
        self.by_type: dict[str, list[Entity]] = {}
        size = pool_size(docs)
        countries = self._make("Country", 30 + size // 300, rng, lambda: names.country(rng))
        country_names = [c.label for c in countries]
        for type_, share in SHARES.items():
            count = max(8, int(size * share))
            if type_ == "Person":
                self._make_people(count, rng)
            else:
                maker = self._maker(type_, rng, country_names)
                self._make(type_, count, rng, maker)
        self.journalists = self._make_people(max(10, size // 100), rng, journalists=True)
        self.roles = [self._role(label, aliases) for label, aliases in ROLES]
        self.role_by_label = {r.label: r for r in self.roles}
        self.events = self._shared_events(rng, 5 + docs // 50)
        self.publishers = [e for e in self.by_type["MediaOrganization"] if e.listed]
        self._zipf = {t: Zipf(es) for t, es in self.by_type.items()}
        self._publisher_zipf = Zipf(self.publishers)

    # -- sampling -------------------------------------------------------------

    def draw(self, rng: random.Random, type_: str) -> Entity:
        """A Zipf-popular entity of exactly this annotation type."""
        return self._zipf[type_].draw(rng)

    def publisher(self, rng: random.Random) -> Entity:
        return self._publisher_zipf.draw(rng)

    def shared_event(self, rng: random.Random, type_: str) -> Entity | None:
        matching = self.events.get(type_)
        return rng.choice(matching) if matching else None

    # -- building ---------------------------------------------------------------

    def _claim(self, family: str, *forms: str) -> bool:
        """Reserve these surface forms in the family; False if any is taken (or they clash)."""
        taken = self._forms.setdefault(family, set())
        keys = {names.normalize(f) for f in forms} | {"slug:" + slugify(forms[0])}
        if keys & taken or not all(keys):
            return False
        taken |= keys
        return True

    @staticmethod
    def _maker(type_: str, rng: random.Random, countries: list[str]) -> Callable[[], str]:
        """The name function for an organization or place type."""
        if type_ in ORGANIZATION_TYPES:
            return lambda: names.organization(rng, type_, countries)
        maker = {"City": names.city, "Region": names.region, "Facility": names.facility,
                 "Waterway": names.waterway, "Place": names.place}[type_]
        return functools.partial(maker, rng)

    def _make(self, type_: str, count: int, rng: random.Random, maker: Callable[[], str]) -> list[Entity]:
        family = "place" if type_ in PLACE_TYPES else "organization"
        made: list[Entity] = []
        for _ in range(count * 20):
            if len(made) == count:
                break
            label = maker()
            if not self._claim(family, label):
                continue
            entity = Entity(f"{family}/{slugify(label)}", type_, label, rng.random() < LISTED_SHARE or len(made) < 10)
            entity.article = family == "organization" and type_ != "MediaOrganization" or type_ in ("Facility", "Waterway", "Place")
            self._variants(entity, family, rng)
            if type_ == "Country" or (entity.listed and rng.random() < 0.1):
                entity.wikidata = f"Q{next(self._qids)}"
            made.append(entity)
        self.by_type.setdefault(type_, []).extend(made)
        return made

    def _variants(self, entity: Entity, family: str, rng: random.Random) -> None:
        """Aliases, misspellings and short forms of a new organization or place."""
        plain = names.strip_accents(entity.label)
        if plain != entity.label and entity.listed:
            entity.aliases.append(plain)
        short = names.acronym(entity.label)
        if family == "organization" and len(short) >= 2:
            if entity.listed and rng.random() < 0.4 and self._claim(family, short):
                entity.aliases.append(short)
                entity.short = short
            elif rng.random() < 0.5:
                entity.acronym = short      # introduced as "the X (ABC)" with Equiv; never listed
        if entity.listed and rng.random() < 0.2:
            typo = names.misspell(rng, entity.label)
            if self._claim(family, typo):
                entity.hidden.append(typo)

    def _make_people(self, count: int, rng: random.Random, journalists: bool = False) -> list[Entity]:
        made: list[Entity] = []
        for _ in range(count * 20):
            if len(made) == count:
                break
            label, surname = names.person(rng)
            if not self._claim("person", label):
                continue
            listed = journalists or rng.random() < LISTED_SHARE or len(made) < 10
            entity = Entity(f"person/{slugify(label)}", "Person", label, listed)
            if listed:
                self._person_variants(entity, surname, rng)
            made.append(entity)
        if not journalists:
            self.by_type.setdefault("Person", []).extend(made)
        return made

    def _person_variants(self, entity: Entity, surname: str, rng: random.Random) -> None:
        plain = names.strip_accents(entity.label)
        if plain != entity.label:
            entity.aliases.append(plain)
        if rng.random() < 0.8 and self._claim("person", surname):
            entity.aliases.append(surname)
            entity.short = surname
            if names.strip_accents(surname) != surname:
                entity.aliases.append(names.strip_accents(surname))
        if rng.random() < 0.3:
            typo = names.misspell(rng, entity.short or entity.label)
            if self._claim("person", typo):
                entity.hidden.append(typo)
        if rng.random() < 0.05:
            entity.wikidata = f"Q{next(self._qids)}"

    def _role(self, label: str, aliases: Iterable[str]) -> Entity:
        return Entity(f"role/{slugify(label)}", "Role", label, True, aliases=list(aliases))

    def _shared_events(self, rng: random.Random, count: int) -> dict[str, list[Entity]]:
        events: dict[str, list[Entity]] = {}
        for n in range(count):
            type_ = SHARED_EVENT_TYPES[n % len(SHARED_EVENT_TYPES)]
            where = self.draw_static(rng, "City")
            day = f"2019-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
            label = f"{_EVENT_WORDS[type_]} in {where.label}, {day}"
            key = f"event/{slugify(label)}"
            events.setdefault(type_, []).append(Entity(key, type_, label, True))
        return events

    def draw_static(self, rng: random.Random, type_: str) -> Entity:
        """Uniform choice, for building the pool before the Zipf samplers exist."""
        return rng.choice(self.by_type[type_])

    # -- output -----------------------------------------------------------------

    def listed(self) -> Iterable[Entity]:
        for type_ in self.by_type:
            yield from (e for e in self.by_type[type_] if e.listed)
        yield from self.journalists
        yield from self.roles
        for events in self.events.values():
            yield from events

    def write_aliases(self, out: TextIO) -> None:
        out.write("# Alias table of a synthetic benchmark corpus (benchmarks/corpus/generate.py).\n\n")
        for entity in self.listed():
            out.write(entity.toml())
            out.write("\n")


_EVENT_WORDS = {"Confrontation": "Clash", "Uprising": "Uprising", "Protest": "Protest", "AidDelivery": "Aid delivery"}


def write_aliases(pool: Pool, path: Path) -> None:
    with open(path, "w", encoding="utf-8") as out:
        pool.write_aliases(out)
