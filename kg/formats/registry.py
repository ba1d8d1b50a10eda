"""The annotation formats kg reads and writes, one row each.

Modelled on rdflib's plugin registry: a format is one module and one row here.
A row says how a corpus file is recognised (its suffix, and for a suffix other
tools use too, the bytes it starts with), which function reads it and what it
reads. Readers and writers are named by `module:function` and imported only
when used, so scanning a corpus imports none of them (cassis is slow to load)
and no format module imports this one back.

An input reader is called `reader(path, member)` (`member`: the document's name
inside an archive, else None) and returns a BratDocument (kg.formats.records):
the text, brat standoff lines and the annotation.conf its layers declare, which
the rest of kg reads like any brat document. brat itself has no reader: kg reads
it natively (kg.formats.corpus.read_document). Output formats (`kg export
--format`) are the sibling table OUTPUT_FORMATS; the RDF syntaxes stay in
kg.formats.rdf_syntaxes, which the endpoint negotiates by media type.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:  # type names only: the registry imports no reader or writer until one is used
    from kg.formats.records import BratDocument
    from kg.store.embedded import EmbeddedStore

TYPE_SYSTEM = "TypeSystem.xml"  # INCEpTION's type system beside its .xmi (kg.formats.inception.xmi reads it)


@dataclass(frozen=True)
class InputFormat:
    """One format kg reads documents in."""

    name: str
    suffix: str  # a document's main file ends so; its id is the path without it
    reads: str  # what it reads, for messages and the docs
    reader: str = ""  # "module:function" returning a BratDocument; "" for brat, which kg reads natively
    magic: bytes = b""  # a file with the suffix is a document only if it starts so (.tsv is no one format's)
    companions: tuple[str, ...] = ()  # files beside it that it reads too (they join its fingerprint)
    holds: str = ""  # for a container of documents (an export zip): the suffix of those it holds

    def read(self, path: Path, member: str | None = None) -> BratDocument:
        """The document at `path` (or its `member`), converted to brat standoff by this format's reader."""
        return _load(self.reader)(path, member)


@dataclass(frozen=True)
class OutputFormat:
    """One format `kg export --format` writes a build's corpus in (a directory of documents)."""

    name: str
    writes: str
    writer: str  # "module:function" (corpus_config_dir, store, output) -> (documents written, warnings)

    def write(self, corpus_config_dir: Path, store: EmbeddedStore, output: Path) -> tuple[int, list[str]]:
        """Write the build's documents under `output`, read against the configuration files the build
        kept (kg.store.build_dirs.corpus_config_dir); returns how many and the warnings."""
        return _load(self.writer)(corpus_config_dir, store, output)


INPUT_FORMATS: tuple[InputFormat, ...] = (
    InputFormat("brat", ".txt", "brat standoff: the text in .txt, annotations in .ann beside it"),
    InputFormat("xmi", ".xmi", f"INCEpTION or WebAnno UIMA CAS XMI, with {TYPE_SYSTEM} beside it",
                "kg.formats.inception.xmi:read_xmi", companions=(TYPE_SYSTEM,)),
    InputFormat("inception-zip", ".zip", "an INCEpTION or WebAnno export zip of UIMA CAS XMI documents",
                "kg.formats.inception.xmi:read_member", holds=".xmi"),
    InputFormat("webanno-tsv3", ".tsv", "WebAnno TSV 3.x, as INCEpTION and WebAnno export it",
                "kg.formats.webanno_tsv:read_tsv", magic=b"#FORMAT=WebAnno TSV 3"),
)

OUTPUT_FORMATS: tuple[OutputFormat, ...] = (
    OutputFormat("brat", "a brat corpus (texts, .ann, metadata, configuration) in a directory",
                 "kg.formats.brat.corpus_writer:export_brat"),
    OutputFormat("xmi", f"INCEpTION's UIMA CAS XMI documents with their {TYPE_SYSTEM} in a directory",
                 "kg.formats.inception.xmi_writer:export_xmi"),
)

BY_SUFFIX = {row.suffix: row for row in INPUT_FORMATS}
SUFFIXES = tuple(BY_SUFFIX)
BRAT = BY_SUFFIX[".txt"]
MAGIC_BYTES = max(len(row.magic) for row in INPUT_FORMATS)


def suffix(name: str) -> str:
    """A file name's suffix as the table's rows give it ('.txt'), or '' if it has none."""
    return name[name.rfind("."):] if "." in name else ""


def format_of(name: str, head: Callable[[], bytes] = lambda: b"") -> InputFormat | None:
    """The format of a file named `name`, or None; `head()` gives its first MAGIC_BYTES bytes,
    asked for only when the suffix alone does not tell."""
    row = BY_SUFFIX.get(suffix(name))
    if row is None or not row.magic:
        return row
    return row if head().startswith(row.magic) else None


def output_format(name: str) -> OutputFormat:
    return next(row for row in OUTPUT_FORMATS if row.name == name)


def read_formats() -> str:
    """What kg reads, in a phrase: for the message that lists the files it did not."""
    return ", ".join(f"{row.suffix} ({row.name})" for row in INPUT_FORMATS)


def _load(target: str) -> Callable:
    module, _, function = target.partition(":")
    return getattr(importlib.import_module(module), function)
