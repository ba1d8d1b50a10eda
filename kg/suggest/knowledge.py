"""What a corpus's annotations teach `kg suggest`, read once, and what each article may use of it.

Names and event triggers annotated in the documents, how often each is marked where it occurs
(kg.suggest.practice), and, with a named-entity model, the model's spans and how the annotators
typed them (kg.suggest.ner). An article learns only from the others (leave-one-out), so that
`kg suggest --score` measures what the suggestions add.
"""

from __future__ import annotations

from dataclasses import replace

from kg.formats.brat.conf import AnnotationConfig
from kg.formats.corpus import DocumentFiles
from kg.model.schema.corpus_vocabulary import Vocabulary
from kg.suggest.corpus import SuggestCorpus
from kg.suggest.events import SeenEvent, TriggerModel, human_triggers, trigger_model, trigger_places
from kg.suggest.matchers.spans import Lexicon, alias_lexicon, corpus_lexicon, merge_lexicons
from kg.suggest.ner import label_habits, label_types, load_recognizer, model_names
from kg.suggest.practice import Counts, by_form, document_counts, leave_out, name_places, practised, summed, unmarked
from kg.suggest.suggestion import Suggestion

Names = list[tuple[str, str, str | None, str]]  # (text, type, key or None, document)


class Known:
    """The corpus's names, triggers and their practice counts (and a named-entity model's spans)."""

    def __init__(self, corpus: SuggestCorpus, corpus_names: bool, events: bool, ner: str | None) -> None:
        self.corpus = corpus
        self.names: Names = corpus.names() if corpus_names else []
        self.counts = name_counts(corpus, self.names)
        self.total = summed(list(self.counts.values()))
        self.events = events
        self.triggers = corpus.triggers() if events else []
        self.trigger_counts = trigger_counts(corpus, self.triggers)
        self.trigger_total = summed(list(self.trigger_counts.values()))
        self.ner = ner
        self.recognize = load_recognizer(ner) if ner else None
        self.labels = {files.slug: label_habits(self.recognize(corpus.read(files).text), _marked_types(corpus, files))
                       for files in _annotated(corpus)} if self.recognize else {}

    def for_article(self, files: DocumentFiles, config: AnnotationConfig
                    ) -> tuple[Lexicon, tuple[Lexicon, TriggerModel, list[Suggestion]]]:
        """The names the article's lexicon knows (before the practice filter: what --score counts as
        known), and what kg.suggest.matchers.spans.suggest takes: the names kept, the trigger model and the
        model's names."""
        slug = files.slug
        lexicon = merge_lexicons(alias_lexicon(self.corpus.aliases, config),
                                 corpus_lexicon([n for n in self.names if n[3] != slug]))
        kept = practised(lexicon, leave_out(self.total, self.counts.get(slug, {})))
        model = trigger_model([t for t in self.triggers if t.document != slug], config,
                              self.corpus.read(files).metadata.language,
                              means=Vocabulary(config, self.corpus.vocab.alignment).means)
        others = leave_out(self.trigger_total, self.trigger_counts.get(slug, {}))  # by sense
        triggers_kept = practised(model.lexicon, by_form(others, model.form)) if self.events else {}
        model = replace(model, lexicon=triggers_kept, unmarked=unmarked(others))
        found = []
        if self.recognize and self.ner:
            types = label_types([h for other, h in self.labels.items() if other != slug])
            found = model_names(self.corpus.read(files).text, self.recognize, types, self.ner)
        return lexicon, (kept, model, found)


def name_counts(corpus: SuggestCorpus, names: Names) -> dict[str, Counts]:
    """Per annotated document, where each known name would be suggested and how often a human
    marked it (kg.suggest.practice), with every name the corpus knows."""
    found = {}
    lexicons: dict[int, Lexicon] = {}  # one per configuration
    for files in _annotated(corpus):
        config, doc = corpus.config_of(files), corpus.read(files)
        lexicon = lexicons.get(id(config)) or lexicons.setdefault(
            id(config), merge_lexicons(alias_lexicon(corpus.aliases, config), corpus_lexicon(names)))
        marked = {(b.begin, b.end) for b in doc.annotations.textbounds.values() if b.type in config.entities}
        found[files.slug] = document_counts(name_places(doc.text, lexicon, config), marked)
    return found


def trigger_counts(corpus: SuggestCorpus, triggers: list[SeenEvent]) -> dict[str, Counts]:
    """Per annotated document, where each learned trigger occurs and how often a human marked it
    as an event's trigger, by sense (kg.suggest.practice), with every trigger the corpus knows."""
    found = {}
    models: dict[tuple[int, str], TriggerModel] = {}  # one per configuration and language
    for files in _annotated(corpus):
        doc, config = corpus.read(files), corpus.config_of(files)
        key = (id(config), doc.metadata.language)
        model = models.get(key) or models.setdefault(key, trigger_model(triggers, config, key[1]))
        marked = {(b, e) for b, e, _ in human_triggers(doc.annotations)}
        found[files.slug] = document_counts(trigger_places(doc.text, model), marked)
    return found


def _annotated(corpus: SuggestCorpus) -> list[DocumentFiles]:
    return [files for files in corpus.documents if files.ann.exists()]


def _marked_types(corpus: SuggestCorpus, files: DocumentFiles) -> dict[tuple[int, int], str]:
    config = corpus.config_of(files)
    return {(b.begin, b.end): b.type for b in corpus.read(files).annotations.textbounds.values()
            if b.type in config.entities and len(b.spans) == 1}
