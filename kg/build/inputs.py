"""What every document of a build is read against: configurations, alignment, alias table.

Parsing them is deferred until there is work to do, so a no-op build costs
only their fingerprint (which also covers kg's own code, ontology and shapes:
a change to any of them makes the next build a full one).
"""

from __future__ import annotations

import hashlib
import pickle
from functools import cached_property
from pathlib import Path

from typing import TYPE_CHECKING

from kg import __version__
from kg.model import iris
from kg.formats.brat.conf import CONFIG_FILE, find_config, load_config
from kg.formats.brat.conf_writer import union_configs
from kg.formats.corpus import ALIASES_FILE, MAPPING_FILE, DocumentFiles, inception_config
from kg.errors import ConfigError, CorpusError, InputError
from kg.model.resources import ONTOLOGY_TTL, SHAPES_TTL, read_rdf

PARSED_FILE = "inputs.pickle"  # beside a build's manifest: its parsed inputs, for the next incremental build
PARSED = ("alignment", "vocabularies", "vocabulary", "aliases")

if TYPE_CHECKING:  # imported when parsed (rdflib comes with them): a no-op build needs neither
    from kg.model.aliases import AliasTable
    from kg.model.corpus_vocabulary import Alignment, Vocabulary


class Inputs:
    """What every document is read against. Configurations, alignment and the alias table are
    parsed only when there is work to do: a no-op build needs nothing but their fingerprint."""

    def __init__(self, corpus_dir: Path, configs: list[Path], documents: list[DocumentFiles]) -> None:
        self.corpus_dir = corpus_dir
        self.configs = configs
        self.inception = [d for d in documents if d.is_xmi]
        self.config_files = [p for p in configs if p.name == CONFIG_FILE]
        digest = hashlib.sha256(__version__.encode())
        digest.update(iris.BASE.encode())  # the base IRI in force: another base mints every IRI anew
        for path in self.config_files:  # where each configuration applies (relative: a corpus may move)
            digest.update(path.relative_to(corpus_dir).as_posix().encode())
        for path in (*self.config_files, corpus_dir / ALIASES_FILE, corpus_dir / MAPPING_FILE,
                     *sorted(Path(__file__).parents[1].rglob("*.py"))):  # all of kg's own code
            digest.update(path.read_bytes() if path.exists() else b"")
        for name in (ONTOLOGY_TTL, SHAPES_TTL):
            digest.update(read_rdf(name))
        self.fingerprint = digest.hexdigest()

    @property
    def warnings(self) -> list[InputError]:
        """What the annotation.conf files parsed so far only warn about (as brat does), reported with the
        documents' warnings; kept with the parsed inputs, so an incremental build reports them too."""
        parsed = self.__dict__.get("vocabularies", {})
        return [w for path in self.config_files if path in parsed for w in parsed[path].config.warnings]

    @cached_property
    def alignment(self) -> Alignment:
        from kg.model.corpus_vocabulary import load_alignment

        return load_alignment(self.corpus_dir / MAPPING_FILE)

    @cached_property
    def vocabularies(self) -> dict[Path, Vocabulary]:
        """One per annotation.conf, and one per INCEpTION document (its layers are its schema, joined
        with the annotation.conf that applies to its directory: its hierarchy and types)."""
        from kg.model.corpus_vocabulary import Vocabulary

        vocabularies = {path: Vocabulary(load_config(path), self.alignment) for path in self.config_files}
        for item in self.inception:
            applies = find_config(item.txt.parent, self.corpus_dir)
            own = inception_config(item)
            config = union_configs([vocabularies[applies].config, own]) if applies in vocabularies else own
            vocabularies[Path(item.source)] = Vocabulary(config, self.alignment)
        return vocabularies

    @cached_property
    def vocabulary(self) -> Vocabulary:
        """Every type of the corpus (all its configurations): for the entity records and the ontology."""
        from kg.model.corpus_vocabulary import Vocabulary, check_alignment_names

        vocabularies = list(self.vocabularies.values())
        if not vocabularies:
            raise ConfigError(f"no {CONFIG_FILE} in the corpus (expected one at its root or beside its documents)",
                              self.corpus_dir)
        merged = Vocabulary(union_configs([v.config for v in vocabularies]), self.alignment)
        check_alignment_names(merged)
        return merged

    @cached_property
    def aliases(self) -> AliasTable:
        from kg.model.aliases import load_aliases

        return load_aliases(self.corpus_dir / ALIASES_FILE, self.vocabulary)

    def save_parsed(self, build_dir: Path) -> None:
        """Keep what was parsed in the build directory: an incremental build on top of it reads the
        same inputs (same fingerprint) and takes them from there instead of parsing them again (the
        alias table of a large corpus takes seconds)."""
        parsed = {name: self.__dict__[name] for name in PARSED if name in self.__dict__}
        (build_dir / PARSED_FILE).write_bytes(pickle.dumps((self._parsed_tag(), parsed), pickle.HIGHEST_PROTOCOL))

    def reuse_parsed(self, build_dir: Path) -> None:
        """Take the parsed inputs a previous build kept, when it read the same inputs; anything
        else (no file, another fingerprint, an unreadable file) leaves them to be parsed."""
        try:
            tag, parsed = pickle.loads((build_dir / PARSED_FILE).read_bytes())
        except Exception:  # noqa: BLE001 - a cache: whatever is wrong with it, parse instead
            return
        if tag == self._parsed_tag() and isinstance(parsed, dict):
            self.__dict__.update((name, value) for name, value in parsed.items() if name in PARSED)

    def _parsed_tag(self) -> tuple[str, str]:
        """What parsed inputs depend on: the inputs' content and where the corpus lies (the
        vocabularies are keyed by their files' paths; a corpus copied elsewhere has other keys)."""
        return self.fingerprint, str(Path(self.corpus_dir).resolve())

    def vocabulary_of(self, item: DocumentFiles) -> Vocabulary:
        return self.vocabularies[self.vocabulary_key(item)]

    def vocabulary_key(self, item: DocumentFiles) -> Path:
        """Which of `vocabularies` a document is read with."""
        if item.is_xmi:
            return Path(item.source)
        if item.config is None:
            raise CorpusError(f"no {CONFIG_FILE} for this document (expected one in its directory or a parent "
                              "directory of the corpus, as brat looks it up)", item.txt)
        return item.config
