"""The type of a chain of mentions stated to be one thing (a coreference chain, an equivalence, an
identity relation) whose mentions carry several types: the type most frequent among them, the first
met on a tie. Every reader and the model's merge rule for identity take a chain's type from here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable


def ranked_types(types: Iterable[str]) -> list[tuple[str, int]]:
    """Each type with its count, the chain's own type first: most frequent, then first met."""
    counts = Counter(types)
    return sorted(counts.items(), key=lambda item: -item[1])  # sorted() is stable: first met first on a tie


def chain_type(types: Iterable[str]) -> str | None:
    """The type a chain whose mentions have `types` (in chain order) takes; None for no type."""
    ranked = ranked_types(types)
    return ranked[0][0] if ranked else None
