"""Names no other article has, from a named-entity model installed on this machine (optional).

kg ships no model and downloads none. `kg suggest --ner NAME` loads a spaCy pipeline installed
as a package, or saved in a directory (spacy.load reads either and never downloads), and says
what is missing when spaCy or the pipeline is not there. The model's labels (PERSON, GPE...)
mean nothing to the corpus, so they are mapped by its other articles: a label takes the entity
type the annotators gave to at least half of the spans it finds there that they marked; a label
they split among types, or whose spans they mostly leave unmarked (by the rule of
kg.suggest.practice), is not suggested. The model's names fill only places that no known name,
date or figure takes (kg.suggest.choosing.suggest).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from kg.errors import SettingError
from kg.suggest.practice import Counts, practised, summed
from kg.suggest.suggestion import Suggestion

Recognizer = Callable[[str], list[tuple[int, int, str]]]  # text -> (begin, end, label) of each name


def load_recognizer(name: str) -> Recognizer:
    """The named-entity spans of a spaCy pipeline (package name or directory); a SettingError
    that says what to install when spaCy or the pipeline is missing."""
    try:
        import spacy
    except ImportError:
        raise SettingError("spaCy is not installed (pip install spacy, then a pipeline package with an 'ner' "
                           "component; kg downloads none)", "--ner") from None
    try:
        nlp = spacy.load(name)
    except OSError as exc:
        raise SettingError(f"no spaCy pipeline {name!r} is installed (expected a pipeline package or a directory "
                           f"saved by spaCy; kg downloads none): {exc}", "--ner") from None
    except (ValueError, KeyError) as exc:  # spaCy's own errors for a broken meta.json or config.cfg
        raise SettingError(f"spaCy cannot load the pipeline {name!r} (expected one saved by spaCy "
                           f"{spacy.__version__} or near it): {exc}", "--ner") from None
    if not nlp.has_pipe("ner") and not nlp.has_pipe("entity_ruler"):
        raise SettingError(f"the spaCy pipeline {name!r} finds no named entities (expected an 'ner' or "
                           f"'entity_ruler' component; it has {', '.join(nlp.pipe_names) or 'none'})", "--ner")
    return lambda text: [(e.start_char, e.end_char, e.label_) for e in nlp(text).ents]


@dataclass(frozen=True)
class LabelHabits:
    """For one annotated document: per model label, (spans found, spans a human marked) and the
    human types of the marked ones."""

    counts: Counts
    types: dict[str, Counter]


def label_habits(found: list[tuple[int, int, str]], marked: dict[tuple[int, int], str]) -> LabelHabits:
    """How the model's spans in one annotated document meet the human entity spans (`marked`:
    begin and end -> type)."""
    seen: Counter = Counter()
    hits: Counter = Counter()
    types: dict[str, Counter] = {}
    for begin, end, label in found:
        seen[label] += 1
        if (begin, end) in marked:
            hits[label] += 1
            types.setdefault(label, Counter())[marked[(begin, end)]] += 1
    return LabelHabits({label: (seen[label], hits[label]) for label in seen}, types)


def label_types(others: list[LabelHabits]) -> dict[str, str]:
    """Each label the other documents' annotators mark as often as their other names, with the
    type they gave at least half of its marked spans (ties: alphabetical); a label they split
    among types (ORG: a city here, an army there) has none."""
    types: dict[str, Counter] = {}
    for habits in others:
        for label, counted in habits.types.items():
            types.setdefault(label, Counter()).update(counted)
    kept = practised({label: [] for label in types}, summed([h.counts for h in others]))
    chosen = {label: min(types[label].items(), key=lambda item: (-item[1], item[0])) for label in kept}
    return {label: type_ for label, (type_, count) in chosen.items() if 2 * count >= sum(types[label].values())}


def model_names(text: str, recognize: Recognizer, types: dict[str, str], model: str) -> list[Suggestion]:
    """The model's names in the text whose label has a type, as name suggestions without a link."""
    return [Suggestion(begin, end, text[begin:end], types[label], None, None,
                       f"named-entity model {model}: {label}, annotated as {types[label]} in the other articles")
            for begin, end, label in recognize(text) if label in types and text[begin:end].strip()]
