"""Split an article into sentences, so every fact can cite the sentence behind it.

Rule-based and deterministic: a line break ends a sentence; so does . ! or ?
(with any closing quotes or brackets after it) followed by white space and a
capital letter, a digit or an opening quote, unless the word before the
period is a known abbreviation ("Lt.", "U.S.", "Feb.") or an initial.
"""

from __future__ import annotations

import bisect
import re

from kg.formats.records import Span

ABBREVIATIONS = {
    "lt", "sgt", "gen", "col", "capt", "cpt", "maj", "adm", "cmdr", "mr", "mrs", "ms", "dr", "st", "jr", "sr",
    "prof", "rep", "sen", "gov", "pres", "u.s", "u.n", "u.k", "e.u", "jan", "feb", "mar", "apr", "jun", "jul",
    "aug", "sep", "sept", "oct", "nov", "dec", "no", "vs", "etc", "inc", "corp", "co", "ltd", "approx",
}
_BOUNDARY = re.compile(r"[.!?]+[\"'”’)\]]*(?=\s+[\"'“‘(\[]?[A-Z0-9ÁÉÍÓÚÑ])")
_WORD_BEFORE = re.compile(r"([\w.]+)$")
_WINDOW = 40  # longer than any abbreviation: a longer word before a period is never one


def split_sentences(text: str) -> list[Span]:
    """Sentence spans covering every non-blank stretch of the text, trimmed of surrounding white space."""
    spans: list[Span] = []
    for line in re.finditer(r"[^\n]+", text):
        start, body = line.start(), line.group()
        for boundary in _BOUNDARY.finditer(body):
            # the word before the mark, from a short window: the whole line would make a long one quadratic
            if _is_abbreviation(body[max(0, boundary.start() - _WINDOW): boundary.start() + 1]):
                continue
            _add(spans, text, start, line.start() + boundary.end())
            start = line.start() + boundary.end()
        _add(spans, text, start, line.end())
    return spans


def _is_abbreviation(before: str) -> bool:
    if not before.endswith("."):
        return False
    match = _WORD_BEFORE.search(before[:-1])
    word = match.group(1).lower() if match else ""
    return word in ABBREVIATIONS or (len(word) == 1 and word.isalpha())


def _add(spans: list[Span], text: str, begin: int, end: int) -> None:
    while begin < end and text[begin].isspace():
        begin += 1
    while end > begin and text[end - 1].isspace():
        end -= 1
    if end > begin:
        spans.append(Span(begin, end))


class SentenceIndex:
    """Find the sentence containing an offset in O(log n)."""

    def __init__(self, text: str) -> None:
        self.spans = split_sentences(text)
        self._starts = [s.begin for s in self.spans]

    def at(self, offset: int) -> Span:
        """The sentence containing `offset` (or the nearest one before it)."""
        i = max(0, bisect.bisect_right(self._starts, offset) - 1)
        return self.spans[i]

    def covering(self, begin: int, end: int) -> list[Span]:
        """Every sentence that overlaps [begin, end)."""
        first = max(0, bisect.bisect_right(self._starts, begin) - 1)
        last = max(0, bisect.bisect_right(self._starts, max(begin, end - 1)) - 1)
        return self.spans[first:last + 1]
