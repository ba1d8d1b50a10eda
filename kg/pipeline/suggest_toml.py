"""`kg check --suggest-toml`: a starting kg.toml for the corpus's types the alignment leaves over."""

from __future__ import annotations

from pathlib import Path

from kg.formats.corpus import MAPPING_FILE, scan_corpus
from kg.model.schema.schema_report import suggested_toml
from kg.pipeline.inputs import Inputs


def write_suggested_toml(corpus_dir: Path) -> str:
    """Write the corpus's kg.toml from its configurations, unless one exists (an existing file is
    never overwritten: the suggestion is returned in the message instead). Returns what was done."""
    listing = scan_corpus(Path(corpus_dir))
    text = suggested_toml(Inputs(Path(corpus_dir), listing.configs, listing.documents).vocabulary)
    path = Path(corpus_dir) / MAPPING_FILE
    if path.exists():
        return f"{path} exists and is left as it is; the suggestion for it:\n{text}"
    path.write_text(text, encoding="utf-8")
    return f"wrote {path}"
