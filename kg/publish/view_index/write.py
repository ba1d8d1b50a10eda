"""Rows of the view into a segment: each graph's part (kg.model.view_parts) as rows of its source,
every IRI as its number."""

from __future__ import annotations

import sqlite3
from typing import Iterable

from kg.model.iris import FIXED_PREFIXES
from kg.model.view_parts import ViewPart
from kg.publish.view_index.tables import ROW_TABLES

BATCH = 200_000  # rows held before they are inserted
SAME_AS = FIXED_PREFIXES["owl"] + "sameAs"  # kept with the literals: a fact about its node, never an edge


class Numbers(dict):
    """IRI -> number, numbering an IRI it has not seen after the others (from `start`)."""

    def __init__(self, start: int = 1) -> None:
        super().__init__()
        self.next = start
        self.fresh: list[tuple[int, str]] = []  # numbered and not yet written

    def __missing__(self, iri: str) -> int:
        number = self[iri] = self.next
        self.next += 1
        self.fresh.append((number, iri))
        return number

    def write(self, connection: sqlite3.Connection) -> None:
        """Insert into `terms` the IRIs numbered since the last call."""
        connection.executemany("INSERT INTO terms VALUES (?, ?)", self.fresh)
        self.fresh = []


class SegmentWriter:
    """Inserts the parts of sources into an open segment, in batches."""

    def __init__(self, connection: sqlite3.Connection, numbers: Numbers) -> None:
        self.connection, self.numbers = connection, numbers
        self.next_id = (connection.execute("SELECT MAX(id) FROM sources").fetchone()[0] or 0) + 1
        self.pending: dict[str, list[tuple]] = {name: [] for name in ROW_TABLES}
        self.sources: list[tuple[int, str]] = []
        self.held = 0

    def add(self, source: str, part: ViewPart) -> None:
        """The rows of `part`, tagged with the source named `source`."""
        sid = self.next_id
        self.next_id += 1
        self.sources.append((sid, source))
        n, rows = self.numbers, self.pending
        types = [(n[node], n[cls], sid) for node, cls in part.types]
        literals = [(n[s], n[p], o, sid) for s, p, o in part.triples if o[0] == '"' or p == SAME_AS]
        links = [(n[s], n[p], n[o[1:-1]], sid) for s, p, o in part.triples if o[0] == "<" and p != SAME_AS]
        mentions = [(n[node], n[sentence], sid) for node, sentence in part.mentions]
        rows["types"] += types
        rows["literals"] += literals
        rows["links"] += links
        rows["statements"] += [(n[s], n[p], n[o], n[sentence], sid) for s, p, o, sentence in part.statements]
        rows["mentions"] += mentions
        rows["sentences"] += [(n[sentence], text, n[doc], sid) for sentence, text, doc in part.sentences]
        rows["docs"] += [(n[doc], title, date, n[publisher] if publisher else None, sid)
                         for doc, title, date, publisher in part.docs]
        named = {row[0] for row in types} | {row[0] for row in literals} | {row[0] for row in mentions}
        named |= {row[0] for row in links} | {row[2] for row in links}
        rows["source_nodes"] += [(node, sid) for node in named]
        self.held += len(types) + len(literals) + len(links) + len(part.statements) + len(mentions) + len(named)
        if self.held >= BATCH:
            self.flush()

    def add_all(self, parts: Iterable[tuple[str, ViewPart]]) -> None:
        for source, part in parts:
            self.add(source, part)
        self.flush()

    def flush(self) -> None:
        insert = self.connection.executemany
        self.numbers.write(self.connection)
        insert("INSERT INTO sources(id, name) VALUES (?, ?)", self.sources)
        self.sources = []
        for table, rows in self.pending.items():
            if rows:
                insert(f"INSERT INTO {table} VALUES ({', '.join('?' * len(rows[0]))})", rows)
                rows.clear()
        self.held = 0
