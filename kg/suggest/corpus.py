"""The corpus `kg suggest` learns from: its configuration, vocabulary, alias table and documents,
each read once, and what its annotators marked (names and events).
"""

from __future__ import annotations

from pathlib import Path

from kg.errors import CorpusError
from kg.formats.brat.conf import AnnotationConfig, load_config
from kg.formats.brat.conf_writer import union_configs
from kg.formats.corpus import ALIASES_FILE, MAPPING_FILE, DocumentFiles, read_document, scan_corpus
from kg.formats.records import Document
from kg.model.entities.aliases import AliasTable, load_aliases
from kg.model.entities.resolve import LOCAL_FAMILIES, Rule, resolve_document
from kg.model.schema.corpus_vocabulary import Vocabulary, load_alignment
from kg.suggest.events import SeenEvent, seen_events

_LINKED_RULES = (Rule.KG, Rule.ALIAS_TABLE)


class SuggestCorpus:
    """A corpus's configuration, vocabulary, alias table and documents, read once."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.documents = [d for d in _articles(root) if not d.converted]
        self.configs = {p: load_config(p) for p in sorted({d.config for d in self.documents if d.config})}
        if not self.configs:
            raise CorpusError("no annotation.conf for the articles (expected one at the corpus root or beside them)", root)
        self.vocab = Vocabulary(union_configs(list(self.configs.values())), load_alignment(root / MAPPING_FILE))
        self.aliases: AliasTable = load_aliases(root / ALIASES_FILE, self.vocab)
        self._read: dict[DocumentFiles, Document] = {}

    def config_of(self, files: DocumentFiles) -> AnnotationConfig:
        if files.config is None:
            raise CorpusError("no annotation.conf for this article (expected one in its directory or above)", files.txt)
        if files.config not in self.configs:
            self.configs[files.config] = load_config(files.config)
        return self.configs[files.config]

    def read(self, files: DocumentFiles) -> Document:
        """The document, read and checked once however many times names, triggers and its own
        suggestions ask for it."""
        if files not in self._read:
            self._read[files] = read_document(files, self.config_of(files))
        return self._read[files]

    def triggers(self) -> list[SeenEvent]:
        """Every event a human annotated: its trigger text, type, document and entity arguments."""
        found = []
        for files in self.documents:
            if files.ann.exists():
                found += seen_events(self.read(files).annotations, self.config_of(files), files.slug)
        return found

    def names(self) -> list[tuple[str, str, str | None, str]]:
        """(text, type, key or None, document) of every named entity mention a human annotated."""
        found = []
        for files in self.documents:
            if not files.ann.exists():
                continue
            doc = self.read(files)
            vocab = Vocabulary(self.config_of(files), self.vocab.alignment)
            for tid, resolution in resolve_document(doc, vocab, self.aliases).items():
                bound = doc.annotations.textbounds[tid]
                if vocab.family(bound.type) in LOCAL_FAMILIES | {"date"} or resolution.rule in (Rule.UNNAMED, Rule.LOCAL):
                    continue
                key = resolution.key if resolution.rule in _LINKED_RULES else None
                found.append((bound.text, bound.type, key, files.slug))
        return found


def _articles(root: Path) -> list[DocumentFiles]:
    """The corpus's documents (suggestion files are listed by the scanner as not read)."""
    return scan_corpus(root).documents
