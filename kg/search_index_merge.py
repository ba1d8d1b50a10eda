"""An incremental build's search index: the previous build's, with the entities whose records the
build rewrote read again and merged in. The rows kept are already in their three sorted orders
(entry, folded label, word start); the few rows read again are sorted on their own, and each
order is one merge of the two, so a patch costs a pass over the index, never a sort of it."""

from __future__ import annotations

import heapq
from array import array
from typing import Callable, Iterable, Sequence

from kg.search_index import SearchIndex, entry_key

_ROW_BITS = 32  # a word-start code is row << 32 | position


def merge(old: SearchIndex, fresh: SearchIndex, touched: frozenset[str]) -> SearchIndex:
    """`old` without the labels and summaries of `touched`, plus `fresh` (theirs, read again)."""
    entities = sorted({iri for iri in old.entities if iri not in touched} | set(fresh.entities))
    number = {iri: i for i, iri in enumerate(entities)}
    kept = [row for row in range(len(old.labels)) if old.entities[old.entity_of[row]] not in touched]
    order = list(heapq.merge(((entry_key(old, row), 0, row) for row in kept),
                             ((entry_key(fresh, row), 1, row) for row in range(len(fresh.labels)))))
    sources = (old, fresh)
    new_row: tuple[list[int], list[int]] = ([-1] * len(old.labels), [-1] * len(fresh.labels))
    for position, (_, source, row) in enumerate(order):
        new_row[source][row] = position
    columns = [[getattr(sources[source], name)[row] for _, source, row in order] for name in ("labels", "kinds", "folded")]
    entity_of = [number[sources[source].entities[sources[source].entity_of[row]]] for _, source, row in order]
    labels, kinds, folded = columns
    by_folded = _merged(old.by_folded, fresh.by_folded, new_row, lambda row: row, lambda row: (folded[row], row))
    word_starts = _merged(old.word_starts, fresh.word_starts, new_row, lambda code: code >> _ROW_BITS,
                          lambda code: (folded[code >> _ROW_BITS][code & 0xFFFFFFFF:], code), code=True)
    summaries = {iri: s for iri, s in old.summaries.items() if iri not in touched}
    summaries.update(fresh.summaries)
    return SearchIndex(entities, entity_of, labels, kinds, folded, summaries,
                       array("L", by_folded), array("Q", word_starts))


def _merged(old: Sequence[int], fresh: Sequence[int], new_row: tuple[list[int], list[int]],
            row_of: Callable[[int], int], key: Callable[[int], tuple], code: bool = False) -> list[int]:
    """Two sorted orders of rows (or word-start codes) renumbered to the merged rows, merged."""
    def renumbered(values: Iterable[int], rows: list[int]) -> Iterable[int]:
        for value in values:
            row = rows[row_of(value)]
            if row >= 0:
                yield row << _ROW_BITS | value & 0xFFFFFFFF if code else row

    return list(heapq.merge(renumbered(old, new_row[0]), renumbered(fresh, new_row[1]), key=key))
