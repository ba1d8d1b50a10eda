"""`kg suggest` on files: read a corpus's articles, alias table and configuration, write the
suggestions of kg.suggest.choosing as brat standoff, and score them against human annotations.

An article's suggestions go to `<slug>.suggested.ann` beside its .txt; its own .ann is
never touched, except with `merge`, which appends the suggestions to it after every
human line, unchanged, as a careful editor saves (kg.atomic.edit_file): in one rename, through
a link, keeping its permissions, and only if no other program saved it meanwhile (else it is
merged again); a read-only .ann is refused. Either output is read back with kg's own reader
before it is written. Names annotated in the other documents of the corpus are suggested too
(`corpus_names`); an article's own annotations never suggest anything to it, so the
score measures what the suggestions add.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from kg.atomic import edit_file, replaced_file
from kg.errors import CorpusError
from kg.formats.brat.ann import parse_ann
from kg.formats.brat.conf import AnnotationConfig, AttributeType, decode_utf8, find_config
from kg.formats.corpus import SUGGESTED_SUFFIX, DocumentFiles
from kg.formats.records import Document
from kg.model.schema.corpus_vocabulary import Vocabulary
from kg.suggest.choosing import suggest
from kg.suggest.corpus import SuggestCorpus
from kg.suggest.events import TriggerModel, score_arguments, score_events
from kg.suggest.human import Score, ann_lines, highest_ids, score, without_human
from kg.suggest.knowledge import Known
from kg.suggest.matchers.spans import Lexicon
from kg.suggest.scoring import named_forms, score_known
from kg.suggest.suggestion import Suggestion


@dataclass(frozen=True)
class Outcome:
    """What `kg suggest` did for one article."""

    slug: str
    written: Path | None
    suggestions: list[Suggestion]
    score: Score | None
    events: Score | None = None
    known: Score | None = None  # names the suggester knew for this article (kg.suggest.scoring)
    named: Score | None = None  # names annotated anywhere in the corpus
    arguments: Score | None = None  # event arguments (kg.suggest.events.score_arguments)


def suggest_files(root: Path, articles: list[Path] | None = None, *, merge: bool = False, write: bool = True,
                  corpus_names: bool = True, events: bool = True, ner: str | None = None) -> list[Outcome]:
    """Suggest for the given articles (.txt paths) of the corpus at `root`, or for all of them.
    Names (`corpus_names`) and event triggers (`events`) annotated in the other articles are
    suggested too, and with `ner` (a spaCy pipeline's name or directory, kg.suggest.ner) the
    names a named-entity model finds where nothing known stands."""
    corpus = SuggestCorpus(Path(root))
    targets = corpus.documents if articles is None else [_files_of(corpus, Path(a)) for a in articles]
    known = Known(corpus, corpus_names, events, ner)
    outcomes = []
    for files in targets:
        config = corpus.config_of(files)
        lexicon, lexicons = known.for_article(files, config)
        outcome = _one(corpus, files, config, lexicons, merge, write)
        outcomes.append(_with_more_scores(outcome, corpus.read(files), config, set(lexicon), named_forms(known.names)))
    return outcomes


def _with_more_scores(outcome: Outcome, doc: Document, config: AnnotationConfig, known: set[str],
                      named: set[str]) -> Outcome:
    """The outcome with its name rows (kg.suggest.scoring) and event arguments, when the article
    has human annotations."""
    if outcome.score is None:
        return outcome
    found = outcome.suggestions
    return replace(outcome, known=score_known(found, doc.annotations, config, known),
                   named=score_known(found, doc.annotations, config, known | named),
                   arguments=score_arguments(found, doc.annotations))


def _files_of(corpus: SuggestCorpus, article: Path) -> DocumentFiles:
    if article.suffix != ".txt" or not article.is_file():
        raise CorpusError("not an article (expected the .txt file of a brat document)", article)
    for files in corpus.documents:
        if files.txt.resolve() == article.resolve():
            return files
    return DocumentFiles(article.stem, article, article.with_suffix(".ann"), article.with_suffix(".json"),
                         find_config(article.parent, article.parent) or find_config(corpus.root, corpus.root))


def _one(corpus: SuggestCorpus, files: DocumentFiles, config: AnnotationConfig,
         lexicons: tuple[Lexicon, TriggerModel, list[Suggestion]], merge: bool, write: bool) -> Outcome:
    doc = corpus.read(files)
    vocab = Vocabulary(config, corpus.vocab.alignment)
    names, triggers, others = lexicons
    found = suggest(doc.text, names, config, published=doc.metadata.date,
                    date_type=_type_of_family(config, vocab, "date"), figure_type=_type_of_family(config, vocab, "figure"),
                    quote_type=_type_of_family(config, vocab, "quote"), triggers=triggers, others=others)
    annotated = files.ann.exists()
    measured = score(found, doc.annotations, config) if annotated else None
    events = score_events(found, doc.annotations) if annotated else None
    if not write:
        return Outcome(files.slug, None, found, measured, events)
    qualifier = _qualifier_of(config, vocab)
    if merge:
        added = []

        def merged(raw: bytes) -> bytes:
            """The .ann as it is now, with the suggestions no human line covers appended (read again
            if it changed before the write: edit_file)."""
            human = decode_utf8(raw, files.ann, CorpusError)
            added[:] = without_human(found, parse_ann(files.ann, human, doc.text, config), config)
            separator = "" if not human or human.endswith(("\n", "\r")) else "\n"
            lines = ann_lines(added, highest_ids(human), qualifier)
            return _checked(files.ann, human + separator + "".join(f"{line}\n" for line in lines), doc, config)

        edit_file(files.ann, merged)
        return Outcome(files.slug, files.ann, added, measured, events)
    target = files.txt.with_name(files.txt.name[:-4] + SUGGESTED_SUFFIX)
    content = "".join(f"{line}\n" for line in ann_lines(found, qualifier=qualifier))
    with replaced_file(target) as out:
        out.write(_checked(target, content, doc, config))
    return Outcome(files.slug, target, found, measured, events)


def _checked(target: Path, content: str, doc: Document, config: AnnotationConfig) -> bytes:
    """`content` as it is written, once kg's own reader accepts it."""
    parse_ann(target, content, doc.text, config)
    return content.encode("utf-8")


def _type_of_family(config: AnnotationConfig, vocab: Vocabulary, family: str) -> str | None:
    """The entity type for dates (or figures): the first usable one of that family."""
    return next((t for t in config.entities if config.usable(t) and vocab.family(t) == family), None)


def _qualifier_of(config: AnnotationConfig, vocab: Vocabulary) -> AttributeType | None:
    """The attribute that qualifies figures (kgo:qualifier), if the configuration has one for them."""
    figure = _type_of_family(config, vocab, "figure")
    return next((a for name, a in config.attributes.items() if figure and vocab.means(name, "qualifier")
                 and config.matches(figure, a.targets)), None)


def score_table(outcomes: list[Outcome]) -> str:
    """Per article and overall: suggestions, human entity annotations, precision and recall
    (span and type), and span-only precision and recall; then the same for event triggers and
    their arguments, and for the names the suggester knew and the names annotated anywhere (kg.suggest.scoring)."""
    rows = [(o.slug, o.score) for o in outcomes if o.score is not None]
    total = sum((s for _, s in rows), Score(0, 0, 0, 0))
    width = max([len(slug) for slug, _ in rows] + [7])
    lines = [f"{'article':{width}}  suggested  human  precision  recall  span-precision  span-recall"]
    extra = [(label, sum((getattr(o, field) for o in outcomes if getattr(o, field) is not None), Score(0, 0, 0, 0)))
             for label, field in (("event triggers", "events"), ("event arguments", "arguments"),
                                  ("known names", "known"), ("named anywhere", "named"))]
    for slug, s in [*rows, ("overall", total), *extra]:
        lines.append(f"{slug:{width}}  {s.suggested:9d}  {s.human:5d}  {s.precision():9.3f}  {s.recall():6.3f}"
                     f"  {s.precision(False):14.3f}  {s.recall(False):11.3f}")
    return "\n".join(lines)
