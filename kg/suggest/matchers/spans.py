"""Pre-annotation: the lexicon of known names, and the names of a lexicon found in a text.

Pure: a text, a lexicon of known names (the alias table, optionally names annotated
elsewhere in the corpus) and the annotation configuration give suggestions; nothing is
read or written here (kg.suggest.files does that).

Names match like the resolver compares them (kg.model.entities.resolve.normalize): accents, case,
possessive 's and punctuation do not count ("Venezuela’s security forces" is one name), a
leading "the" is not part of the name, and a match starts and ends on word boundaries. Two
exceptions: a name written in capitals in the lexicon ("US", "UN") matches only capitals in
the text, since "us" is a pronoun; and a name every known spelling of which starts with a
capital does not match a word in lower case ("Segunda" is a name, "segunda" an adjective).
Which of the overlapping candidates are suggested is kg.suggest.choosing's.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, replace

from kg.formats.brat.conf import AnnotationConfig
from kg.model.entities.aliases import AliasTable, normalize
from kg.model.iris import fold
from kg.suggest.suggestion import Suggestion

# Scripts written without spaces between words (Han, kana, Thai): each character is a token, so
# that a name is found inside a run of them ('北京' in '习近平访问北京').
_UNSPACED = "[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]"
_THAI_MARKS = "[\u0e31\u0e34-\u0e3a\u0e47-\u0e4e]*"  # vowel and tone marks, part of the character before
_UNSPACED_TOKEN = f"{_UNSPACED}{_THAI_MARKS}"  # one token of such a script, in a text and in a lexicon form
_TOKEN = re.compile(rf"{_UNSPACED_TOKEN}|(?:(?!{_UNSPACED})[^\W_])(?:(?!{_UNSPACED})[^\W_]|[\u0300-\u036f])*")
_GAP = re.compile(r"[ \u00a0.'’\-]{1,3}|['’][sS][ \u00a0]{1,2}")  # between two words of one name ("Venezuela's army")


@dataclass(frozen=True)
class Candidate:
    """What a known name stands for: a type, a key (None: no KG link) and where it is known from."""

    type: str
    key: str | None
    source: str
    cased: bool = False  # every known spelling starts with a capital: 'segunda' is not 'Segunda'


Lexicon = dict[str, list[Candidate]]


def alias_lexicon(aliases: AliasTable, config: AnnotationConfig) -> Lexicon:
    """Every label, alias and hidden label of an entry whose type is an entity type of the
    configuration. A title and a name ('President Nicolás Maduro', where 'President' names a
    role and 'Nicolás Maduro' the same entry) is left out: the title is a Membership trigger."""
    roles = {normalize(n) for e in aliases.entries.values() if e.family == "role"
             for n in (e.label, *e.aliases, *e.hidden)}
    lexicon: Lexicon = defaultdict(list)
    for entry in aliases.entries.values():
        if not config.usable(entry.type) or entry.type not in config.entities:
            continue
        names = {normalize(n) for n in (entry.label, *entry.aliases, *entry.hidden)}
        for name in dict.fromkeys((entry.label, *entry.aliases, *entry.hidden)):
            form = lexicon_form(name)
            if not form or any(form.startswith(r + " ") and form[len(r) + 1:] in names for r in roles):
                continue
            known = [c for c in lexicon[form] if c.key == entry.key]
            if not known:
                lexicon[form].append(Candidate(entry.type, entry.key, f"alias table: {entry.key}", _capitalized(name)))
            elif known[0].cased and not _capitalized(name):
                lexicon[form][lexicon[form].index(known[0])] = replace(known[0], cased=False)
    return dict(lexicon)


def corpus_lexicon(names: list[tuple[str, str, str | None, str]]) -> Lexicon:
    """Names annotated elsewhere, as (text, type, key or None, document): each normalized
    name takes its most frequent type and key (ties: alphabetical). Only proper names are
    taken (every word capitalized but short connectives), not descriptions such as "the soldier"."""
    seen: dict[str, Counter] = defaultdict(Counter)
    where: dict[tuple[str, str, str | None], str] = {}
    lower: set[str] = set()
    for text, type_, key, slug in names:
        form = lexicon_form(text)
        if form and not _capitalized(text):
            lower.add(form)
        if form and is_proper_name(text):
            seen[form][(type_, key)] += 1
            where.setdefault((form, type_, key), slug)
    lexicon: Lexicon = {}
    for form, counts in seen.items():
        (type_, key), _ = min(counts.items(), key=lambda item: (-item[1], item[0][0], item[0][1] or ""))
        lexicon[form] = [Candidate(type_, key, f"annotated in {where[(form, type_, key)]} as {type_}"
                                                + (f" {key}" if key else ""), form not in lower)]
    return lexicon


def merge_lexicons(first: Lexicon, second: Lexicon) -> Lexicon:
    """`first` wins where both know a name (the alias table over names annotated elsewhere)."""
    return {**second, **first}


def is_proper_name(text: str) -> bool:
    """'Juan Guaidó', 'Human Rights Watch', 'Villa del Rosario' yes; 'the soldier', 'a Venezuelan soldier' no.
    A script without capitals ('北京') cannot say, and is taken as a name."""
    words = re.findall(r"[^\W\d_]+", text)
    if words and words[0].lower() == "the":
        words = words[1:]
    if not words or not _initial(words[0]):
        return False
    return all(_initial(w) or (len(w) <= 3 and w.islower()) for w in words)


def _initial(word: str) -> bool:
    """A capital first letter, or one of a script without case."""
    return word[0].isupper() or word[0].lower() == word[0].upper()


def _capitalized(name: str) -> bool:
    """Whether the name's first word (after a leading 'the') starts with a capital letter."""
    words = name.split()
    if len(words) > 1 and words[0].lower() == "the":
        words = words[1:]
    return bool(words) and not words[0][:1].islower()


def lexicon_form(name: str) -> str:
    """The normalized form, with an all-capitals name marked so it matches capitals only."""
    form = " ".join(re.sub(f"({_UNSPACED_TOKEN})", r" \1 ", normalize(name)).split())
    if re.fullmatch(r"[A-Z]{2,4}", name.strip()):
        return "^" + form
    return form


def tokens(text: str) -> list[tuple[str, int, int]]:
    """Words of the text as (folded form, begin, end); a possessive 's is not a word (normalize drops it)."""
    found: list[tuple[str, int, int]] = []
    for match in _TOKEN.finditer(text):
        word = match.group()
        if word in ("s", "S") and found and found[-1][2] == match.start() - 1 and text[match.start() - 1] in "'’":
            continue
        found.append((fold(word), match.start(), match.end()))
    return found


def match_names(text: str, lexicon: Lexicon, stem: Callable[[str], str] | None = None) -> list[Suggestion]:
    """Every occurrence of a lexicon name on word boundaries (overlapping ones included); with
    `stem`, the lexicon's forms are of stemmed words (kg.suggest.matchers.stems) and so are the text's."""
    words = tokens(text)
    if stem:
        words = [(stem(word), begin, end) for word, begin, end in words]
    longest = max((form.lstrip("^").count(" ") + 1 for form in lexicon), default=0)
    found = []
    for i, (_, begin, _) in enumerate(words):
        for n in range(1, min(longest, len(words) - i) + 1):
            last = words[i + n - 1]
            if n > 1 and not _joined(text, words[i + n - 2][2], last[1]):
                break
            form = " ".join(w[0] for w in words[i:i + n])
            end = last[2] + (text[last[2]:last[2] + 1] == "." and "." in text[begin:last[2]])
            span = text[begin:end]
            candidates = lexicon.get(form, [])
            if re.fullmatch(r"[A-Z]{2,4}", span):
                candidates = candidates + lexicon.get("^" + form, [])
            for candidate in candidates:
                if not (candidate.cased and span[:1].islower()):
                    found.append(_name_suggestion(begin, end, span, candidate))
    return found


def _joined(text: str, end: int, begin: int) -> bool:
    """Whether two words (one ending at `end`, the next beginning at `begin`) may belong to one
    name: a short gap of spaces and punctuation, or none between two characters of an unspaced script."""
    if end == begin:
        return bool(re.match(_UNSPACED, text[end - 1])) and bool(re.match(_UNSPACED, text[begin]))
    return bool(_GAP.fullmatch(text[end:begin]))


def _name_suggestion(begin: int, end: int, span: str, candidate: Candidate) -> Suggestion:
    db, ref = ("KG", candidate.key) if candidate.key else (None, None)
    return Suggestion(begin, end, span, candidate.type, db, ref, f"{candidate.source} (matched {span!r})")
