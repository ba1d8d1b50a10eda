"""An incremental build's search index: the previous build's, with the entities whose records the
build rewrote read again and spliced in. The rows kept are already in their three sorted orders
(entry, folded label, word start) and stay so, renumbered; each row read again is put in its place
by bisection. A patch of a few entities costs a few passes over the index, never a sort of it."""

from __future__ import annotations

import bisect
from array import array
from typing import Callable, Sequence

from kg.search_index import SearchIndex

_ROW_BITS = 32  # a word-start code is row << 32 | position
_POSITION = (1 << _ROW_BITS) - 1


def merge(old: SearchIndex, fresh: SearchIndex, touched: frozenset[str]) -> SearchIndex:
    """`old` without the labels and summaries of `touched`, plus `fresh` (theirs, read again)."""
    gone = [iri in touched for iri in old.entities]
    kept = [row for row, entity in enumerate(old.entity_of) if not gone[entity]]
    places = [bisect.bisect_left(kept, fresh.entities[entity], key=lambda row: old.entities[old.entity_of[row]])
              for entity in fresh.entity_of]  # fresh rows are in entry order: their places never decrease
    old_to_new, fresh_to_new = [-1] * len(old.labels), [0] * len(fresh.labels)
    order: list[tuple[SearchIndex, int]] = []
    done = 0
    for row, place in enumerate(places + [len(kept)]):
        for old_row in kept[done:place]:
            old_to_new[old_row] = len(order)
            order.append((old, old_row))
        done = place
        if row < len(places):
            fresh_to_new[row] = len(order)
            order.append((fresh, row))
    entities = sorted({iri for iri, out in zip(old.entities, gone) if not out} | set(fresh.entities))
    number = {iri: i for i, iri in enumerate(entities)}
    folded = [source.folded[row] for source, row in order]
    by_folded = _spliced([old_to_new[row] for row in old.by_folded if old_to_new[row] >= 0],
                         [fresh_to_new[row] for row in fresh.by_folded], lambda row: (folded[row], row))
    word_starts = _spliced([old_to_new[code >> _ROW_BITS] << _ROW_BITS | code & _POSITION for code in old.word_starts
                            if old_to_new[code >> _ROW_BITS] >= 0],
                           [fresh_to_new[code >> _ROW_BITS] << _ROW_BITS | code & _POSITION for code in fresh.word_starts],
                           lambda code: (folded[code >> _ROW_BITS][code & _POSITION:], code))
    summaries = {iri: s for iri, s in old.summaries.items() if iri not in touched}
    summaries.update(fresh.summaries)
    return SearchIndex(entities, [number[source.entities[source.entity_of[row]]] for source, row in order],
                       [source.labels[row] for source, row in order], [source.kinds[row] for source, row in order],
                       folded, summaries, array("L", by_folded), array("Q", word_starts))


def _spliced(kept: list[int], fresh: Sequence[int], key: Callable[[int], tuple]) -> list[int]:
    """`kept` (sorted by `key`) with each of `fresh` inserted in its place."""
    for value in fresh:
        kept.insert(bisect.bisect_left(kept, key(value), key=key), value)
    return kept
