"""WebAnno TSV 3.x, as INCEpTION and WebAnno export it, read into a UIMA CAS and then as brat.

    header.py        the layer declarations (#T_SP=, #T_CH=, #T_RL=) as the body's columns
    body.py          the text (from #Text= lines) and the token rows, UTF-16 offsets made code points
    annotations.py   the cells: stacked and multi-token spans, slots, chain links, relations
    cas.py           a cassis CAS of them, which kg.formats.inception.cas_to_brat reads like an XMI's

Written from the format's documentation in INCEpTION's user guide ("WebAnno TSV 3.3 File
format"). A malformed file raises CorpusError `path:line: what is wrong (expected ...)`.
"""

from __future__ import annotations

from pathlib import Path

from kg.errors import CorpusError
from kg.formats import limits
from kg.formats.brat.conf import decode_utf8
from kg.formats.records import BratDocument

__all__ = ["read_tsv"]


def read_tsv(path: Path, member: str | None = None) -> BratDocument:
    """The registry's reader (kg.formats.registry): one .tsv file as brat standoff."""
    from kg.formats.inception.xmi import brat_document  # cassis: only when a document is read
    from kg.formats.webanno_tsv.annotations import read_annotations
    from kg.formats.webanno_tsv.body import parse_body
    from kg.formats.webanno_tsv.cas import build_cas
    from kg.formats.webanno_tsv.header import TsvError, parse_header

    text = decode_utf8(limits.read_bounded(path, limits.TEXT, CorpusError), path, CorpusError)
    lines = text.split("\n")
    lines = [line[:-1] if line.endswith("\r") else line for line in lines]
    end = next((i for i, line in enumerate(lines) if not line.strip()), len(lines))
    try:
        columns = parse_header(lines[:end])
        body = parse_body(lines[end:], end + 1, len(columns))
        cas = build_cas(columns, body, read_annotations(body, columns))
    except TsvError as exc:
        raise CorpusError(str(exc), path, exc.line) from None
    return brat_document(cas, str(path))
