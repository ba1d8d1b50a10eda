"""What every document of a build is read against: configurations, alignment, alias table.

Parsing them is deferred until there is work to do, so a no-op build costs
only their fingerprint (which also covers kg's own code, ontology and shapes:
a change to any of them makes the next build a full one).
"""

from __future__ import annotations

import hashlib
import os
import pickle
from dataclasses import replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Collection

from kg import __version__
from kg.errors import ConfigError, InputError, InputWarning
from kg.formats import limits
from kg.formats.brat.conf import CONFIG_FILE, find_config, load_config
from kg.formats.brat.conf_writer import union_configs
from kg.formats.brat.tools_conf import TOOLS_FILE, find_tools, url_patterns
from kg.formats.corpus import ALIASES_FILE, MAPPING_FILE, DocumentFiles, converted_config
from kg.model import iris
from kg.model.resources import ONTOLOGY_TTL, SHAPES_TTL, read_rdf
from kg.store import build_dirs, checksums

PARSED = ("alignment", "vocabularies", "vocabulary", "aliases")
OWN_CODE = Path(__file__).parents[1]

if TYPE_CHECKING:  # imported when parsed (rdflib comes with them): a no-op build needs neither
    from kg.model.entities.aliases import AliasTable
    from kg.model.entities.knowledge_bases import KnowledgeBases
    from kg.model.schema.corpus_vocabulary import Alignment, Vocabulary


class Inputs:
    """What every document is read against. Configurations, alignment and the alias table are
    parsed only when there is work to do: a no-op build needs nothing but their fingerprint."""

    def __init__(self, corpus_dir: Path, configs: list[Path], documents: list[DocumentFiles]) -> None:
        self.corpus_dir = corpus_dir
        self.configs = configs
        self.converted = [d for d in documents if d.converted]
        self.unconfigured = [d for d in documents if not d.converted and d.config is None]
        self.config_files = [p for p in configs if p.name == CONFIG_FILE]
        tools_files = [p for p in configs if p.name == TOOLS_FILE]
        digest = hashlib.sha256(code_fingerprint().encode())
        for path in (*self.config_files, *tools_files):  # where each applies (relative: a corpus may move)
            digest.update(path.relative_to(corpus_dir).as_posix().encode())
        for path in (*self.config_files, *tools_files, corpus_dir / ALIASES_FILE, corpus_dir / MAPPING_FILE):
            limits.digest_file(path, digest, missing=b"")
        for item in self.unconfigured:  # their annotations make their configuration
            digest.update(_stamp(item.ann))
        self.fingerprint = digest.hexdigest()

    @property
    def warnings(self) -> list[InputError]:
        """What the annotation.conf files parsed so far only warn about (as brat does), reported with the
        documents' warnings; kept with the parsed inputs, so an incremental build reports them too."""
        parsed = self.__dict__.get("vocabularies", {})
        keys = [*self.config_files, *([self._inferred_key] if self.unconfigured else [])]
        return [w for path in keys if path in parsed for w in parsed[path].config.warnings]

    @cached_property
    def alignment(self) -> Alignment:
        from kg.model.schema.corpus_vocabulary import load_alignment

        return load_alignment(self.corpus_dir / MAPPING_FILE)

    @cached_property
    def vocabularies(self) -> dict[Path, Vocabulary]:
        """One per annotation.conf, and one per converted document (INCEpTION, WebAnno: its layers are
        its schema, joined with the annotation.conf that applies to its directory: its hierarchy and types)."""
        from kg.model.schema.corpus_vocabulary import Vocabulary

        vocabularies = {path: Vocabulary(load_config(path), self.alignment, self._knowledge_bases(path.parent))
                        for path in self.config_files}
        if self.unconfigured:
            vocabularies[self._inferred_key] = Vocabulary(self._inferred_config(), self.alignment,
                                                          self._knowledge_bases(self.corpus_dir))
        for item in self.converted:
            vocabularies[Path(item.source)] = self._converted_vocabulary(item, vocabularies)
        return vocabularies

    def _converted_vocabulary(self, item: DocumentFiles, vocabularies: dict[Path, Vocabulary]) -> Vocabulary:
        """A converted document's vocabulary: its own layers joined with the annotation.conf of its directory."""
        from kg.model.schema.corpus_vocabulary import Vocabulary

        applies = find_config(item.txt.parent, self.corpus_dir)
        own = converted_config(item)
        config = union_configs([vocabularies[applies].config, own]) if applies in vocabularies else own
        return Vocabulary(config, self.alignment, self._knowledge_bases(item.txt.parent, converted=True))

    def _knowledge_bases(self, directory: Path, converted: bool = False) -> KnowledgeBases:
        """The knowledge bases declared by the tools.conf that applies to `directory` (and for an
        INCEpTION document, every database its identifiers name)."""
        from kg.model.entities.knowledge_bases import KnowledgeBases

        return KnowledgeBases.declared(url_patterns(find_tools(directory, self.corpus_dir)), converted)

    @cached_property
    def vocabulary(self) -> Vocabulary:
        """Every type of the corpus (all its configurations): for the entity records and the ontology."""
        from kg.model.schema.corpus_vocabulary import Vocabulary, check_alignment_names

        vocabularies = list(self.vocabularies.values())
        if not vocabularies:
            raise ConfigError(f"no {CONFIG_FILE} in the corpus (expected one at its root or beside its documents)",
                              self.corpus_dir)
        merged = Vocabulary(union_configs([v.config for v in vocabularies]), self.alignment)
        check_alignment_names(merged)
        return merged

    @cached_property
    def aliases(self) -> AliasTable:
        from kg.model.entities.aliases import load_aliases

        return load_aliases(self.corpus_dir / ALIASES_FILE, self.vocabulary)

    def save_parsed(self, build_dir: Path) -> None:
        """Keep what was parsed in the build directory: an incremental build on top of it reads the
        same inputs (same fingerprint) and takes them from there instead of parsing them again (the
        alias table of a large corpus takes seconds). When everything came from the previous build
        and nothing more was parsed, its file is linked, not written again (tens of megabytes at
        100,000 articles)."""
        from kg.pipeline import kept_aliases

        target = build_dir / build_dirs.PARSED_INPUTS_FILE
        parsed = {name: self.__dict__[name] for name in PARSED if name in self.__dict__}
        reused = self.__dict__.get("_reused_from")
        if reused is not None and reused[1] == parsed.keys():
            try:
                os.link(reused[0], target)
                checksums.link_seal(reused[0], target)
                return
            except OSError:  # another file system, or the file is gone: write it
                pass
        if "aliases" in parsed:  # entries as tuples: the next build makes only those it asks for
            parsed["aliases"] = kept_aliases.kept_form(parsed["aliases"])
        target.write_bytes(pickle.dumps((self._parsed_tag(), parsed), pickle.HIGHEST_PROTOCOL))
        checksums.seal(target)  # a damaged file is parsed again, never reused (kg.store.checksums)

    def reuse_parsed(self, build_dir: Path, remade: Collection[DocumentFiles] = ()) -> None:
        """Take the parsed inputs a previous build kept, when it read the same inputs; anything
        else (no file, another fingerprint, an unreadable file) leaves them to be parsed. `remade`: the
        documents the build reads anew."""
        path = build_dir / build_dirs.PARSED_INPUTS_FILE
        if not checksums.intact(path):
            return
        try:
            tag, parsed = pickle.loads(path.read_bytes())
        except Exception:  # noqa: BLE001 - a cache: whatever is wrong with it, parse instead
            return
        if tag == self._parsed_tag() and isinstance(parsed, dict):
            from kg.pipeline import kept_aliases

            taken = {name: value for name, value in parsed.items() if name in PARSED}
            if "aliases" in taken:
                taken["aliases"] = kept_aliases.table_of(taken["aliases"])
            self.__dict__.update(taken)
            self.__dict__["_reused_from"] = (build_dir / build_dirs.PARSED_INPUTS_FILE, taken.keys())
            self._refresh_converted(remade)

    def _refresh_converted(self, remade: Collection[DocumentFiles]) -> None:
        """The fingerprint covers no converted document (INCEpTION, WebAnno: its layers are its schema, and
        editing one must not make a full build): the vocabularies of those added or changed are made again,
        those of the removed dropped, and the corpus vocabulary (with the alias table read against it) made
        again when their union changed, so that the ontology graph declares the layers and features they
        bring."""
        reused = self.__dict__.get("vocabularies")
        if reused is None:
            return
        own_keys = {*self.config_files, self._inferred_key}
        present = {Path(item.source) for item in self.converted}
        stale = [key for key in reused if key not in own_keys and key not in present]
        fresh = {Path(item.source): self._converted_vocabulary(item, reused) for item in remade if item.converted}
        if not stale and not fresh and present <= reused.keys():
            return
        vocabularies = {key: value for key, value in reused.items() if key in own_keys}  # in a full build's order
        for item in self.converted:
            key = Path(item.source)
            vocabularies[key] = fresh.get(key) or reused.get(key) or self._converted_vocabulary(item, reused)
        self.__dict__["vocabularies"] = vocabularies
        self.__dict__.pop("_reused_from", None)  # what is kept changed: written anew, not linked
        merged = self.__dict__.get("vocabulary")
        if merged is not None and union_configs([v.config for v in vocabularies.values()]) != merged.config:
            self.__dict__.pop("vocabulary")
            self.__dict__.pop("aliases", None)

    def _parsed_tag(self) -> tuple[str, str, str]:
        """What parsed inputs depend on: the inputs' content, where the corpus lies and how its path
        is spelled (the vocabularies are keyed by their files' paths as given: a corpus copied
        elsewhere, or named by a relative path where the last build had an absolute one, has other
        keys)."""
        return self.fingerprint, str(self.corpus_dir), str(Path(self.corpus_dir).resolve())

    def vocabulary_of(self, item: DocumentFiles) -> Vocabulary:
        return self.vocabularies[self.vocabulary_key(item)]

    def vocabulary_key(self, item: DocumentFiles) -> Path:
        """Which of `vocabularies` a document is read with."""
        if item.converted:
            return Path(item.source)
        return self._inferred_key if item.config is None else item.config

    @property
    def _inferred_key(self) -> Path:
        """The key of the configuration inferred for documents no annotation.conf covers (no such file exists)."""
        return self.corpus_dir / CONFIG_FILE

    def _inferred_config(self):
        from kg.formats.brat.infer import infer_config

        texts = [item.ann.read_text(encoding="utf-8", errors="replace") for item in self.unconfigured if item.ann.exists()]
        config = infer_config(texts, self._inferred_key)
        return replace(config, warnings=config.warnings + (InputWarning(
            f"no {CONFIG_FILE} covers {len(self.unconfigured):,} document(s): their types are taken from their "
            f"annotations ({len(config.entities)} entity, {len(config.relations)} relation, {len(config.events)} event "
            f"and {len(config.attributes)} attribute types; expected an {CONFIG_FILE} in their directory or above, "
            "as brat looks it up, which brat would replace with its default)", self._inferred_key),))


def code_fingerprint(package: Path = OWN_CODE) -> str:
    """What every build reads besides the corpus: kg's version and own code (that of `package`),
    the ontology, the shapes, and the base IRI in force (another base mints every IRI anew)."""
    digest = hashlib.sha256(__version__.encode())
    digest.update(iris.BASE.encode())
    for path in sorted(package.rglob("*.py")):
        if path.relative_to(package).parts[0] != "testing":  # the servers tests start: no build reads them
            limits.digest_file(path, digest)
    for name in (ONTOLOGY_TTL, SHAPES_TTL):
        digest.update(read_rdf(name))
    return digest.hexdigest()


def _stamp(path: Path) -> bytes:
    """A file's name, size, modification and change time: what changes when it is edited (the
    change time too when an edit keeps the size and sets the modification time back)."""
    try:
        status = path.stat()
    except OSError:
        return str(path).encode()
    return f"{path}\0{status.st_size}\0{status.st_mtime_ns}\0{status.st_ctime_ns}".encode()
