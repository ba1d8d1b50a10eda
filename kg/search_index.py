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
        return cls(sorted(entries, key=_entry_order), summaries)

    @classmethod
    def compute(cls, select: Select, entities: frozenset[str] | None = None) -> SearchIndex:
        """Ask a store (any SELECT function) for every label and summary (of `entities` only, when given)."""
        return cls.from_rows(select(_only(LABELS, entities)), select(_only(SUMMARIES, entities)))

    def patched(self, entities: frozenset[str], select: Select) -> SearchIndex:
        """This index with the labels and summaries of `entities` read again from a store (an
        incremental build changed only their records), equal to the index computed whole."""
        fresh = SearchIndex.compute(select, entities) if entities else SearchIndex([], {})
        kept = [e for e in self.entries if e.entity not in entities]
        summaries = {iri: s for iri, s in self.summaries.items() if iri not in entities}
        summaries.update(fresh.summaries)
        return SearchIndex(sorted(kept + fresh.entries, key=_entry_order), summaries)

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


def _only(query: str, entities: frozenset[str] | None) -> str:
    """`query` with the prologue, restricted to `entities` (None: every entity)."""
    if entities is None:
        return prologue() + query
    values = " ".join(f"<{iri}>" for iri in sorted(entities))
    return prologue() + query.replace("GRAPH kgg:entities {", f"VALUES ?e {{ {values} }}\n  GRAPH kgg:entities {{", 1)


_KINDS = {"pref": 0, "alt": 1, "hidden": 2, "label": 3}  # of labels folding alike, a hit shows the first


def _entry_order(entry: Entry) -> tuple[str, int, str]:
    return entry.entity, _KINDS.get(entry.kind, len(_KINDS)), entry.label


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


def _dump(index: SearchIndex, path: Path) -> None:
    with path.open("w", encoding="utf-8") as out:
        json.dump(index.to_json(), out, ensure_ascii=False, separators=(",", ":"))


def write_build_index(build_dir: Path, previous_dir: Path | None = None,
                      touched: frozenset[str] | None = None) -> None:
    """`kg build`'s step: the index of the build's finished store, into the build directory. An
    incremental build (`previous_dir`, and the entities whose records it rewrote) patches the
    previous build's index: an edit costs what it changes, not a read of every label."""
    previous = read_index(previous_dir) if previous_dir is not None and touched is not None else None
    store = EmbeddedStore(build_dirs.store_path(build_dir), read_only=True)
    try:
        index = previous.patched(touched, store.select) if previous else SearchIndex.compute(store.select)
    finally:
        store.close()
    build_dirs.made_once(index_path(build_dir), lambda partial: _dump(index, partial))


def read_index(build_dir: Path) -> SearchIndex | None:
    """The index `kg build` wrote into `build_dir`; None when there is none (or an unreadable one)."""
    try:
        with index_path(build_dir).open(encoding="utf-8") as handle:
            return SearchIndex.from_json(json.load(handle))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None  # damaged or of another format: the caller computes it from the store
