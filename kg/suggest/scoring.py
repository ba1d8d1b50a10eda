"""How many of the names a person annotated `kg suggest` finds, counted against what it could know.

The overall score (kg.suggest.human.score) counts every human entity span, including
descriptions ("the soldier") that no string matcher can find. These rows narrow the human
side to names: `known` to the spans whose text is a name the suggester knew for this article
(the alias table and the names annotated in the corpus's other articles), the measure of the
matcher itself; `named` to the spans whose text is a proper name annotated anywhere in the
corpus, this article included, which is what a name found by no other article (a named-entity
model's job) would add. Suggestions are the name suggestions only (no date, figure, quote or
event), so precision says how often a suggested name is one a person annotated, span and type.
"""

from __future__ import annotations

from kg.formats.brat.conf import AnnotationConfig
from kg.formats.records import Annotations, TextBound
from kg.suggest.human import Score
from kg.suggest.matchers.spans import is_proper_name, lexicon_form
from kg.suggest.suggestion import Suggestion


def score_known(suggestions: list[Suggestion], human: Annotations, config: AnnotationConfig,
                known: set[str]) -> Score:
    """Name suggestions against the human entity spans whose normalized text is in `known`
    (lexicon forms, kg.suggest.matchers.spans.lexicon_form)."""
    bounds = [b for b in _entity_bounds(human, config) if lexicon_form(b.text) in known]
    typed = {(b.begin, b.end, b.type) for b in bounds}
    spans = {(b.begin, b.end) for b in bounds}
    names = [s for s in suggestions if s.kind == "name"]
    exact = sum((s.begin, s.end, s.type) in typed for s in names)
    span = sum((s.begin, s.end) in spans for s in names)
    return Score(len(names), len(bounds), exact, span)


def named_forms(names: list[tuple[str, str, str | None, str]]) -> set[str]:
    """Lexicon forms of every proper name annotated in the corpus, as kg.suggest.files lists them."""
    return {lexicon_form(text) for text, *_ in names if is_proper_name(text)}


def _entity_bounds(human: Annotations, config: AnnotationConfig) -> list[TextBound]:
    return [b for b in human.textbounds.values() if b.type in config.entities and len(b.spans) == 1]

