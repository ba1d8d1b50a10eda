"""The search index of a graph: every label of every entity, folded (accents and case
stripped, kg.iris.fold), with what a hit shows (preferred label, types, mentions).

`kg build` writes it into the build directory (search-index.json), read from the
finished store, so that the endpoint only reads a file: no request ever waits for
an index to be built (at 1,000 generated articles reading the labels out of the store
and folding them takes seconds on a busy machine; reading the file, a fraction).
A graph without the file (a remote store, a build made before the file existed)
gets its index from the same two queries (`SearchIndex.compute`).

Ranking: whole label, then label prefix, then word prefix (the first occurrence
starts a word), then anywhere; more mentions first; then the matched label. The
network view's search (viz/static/view.js) ranks alike. A search finds its
candidates with one `str.find` pass over all folded labels joined, so it costs
time in the number of labels that match, not in the number of labels.
"""

from __future__ import annotations

import bisect
import heapq
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from kg import build_dirs
from kg.iris import fold, prologue
from kg.store import EmbeddedStore

FILE_NAME = "search-index.json"
FORMAT = 1
RANKS = ("exact", "prefix", "word", "substring")
_SEPARATOR = "\x00"  # never in a label (XML cannot carry it, the reader refuses it)

Select = Callable[[str], list[dict[str, str]]]

LABELS = """
SELECT DISTINCT ?e ?label ?kind WHERE {
  GRAPH kgg:entities {
    VALUES (?p ?kind) { (skos:prefLabel "pref") (skos:altLabel "alt") (skos:hiddenLabel "hidden") (rdfs:label "label") }
    ?e ?p ?label .
  }
}
"""

SUMMARIES = """
SELECT ?e (SAMPLE(?l) AS ?label) (MAX(?n) AS ?mentions) (GROUP_CONCAT(DISTINCT STR(?t); separator=" ") AS ?types) WHERE {
  GRAPH kgg:entities { ?e skos:prefLabel ?l ; a ?t . OPTIONAL { ?e kgo:mentionCount ?n } }
}
GROUP BY ?e
"""


@dataclass(frozen=True)
class Entry:
    """One label of one entity."""

    folded: str
    entity: str
    label: str
    kind: str  # pref, alt, hidden or label


@dataclass(frozen=True)
class Summary:
    """What a hit shows of its entity."""

    label: str
    mentions: int
    types: list[str]


@dataclass(frozen=True)
class Hit:
    entity: str
    entry: Entry
    rank: str


class SearchIndex:
    """The folded labels of one version of a graph, searchable without the store."""

    def __init__(self, entries: list[Entry], summaries: dict[str, Summary]) -> None:
        self.entries = entries
        self.summaries = summaries
        self._haystack = _SEPARATOR.join(e.folded for e in entries)
        self._starts: list[int] = []
        offset = 0
        for entry in entries:
            self._starts.append(offset)
            offset += len(entry.folded) + 1

    @classmethod
    def from_rows(cls, label_rows: list[dict[str, str]], summary_rows: list[dict[str, str]]) -> SearchIndex:
        """From the answers of LABELS and SUMMARIES."""
        entries = [Entry(fold(r["label"]), r["e"], r["label"], r["kind"]) for r in label_rows]
        summaries = {r["e"]: Summary(r.get("label", ""), int(r.get("mentions") or 0),
                                     sorted(r.get("types", "").split()))
                     for r in summary_rows}
        return cls(entries, summaries)

    @classmethod
    def compute(cls, select: Select) -> SearchIndex:
        """Ask a store (any SELECT function) for every label and summary."""
        return cls.from_rows(select(prologue() + LABELS), select(prologue() + SUMMARIES))

    def search(self, text: str, limit: int) -> list[Hit]:
        """Best hits first, one per entity: its best-ranked label (ties: the first folded label)."""
        needle = " ".join(fold(text).split())
        if not needle:
            return []
        best: dict[str, tuple[int, Entry]] = {}
        for entry in self._candidates(needle):
            rank = _rank(entry.folded, needle)
            if rank is None:
                continue
            held = best.get(entry.entity)
            if held is None or (rank, entry.folded) < (held[0], held[1].folded):  # the same label every time
                best[entry.entity] = (rank, entry)
        ordered = heapq.nsmallest(limit, best.items(),
                                  key=lambda kv: (kv[1][0], -self._mentions(kv[0]), kv[1][1].folded))
        return [Hit(entity, entry, RANKS[rank]) for entity, (rank, entry) in ordered]

    def _candidates(self, needle: str) -> list[Entry]:
        """The entries whose folded label may contain `needle`, found by C-speed scanning."""
        if _SEPARATOR in needle or len(needle) == 1:  # a single letter is in nearly every label
            return self.entries
        found, haystack, position = [], self._haystack, 0
        while (position := haystack.find(needle, position)) >= 0:
            index = bisect.bisect_right(self._starts, position) - 1
            found.append(self.entries[index])
            position = self._starts[index] + len(self.entries[index].folded) + 1  # on to the next label
        return found

    def _mentions(self, entity: str) -> int:
        summary = self.summaries.get(entity)
        return summary.mentions if summary else 0

    # -- the file ------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        entities = sorted({e.entity for e in self.entries} | set(self.summaries))
        number = {iri: i for i, iri in enumerate(entities)}
        return {"format": FORMAT, "entities": entities,
                "summaries": [_summary_row(self.summaries.get(iri)) for iri in entities],
                "labels": [[number[e.entity], e.label, e.kind, e.folded] for e in self.entries]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SearchIndex:
        if data.get("format") != FORMAT:
            raise ValueError(f"search index format {data.get('format')!r}, expected {FORMAT}")
        entities = data["entities"]
        entries = [Entry(folded, entities[number], label, kind) for number, label, kind, folded in data["labels"]]
        summaries = {entities[i]: Summary(row[0], row[1], row[2])
                     for i, row in enumerate(data["summaries"]) if row is not None}
        return cls(entries, summaries)


def _summary_row(summary: Summary | None) -> list | None:
    return None if summary is None else [summary.label, summary.mentions, summary.types]


def _rank(folded: str, needle: str) -> int | None:
    if folded == needle:
        return 0
    if folded.startswith(needle):
        return 1
    position = folded.find(needle)
    if position < 0:
        return None
    return 2 if not folded[position - 1].isalnum() else 3


def index_path(build_dir: Path) -> Path:
    return Path(build_dir) / FILE_NAME


def write_index(build_dir: Path, select: Select) -> SearchIndex:
    """Compute the index from a store and write it into `build_dir` (renamed into place)."""
    index = SearchIndex.compute(select)
    target = index_path(build_dir)
    partial = target.with_name(f"{target.name}.{os.getpid()}.part")
    try:
        with partial.open("w", encoding="utf-8") as out:
            json.dump(index.to_json(), out, ensure_ascii=False, separators=(",", ":"))
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return index


def write_build_index(build_dir: Path) -> None:
    """`kg build`'s step: the index of the build's finished store, into the build directory."""
    store = EmbeddedStore(build_dirs.store_path(build_dir), read_only=True)
    try:
        write_index(build_dir, store.select)
    finally:
        store.close()


def read_index(build_dir: Path) -> SearchIndex | None:
    """The index `kg build` wrote into `build_dir`; None when there is none (or an unreadable one)."""
    try:
        with index_path(build_dir).open(encoding="utf-8") as handle:
            return SearchIndex.from_json(json.load(handle))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None  # damaged or of another format: the caller computes it from the store
