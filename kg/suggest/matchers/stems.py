"""Word stems, so that a trigger learned as 'defected' is found as 'defect', 'defects' or 'defection'.

Snowball stemmers (the snowballstemmer package: pure Python, no data to download) for the
article's language, given as an ISO 639-1 code in its metadata; a language Snowball does not
know keeps words as they are, so matching falls back to the exact (folded) word.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache

import snowballstemmer

_SNOWBALL = {"ar": "arabic", "ca": "catalan", "cs": "czech", "da": "danish", "de": "german", "el": "greek",
             "en": "english", "es": "spanish", "et": "estonian", "eu": "basque", "fi": "finnish", "fr": "french",
             "ga": "irish", "hi": "hindi", "hu": "hungarian", "hy": "armenian", "id": "indonesian", "it": "italian",
             "lt": "lithuanian", "ne": "nepali", "nl": "dutch", "no": "norwegian", "pl": "polish", "pt": "portuguese",
             "ro": "romanian", "ru": "russian", "sr": "serbian", "sv": "swedish", "ta": "tamil", "tr": "turkish"}


def stemmer(language: str | None) -> Callable[[str], str]:
    """The stemmer of an ISO 639-1 language code ('en', 'es'; 'en-US' reads as 'en'); the identity
    for a language Snowball does not know."""
    name = _SNOWBALL.get((language or "").split("-")[0].lower())
    return _stem_with(name) if name else _same


@cache
def _stem_with(name: str) -> Callable[[str], str]:
    algorithm = snowballstemmer.stemmer(name)
    return lru_cache(maxsize=65536)(algorithm.stemWord)


def _same(word: str) -> str:
    return word
