"""Accent- and case-insensitive search over every label of every entity.

The labels (preferred, alternative, hidden, rdfs:label) are read once per
served version of the graph and folded with kg.iris.fold; a search then
matches the folded query against them in memory. Ranking: whole label, then
label prefix, then word prefix, then anywhere; more mentions first; then the
matched label. The network view's search (viz/static/view.js) ranks alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from kg.api import queries
from kg.iris import fold
from kg.memo import Memo

_RANKS = ("exact", "prefix", "word", "substring")


@dataclass(frozen=True)
class Entry:
    folded: str
    entity: str
    label: str
    kind: str


@dataclass
class Summary:
    label: str
    mentions: int
    types: list[str]


class LabelIndex:
    """The folded labels of one version of the graph."""

    def __init__(self, label_rows: list[dict[str, str]], summary_rows: list[dict[str, str]]) -> None:
        self.entries = [Entry(fold(r["label"]), r["e"], r["label"], r["kind"]) for r in label_rows]
        self.summaries = {
            r["e"]: Summary(r.get("label", ""), int(r.get("mentions") or 0), sorted(r.get("types", "").split()))
            for r in summary_rows
        }

    def search(self, text: str, limit: int) -> list[tuple[str, Entry, str]]:
        """Best (entity, matching entry, rank) first, one hit per entity."""
        needle = " ".join(fold(text).split())
        if not needle:
            return []
        best: dict[str, tuple[int, Entry]] = {}
        for entry in self.entries:
            rank = _rank(entry.folded, needle)
            if rank is None:
                continue
            held = best.get(entry.entity)
            if held is None or (rank, entry.folded) < (held[0], held[1].folded):  # the same label every time
                best[entry.entity] = (rank, entry)
        ordered = sorted(best.items(), key=lambda kv: (kv[1][0], -self._mentions(kv[0]), kv[1][1].folded))
        return [(entity, entry, _RANKS[rank]) for entity, (rank, entry) in ordered[:limit]]

    def _mentions(self, entity: str) -> int:
        summary = self.summaries.get(entity)
        return summary.mentions if summary else 0


def _rank(folded: str, needle: str) -> int | None:
    if folded == needle:
        return 0
    if folded.startswith(needle):
        return 1
    position = folded.find(needle)
    if position < 0:
        return None
    return 2 if not folded[position - 1].isalnum() else 3


class SearchIndexes:
    """One LabelIndex per served version, rebuilt when the version changes (or is `max_age` old)."""

    def __init__(self) -> None:
        self._memo = Memo()

    def get(self, version: str, max_age: float, select: Callable[[str], list[dict[str, str]]]) -> LabelIndex:
        index = self._memo.get("labels", version, max_age)
        if index is None:
            index = self._memo.put("labels", version,
                                   LabelIndex(select(queries.LABELS), select(queries.ENTITY_SUMMARIES)))
        return index
