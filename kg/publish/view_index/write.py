"""Rows of the view into a segment: each graph's part (kg.model.view_parts) as rows of its source."""

from __future__ import annotations

import sqlite3
from typing import Iterable

from kg.model.view_parts import ViewPart, lexical
from kg.publish.view_index.tables import ROW_TABLES

BATCH = 50_000  # rows held before they are inserted


class SegmentWriter:
    """Inserts the parts of sources into an open segment, in batches."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection
        self.next_id = (connection.execute("SELECT MAX(id) FROM sources").fetchone()[0] or 0) + 1
        self.pending: dict[str, list[tuple]] = {name: [] for name in (*ROW_TABLES, "source_nodes")}
        self.sources: list[tuple[int, str]] = []
        self.held = 0

    def add(self, source: str, part: ViewPart) -> None:
        """The rows of `part`, tagged with the source named `source`."""
        sid = self.next_id
        self.next_id += 1
        self.sources.append((sid, source))
        rows = self.pending
        rows["types"].extend((node, cls, sid) for node, cls in part.types)
        named = {node for node, _ in part.types}
        for s, p, o in part.triples:
            named.add(s)
            if o[0] == '"':
                rows["literals"].append((s, p, lexical(o), sid))
            else:
                rows["links"].append((s, p, o[1:-1], sid))
                named.add(o[1:-1])
        rows["statements"].extend((s, p, o, sentence, sid) for s, p, o, sentence in part.statements)
        rows["mentions"].extend((node, sentence, sid) for node, sentence in part.mentions)
        named.update(node for node, _ in part.mentions)
        rows["sentences"].extend((sentence, text, doc, sid) for sentence, text, doc in part.sentences)
        rows["docs"].extend((doc, title, date, publisher, sid) for doc, title, date, publisher in part.docs)
        rows["source_nodes"].extend((sid, node) for node in named)
        self.held += len(part.types) + len(part.triples) + len(part.statements) + len(part.mentions) + len(named)
        if self.held >= BATCH:
            self.flush()

    def add_all(self, parts: Iterable[tuple[str, ViewPart]]) -> None:
        for source, part in parts:
            self.add(source, part)
        self.flush()

    def flush(self) -> None:
        insert = self.connection.executemany
        insert("INSERT INTO sources(id, name) VALUES (?, ?)", self.sources)
        self.sources = []
        for table, rows in self.pending.items():
            if rows:
                columns = len(rows[0])
                insert(f"INSERT INTO {table} VALUES ({', '.join('?' * columns)})", rows)
                rows.clear()
        self.held = 0
