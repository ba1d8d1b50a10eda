"""The manifest's text: JSON with one line per document, so that grep finds a document.

At 100,000 documents the manifest is tens of megabytes, and encoding every document's entry again
took seconds of an edit of one. An incremental build takes its documents' entries from the current
build's manifest, so the lines of those it did not touch are copied from that manifest's text, and
only the others are encoded: the text is the same as if every line were encoded anew.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

_OPEN = ' "documents": {\n'  # the documents' object: the last key, opened on a line of its own
_CLOSE = "\n }\n}\n"
_SEPARATOR = ",\n"  # between two documents' lines (JSON escapes every line break inside a value)


@dataclass(frozen=True)
class KeptManifest:
    """A build's manifest as read: its documents' entries (parsed) and its text."""

    documents: dict[str, Any]
    text: str

    def lines(self) -> dict[str, str]:
        """Each document's line (without its separator), when the text is laid out as manifest_text
        writes it; empty when it is not (a manifest written otherwise: every line is encoded)."""
        start, end = self.text.rfind("\n" + _OPEN), self.text.rfind(_CLOSE)
        if start < 0 or end < start or not self.documents:
            return {}
        block = self.text[start + 1 + len(_OPEN):end]
        lines = block.split(_SEPARATOR)
        slugs = sorted(self.documents)
        if len(lines) != len(slugs) or not all(line.startswith(f"  {json.dumps(slug)}: ")
                                               for slug, line in ((slugs[0], lines[0]), (slugs[-1], lines[-1]))):
            return {}
        return dict(zip(slugs, lines))


def manifest_text(manifest: dict, kept: KeptManifest | None = None) -> str:
    """The manifest as JSON, one document per line: readable, and at 100,000 documents written
    in less than half the time an indented dump takes (Python's indenting encoder is not in C).
    A document whose entry is the very object `kept` holds for it (taken unchanged from that
    manifest) keeps that manifest's line."""
    documents = manifest["documents"]
    head = json.dumps({k: v for k, v in manifest.items() if k != "documents"}, indent=1, sort_keys=True)
    old, lines = (kept.documents, kept.lines()) if kept is not None else ({}, {})
    written = _SEPARATOR.join(lines[slug] if slug in lines and old[slug] is entry else _line(slug, entry)
                              for slug, entry in sorted(documents.items()))
    fields = head[1:-1].strip("\n")  # the other keys, one per line, between the braces
    return "{\n" + (fields + ",\n" if fields else "") + _OPEN + written + _CLOSE


def _line(slug: str, entry: Any) -> str:
    return f"  {json.dumps(slug)}: {json.dumps(entry, sort_keys=True)}"
