"""Event triggers suggested from the triggers annotated in the corpus's other articles.

Like INCEpTION's string-matching recommender: a word or phrase that annotators marked as the
trigger of an event ("defected", "crossed into") is suggested wherever it occurs again, with
that event type. Only event types whose every argument is optional are suggested (an event
written without arguments must still satisfy annotation.conf); the annotator adds the
arguments when reviewing. A trigger annotated with several types takes the most frequent,
and one seen fewer than `minimum` times is not suggested: a word marked once is as often a
chance as a habit.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from kg.formats.brat.conf import AnnotationConfig
from kg.formats.records import Annotations
from kg.suggest.spans import Candidate, Lexicon, Score, lexicon_form
from kg.suggest.suggestion import Suggestion

Trigger = tuple[str, str, str]  # (trigger text, event type, document)


def suggestable_events(config: AnnotationConfig) -> set[str]:
    """Event types that may be written with no argument at all."""
    return {name for name, node in config.events.items()
            if config.usable(name) and all(role.optional for role in node.roles)}


def trigger_lexicon(triggers: list[Trigger], config: AnnotationConfig, minimum: int = 2) -> Lexicon:
    """Normalized trigger text -> [Candidate] of its most frequent suggestable event type."""
    allowed = suggestable_events(config)
    seen: dict[str, Counter] = defaultdict(Counter)
    where: dict[tuple[str, str], set[str]] = defaultdict(set)
    for text, type_, slug in triggers:
        form = lexicon_form(text)
        if form and type_ in allowed:
            seen[form][type_] += 1
            where[(form, type_)].add(slug)
    lexicon: Lexicon = {}
    for form, counts in seen.items():
        type_, count = min(counts.items(), key=lambda item: (-item[1], item[0]))
        if count >= minimum:
            places = ", ".join(sorted(where[(form, type_)]))
            lexicon[form] = [Candidate(type_, None, f"trigger of {count} {type_} events in {places}")]
    return lexicon


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
