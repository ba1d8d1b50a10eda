"""The body of a WebAnno TSV 3.x file: the document text and its token rows.

The text is rebuilt as INCEpTION rebuilds it on import: each sentence's `#Text=`
lines (joined by line breaks) at the offset of its first token, a line break
after it, spaces filling any further gap (the format does not record text between
sentences). Offsets count UTF-16 code units (Java's); they are turned into the code
points Python indexes by.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kg.formats.webanno_tsv.header import TsvError

ROW_ID = re.compile(r"(\d+)-(\d+)(\.\d+)?")
OFFSETS = re.compile(r"(\d+)-(\d+)")
_TEXT_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "f": "\f", "b": "\b"}


@dataclass
class Row:
    unit: str  # "1-3", or "1-3.1" for a sub-token
    begin: int  # code points, once the text is known
    end: int
    cells: list[str]
    line: int


@dataclass
class Body:
    text: str = ""
    sentences: list[tuple[int, int]] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)


def parse_body(lines: list[str], first_line: int, columns: int) -> Body:
    """Sentences and token rows; `first_line` is the file line number of lines[0]."""
    body, parts, length16, fragments = Body(), [], 0, []
    spans16: list[tuple[int, int]] = []
    for number, line in enumerate(lines, start=first_line):
        if line.startswith("#Text="):
            fragments.append(unescape_text(line[6:]))
        elif line.startswith("#Sentence.id=") or not line.strip():
            continue
        elif line.startswith("#"):
            raise TsvError(f"line {line[:30]!r} in the body (expected #Text=, #Sentence.id= or a token row)", number)
        else:
            row = _row(line, number, columns)
            if fragments:  # the first token of a sentence: place its text
                length16 = _place(parts, length16, row.begin, "\n".join(fragments), number)
                spans16.append((row.begin, length16 - 1))
                fragments = []
            elif not spans16:
                raise TsvError("token row before any #Text= line (expected a sentence's text first)", number)
            body.rows.append(row)
    if parts and parts[-1] == "\n":
        parts.pop()  # the line break INCEpTION puts after the last sentence: no offset reaches it
    body.text = "".join(parts)
    _to_code_points(body, spans16)
    return body


def _place(parts: list[str], length16: int, begin16: int, text: str, line: int) -> int:
    """Append a sentence's text at `begin16`; returns the new length in UTF-16 units."""
    if length16 == begin16 + 1 and parts and parts[-1] == "\n":
        parts.pop()
        length16 -= 1
    if length16 > begin16:
        raise TsvError(f"sentence starts at {begin16}, inside the text before it (expected offsets past "
                        f"{length16 - 1})", line)
    parts += [" " * (begin16 - length16), text, "\n"]
    return begin16 + utf16_length(text) + 1


def _row(line: str, number: int, columns: int) -> Row:
    fields = line.split("\t")
    if len(fields) == columns + 4 and fields[-1] == "":
        fields.pop()  # INCEpTION ends every row with a tab
    if len(fields) != columns + 3:
        raise TsvError(f"row of {len(fields)} columns (expected {columns + 3}: id, offsets, token and one "
                        f"per column the header declares)", number)
    offsets = OFFSETS.fullmatch(fields[1])
    if not ROW_ID.fullmatch(fields[0]) or not offsets or int(offsets[1]) > int(offsets[2]):
        raise TsvError(f"row starts {fields[0]!r} {fields[1]!r} (expected <sentence>-<token> and "
                        "<begin>-<end> offsets)", number)
    return Row(fields[0], int(offsets[1]), int(offsets[2]), fields[3:], number)


def _to_code_points(body: Body, spans16: list[tuple[int, int]]) -> None:
    """UTF-16 offsets -> code point offsets of body.text (None in the middle of a pair)."""
    index: list[int | None] = []
    for position, char in enumerate(body.text):
        index += [position] if ord(char) < 0x10000 else [position, None]
    index.append(len(body.text))
    for row in body.rows:
        begin = index[row.begin] if row.begin < len(index) else None
        end = index[row.end] if row.end < len(index) else None
        if begin is None or end is None:
            raise TsvError(f"offsets {row.begin}-{row.end} outside the text or inside a character (expected "
                            f"UTF-16 offsets within the {len(index) - 1} units of the text)", row.line)
        row.begin, row.end = begin, end
    body.sentences = [(index[b], index[min(e, len(index) - 1)]) for b, e in spans16]


def utf16_length(text: str) -> int:
    return len(text) + sum(1 for char in text if ord(char) >= 0x10000)


def unescape_text(text: str) -> str:
    """A #Text= line as INCEpTION escapes it: backslash before a tab, line break, backslash."""
    return re.sub(r"\\(.)", lambda m: _TEXT_ESCAPES.get(m[1], m[1]), text)
