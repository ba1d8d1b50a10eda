"""The search index of a graph: every label of every entity, folded (accents and case
stripped, kg.model.iris.fold), with what a hit shows (preferred label, types, mentions).

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
from array import array
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator, Sequence

import numpy as np

from kg.store import build_dirs
from kg.model.iris import fold, prologue

FORMAT = 2
RANKS = ("exact", "prefix", "word", "substring")
_SEPARATOR = "\x00"  # never in a label (XML cannot carry it, the reader refuses it)
ROW_BITS = 32  # a word-start code is row << ROW_BITS | position
_END = "end"  # the file's last field: a file cut short lacks it

Select = Callable[[str], list[dict[str, str]]]

LABELS = """
SELECT DISTINCT ?e ?label ?kind WHERE {
  GRAPH kgg:entities {
    { ?e skos:prefLabel ?label BIND("pref" AS ?kind) } UNION { ?e skos:altLabel ?label BIND("alt" AS ?kind) }
    UNION { ?e skos:hiddenLabel ?label BIND("hidden" AS ?kind) } UNION { ?e rdfs:label ?label BIND("label" AS ?kind) }
  }
}
"""

SUMMARIES = """
SELECT ?e (SAMPLE(?l) AS ?label) (MAX(?n) AS ?mentions) (GROUP_CONCAT(DISTINCT STR(?t); separator=" ") AS ?types) WHERE {
  GRAPH kgg:entities { ?e skos:prefLabel ?l ; a ?t }
  OPTIONAL { GRAPH kgg:entities { ?e kgo:mentionCount ?n } }
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
    """The folded labels of one version of a graph, searchable without the store.

    Held in columns, one row per label in entry order (entity, kind, label): `entity_of` (the
    entity's number in `entities`, sorted IRIs), `labels`, `kinds`, `folded`. Two sorted orders
    find a needle's best-ranked labels without scanning: `by_folded` (rows by folded label, for
    whole labels and prefixes) and `word_starts` (codes row << 32 | position, by the folded label's
    tail at each position that follows a character that is not a letter or digit, for word
    prefixes). The file keeps both orders; an incremental build merges them (kg.publish.search_index_merge)."""

    def __init__(self, entities: list[str], entity_of: list[int], labels: list[str], kinds: list[str],
                 folded: list[str], summaries: dict[str, Summary], by_folded: Sequence[int] | None = None,
                 word_starts: Sequence[int] | None = None) -> None:
        self.entities, self.entity_of, self.labels, self.kinds, self.folded = entities, entity_of, labels, kinds, folded
        self.summaries = summaries
        self.by_folded = by_folded if by_folded is not None else sorted_by_folded(folded)
        self.word_starts = word_starts if word_starts is not None else sorted_word_starts(folded)
        self._mention_counts = [summaries[e].mentions if e in summaries else 0 for e in entities]
        self._haystack = _SEPARATOR.join(folded)
        widths = np.fromiter(map(len, folded), dtype=np.int64, count=len(folded)) + 1
        self._starts = (np.cumsum(widths) - widths).tolist()  # where each label starts in the haystack

    @classmethod
    def of_entries(cls, entries: list[Entry], summaries: dict[str, Summary]) -> SearchIndex:
        """From labels in any order."""
        entries = sorted(entries, key=_entry_order)
        entities = sorted({e.entity for e in entries} | set(summaries))
        number = {iri: i for i, iri in enumerate(entities)}
        return cls(entities, [number[e.entity] for e in entries], [e.label for e in entries],
                   [e.kind for e in entries], [e.folded for e in entries], summaries)

    @property
    def entries(self) -> list[Entry]:
        """Every label as an Entry, in entry order."""
        return [self.entry(row) for row in range(len(self.labels))]

    def entry(self, row: int) -> Entry:
        return Entry(self.folded[row], self.entities[self.entity_of[row]], self.labels[row], self.kinds[row])

    @classmethod
    def from_rows(cls, label_rows: list[dict[str, str]], summary_rows: list[dict[str, str]]) -> SearchIndex:
        """From the answers of LABELS and SUMMARIES."""
        entries = [Entry(fold(r["label"]), r["e"], r["label"], r["kind"]) for r in label_rows]
        summaries = {r["e"]: Summary(r.get("label", ""), int(r.get("mentions") or 0),
                                     sorted(r.get("types", "").split()))
                     for r in summary_rows}
        return cls.of_entries(entries, summaries)

    @classmethod
    def compute(cls, select: Select, entities: frozenset[str] | None = None) -> SearchIndex:
        """Ask a store (any SELECT function) for every label and summary (of `entities` only, when given)."""
        return cls.from_rows(select(_only(LABELS, entities)), select(_only(SUMMARIES, entities)))

    def search(self, text: str, limit: int) -> list[Hit]:
        """Best hits first, one per entity: its best-ranked label (ties: the first folded label); equal
        hits by entity IRI. Whole labels and prefixes come from `by_folded`, word prefixes from
        `word_starts`; every label is scanned (by `str.find`) only when these give fewer than `limit`."""
        needle = " ".join(fold(text).split())
        if not needle:
            return []
        best: dict[int, tuple[int, str, int]] = {}  # entity number -> (rank, folded, row)
        self._rank_rows(best, self._prefixed(needle), needle)
        if len(best) < limit:
            self._rank_rows(best, self._word_started(needle), needle)
            best = {e: held for e, held in best.items() if held[0] <= RANKS.index("word")}
        if len(best) < limit:  # the rest rank "substring": only a scan finds them all
            best = {}
            self._rank_rows(best, self._candidates(needle), needle)
        mentions = self._mention_counts
        ordered = heapq.nsmallest(limit, best.items(), key=lambda kv: (kv[1][0], -mentions[kv[0]], kv[1][1], kv[0]))
        return [Hit(self.entities[e], self.entry(row), RANKS[rank]) for e, (rank, _, row) in ordered]

    def _rank_rows(self, best: dict[int, tuple[int, str, int]], rows: Iterable[int], needle: str) -> None:
        folded, entity_of = self.folded, self.entity_of
        for row in rows:
            rank = _rank(folded[row], needle)
            if rank is None:
                continue
            entity, held = entity_of[row], best.get(entity_of[row])
            if held is None or (rank, folded[row], row) < held:  # ties: the first row, the same every time
                best[entity] = (rank, folded[row], row)

    def _prefixed(self, needle: str) -> Iterator[int]:
        """Rows whose folded label starts with `needle`."""
        folded, order = self.folded, self.by_folded
        at = bisect.bisect_left(order, needle, key=folded.__getitem__)
        while at < len(order) and folded[order[at]].startswith(needle):
            yield order[at]
            at += 1

    def _word_started(self, needle: str) -> Iterator[int]:
        """Rows where `needle` starts some word after the first (not always its first occurrence)."""
        order = self.word_starts
        at = bisect.bisect_left(order, needle, key=self._tail)
        while at < len(order) and self._tail(order[at]).startswith(needle):
            yield order[at] >> ROW_BITS
            at += 1

    def _tail(self, code: int) -> str:
        return self.folded[code >> ROW_BITS][code & ((1 << ROW_BITS) - 1):]

    def _candidates(self, needle: str) -> list[int]:
        """The rows whose folded label may contain `needle`, found by C-speed scanning."""
        if _SEPARATOR in needle:
            return []
        found, haystack, position = [], self._haystack, 0
        while (position := haystack.find(needle, position)) >= 0:
            row = bisect.bisect_right(self._starts, position) - 1
            found.append(row)
            position = self._starts[row] + len(self.folded[row]) + 1  # on to the next label
        return found


def sorted_by_folded(folded: list[str]) -> array:
    """Rows in folded-label order (ties: row order)."""
    return array("L", sorted(range(len(folded)), key=folded.__getitem__))


def sorted_word_starts(folded: list[str]) -> array:
    """Codes row << 32 | position of every position after the first that follows a character that is
    not a letter or digit, in the order of the folded label's tail there (ties: code order)."""
    codes = [row << ROW_BITS | position for row, text in enumerate(folded)
             for position in range(1, len(text)) if not text[position - 1].isalnum()]
    return array("Q", sorted(codes, key=lambda code: (folded[code >> ROW_BITS][code & ((1 << ROW_BITS) - 1):], code)))


def _only(query: str, entities: frozenset[str] | None) -> str:
    """`query` with the prologue, restricted to `entities` (None: every entity). (With a VALUES
    of (predicate, kind) pairs, or an OPTIONAL inside the GRAPH, 20 entities of 10,000 articles
    took 0.25 s and 0.9 s; as written, 3 ms each.)"""
    if entities is None:
        return prologue() + query
    values = " ".join(f"<{iri}>" for iri in sorted(entities))
    return prologue() + query.replace("GRAPH kgg:entities {", f"VALUES ?e {{ {values} }}\n  GRAPH kgg:entities {{", 1)


_KINDS = {"pref": 0, "alt": 1, "hidden": 2, "label": 3}  # of labels folding alike, a hit shows the first


def _entry_order(entry: Entry) -> tuple[str, int, str]:
    return entry.entity, _KINDS.get(entry.kind, len(_KINDS)), entry.label


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
    return Path(build_dir) / build_dirs.SEARCH_INDEX_FILE


def dump(index: SearchIndex, path: Path) -> None:
    """The file: a JSON header line with the counts, then every field joined by NUL (no label holds one),
    so that reading it is a few C-speed splits (FORMAT 1, one JSON document, took seconds at 10,000
    articles to read and write)."""
    summaries = [index.summaries.get(iri) for iri in index.entities]
    fields = [*index.entities, *(s.label if s else "" for s in summaries), *(" ".join(s.types) if s else ""
                                                                             for s in summaries),
              _numbers(s.mentions if s else -1 for s in summaries), _numbers(index.entity_of),
              *index.labels, *index.kinds, *index.folded, _numbers(index.by_folded), _numbers(index.word_starts),
              _END]
    header = {"format": FORMAT, "entities": len(index.entities), "labels": len(index.labels),
              "words": len(index.word_starts)}
    with path.open("w", encoding="utf-8") as out:
        out.write(json.dumps(header) + "\n")
        out.write(_SEPARATOR.join(fields))


def _load(text: str) -> SearchIndex:
    head, _, body = text.partition("\n")
    header = json.loads(head)
    if header.get("format") == 1:  # one JSON document, written by builds before format 2
        return _load_format_1(header)
    if header.get("format") != FORMAT:
        raise ValueError(f"search index format {header.get('format')!r}, expected {FORMAT}")
    e, n = int(header["entities"]), int(header["labels"])
    fields = body.split(_SEPARATOR)
    if len(fields) != 3 * e + 3 * n + 5 or fields.pop() != _END:
        raise ValueError("search index: cut short, or wrong number of fields")
    entities, labels, types = fields[:e], fields[e:2 * e], fields[2 * e:3 * e]
    mentions, entity_of = _read_numbers(fields[3 * e], "l"), _read_numbers(fields[3 * e + 1], "L")
    rows = fields[3 * e + 2:3 * e + 2 + 3 * n]
    by_folded, word_starts = _read_numbers(fields[-2], "L"), _read_numbers(fields[-1], "Q")
    if not len(mentions) == e or not len(entity_of) == len(by_folded) == n or len(word_starts) != header["words"]:
        raise ValueError("search index: columns of unequal length")
    summaries = {iri: Summary(labels[i], mentions[i], types[i].split())
                 for i, iri in enumerate(entities) if mentions[i] >= 0}
    return SearchIndex(entities, list(entity_of), rows[:n], rows[n:2 * n], rows[2 * n:], summaries,
                       by_folded, word_starts)


def _load_format_1(data: dict) -> SearchIndex:
    entities = data["entities"]
    entries = [Entry(folded, entities[number], label, kind) for number, label, kind, folded in data["labels"]]
    summaries = {entities[i]: Summary(row[0], row[1], row[2]) for i, row in enumerate(data["summaries"]) if row}
    return SearchIndex.of_entries(entries, summaries)


def _numbers(values: Iterable[int]) -> str:
    return ",".join(map(str, values))


def _read_numbers(field: str, typecode: str) -> array:
    return array(typecode, map(int, field.split(","))) if field else array(typecode)


def read_index(build_dir: Path) -> SearchIndex | None:
    """The index `kg build` wrote into `build_dir`; None when there is none (or an unreadable one)."""
    try:
        return _load(index_path(build_dir).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None  # damaged or of another format: the caller computes it from the store
