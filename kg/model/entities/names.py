"""Which mentions of a document are names: the words that may name a thing across documents.

A type whose name says the mention level, as ACE's NAM, NOM and PRO do (`Person-Name`,
`Thing-Nominal`, `Person-Pronoun`, `PROP_PER`, `NOM_PER`, `PRON_PER`, `Time-Implicit`, `ANAPHOR`),
says whether its mentions are names. Otherwise a mention is a name when, in a cased script (Latin, Cyrillic, Greek...), one of its words other
than a pronoun, determiner or honorific (kg.model.entities.function_words) is capitalised where capitals
carry meaning: not the first word of a sentence (after the text's start, a line break, `.`, `!`,
`?`, `:` or `;`, opening quotes and brackets aside), not a word all in capitals ("NASA", "THE
CHAIRMAN"), not in a line set in capitals or title case. A capital that says nothing decides
nothing: another mention of the same words in the document decides, else the document's text
does: words of which one is in lower case ("Dodal je", "he added", opening a sentence) are a name
only where the text writes them so inside a sentence too, and a word also written in lower case
there ("Her father", "Home", "CHAIRMAN") is a common word. In a script without case (Han, kana, Devanagari, Thai), a mention is a name when the
document annotates the same words at least twice and they are not a pronoun or determiner. A date
is named by a form with its numbers ("23 February 2019", not "Saturday" or "last month").
Everything else ("that", "we", "his mother", "the streets", "no-one", "Mr") is no name:
kg.model.entities.resolve keeps such a mention local to its document and its chain, and the entity
records list its words as a mention form, never as a name.
"""

from __future__ import annotations

import re
from collections import Counter
from enum import Enum
from functools import cached_property, lru_cache
from typing import Iterable, NamedTuple

from kg.formats.records import TextBound
from kg.model.entities.function_words import is_function_word, is_indefinite
from kg.model.iris import fold
from kg.model.sentences import ABBREVIATIONS

_WORD = re.compile(r"[^\W\d_]+")
_FIRST_TOKEN = re.compile(r"[^\W_]+")
_WORD_BEFORE = re.compile(r"([\w.]*)$")
_TYPE_PARTS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[^\W\d_]+")  # PROP_PER, PersonName, Person-Nominal
_NAME_LEVELS = {"name", "named", "nam", "prop", "proper", "propn"}
_NOT_NAME_LEVELS = {"nominal", "nom", "pronoun", "pronominal", "pron", "pro", "implicit", "anaphor"}
_SENTENCE_END = ".!?:;…\n\r"
_OPENING = " \t\"'“‘«„‹([{-–—*•¿¡"
_TITLE_CASE_SHARE = 0.7  # of the words of a line: more of them capitalised and capitals carry no meaning there
_TITLE_CASE_WORDS = 3


class Verdict(Enum):
    NAME = "name"
    NOT_A_NAME = "not a name"
    UNDECIDED = "undecided"  # capitalised only where a capital says nothing: decided by the document
    CASELESS = "caseless"  # in a script without case: decided by how often the document annotates its words


def name_mentions(text: str, bounds: Iterable[TextBound], dates: Iterable[str] = ()) -> set[str]:
    """The ids of the mentions among `bounds` that are names (see the module docstring); `dates`:
    the ids of date mentions, named only by a form with digits."""
    bounds = list(bounds)
    dates = set(dates)
    lines = _lines_of(text)
    judged = {b.id: _date_verdict(b.text) if b.id in dates else type_verdict(b.type) or judge(text, b, lines)
              for b in bounds}
    folded = {b.id: _folded(b.text) for b in bounds}
    repeated = Counter(folded.values())
    by_words: dict[str, set[Verdict]] = {}
    for bound in bounds:
        by_words.setdefault(folded[bound.id], set()).add(judged[bound.id])
    names = set()
    for bound in bounds:
        verdict = judged[bound.id]
        if verdict is Verdict.UNDECIDED:
            verdict = _decided(text, bound, by_words[folded[bound.id]], lines)
        elif verdict is Verdict.CASELESS:
            verdict = Verdict.NAME if repeated[folded[bound.id]] > 1 else Verdict.NOT_A_NAME
        if verdict is Verdict.NAME:
            names.add(bound.id)
    return names


def judge(text: str, bound: TextBound, lines: _Lines | None = None) -> Verdict:
    """The verdict on one mention from its own words and their place in the text (`lines`: the
    text's lines already judged, when the caller judges many mentions of one text)."""
    lines = lines or _lines_of(text)
    spans = [(span.begin, _span_words(text[span.begin:span.end])) for span in bound.spans]
    words = spans[0][1] if len(spans) == 1 else _joined([words for _, words in spans])
    first = _FIRST_TOKEN.search(bound.text)
    if not words.content or (first and is_indefinite(first.group())):
        return Verdict.NOT_A_NAME
    if not words.cased:
        return Verdict.CASELESS
    if not words.capitalised:
        return Verdict.NOT_A_NAME
    if lines.capitals_say_nothing(bound.begin):
        return Verdict.UNDECIDED
    if any(not _sentence_initial(text, begin + at) for begin, span_words in spans for at in span_words.capitals):
        return Verdict.NAME
    return Verdict.UNDECIDED


class _SpanWords(NamedTuple):
    """What judge asks of the words of a mention's span, other than pronouns, determiners and honorifics."""

    content: bool  # there are such words
    cased: bool  # one of them is of a cased script
    capitalised: bool  # one of them has a capital
    capitals: tuple[int, ...]  # where each of them with a capital that is no acronym starts, in the span


@lru_cache(maxsize=1 << 16)  # a corpus writes its names again and again: each is read once per worker
def _span_words(span_text: str) -> _SpanWords:
    content = [(kind, m.start()) for m in _WORD.finditer(span_text) if not (kind := word_kind(m.group())).function]
    return _SpanWords(bool(content), any(kind.cased for kind, _ in content),
                      any(kind.capitalised for kind, _ in content),
                      tuple(at for kind, at in content if kind.capitalised and not kind.acronym))


def _joined(fragments: list[_SpanWords]) -> _SpanWords:
    """What the fragments of one mention say together (where their capitals are is asked of each)."""
    return _SpanWords(any(f.content for f in fragments), any(f.cased for f in fragments),
                      any(f.capitalised for f in fragments), ())


class WordKind(NamedTuple):
    """What judging names asks of a word, asked once per word a worker meets (words repeat across a
    corpus; asking again for each mention and line cost the read more than resolving did)."""

    function: bool  # a pronoun, determiner or honorific (kg.model.entities.function_words)
    cased: bool  # of a cased script: lower or upper case changes it
    capitalised: bool  # one of its letters is a capital
    initial: bool  # its first letter is a capital
    upper: bool  # in capitals ("NASA", "I", "CHAIRMAN")
    acronym: bool  # in capitals and longer than a letter: an acronym or a word set in capitals


@lru_cache(maxsize=1 << 16)
def word_kind(word: str) -> WordKind:
    """The facts of one word (a match of _WORD) that say whether it can make a name."""
    upper = word.isupper()
    return WordKind(is_function_word(word), _cased(word), any(c.isupper() for c in word), word[0].isupper(), upper,
                    upper and len(word) > 1)


@lru_cache(maxsize=1024)  # asked of every mention; a corpus has a few types
def type_verdict(type_: str) -> Verdict | None:
    """What a type's own name says of its mentions, where it names a mention level as ACE and its
    heirs do (NAM, NOM, PRO; `Person-Name`, `Thing-Nominal`, `Person-Pronoun`, `PROP_PER`, `NOM_PER`,
    `PRON_PER`, `Time-Implicit`): names, or no names; None when it says nothing."""
    parts = {part.casefold() for part in _TYPE_PARTS.findall(type_)}
    if parts & _NOT_NAME_LEVELS:
        return Verdict.NOT_A_NAME
    if parts & _NAME_LEVELS:
        return Verdict.NAME
    return None


def _date_verdict(words: str) -> Verdict:
    return Verdict.NAME if any(c.isdigit() for c in words) else Verdict.NOT_A_NAME


def _decided(text: str, bound: TextBound, others: set[Verdict], lines: _Lines) -> Verdict:
    """An undecided mention: named like the other mentions of its words in the document; else no
    name when a word of it (a pronoun too: "je") is in lower case and its words are capitalised only where a capital says
    nothing ("Dodal je", "he added", opening a sentence), unless the text writes them so elsewhere
    ("Evropska unija" inside a sentence); else a name when one of its capitalised words is never
    written in lower case in the document."""
    if Verdict.NAME in others:
        return Verdict.NAME
    if Verdict.NOT_A_NAME in others:
        return Verdict.NOT_A_NAME
    words = _WORD.findall(bound.text)
    if any(w.islower() for w in words):
        return Verdict.NAME if _capitalised_elsewhere(text, bound, lines) else Verdict.NOT_A_NAME
    capitalised = [w for w in words if not (kind := word_kind(w)).function and kind.capitalised]
    return Verdict.NAME if any(w.lower() not in lines.lower_words for w in capitalised) else Verdict.NOT_A_NAME


def _capitalised_elsewhere(text: str, bound: TextBound, lines: _Lines) -> bool:
    """Whether the text writes the mention's words, as capitalised, where a capital means something."""
    at = text.find(bound.text)
    while at >= 0:
        if at != bound.begin and not _sentence_initial(text, at) and not lines.capitals_say_nothing(at):
            return True
        at = text.find(bound.text, at + 1)
    return False


def _cased(word: str) -> bool:
    """Whether a word has a letter of a cased script: one that lower or upper case changes (a test of
    the whole word in C, not of each character in Python)."""
    return word.lower() != word or word.upper() != word


def _sentence_initial(text: str, at: int) -> bool:
    """Whether the word at `at` opens a sentence: only white space, opening quotes, brackets and
    dashes between it and the text's start, a line break or a sentence's end."""
    i = at - 1
    while i >= 0 and text[i] in _OPENING:
        i -= 1
    if i >= 0 and text[i] == ".":  # after an initial or an abbreviation ("U.S. Army", "Mr. Smith"): no end
        return not _abbreviation(text[max(0, i - 12):i])
    return i < 0 or text[i] in _SENTENCE_END


def _abbreviation(before: str) -> bool:
    """Whether the word before a period is an initial or a known abbreviation (kg.model.sentences)."""
    word = _WORD_BEFORE.search(before).group(1).lower()
    return len(word) == 1 or word in ABBREVIATIONS


class _Lines:
    """The lines of a text in which a capital says nothing, each judged once: a paragraph written
    as one line holds hundreds of mentions, and judging its words again for each was quadratic."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._judged: dict[int, bool] = {}

    def capitals_say_nothing(self, at: int) -> bool:
        """Whether the line around `at` is set in capitals or in title case (a heading, a speaker's
        name in capitals): there a capital says nothing of a name."""
        start = self.text.rfind("\n", 0, at) + 1
        if start not in self._judged:
            end = self.text.find("\n", at)
            self._judged[start] = _capitals_say_nothing(self.text[start:len(self.text) if end < 0 else end])
        return self._judged[start]

    @cached_property
    def lower_words(self) -> set[str]:
        """The words the text writes in lower case (read only when a mention is left undecided)."""
        return set(filter(str.islower, set(_WORD.findall(self.text))))


@lru_cache(maxsize=4)  # a document's text is judged for its entity mentions, then for its event triggers
def _lines_of(text: str) -> _Lines:
    """The judged lines of a text, shared by the calls that judge its mentions."""
    return _Lines(text)


@lru_cache(maxsize=1 << 16)  # a corpus names its things again and again
def _folded(words: str) -> str:
    return fold(words)


def _capitals_say_nothing(line: str) -> bool:
    """Whether a line is set in capitals or in title case."""
    words = [kind for kind in map(word_kind, _WORD.findall(line)) if kind.cased and not kind.function]
    if not words:
        return False
    capitalised = sum(1 for kind in words if kind.initial)
    shouting = all(kind.upper for kind in words) and len(words) > 1
    return shouting or (len(words) >= _TITLE_CASE_WORDS and capitalised / len(words) >= _TITLE_CASE_SHARE)
