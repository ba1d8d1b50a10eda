"""`kg check`: everything a build checks on its input, without writing anything.

The same code as `kg build` reads the corpus (kg.pipeline.reading.readers.read_all): every file
listed, every document read, checked, resolved and turned into its graph in
memory, the alias table and the metadata keys checked; every problem found is
raised together as InputErrors. SHACL validation of the graphs, which a
build also does, is optional here (`shapes`), as it dominates the time.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from kg.errors import InputError, InputErrors
from kg.formats.corpus import ALIASES_FILE, MAPPING_FILE, not_read, scan_corpus
from kg.model.entities.aliases import AliasTable, alias_keys
from kg.model.schema.schema_report import alignment_listing
from kg.pipeline.builder import check_metadata_keys, warnings_first
from kg.pipeline.inputs import Inputs
from kg.pipeline.reading.readers import read_all


@dataclass
class CheckReport:
    """What a check read."""

    documents: int
    seconds: float
    ignored: list[Path] = field(default_factory=list)
    warnings: list[InputError] = field(default_factory=list)
    types: str = ""  # how the corpus's types are aligned with kgo (kg.model.schema.schema_report)

    def summary(self) -> str:
        found = "no error found" if self.warnings else "no problem found"
        done = f"{self.documents} documents checked, {found} ({self.seconds:.2f} s)"
        types = self.types + "\n" if self.types else ""
        return warnings_first(self.warnings) + types + done + ("\n" + not_read(self.ignored) if self.ignored else "")


def check_corpus(corpus_dir: Path, *, shapes: bool = False, workers: int | None = None,
                 strict: bool = False, suggested: bool = False) -> CheckReport:
    """Check every input file of the corpus; raises InputErrors (every problem, located, with the
    warnings) on bad input, or on any warning when `strict`. `suggested`: a kg.toml was just
    suggested (the listing of the types does not advise it again)."""
    started = time.perf_counter()
    listing = scan_corpus(Path(corpus_dir))
    inputs = Inputs(Path(corpus_dir), listing.configs, listing.documents)
    errors: list[InputError] = []
    warnings: list[InputError] = []
    try:
        keys = set(inputs.aliases.entries)
    except InputError as exc:
        errors += _each(exc)
        keys = alias_keys(Path(corpus_dir) / ALIASES_FILE)
        inputs.aliases = AliasTable({}, {})  # read the documents all the same, to report their problems too
    for step in (lambda: keys is None or check_metadata_keys(listing.documents, keys),
                 lambda: warnings.extend(read_all(listing.documents, inputs, False, shapes, workers,
                                                  lambda slug, nquads: None).warnings)):
        try:
            step()
        except InputError as exc:
            errors += _each(exc)
            warnings += exc.warnings if isinstance(exc, InputErrors) else []
    warnings = inputs.warnings + warnings
    if strict:
        errors, warnings = errors + warnings, []
    if errors:
        raise InputErrors(_once(errors), warnings)
    return CheckReport(len(listing.documents), time.perf_counter() - started, listing.ignored, warnings,
                       alignment_listing(inputs.vocabulary, has_toml=(Path(corpus_dir) / MAPPING_FILE).is_file(),
                                         advise=not suggested))


def _each(error: InputError) -> list[InputError]:
    return list(error.errors) if isinstance(error, InputErrors) else [error]


def _once(errors: list[InputError]) -> list[InputError]:
    """Each problem once: a configuration that cannot be read is found by every step that needs it."""
    return list({(e.reason, e.path, e.line, e.column): e for e in errors}.values())
