"""How kg shows IRIs and ids to people: as prefixed names that paste back into SPARQL and Turtle
(`kgo:Person`, `kgv:PER`, `kgr:diagnostictool\\/oct`, or `<IRI>` where no prefix can write one),
and in natural order (E1, E2, E10, not E1, E10, E2).

The local part follows SPARQL 1.1's PN_LOCAL (Turtle's is the same): letters, digits, `_`, `-`,
`:`, one `.` (not last) and `%` with two hex digits as they are; the characters PN_LOCAL_ESC lists
(`/ ~ ! $ & ' ( ) * + , ; = ? # @ %`, a leading `-`, every `.` of a name with several, which
Oxigraph's parser does not read plain) escaped with a backslash. Anything else keeps the `<IRI>`
form: a character no prefixed name holds (a space, a bracket, an unassigned code point), one
beyond the Basic Multilingual Plane (Oxigraph's parser refuses them), a last `.` (rdflib's Turtle
parser refuses it even escaped).
One function for every place that shows a type or a term (the JSON API, the pages, `kg query`),
and one key for every list of ids or labels they sort.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Mapping

from kg.model import iris

ESCAPABLE = "_~.-!$&'()*+,;=/?#@%"
# PN_CHARS_BASE of the grammar, then PN_CHARS beyond it
_BASE = ("A-Za-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF\u0370-\u037D\u037F-\u1FFF\u200C-\u200D\u2070-\u218F"
         "\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD")  # not #x10000-#xEFFFF: Oxigraph refuses them
_FIRST = re.compile(f"[{_BASE}_0-9:]")
_INNER = re.compile(f"[{_BASE}_0-9:\\-\u00B7\u0300-\u036F\u203F-\u2040]")
_HEX = re.compile(r"%[0-9A-Fa-f]{2}")


def local_part(text: str) -> str | None:
    """`text` written as a PN_LOCAL, escaping what must be; None when it cannot be written so."""
    if text.endswith(".") or any(unicodedata.category(c) in ("Cn", "Co", "Cs") for c in text):
        return None
    out, i, dots = [], 0, text.count(".")
    while i < len(text):
        char = text[i]
        if char == "%" and _HEX.match(text, i):
            out.append(text[i:i + 3])
            i += 3
            continue
        first, last = i == 0, i == len(text) - 1
        plain = _FIRST.match(char) if first else (_INNER.match(char) or (char == "." and not last and dots == 1))
        if plain:
            out.append(char)
        elif char in ESCAPABLE:
            out.append("\\" + char)
        else:
            return None
        i += 1
    return "".join(out)


def prefixed_name(iri: str, prefixes: Mapping[str, str] | None = None) -> str:
    """The IRI as `prefix:local` with the longest namespace that fits (the current base's prefixes
    by default), else `<IRI>`."""
    prefixes = iris.PREFIXES if prefixes is None else prefixes
    for prefix, namespace in sorted(prefixes.items(), key=lambda item: -len(item[1])):
        if iri.startswith(namespace):
            local = local_part(iri[len(namespace):])
            if local is not None:
                return f"{prefix}:{local}"
    return f"<{iri}>"


_NUMBER = re.compile(r"(\d+)")


def natural_key(text: str) -> tuple[tuple[int, str | int], ...]:
    """A sort key reading the runs of digits of `text` (any script's) as numbers: doc2 before doc10,
    E9 before E10; a run's value, then its spelling, so that 007 and 7 keep a stable order."""
    parts: list[tuple[int, str | int]] = []
    for i, part in enumerate(_NUMBER.split(text)):
        parts += [(1, int(part)), (1, part)] if i % 2 else [(0, part)]
    return tuple(parts)
