"""Searching a search index (kg.publish.search_index): one hit per entity, best first.

Ranking: whole label, then label prefix, then word prefix (the needle's first occurrence starts a
word: it follows a character that is not a letter or digit), then anywhere; more mentions first;
then the matched folded label; then the entity's IRI. An entity shows its best label (ties: the
first by kind, pref, alt, hidden, label, then by label). The network view's search
(viz/static/view.js) ranks alike.

SQLite finds the candidates, tier by tier, and Python ranks them by the definition above, so that
what FTS5 matches more loosely (case folding, a word anywhere) never changes a rank:
- exact and prefix: a range of the B-tree on the folded label;
- word: an FTS5 phrase of the needle's letter-and-digit runs, its last one a prefix, on `words`
  (only when the tier before gives fewer than `limit` entities);
- substring: an FTS5 trigram phrase on `grams` for a needle of three characters or more, and a scan
  of every folded label (instr) for one or two (trigrams cannot find them); only when the tiers
  before give fewer than `limit` entities.
The user's text never reaches FTS5 as syntax: the word query is built of letters, digits and
spaces only, the trigram one is a quoted string with its quotes doubled.
"""

from __future__ import annotations

import heapq
import sqlite3
import threading
import uuid
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from kg.model.iris import fold
from kg.publish import search_index
from kg.publish.search_index import Rows, Select, index_path

RANKS = ("exact", "prefix", "word", "substring")

_COLUMNS = "SELECT l.entity, e.mentions, e.iri, l.folded, l.kind_order, l.label, l.kind FROM labels l " \
           "JOIN entities e ON e.id = l.entity"
_PREFIX = f"{_COLUMNS} WHERE l.folded >= :needle AND l.folded < :above"
_PREFIX_OPEN = f"{_COLUMNS} WHERE l.folded >= :needle"  # no string is above the needle's prefixes
_WORD = f"{_COLUMNS} JOIN words w ON w.rowid = l.row WHERE words MATCH :match"
_GRAMS = f"{_COLUMNS} JOIN grams g ON g.rowid = l.row WHERE grams MATCH :match"
_SCAN = f"{_COLUMNS} WHERE instr(l.folded, :needle) > 0"
_SUMMARY = "SELECT summary, label, types, mentions FROM entities WHERE iri = ?"


@dataclass(frozen=True)
class Summary:
    """What a hit shows of its entity."""

    label: str
    mentions: int
    types: list[str]


@dataclass(frozen=True)
class Hit:
    """One entity found: its best-ranked label (the matched one) and what it shows."""

    entity: str
    label: str
    kind: str  # pref, alt, hidden or label
    rank: str
    summary: Summary | None  # None: the entity has no preferred label and type


# per entity: (rank, folded, kind order, label), mentions, IRI, label, kind
_Held = tuple[tuple[int, str, int, str], int, str, str, str]


class SearchIndex:
    """One version's index: a finished file, or an in-memory database (a graph without the file).
    Searches from many threads each take a connection of their own (kept for the next search)."""

    def __init__(self, connect: Callable[[], sqlite3.Connection], keeper: sqlite3.Connection | None = None) -> None:
        self._connect, self._keeper = connect, keeper  # the keeper holds an in-memory database alive
        self._idle: list[sqlite3.Connection] = []
        self._lock = threading.Lock()

    @classmethod
    def open(cls, path: Path) -> SearchIndex:
        return cls(lambda: search_index.open_read_only(path))

    @classmethod
    def of_rows(cls, labels: Rows, summaries: Rows) -> SearchIndex:
        """An in-memory index of LABELS' and SUMMARIES' answers, shared by its connections."""
        uri = f"file:kg-search-{uuid.uuid4().hex}?mode=memory&cache=shared"
        connect = lambda: sqlite3.connect(uri, uri=True, check_same_thread=False, isolation_level=None)  # noqa: E731
        keeper = connect()
        search_index.write(keeper, labels, summaries)
        return cls(connect, keeper)

    @classmethod
    def compute(cls, select: Select, entities: frozenset[str] | None = None) -> SearchIndex:
        """Ask a store (any SELECT function) for every label and summary (of `entities` only, when given)."""
        return cls.of_rows(*search_index.label_rows(select, entities))

    def close(self) -> None:
        """Close the connections now (dropping the object closes them too)."""
        with self._lock:
            idle, self._idle = self._idle, []
        for db in idle:
            db.close()
        if self._keeper is not None:
            self._keeper.close()

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            db = self._idle.pop() if self._idle else None
        db = db or self._connect()
        try:
            yield db
        finally:
            with self._lock:
                self._idle.append(db)

    def count(self) -> int:
        """How many labels it holds."""
        with self._connection() as db:
            return db.execute("SELECT count(*) FROM labels").fetchone()[0]

    def search(self, text: str, limit: int) -> list[Hit]:
        """Best hits first, one per entity (see the module's docstring)."""
        needle = " ".join(fold(text).split())
        if not needle or "\x00" in needle or not _encodable(needle):
            return []  # no label holds NUL or a lone surrogate
        with self._connection() as db:
            best = _ranked(db, needle, limit)
            ordered = heapq.nsmallest(limit, best.values(), key=lambda h: (h[0][0], -h[1], h[0][1], h[2]))
            return [Hit(iri, label, kind, RANKS[key[0]], _summary(db, iri))
                    for key, _, iri, label, kind in ordered]


def _ranked(db: sqlite3.Connection, needle: str, limit: int) -> dict[int, _Held]:
    """The best label of every entity of the first tiers that give `limit` entities (or of all)."""
    above = _above(needle)
    best: dict[int, _Held] = {}
    _keep(best, db.execute(_PREFIX if above else _PREFIX_OPEN, {"needle": needle, "above": above}), needle, 1)
    words = _word_query(needle)
    if len(best) < limit and words:
        _keep(best, db.execute(_WORD, {"match": words}), needle, 2)
    if len(best) < limit:
        best = {}
        if len(needle) >= 3:
            rows = db.execute(_GRAMS, {"match": '"' + needle.replace('"', '""') + '"'})
        else:
            rows = db.execute(_SCAN, {"needle": needle})
        _keep(best, rows, needle, 3)
    return best


def _keep(best: dict[int, _Held], rows: Iterator[tuple], needle: str, worst: int) -> None:
    """Each row's rank by the definition; an entity's best row of rank `worst` or better is kept."""
    for entity, mentions, iri, folded, order, label, kind in rows:
        rank = _rank(folded, needle)
        if rank is None or rank > worst:
            continue
        key = (rank, folded, order, label)
        held = best.get(entity)
        if held is None or key < held[0]:
            best[entity] = (key, mentions, iri, label, kind)


def _rank(folded: str, needle: str) -> int | None:
    if folded == needle:
        return 0
    if folded.startswith(needle):
        return 1
    position = folded.find(needle)
    if position < 0:
        return None
    return 2 if not folded[position - 1].isalnum() else 3


def _word_query(needle: str) -> str:
    """The FTS5 query for labels where the needle's letters and digits start a word: a phrase of its
    runs of them, the last a prefix ('' when it has none). Leading other characters are left out: the
    first letter after them starts a word wherever the needle starts one."""
    runs = search_index.word_text(needle).split()
    return '"' + " ".join(runs) + '" *' if runs else ""


def _above(needle: str) -> str:
    """The least string above every string that starts with `needle` ('' when there is none)."""
    while needle and needle[-1] == "\U0010ffff":
        needle = needle[:-1]
    if not needle:
        return ""
    following = ord(needle[-1]) + 1
    return needle[:-1] + chr(0xE000 if 0xD800 <= following <= 0xDFFF else following)


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _summary(db: sqlite3.Connection, iri: str) -> Summary | None:
    row = db.execute(_SUMMARY, (iri,)).fetchone()
    if row is None or not row[0]:
        return None
    return Summary(row[1], row[3], row[2].split())


def read_index(build_dir: Path) -> SearchIndex | None:
    """The index `kg build` wrote into `build_dir`; None when there is none (a build of an earlier kg,
    which wrote search-index.json) or an unreadable one."""
    path = index_path(build_dir)
    return SearchIndex.open(path) if search_index.readable(path) else None
