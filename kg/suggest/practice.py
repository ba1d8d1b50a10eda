"""The corpus's annotation practice: how often its annotators marked a known name (or a trigger) where it occurs.

A name the annotators of the other articles mostly left unmarked is noise as a suggestion: the
demonym 'Venezuelan', marked once as a Country among dozens of 'Venezuelan soldiers'. Each
document counts, per name form, the places it would be suggested (kg.suggest.choosing.suggest: with
its case rule, a shorter name inside a longer one only where nested) and how many of those a
human marked as an entity with exactly that span. A name seen at least `minimum` times in the
other documents and marked there at under `share` (a half) of the rate at which they mark all
known names is not suggested: the rate is the corpus's own, so a corpus that marks only the
mentions its events need (three in five) keeps the names it marks as often as any. A name they
never show (only in the alias table, or only in this article) keeps its benefit of the doubt.
Event triggers are filtered the same way (kg.suggest.events), counted by sense: a trigger is
learned by its stem, but the word as written may be another sense ('talk' where 'talked' was an
interview, 'leaders' where 'leader' was a post, 'saying' where 'say' was a claim), so each place
counts under its folded words; a stem is judged on all its senses, and a word the other
documents show and never mark as a trigger is not suggested (`unmarked`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from kg.formats.brat.conf import AnnotationConfig
from kg.suggest.choosing import suggest
from kg.suggest.matchers.spans import Lexicon, lexicon_form

Counts = dict[str, tuple[int, int]]  # lexicon form -> (places found, places a human marked)


def document_counts(places: set[tuple[int, int, str]], marked: set[tuple[int, int]]) -> Counts:
    """Per lexicon form, how often it would be suggested in one annotated text (`places`: begin,
    end and form of each suggestion) and how often a human marked that very span (`marked`)."""
    found: Counter = Counter()
    hits: Counter = Counter()
    for begin, end, form in places:
        found[form] += 1
        hits[form] += (begin, end) in marked
    return {form: (found[form], hits[form]) for form in found}


def name_places(text: str, lexicon: Lexicon, config: AnnotationConfig) -> set[tuple[int, int, str]]:
    """Where the names of the lexicon would be suggested in a text, with their forms."""
    return {(s.begin, s.end, lexicon_form(s.text)) for s in suggest(text, lexicon, config)}


def summed(counts: list[Counts]) -> Counts:
    """The counts of several documents, added up."""
    total: Counter = Counter()
    for per_form in counts:
        for form, (found, marked) in per_form.items():
            total[form, 0] += found
            total[form, 1] += marked
    return {form: (total[form, 0], total[form, 1]) for form, _ in total}


def leave_out(total: Counts, own: Counts) -> Counts:
    """The corpus's counts without one document's: what the other documents show."""
    return {form: (found - own.get(form, (0, 0))[0], marked - own.get(form, (0, 0))[1])
            for form, (found, marked) in total.items()}


def practised(lexicon: Lexicon, others: Counts, minimum: int = 2, share: float = 0.5) -> Lexicon:
    """The lexicon without the forms the other documents' annotators mostly left unmarked (`others`:
    their counts, summed): marked at fewer than `share` times the rate at which they mark all the
    lexicon's forms (a corpus that marks only some mentions, as event arguments, keeps the names it
    marks as often as any)."""
    seen = sum(found for found, _ in others.values())
    usual = sum(marked for _, marked in others.values()) / seen if seen else 0.0
    return {form: candidates for form, candidates in lexicon.items()
            if others.get(form, (0, 0))[0] < minimum or others[form][1] >= share * usual * others[form][0]}


def by_form(senses: Counts, form_of: Callable[[str], str]) -> Counts:
    """Counts by sense (a trigger's folded words) added up by lexicon form (their stems)."""
    total: Counter = Counter()
    for sense, (found, marked) in senses.items():
        total[form_of(sense), 0] += found
        total[form_of(sense), 1] += marked
    return {form: (total[form, 0], total[form, 1]) for form, _ in total}


def unmarked(senses: Counts) -> frozenset[str]:
    """The senses the documents show and never mark."""
    return frozenset(sense for sense, (found, marked) in senses.items() if found and not marked)
