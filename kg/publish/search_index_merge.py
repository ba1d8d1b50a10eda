"""A build's search index, written into its directory: computed whole by a full build; by an
incremental build, the previous build's with the entities whose records the build rewrote read
again and spliced in. The rows kept are already in their three sorted orders
(entry, folded label, word start) and stay so, renumbered with numpy; each row read again is put in
its place by bisection. A patch of a few entities costs a few vector passes over the index, never
a sort of it."""

from __future__ import annotations

import bisect
from operator import itemgetter
from pathlib import Path
from typing import Callable

import numpy as np

from kg.store import build_dirs
from kg.publish.search_index import ROW_BITS, SearchIndex, Select, dump, index_path, read_index
from kg.store.embedded import EmbeddedStore

_POSITION = (1 << ROW_BITS) - 1


def write_build_index(build_dir: Path, previous_dir: Path | None = None,
                      touched: frozenset[str] | None = None) -> None:
    """`kg build`'s step: the index of the build's finished store, into the build directory. An
    incremental build (`previous_dir`, and the entities whose records it rewrote) patches the
    previous build's index: an edit costs what it changes, not a read of every label."""
    previous = read_index(previous_dir) if previous_dir is not None and touched is not None else None
    store = EmbeddedStore(build_dirs.store_path(build_dir), read_only=True)
    try:
        index = patched(previous, touched, store.select) if previous else SearchIndex.compute(store.select)
    finally:
        store.close()
    build_dirs.made_once(index_path(build_dir), lambda partial: dump(index, partial))


def patched(index: SearchIndex, entities: frozenset[str], select: Select) -> SearchIndex:
    """`index` with the labels and summaries of `entities` read again from a store (an incremental
    build changed only their records), equal to the index computed whole. The rows kept stay in
    their sorted orders, merged with the few read again (nothing re-sorted)."""
    fresh = SearchIndex.compute(select, entities) if entities else SearchIndex.of_entries([], {})
    return merge(index, fresh, entities)


def merge(old: SearchIndex, fresh: SearchIndex, touched: frozenset[str]) -> SearchIndex:
    """`old` without the labels and summaries of `touched`, plus `fresh` (theirs, read again)."""
    gone = np.fromiter((iri in touched for iri in old.entities), dtype=bool, count=len(old.entities))
    old_entity_of = np.asarray(old.entity_of, dtype=np.int64)
    kept = np.flatnonzero(~gone[old_entity_of]) if len(old_entity_of) else np.zeros(0, dtype=np.int64)
    kept_iri = lambda i: old.entities[old.entity_of[kept[i]]]  # noqa: E731
    places = np.array([_bisect(len(kept), fresh.entities[entity], kept_iri) for entity in fresh.entity_of],
                      dtype=np.int64)  # fresh rows are in entry order: their places never decrease
    fresh_to_new = places + np.arange(len(places), dtype=np.int64)
    old_to_new = np.full(len(old.labels), -1, dtype=np.int64)
    old_to_new[kept] = np.arange(len(kept)) + np.searchsorted(places, np.arange(len(kept)), side="right")

    entities = sorted({iri for iri, out in zip(old.entities, gone) if not out} | set(fresh.entities))
    number = {iri: i for i, iri in enumerate(entities)}
    old_number = np.array([number.get(iri, -1) for iri in old.entities], dtype=np.int64)
    columns = {}
    for name in ("labels", "kinds", "folded"):
        columns[name] = _spliced_values(_pick(getattr(old, name), kept), places, getattr(fresh, name))
    entity_of = _spliced_values(old_number[old_entity_of[kept]].tolist(), places,
                                [number[fresh.entities[e]] for e in fresh.entity_of])
    folded = columns["folded"]
    by_folded = _renumbered(np.asarray(old.by_folded, dtype=np.int64), old_to_new)
    by_folded = _inserted(by_folded, fresh_to_new[np.asarray(fresh.by_folded, dtype=np.int64)],
                          lambda row: (folded[row], row))
    word_starts = _renumbered_codes(np.asarray(old.word_starts, dtype=np.int64), old_to_new)
    fresh_codes = np.asarray(fresh.word_starts, dtype=np.int64)
    fresh_codes = fresh_to_new[fresh_codes >> ROW_BITS] << ROW_BITS | fresh_codes & _POSITION
    word_starts = _inserted(word_starts, fresh_codes, lambda code: (folded[code >> ROW_BITS][code & _POSITION:], code))
    summaries = {iri: s for iri, s in old.summaries.items() if iri not in touched}
    summaries.update(fresh.summaries)
    return SearchIndex(entities, entity_of, columns["labels"], columns["kinds"], folded, summaries,
                       by_folded, word_starts)


def _bisect(length: int, value: str, key: Callable[[int], str]) -> int:
    return bisect.bisect_left(range(length), value, key=key)


def _pick(values: list, rows: np.ndarray) -> list:
    if len(rows) == 0:
        return []
    picked = itemgetter(*rows.tolist())(values)
    return list(picked) if len(rows) > 1 else [picked]


def _spliced_values(kept: list, places: np.ndarray, fresh: list) -> list:
    """`kept` with fresh[j] inserted before kept[places[j]] (places never decrease)."""
    out, done = [], 0
    for place, value in zip(places.tolist(), fresh):
        out += kept[done:place]
        out.append(value)
        done = place
    out += kept[done:]
    return out


def _renumbered(rows: np.ndarray, old_to_new: np.ndarray) -> np.ndarray:
    new = old_to_new[rows]
    return new[new >= 0]


def _renumbered_codes(codes: np.ndarray, old_to_new: np.ndarray) -> np.ndarray:
    rows = old_to_new[codes >> ROW_BITS]
    keep = rows >= 0
    return rows[keep] << ROW_BITS | codes[keep] & _POSITION


def _inserted(kept: np.ndarray, fresh: np.ndarray, key: Callable[[int], tuple]) -> list[int]:
    """`kept` (sorted by `key`) with each of `fresh` (sorted by `key`) inserted in its place."""
    as_list = kept.tolist()
    places = [bisect.bisect_left(as_list, key(value), key=key) for value in fresh.tolist()]
    return np.insert(kept, places, fresh).tolist() if len(fresh) else as_list
