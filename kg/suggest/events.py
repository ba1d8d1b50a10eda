"""Event triggers and their arguments, learned from the events annotated in the corpus's other articles.

Like INCEpTION's string-matching recommender, with stems: a word or phrase that annotators
marked as the trigger of an event ("defected", "sought refuge") is suggested wherever a word of
the same stem occurs again ("defect", "defection"), with that event type. A trigger annotated
with several types takes the most frequent; one the annotators mostly left unmarked where it
occurs ('said', marked as a Claim at one place in five) is not suggested, nor a word as written
that they show and never mark ('talk' where 'talked' was an interview: kg.suggest.practice).
The schema's own event type names are triggers too, where the annotators taught nothing of that
stem: 'announced' for Announcement, 'appointed' for Appointment, 'Civil-unrest' as 'civil unrest'.
In English, a plural noun naming people ('protesters', 'deserters', 'asylum seekers') is not
suggested: it names those who take part, and annotators mark it as the trigger only where no
other word states the event.

Arguments come from the same habits: for each event type, the roles its annotated events fill
and the entity types that filled them, and on which side of the trigger. A suggested event
takes, for a role that is required or that at least a third of the type's events fill, the nearest
suggested name, date or figure of the same sentence whose type filled that role before (and
that annotation.conf allows there), one on the other side of the trigger than the role's usual
side counting as three times as far. An event whose required role finds no such name is not
suggested: brat would refuse it. A date that bounds a period ('since 2014', 'until March':
kg.suggest.matchers.dates.period_bound) fills the role that means kgo:startTime or kgo:endTime where the
event's type declares one (StartTime, EndTime), whatever the habits, and is then not its Time.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from kg.formats.brat.conf import AnnotationConfig
from kg.formats.records import Annotations
from kg.model.schema.corpus_vocabulary import property_name
from kg.suggest.human import Score
from kg.suggest.matchers.dates import period_bound
from kg.suggest.matchers.spans import Candidate, Lexicon, match_names, tokens
from kg.suggest.matchers.stems import stemmer
from kg.suggest.suggestion import Suggestion

_PEOPLE = {"en": re.compile(r"(?:er|or|ist)s$", re.IGNORECASE)}  # a plural noun naming who does something
_SENTENCE_END = re.compile(r"(?<=[.!?…])[\"”’)\]]*\s+|\n+")


@dataclass(frozen=True)
class SeenEvent:
    """An event a human annotated: trigger text, type, document and its entity arguments as
    (role, entity type, side): side -1 when the argument stands before the trigger, 1 after."""

    text: str
    type: str
    document: str
    args: tuple[tuple[str, str, int], ...] = ()


@dataclass(frozen=True)
class Habits:
    """How the annotated events of one type fill their roles."""

    events: int = 0
    roles: dict[str, Counter] = field(default_factory=dict)  # role -> Counter of entity types
    sides: dict[str, Counter] = field(default_factory=dict)  # role -> Counter of -1 (before the trigger), 1 (after)


@dataclass(frozen=True)
class TriggerModel:
    """What kg.suggest.matchers.spans.suggest needs to suggest events: the trigger lexicon (stemmed forms),
    the stemmer, and each type's argument habits."""

    lexicon: Lexicon
    stem: Callable[[str], str]
    habits: dict[str, Habits]
    language: str | None = None
    bound_roles: dict[str, str] = field(default_factory=dict)  # role -> "start" or "end" of a period
    unmarked: frozenset[str] = frozenset()  # senses (kg.suggest.practice) not suggested

    def form(self, text: str) -> str:
        """The lexicon form of a trigger text: its folded words, stemmed."""
        return " ".join(self.stem(word) for word, _, _ in tokens(text))

    def found(self, text: str) -> list[Suggestion]:
        """The learned triggers in a text (overlapping ones included), but for the senses left unmarked."""
        people = _PEOPLE.get((self.language or "").split("-")[0].lower())
        return [replace(s, kind="event") for s in match_names(text, self.lexicon, self.stem)
                if sense(s.text) not in self.unmarked and not (people and people.search(s.text))]

    def argued(self, chosen: list[Suggestion], text: str, config: AnnotationConfig) -> list[Suggestion]:
        """The chosen suggestions, each event with its arguments (an event that cannot fill a
        required role is dropped)."""
        names = [s for s in chosen if s.kind in ("name", "date", "figure")]
        periods = {(n.begin, n.end): bound for n in names
                   if n.kind == "date" and (bound := period_bound(text, n.begin, self.language))}
        kept = []
        for s in chosen:
            if s.kind != "event":
                kept.append(s)
                continue
            args = _arguments(s, _same_sentence(s, names, text), self.habits.get(s.type, Habits()), config,
                              (periods, self.bound_roles))
            if args is not None:
                kept.append(replace(s, args=args))
        return kept


def seen_events(annotations: Annotations, config: AnnotationConfig, document: str) -> list[SeenEvent]:
    """The events a human annotated in one document, with their entity arguments."""
    bounds = annotations.textbounds
    found = []
    for event in annotations.events:
        trigger = bounds.get(event.trigger)
        if trigger is not None:
            args = tuple((role, bounds[arg].type, -1 if bounds[arg].begin < trigger.begin else 1)
                         for role, arg in event.args if arg in bounds and bounds[arg].type in config.entities)
            found.append(SeenEvent(trigger.text, event.type, document, args))
    return found


def trigger_model(seen: list[SeenEvent], config: AnnotationConfig, language: str | None = "en",
                  minimum: int = 1, means: Callable[[str, str], bool] | None = None) -> TriggerModel:
    """The triggers (stemmed in `language`) seen at least `minimum` times with a usable event type.
    `means(role, property)` says which kgo property a role stands for (the corpus vocabulary's
    alignment; by default its own name, StartTime: startTime)."""
    stem = stemmer(language)
    model = TriggerModel({}, stem, _habits(seen), language, _bound_roles(config, means or _named))
    counts: dict[str, Counter] = defaultdict(Counter)
    where: dict[tuple[str, str], set[str]] = defaultdict(set)
    for event in seen:
        form = model.form(event.text)
        if form and config.usable(event.type) and event.type in config.events:
            counts[form][event.type] += 1
            where[(form, event.type)].add(event.document)
    for form, by_type in counts.items():
        type_, count = min(by_type.items(), key=lambda item: (-item[1], item[0]))
        if count >= minimum:
            places = ", ".join(sorted(where[(form, type_)]))
            model.lexicon[form] = [Candidate(type_, None, f"trigger of {count} {type_} events in {places}")]
    for type_ in sorted(config.events):
        form = model.form(_words_of(type_))
        if form and config.usable(type_) and form not in model.lexicon:
            model.lexicon[form] = [Candidate(type_, None, f"the name of the event type {type_}")]
    return model


def _words_of(type_name: str) -> str:
    """An event type's name as words: 'AidDelivery' 'Aid Delivery', 'Civil-unrest' 'Civil unrest'."""
    return " ".join(re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+", type_name))


def _named(role: str, kgo_property: str) -> bool:
    return property_name(role) == kgo_property


def _bound_roles(config: AnnotationConfig, means: Callable[[str, str], bool]) -> dict[str, str]:
    """The event roles that hold the start or the end of a period (kgo:startTime, kgo:endTime)."""
    roles = {role.name for event in config.events.values() for role in event.roles}
    found = {}
    for role in sorted(roles):
        bound = next((b for b, term in (("start", "startTime"), ("end", "endTime")) if means(role, term)), None)
        if bound:
            found[role] = bound
    return found


def _habits(seen: list[SeenEvent]) -> dict[str, Habits]:
    habits: dict[str, Habits] = {}
    for event in seen:
        known = habits.setdefault(event.type, Habits())
        for role, type_, side in event.args:
            known.roles.setdefault(role, Counter())[type_] += 1
            known.sides.setdefault(role, Counter())[side] += 1
        habits[event.type] = replace(known, events=known.events + 1)
    return habits


def _same_sentence(event: Suggestion, names: list[Suggestion], text: str) -> list[Suggestion]:
    begin = max((m.end() for m in _SENTENCE_END.finditer(text, 0, event.begin)), default=0)
    end = next((m.start() for m in _SENTENCE_END.finditer(text, event.end)), len(text))
    return [n for n in names if begin <= n.begin and n.end <= end]


def _arguments(event: Suggestion, names: list[Suggestion], habits: Habits, config: AnnotationConfig,
               periods: tuple[dict[tuple[int, int], str], dict[str, str]]
               ) -> tuple[tuple[str, int, int, None], ...] | None:
    """(role, begin, end, None) of the names chosen for the event's roles, or None when a required
    role has none. `periods`: the bound ("start", "end") of each date span that bounds a period,
    and the roles that hold one."""
    declared = {role.name: role for role in config.events[event.type].roles}
    bounds, bound_roles = periods
    args = _period_arguments(event, names, declared, config, periods)
    used = {(begin, end) for _, begin, end, _ in args}
    held = {bound_roles[name] for name in declared if name in bound_roles}  # a date bounding these is no Time
    for name, role in declared.items():
        if name in bound_roles:
            continue
        seen = habits.roles.get(name, Counter())
        filled = sum(seen.values())
        if role.optional and filled * 3 < habits.events:
            continue
        fits = [n for n in names if (n.begin, n.end) not in used and bounds.get((n.begin, n.end)) not in held
                and seen[n.type] and config.matches(n.type, role.types)]
        if not fits:
            if role.optional:
                continue
            return None
        side = max((-1, 1), key=lambda k: habits.sides.get(name, Counter())[k])
        nearest = min(fits, key=lambda n: (_distance(event, n) * (1 if _side(event, n) == side else 3), n.begin))
        used.add((nearest.begin, nearest.end))
        args.append((name, nearest.begin, nearest.end, None))
    order = list(declared)
    return tuple(sorted(args, key=lambda arg: order.index(arg[0])))


def _period_arguments(event: Suggestion, names: list[Suggestion], declared: dict, config: AnnotationConfig,
                      periods: tuple[dict[tuple[int, int], str], dict[str, str]]) -> list[tuple[str, int, int, None]]:
    """The nearest date of the sentence that starts (or ends) a period, for each role of the
    event's type that holds a start (or an end)."""
    bounds, bound_roles = periods
    args: list[tuple[str, int, int, None]] = []
    for name, role in declared.items():
        fits = [n for n in names if name in bound_roles and bounds.get((n.begin, n.end)) == bound_roles[name]
                and config.matches(n.type, role.types)]
        if fits:
            nearest = min(fits, key=lambda n: (_distance(event, n), n.begin))
            args.append((name, nearest.begin, nearest.end, None))
    return args


def _side(event: Suggestion, arg: Suggestion) -> int:
    return -1 if arg.begin < event.begin else 1


def _distance(a: Suggestion, b: Suggestion) -> int:
    return max(b.begin - a.end, a.begin - b.end, 0)


def sense(text: str) -> str:
    """A trigger's sense: its folded words as written ('talked', where its form is the stem 'talk')."""
    return " ".join(word for word, _, _ in tokens(text))


def trigger_places(text: str, model: TriggerModel) -> set[tuple[int, int, str]]:
    """Every place a learned trigger occurs, with its sense (for kg.suggest.practice)."""
    return {(s.begin, s.end, sense(s.text)) for s in match_names(text, model.lexicon, model.stem)}


def human_triggers(annotations: Annotations) -> set[tuple[int, int, str]]:
    """(begin, end, event type) of every event's trigger a human annotated."""
    found = set()
    for event in annotations.events:
        bound = annotations.textbounds.get(event.trigger)
        if bound is not None:
            found.add((bound.begin, bound.end, event.type))
    return found


def score_events(suggestions: list[Suggestion], human: Annotations) -> Score:
    """Event suggestions against the human events' triggers: same span and type, or same span."""
    typed = human_triggers(human)
    spans = {(begin, end) for begin, end, _ in typed}
    events = [s for s in suggestions if s.kind == "event"]
    exact = sum((s.begin, s.end, s.type) in typed for s in events)
    span = sum((s.begin, s.end) in spans for s in events)
    return Score(len(events), len(typed), exact, span)


def score_arguments(suggestions: list[Suggestion], human: Annotations) -> Score:
    """Suggested arguments against the human events' entity arguments: the same trigger span,
    role and argument span (exact); the same trigger span and argument span, any role (span)."""
    typed, spans = set(), set()
    for event in human.events:
        trigger = human.textbounds.get(event.trigger)
        for role, target in event.args:
            bound = human.textbounds.get(target)
            if trigger is not None and bound is not None:
                typed.add((trigger.begin, trigger.end, role, bound.begin, bound.end))
                spans.add((trigger.begin, trigger.end, bound.begin, bound.end))
    args = [(s.begin, s.end, role, begin, end)
            for s in suggestions if s.kind == "event" for role, begin, end, _ in s.args]
    exact = sum(a in typed for a in args)
    span = sum((a[0], a[1], a[3], a[4]) in spans for a in args)
    return Score(len(args), len(typed), exact, span)
