"""Searching a search index (kg.publish.search_index): one hit per entity, best first.

Ranking: shared entities before things local to one document (descriptions, a caseless script's
single mentions: kg.model.entities.resolve), whatever their text; within each, whole label, then
label prefix, then word prefix (the needle's first occurrence starts a word: it follows a character
that is not a letter, digit or mark), then anywhere; more mentions first; then the matched folded
label; then the entity's IRI. The shared are searched first, the local only when the shared give
fewer hits than asked (and never for a caller that wants shared entities only). An entity shows its best label (ties: the
first by kind, pref, alt, hidden, label, then by label). The network view's search
(viz/static/view.js) ranks alike.

SQLite finds the candidates, tier by tier, and Python ranks them by the definition above, so that
what FTS5 matches more loosely (case folding, a word anywhere) never changes a rank:
- exact and prefix: the covering B-tree on the folded label, read in its order from the needle on
  until the prefix ends (an entity's first row there is its best); past _MANY rows (a one-letter
  needle) the entities are walked by mentions inside SQLite instead, and only the labels of those
  that can be among the first `limit` are read;
- word: an FTS5 phrase of the needle's letter-and-digit runs, its last one a prefix, on `words`
  (only when the tier before gives fewer than `limit` entities);
- substring: for a needle of three runs of letters and digits or more, an FTS5 query on `words` for its
  inner runs as words and its last as a word's start (every label holding the needle holds them; a
  long needle's trigram phrase read most labels); else an FTS5 trigram phrase on `grams` for a needle of
  three characters or more, and for one or two (trigrams cannot find them) str.find over every folded
  label joined, read once into memory on the first such search (_Haystack); only when the tiers before
  give fewer than `limit` entities.
The user's text never reaches FTS5 as syntax: the word query is built of letters, digits and
spaces only, the trigram one is a quoted string with its quotes doubled.

A search is bounded: a needle longer than NEEDLE_LIMIT characters is refused (NeedleTooLong; a
150,000-character needle took 6 to 12 s and 1.4 to 2.1 GB in FTS5's phrase of its trigrams), and
SQLite's work stops at the caller's deadline (QueryTimeout), checked every _STEPS instructions.
A file is opened only when SQLite's quick_check finds it sound (search_index.readable); one damaged
later answers IndexDamaged (503), never a traceback, and is marked `damaged`, so that the server reads
or makes it again (api/backend/search_indexes.py) without a restart.
"""

from __future__ import annotations

import bisect
import heapq
import json
import sqlite3
import threading
import time
import uuid
from array import array
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path
from typing import Callable, Iterator

from kg.errors import IndexDamaged, InputError, QueryTimeout
from kg.model.iris import fold, is_word_char
from kg.publish import search_index
from kg.publish.search_index import Rows, Select, index_path

RANKS = ("exact", "prefix", "word", "substring")
NEEDLE_LIMIT = 1000  # characters of a needle: a label or a part of one
_STEPS = 10_000  # SQLite instructions between two looks at the deadline (about a millisecond)


class NeedleTooLong(InputError):
    """A search text longer than NEEDLE_LIMIT characters."""

# each query reads the rows of one side (:local 0, the shared entities; 1, the things local to a document)
_ROWS = "SELECT l.entity, l.mentions, l.folded, l.kind_order, l.label, l.kind FROM labels l"
_PREFIX = (f"{_ROWS} WHERE l.folded >= :needle AND l.folded < :past AND l.local = :local "
           "ORDER BY l.folded, l.entity, l.kind_order, l.label")  # the index's order
_WORD = f"{_ROWS} JOIN words w ON w.rowid = l.row WHERE words MATCH :match AND l.local = :local"
_GRAMS = f"{_ROWS} JOIN grams g ON g.rowid = l.row WHERE grams MATCH :match AND l.local = :local"
_ROWS_IN = f"{_ROWS} WHERE l.row IN (SELECT value FROM json_each(:rows)) AND l.local = :local"
_EXACT = f"{_ROWS} WHERE l.folded = :needle AND l.local = :local ORDER BY l.folded, l.entity, l.kind_order, l.label"
_WALK = ("SELECT e.id, e.mentions FROM entities e WHERE (e.document IS NOT NULL) = :local AND EXISTS "
         "(SELECT 1 FROM labels l WHERE l.entity = e.id AND substr(l.folded, 1, :length) = :needle) "
         "ORDER BY e.mentions DESC")
_PAST = "\U0010ffff"  # sorts after every character: `needle + _PAST` bounds the labels starting with `needle`
_OF_ENTITIES = (f"{_ROWS} WHERE l.entity IN (SELECT value FROM json_each(:entities)) "
                "AND substr(l.folded, 1, :length) = :needle ORDER BY l.entity, l.folded, l.kind_order, l.label")
_MANY = 2000  # prefix rows past which walking the entities by mentions is cheaper than reading them all
# Jena's full-text form (api/sparql/full_text.py): the names holding every word (a whole word, or a word's start),
# best first: the whole name, then a name starting with the words, then the rest; more mentions first
_WORD_ROWS = ("SELECT e.iri, l.label, l.kind, e.summary, CASE WHEN l.folded = :phrase THEN 0 "
              "WHEN substr(l.folded, 1, length(:phrase)) = :phrase THEN 1 ELSE 2 END AS rank "
              "FROM words w JOIN labels l ON l.row = w.rowid JOIN entities e ON e.id = l.entity "
              "WHERE words MATCH :match AND l.local = 0 AND l.kind IN (SELECT value FROM json_each(:kinds)) "
              "ORDER BY rank, l.mentions DESC, l.folded, e.iri, l.kind_order, l.label LIMIT :limit")
# the rdfs:label values and the descriptions of shared records (those of a thing local to one document are not read)
_RECORDS = ("SELECT e.iri, e.descriptions, json_group_array(l.label) FILTER (WHERE l.kind = 'label') FROM entities e "
            "LEFT JOIN labels l ON l.entity = e.id WHERE e.iri IN (SELECT value FROM json_each(:iris)) "
            "AND e.document IS NULL AND e.descriptions IS NOT NULL GROUP BY e.id")
_SHOWN = ("SELECT id, iri, summary, label, types, mentions, document FROM entities "
          "WHERE id IN (SELECT value FROM json_each(?))")


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
    document: str | None = None  # the document's IRI, when the entity is local to it (no shared thing)


# per entity: its best row's (rank, folded, kind order, label), the entity's mentions, the label, its kind
_Held = tuple[tuple[int, str, int, str], int, str, str]


class SearchIndex:
    """One version's index: a finished file, or an in-memory database (a graph without the file).
    Searches from many threads each take a connection of their own (kept for the next search)."""

    def __init__(self, connect: Callable[[], sqlite3.Connection], keeper: sqlite3.Connection | None = None) -> None:
        self._connect, self._keeper = connect, keeper  # the keeper holds an in-memory database alive
        self._idle: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._haystack: _Haystack | None = None  # read on the first search that needs it
        self._haystack_lock = threading.Lock()
        self.damaged = False  # a read found the file damaged after it was checked at opening

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
        except sqlite3.DatabaseError as exc:
            if isinstance(exc, sqlite3.OperationalError) and "interrupted" in str(exc):
                raise  # the caller's deadline (_until), not damage
            self.damaged = True
            raise IndexDamaged(f"the search index was found damaged ({exc}); it is being made again from the "
                               "store: try again shortly") from None
        finally:
            with self._lock:
                self._idle.append(db)

    def count(self) -> int:
        """How many labels it holds."""
        with self._connection() as db:
            return db.execute("SELECT count(*) FROM labels").fetchone()[0]

    def search(self, text: str, limit: int, deadline: float | None = None, local: bool = True) -> list[Hit]:
        """Best hits first, one per entity (see the module's docstring): the shared entities, then (unless
        `local` is false) the things local to one document; NeedleTooLong past NEEDLE_LIMIT characters,
        QueryTimeout when the work reaches `deadline` (time.monotonic)."""
        _bounded(text)
        needle = " ".join(fold(text).split())
        if not needle or "\x00" in needle or not _encodable(needle):
            return []  # no label holds NUL or a lone surrogate
        with self._reading(deadline) as db:
            hits = _hits(db, _ranked(db, needle, limit, self._haystack_of, 0), limit)
            wanted = limit - len(hits)
            if local and wanted > 0:
                hits += _hits(db, _ranked(db, needle, wanted, self._haystack_of, 1), wanted)
            return hits

    def names_with_words(self, whole: tuple[str, ...], starts: tuple[str, ...], kinds: tuple[str, ...], limit: int,
                         deadline: float | None = None) -> list[tuple[str, str, str, bool]]:
        """(entity IRI, name, kind, whether the entity has a summary: a preferred label and a type in kgg:entities)
        of the names of `kinds` of shared entities (never a thing local to one document) holding every word of
        `whole` and a word starting with each of `starts` (folded, as word_text splits a name), best first: the
        name that is the words,
        then names starting with them, then the others; more mentions first. One FTS5 query (its prefix
        index), ranked and cut inside SQLite: what answers Jena's full-text form."""
        phrase = " ".join((*whole, *starts))
        _bounded(phrase)
        terms = [f'"{word}"' for word in whole] + [f'"{word}" *' for word in starts]
        if not terms or not all(_encodable(word) and '"' not in word for word in (*whole, *starts)):
            return []
        with self._reading(deadline) as db:
            rows = db.execute(_WORD_ROWS, {"phrase": phrase, "match": " AND ".join(terms),
                                           "kinds": json.dumps(kinds), "limit": limit}).fetchall()
        return [(iri, label, kind, bool(summary)) for iri, label, kind, summary, _ in rows]

    def records(self, iris: list[str], deadline: float | None = None) -> dict[str, tuple[list[str], list[str]]]:
        """(rdfs:label values, rdfs:comment values) of the records in kgg:entities of those of `iris` that are
        summarized shared entities (the others are left out: not known here)."""
        with self._reading(deadline) as db:
            rows = db.execute(_RECORDS, {"iris": json.dumps(iris)}).fetchall()
        return {iri: (sorted(set(json.loads(labels))), json.loads(descriptions)) for iri, descriptions, labels in rows}

    @contextmanager
    def _reading(self, deadline: float | None) -> Iterator[sqlite3.Connection]:
        """A connection whose work stops at `deadline` (QueryTimeout); a damaged file is IndexDamaged
        (_connection)."""
        with self._connection() as db, _until(db, deadline):
            yield db

    def read_haystack(self) -> None:
        """Read now what a search for one or two characters reads on its first use (a second at 10,000 articles):
        a server does it in the background after opening the index, so that no request waits for it."""
        with self._connection() as db:
            self._haystack_of(db)

    def _haystack_of(self, db: sqlite3.Connection) -> _Haystack:
        with self._haystack_lock:
            if self._haystack is None:
                self._haystack = _Haystack(db)
            return self._haystack


@contextmanager
def _until(db: sqlite3.Connection, deadline: float | None) -> Iterator[None]:
    """SQLite's work on `db` interrupted at `deadline`, raised as QueryTimeout."""
    if deadline is None:
        yield
        return
    if time.monotonic() >= deadline:
        raise QueryTimeout
    db.set_progress_handler(lambda: time.monotonic() >= deadline, _STEPS)
    try:
        yield
    except sqlite3.OperationalError as exc:
        if "interrupted" in str(exc) and time.monotonic() >= deadline:
            raise QueryTimeout from None
        raise
    finally:
        db.set_progress_handler(None, 0)


class _Haystack:
    """Every folded label joined by NUL (no label holds one), and the row each starts: what finds a
    one- or two-character needle anywhere (trigrams cannot; SQLite's instr over every row took 20 to
    40 ms at 10,000 articles, str.find over this string well under one)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        rows = db.execute("SELECT row, folded FROM labels ORDER BY row").fetchall()
        self.rows = array("q", (row for row, _ in rows))
        self.text = "\x00".join(folded for _, folded in rows)
        self.starts = array("q", accumulate((len(folded) + 1 for _, folded in rows[:-1]), initial=0))

    def rows_containing(self, needle: str) -> list[int]:
        """The rows whose folded label contains `needle` (which holds no NUL)."""
        found, text, starts, at = [], self.text, self.starts, 0
        while (at := text.find(needle, at)) >= 0:
            index = bisect.bisect_right(starts, at) - 1
            found.append(self.rows[index])
            at = text.find("\x00", at)  # on to the next label
            if at < 0:
                break
        return found


def _ranked(db: sqlite3.Connection, needle: str, limit: int,
            haystack: Callable[[sqlite3.Connection], _Haystack], local: int) -> dict[int, _Held]:
    """The best label of every entity of one side (`local`: 0 shared, 1 local to a document) of the
    first tiers that give `limit` entities (or of all)."""
    best = _prefixed(db, needle, limit, local)
    words = _word_query(needle)
    if len(best) < limit and words:
        _keep(best, db.execute(_WORD, {"match": words, "local": local}), needle, 2)
    if len(best) < limit:
        best = {}
        inner = _inner_words_query(needle)
        if inner:
            _keep(best, db.execute(_WORD, {"match": inner, "local": local}), needle, 3)
        elif len(needle) >= 3:
            grams = {"match": '"' + needle.replace('"', '""') + '"', "local": local}
            _keep(best, db.execute(_GRAMS, grams), needle, 3)
        else:
            rows = {"rows": json.dumps(haystack(db).rows_containing(needle)), "local": local}
            _keep(best, db.execute(_ROWS_IN, rows), needle, 3)
    return best


def _prefixed(db: sqlite3.Connection, needle: str, limit: int, local: int) -> dict[int, _Held]:
    """The entities with a label starting with `needle`, from the covering index in its order (folded,
    entity, kind, label): an entity's first row is its best, the first rows whole labels (rank 0).
    Past _MANY rows (a one-letter needle), only those that can be among the first `limit` (_walked)."""
    best: dict[int, _Held] = {}
    rows = db.execute(_PREFIX, {"needle": needle, "past": needle + _PAST, "local": local})
    for seen, (entity, mentions, folded, order, label, kind) in enumerate(rows):
        if not folded.startswith(needle):
            return best
        if seen == _MANY:
            return _walked(db, needle, limit, local)
        _first(best, entity, mentions, folded, order, label, kind, needle)
    return best


def _walked(db: sqlite3.Connection, needle: str, limit: int, local: int) -> dict[int, _Held]:
    """Every entity with a whole label `needle`, and of those with a label starting with it the first
    `limit` by mentions, with all that tie with the last: enough to rank the first `limit` (the walk
    by mentions stops after them; the entities without such a label are skipped inside SQLite)."""
    best: dict[int, _Held] = {}
    for row in db.execute(_EXACT, {"needle": needle, "local": local}):
        _first(best, *row, needle)
    chosen: list[int] = []
    floor = None
    if len(best) < limit:
        for entity, mentions in db.execute(_WALK, {"length": len(needle), "needle": needle, "local": local}):
            if floor is not None and mentions < floor:
                break
            if entity not in best:
                chosen.append(entity)
                if len(chosen) + len(best) == limit:
                    floor = mentions
    rows = db.execute(_OF_ENTITIES, {"entities": json.dumps(chosen), "length": len(needle), "needle": needle})
    for row in rows:
        _first(best, *row, needle)
    return best


def _first(best: dict[int, _Held], entity: int, mentions: int, folded: str, order: int, label: str, kind: str,
           needle: str) -> None:
    """An entity's row read in (folded, kind, label) order, kept when it is the entity's first."""
    if entity not in best:
        best[entity] = ((0 if folded == needle else 1, folded, order, label), mentions, label, kind)


def _keep(best: dict[int, _Held], rows: Iterator[tuple], needle: str, worst: int) -> None:
    """Each row's rank by the definition; an entity's best row of rank `worst` or better is kept."""
    for entity, mentions, folded, order, label, kind in rows:
        rank = _rank(folded, needle)
        if rank is None or rank > worst:
            continue
        key = (rank, folded, order, label)
        held = best.get(entity)
        if held is None or key < held[0]:
            best[entity] = (key, mentions, label, kind)


def _hits(db: sqlite3.Connection, best: dict[int, _Held], limit: int) -> list[Hit]:
    """The first `limit` entities by (rank, more mentions, folded label, IRI), with what they show. Only
    the entities up to the last one's (rank, mentions, folded label) are looked up for their IRIs."""
    order = lambda item: (item[1][0][0], -item[1][1], item[1][0][1])  # noqa: E731
    first = heapq.nsmallest(limit, best.items(), key=order)
    if not first:
        return []
    last = order(first[-1])
    chosen = [item for item in best.items() if order(item) <= last]
    shown = {row[0]: row[1:] for row in db.execute(_SHOWN, (json.dumps([entity for entity, _ in chosen]),))}
    chosen.sort(key=lambda item: (*order(item), shown[item[0]][0]))
    return [Hit(shown[entity][0], label, kind, RANKS[key[0]], _summary(shown[entity][:5]), shown[entity][5])
            for entity, (key, _, label, kind) in chosen[:limit]]


def _rank(folded: str, needle: str) -> int | None:
    if folded == needle:
        return 0
    if folded.startswith(needle):
        return 1
    position = folded.find(needle)
    if position < 0:
        return None
    return 2 if not is_word_char(folded[position - 1]) else 3


def _word_query(needle: str) -> str:
    """The FTS5 query for labels where the needle's letters and digits start a word: a phrase of its
    runs of them, the last a prefix ('' when it has none). Leading other characters are left out: the
    first letter after them starts a word wherever the needle starts one."""
    runs = search_index.word_text(needle).split()
    return '"' + " ".join(runs) + '" *' if runs else ""


def _inner_words_query(needle: str) -> str:
    """For a needle of three runs of letters and digits or more, the FTS5 query on `words` that every label
    containing it anywhere answers: its inner runs are whole words of such a label (characters that are not a
    word's bound them inside the needle itself) and its last run starts one; its first run may end a longer
    word, so it is left out. '' for fewer runs (the trigram phrase then). A superset, ranked by _keep; far
    cheaper than the phrase of a long needle's trigrams, whose common ones ('ion', 'of ') list most labels."""
    runs = search_index.word_text(needle).split()
    if len(runs) < 3:
        return ""
    return " AND ".join([*(f'"{run}"' for run in runs[1:-1]), f'"{runs[-1]}" *'])


def _bounded(text: str) -> None:
    """NeedleTooLong past NEEDLE_LIMIT characters: what one search may be asked."""
    if len(text) > NEEDLE_LIMIT:
        raise NeedleTooLong(f"the search text is {len(text):,} characters long; at most {NEEDLE_LIMIT:,} "
                            "(expected a label or a part of one)")


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _summary(row: tuple) -> Summary | None:
    """From (iri, summary, label, types, mentions) of `entities`."""
    _, has, label, types, mentions = row
    return Summary(label, mentions, types.split()) if has else None


def read_index(build_dir: Path) -> SearchIndex | None:
    """The index `kg build` wrote into `build_dir`; None when there is none (a build of an earlier kg,
    which wrote search-index.json) or an unreadable one."""
    path = index_path(build_dir)
    return SearchIndex.open(path) if search_index.readable(path) else None
