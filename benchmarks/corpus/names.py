"""Synthetic names for the benchmark corpus: people, organizations and places.

Names are built from syllables so that tens of thousands of distinct,
pronounceable, news-like names exist; some carry accents so that the
builder's accent folding is exercised ("Marínez" / "Marinez"). Every
function takes the random generator it draws from, so a seed fixes them.
"""

from __future__ import annotations

import random
import re
import unicodedata

FIRST_NAMES = (
    "Ana", "Andrés", "Carlos", "Carmen", "Daniel", "Diego", "Elena", "Felipe", "Fernando",
    "Gabriela", "Héctor", "Isabel", "Javier", "Jorge", "José", "Juan", "Julia", "Laura",
    "Leonardo", "Lucía", "Luis", "Manuel", "María", "Mariana", "Miguel", "Natalia", "Óscar",
    "Pablo", "Patricia", "Pedro", "Rafael", "Ramón", "Raúl", "Ricardo", "Roberto", "Rosa",
    "Santiago", "Sofía", "Teresa", "Tomás", "Valentina", "Víctor", "Yolanda", "Alejandro",
    "Beatriz", "Camila", "David", "Emma", "Frank", "Grace", "Helen", "Ian", "James", "Karen",
    "Laila", "Mark", "Nadia", "Olga", "Peter", "Sarah", "Thomas", "Walter",
)
_ONSETS = ("B", "C", "D", "F", "G", "L", "M", "N", "P", "R", "S", "T", "V", "Z", "Br", "Ch",
           "Gu", "Ll", "Qu", "Tr", "")
_VOWELS = ("a", "e", "i", "o", "u", "a", "e", "o")
_MIDDLES = ("r", "l", "n", "s", "v", "d", "t", "m", "c", "g", "ll", "rr", "nd", "st", "rt", "nt", "b")
_CODAS = ("da", "do", "ga", "go", "la", "lla", "na", "no", "ra", "ro", "sa", "ta", "to", "nez", "rez",
          "tes", "les", "nas", "cia", "vo", "zo", "jo", "ria", "lo", "mo", "dor")
_ACCENTED = {"a": "á", "e": "é", "i": "í", "o": "ó", "u": "ú"}

_NON_WORD = re.compile(r"[^\w\s]")
_SPACES = re.compile(r"\s+")


def normalize(text: str) -> str:
    """The alias-table matching form (docs/model.md): folded, no punctuation, no leading 'the'."""
    folded = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    folded = folded.casefold().replace("'s ", " ").replace("’s ", " ")
    folded = _SPACES.sub(" ", _NON_WORD.sub("", folded)).strip()
    return folded[4:] if folded.startswith("the ") else folded


def strip_accents(text: str) -> str:
    return unicodedata.normalize("NFC", "".join(
        c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c)))


def word(rng: random.Random, syllables: int = 3) -> str:
    """A pronounceable capitalized word of about `syllables` syllables, such as 'Valerano'."""
    onset = rng.choice(_ONSETS)
    parts = [onset, rng.choice(_VOWELS[:4] if onset.endswith("u") else _VOWELS)]
    for _ in range(syllables - 2):
        parts += [rng.choice(_MIDDLES), rng.choice(_VOWELS)]
    parts.append(rng.choice(_CODAS))
    return "".join(parts).capitalize()


def accented(rng: random.Random, name: str) -> str:
    """The name with one accented vowel in its last three letters (or unchanged)."""
    spots = [i for i in range(max(1, len(name) - 4), len(name) - 1) if name[i] in _ACCENTED]
    if not spots:
        return name
    i = rng.choice(spots)
    return name[:i] + _ACCENTED[name[i]] + name[i + 1:]


def misspell(rng: random.Random, name: str) -> str:
    """A plausible typo: two inner letters swapped, one dropped, or one doubled."""
    letters = [i for i in range(1, len(name) - 1) if name[i].isalpha() and name[i + 1].isalpha()]
    if not letters:
        return name + name[-1]
    i = rng.choice(letters)
    kind = rng.randrange(3)
    if kind == 0:
        return name[:i] + name[i + 1] + name[i] + name[i + 2:]
    if kind == 1:
        return name[:i] + name[i + 1:]
    return name[:i] + name[i] + name[i:]


def acronym(label: str) -> str:
    """Initials of the capitalized words: 'National Guard of Varania' -> 'NGV'."""
    return "".join(w[0] for w in strip_accents(label).split() if w[0].isupper())


def person(rng: random.Random) -> tuple[str, str]:
    """(full name, surname)."""
    surname = word(rng, rng.choice((2, 3, 3, 4)))
    if rng.random() < 0.3:
        surname = accented(rng, surname)
    if rng.random() < 0.15:
        surname = f"{surname} {word(rng, rng.choice((2, 3)))}"
    return f"{rng.choice(FIRST_NAMES)} {surname}", surname


def country(rng: random.Random) -> str:
    stem = rng.choice(_ONSETS) + rng.choice(_VOWELS)
    if rng.random() < 0.6:
        stem += rng.choice(_MIDDLES) + rng.choice(_VOWELS)
    return (stem + rng.choice(("nia", "ria", "via", "dor", "ssa", "ne", "gua", "mar", "lia", "tan"))).capitalize()


def city(rng: random.Random) -> str:
    base = word(rng, rng.choice((2, 3, 3)))
    form = rng.random()
    if form < 0.15:
        return f"San {base}"
    if form < 0.25:
        return f"Puerto {base}"
    if form < 0.32:
        return f"{base} del {word(rng, 2)}"
    return accented(rng, base) if form < 0.5 else base


def region(rng: random.Random) -> str:
    return f"{word(rng, rng.choice((2, 3)))} {rng.choice(('State', 'Province', 'Department', 'Valley'))}"


def facility(rng: random.Random) -> str:
    kind = rng.choice(("International Bridge", "Airport", "Air Base", "Border Crossing", "Prison",
                       "Military Base", "Port", "Refugee Camp"))
    return f"{word(rng, rng.choice((2, 3)))} {kind}"


def waterway(rng: random.Random) -> str:
    return f"{word(rng, rng.choice((2, 3)))} River"


def place(rng: random.Random) -> str:
    return f"{word(rng, rng.choice((2, 3)))} {rng.choice(('Border Zone', 'Highlands', 'Plain', 'Coast'))}"


_GOV = ("Ministry of Defense", "Ministry of Foreign Affairs", "Migration Agency", "Supreme Court",
        "Electoral Council", "Interior Ministry", "National Assembly", "Ombudsman's Office",
        "Border Authority", "Attorney General's Office", "Ministry of Health")
_UNITS = ("Army", "National Guard", "Navy", "Air Force", "Border Brigade", "Infantry Battalion",
          "Marine Corps", "Special Forces Command", "Police Corps")
_NGO_KINDS = ("Foundation", "Institute", "Observatory", "Network", "Alliance", "Committee")
_TOPICS = ("Human Rights", "Refugees", "Migration", "Press Freedom", "Peace", "Justice",
           "Democracy", "Children", "Health", "Food Security")
_IGO = ("Council", "Union", "Commission", "Organization", "Agency", "Bank")
_MEDIA = ("Herald", "Times", "Radio", "Daily", "News", "Post", "Chronicle", "Television", "Observer")
_PARTIES = ("Party", "Movement", "Front", "Coalition", "Alliance", "Union")
_PARTY_ADJ = ("Democratic", "Popular", "Socialist", "Liberal", "Republican", "Green", "National",
              "Progressive", "Federal", "United")
_COMPANIES = ("Holdings", "Group", "Industries", "Energy", "Airlines", "Mining", "Bank", "Petroleum")


def organization(rng: random.Random, type_: str, countries: list[str]) -> str:
    """An organization name of the given annotation type; `countries` gives names to borrow."""
    where = rng.choice(countries) if countries else word(rng)
    if type_ == "GovernmentBody":
        return f"{where} {rng.choice(_GOV)}"
    if type_ == "MilitaryUnit":
        ordinal = rng.choice(("", "", "1st ", "2nd ", "3rd ", "5th ", "7th ", "12th ", "41st "))
        return f"{ordinal}{where} {rng.choice(_UNITS)}".strip()
    if type_ == "NGO":
        return f"{word(rng, 2)} {rng.choice(_NGO_KINDS)} for {rng.choice(_TOPICS)}"
    if type_ == "IntergovernmentalOrganization":
        return f"{rng.choice(('Andean', 'Caribbean', 'Southern', 'Atlantic', 'Pacific', 'Inter-American', 'Continental'))} {rng.choice(_IGO)} for {rng.choice(_TOPICS)}"
    if type_ == "MediaOrganization":
        return f"{word(rng, rng.choice((2, 3)))} {rng.choice(_MEDIA)}"
    if type_ == "PoliticalGroup":
        return f"{rng.choice(_PARTY_ADJ)} {rng.choice(_PARTIES)} of {where}"
    return f"{word(rng, rng.choice((2, 3)))} {rng.choice(_COMPANIES)}"
