"""Writing segments: a base from every source's part (a full build), a delta from the previous
build's segments and the parts of the sources an incremental build changed, and a new base from a
base and its delta when the delta has grown (compaction)."""

from __future__ import annotations

import os
import shutil
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Iterable

from kg.model.view_parts import ViewPart
from kg.publish.view_data import ViewSchema
from kg.publish.view_index import derive, edge_delta, state, tables
from kg.publish.view_index.write import Numbers, SegmentWriter
from kg.store import checksums

Parts = Iterable[tuple[str, ViewPart]]


def write_base(path: Path, schema: ViewSchema, parts: Parts, overview_size: int) -> None:
    """A base segment at `path` holding `parts` ((source name, part)), with everything derived."""
    with _writing(path) as connection:
        numbers = Numbers()
        derive.fill_classes(connection, schema, numbers)
        SegmentWriter(connection, numbers).add_all(parts)
        connection.executescript(tables.INDEXES)
        _derive_all(connection, state.define(connection, "v", "main", None), overview_size)


def _derive_all(connection: sqlite3.Connection, whole: state.State, overview_size: int) -> None:
    derive.derive_edges(connection, whole, None)
    derive.derive_nodes(connection, whole, None)
    connection.execute("INSERT INTO main.edges SELECT s, p, o, sources FROM temp.edge")
    connection.executescript(tables.EDGE_INDEXES)
    derive.write_ranks(connection, derive.rank_counts(connection, whole, "main.nodes"))
    derive.write_overview(connection, [n for n, _ in derive.best(connection, whole, "", (), overview_size)])
    connection.execute("INSERT INTO meta VALUES ('overview', ?)", (str(overview_size),))
    connection.execute("INSERT INTO meta SELECT 'nodes', COUNT(*) FROM main.nodes WHERE family IS NOT NULL")


def write_delta(path: Path, base: Path, previous: Path | None, parts: list[tuple[str, ViewPart]], changed: set[str],
                overview_size: int) -> None:
    """A delta at `path` over the segment `base`: the previous delta's sources (`previous`, None when
    there is none) less those in `changed`, plus `parts` (the sources changed that still exist);
    `replaced` lists the previous delta's replaced sources and `changed`. It starts as a copy of the
    previous delta, whose rows of the sources changed and derived rows of the nodes touched are
    deleted: the rows it keeps are copied as bytes, not inserted and indexed again."""
    with _writing(path, previous) as connection:
        tables.attach(connection, base, "b")
        if previous is not None:
            tables.attach(connection, previous, "p")
        else:
            connection.execute("INSERT INTO main.classes SELECT * FROM b.classes")
        names = [(name,) for name in sorted(changed)]
        connection.execute("CREATE TEMP TABLE changed(name TEXT PRIMARY KEY) WITHOUT ROWID")
        connection.executemany("INSERT INTO changed VALUES (?)", names)
        connection.executemany("INSERT OR IGNORE INTO main.replaced VALUES (?)", names)
        if previous is not None:
            _drop_changed(connection)
        numbers = _numbers_for(connection, parts, previous is not None)
        writer = SegmentWriter(connection, numbers)
        # a delta's sources are numbered after the base's: the same number is the same source everywhere
        writer.next_id = max(writer.next_id, connection.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM b.sources").fetchone()[0])
        writer.add_all(parts)
        if previous is None:  # a copy has its indexes
            connection.executescript(tables.INDEXES)
        old = state.define(connection, "o", "b", "p" if previous is not None else None)
        new = state.define(connection, "v", "b", "main")
        _touched(connection, previous is not None)
        ranks = derive.read_ranks(connection, "p" if previous is not None else "b")
        connection.execute("CREATE TEMP TABLE unrelated(s INTEGER, p INTEGER, o INTEGER)")  # relations: moved_relations
        _subtract(ranks, _touched_counts(connection, old))
        connection.execute("CREATE TEMP TABLE families_before AS SELECT node, family FROM temp.near")
        connection.execute("CREATE TEMP TABLE edge_before AS SELECT * FROM temp.edge")
        _replaced_sources(connection, previous is not None)
        if previous is not None:  # the previous delta's derived rows but those of the nodes touched
            connection.execute("DELETE FROM main.nodes WHERE node IN touched")
            connection.execute("DELETE FROM main.edges WHERE s IN touched")
            connection.execute("DELETE FROM main.edges WHERE o IN touched")
        connection.execute("INSERT OR IGNORE INTO main.masked SELECT node FROM touched")
        edge_delta.patch_edges(connection, old, new, "touched", "temp.dropped", "temp.added")
        connection.execute("INSERT INTO main.edges SELECT s, p, o, sources FROM temp.edge")
        if previous is None:
            connection.executescript(tables.EDGE_INDEXES)
        derive.derive_nodes(connection, new, "touched")
        # a node touched that is no node any more: a row without family overrides the base's
        connection.execute(f"INSERT OR IGNORE INTO main.nodes(node) SELECT node FROM {old.table('nodes')} "
                           "WHERE node IN touched")
        _add(ranks, derive.rank_counts(connection, new, new.table("nodes"), "touched", "temp.unrelated"))
        moved_before, moved_after = edge_delta.moved_relations(connection, old, new, "touched")
        _subtract(ranks, dict(zip(("relations", "between"), moved_before)))
        _add(ranks, dict(zip(("relations", "between"), moved_after)))
        derive.write_ranks(connection, ranks)
        derive.write_overview(connection, [n for n, _ in derive.best(connection, new, "", (), overview_size)])
        connection.execute("INSERT INTO meta VALUES ('overview', ?)", (str(overview_size),))
        connection.execute("INSERT INTO meta VALUES ('nodes', ?)", (str(_node_count(connection)),))


def _drop_changed(connection: sqlite3.Connection) -> None:
    """In a copy of the previous delta: its rows of the sources changed again, and what it says
    of itself (written anew). Its IRIs and the rows of the other sources stay, with their numbers."""
    connection.execute("DELETE FROM main.meta")
    connection.execute("CREATE TEMP TABLE dropped_here AS SELECT id FROM main.sources WHERE name IN changed")
    for table in tables.ROW_TABLES:
        connection.execute(f"DELETE FROM main.{table} WHERE source IN temp.dropped_here")
    connection.execute("DELETE FROM main.sources WHERE id IN temp.dropped_here")


def _numbers_for(connection: sqlite3.Connection, parts: list[tuple[str, ViewPart]], has_previous: bool) -> Numbers:
    """Numbers for the IRIs of `parts`: the base's (or the previous delta's) for those they number,
    new ones after every number given so far for the others."""
    iris = {iri for _, part in parts for iri in _iris_of(part)}
    connection.execute("CREATE TEMP TABLE fresh(iri TEXT PRIMARY KEY) WITHOUT ROWID")
    connection.executemany("INSERT INTO fresh VALUES (?)", ((iri,) for iri in iris))
    known = dict(connection.execute("SELECT iri, id FROM b.terms WHERE iri IN fresh"))
    known.update(connection.execute("SELECT iri, id FROM main.terms WHERE iri IN fresh"))  # the previous delta's
    last = max(connection.execute("SELECT COALESCE(MAX(id), 0) FROM b.terms").fetchone()[0],
               connection.execute("SELECT COALESCE(MAX(id), 0) FROM main.terms").fetchone()[0])
    numbers = Numbers(last + 1)
    numbers.update(known)
    return numbers


def _iris_of(part: ViewPart) -> Iterable[str]:
    for node, cls in part.types:
        yield node
        yield cls
    for s, p, o in part.triples:
        yield s
        yield p
        if o[0] == "<":
            yield o[1:-1]
    for row in part.statements:
        yield from row
    for row in part.mentions:
        yield from row
    for sentence, _, doc in part.sentences:
        yield sentence
        yield doc
    for doc, _, _, publisher in part.docs:
        yield doc
        if publisher:
            yield publisher


def _touched(connection: sqlite3.Connection, has_previous: bool) -> None:
    """TEMP.touched: the IRIs the changed sources name, before (in the base and the previous
    delta) and after (in this delta)."""
    # untyped, as the row tables' columns are: `node IN touched` then probes their indexes (see read.py)
    connection.execute("CREATE TEMP TABLE touched(node PRIMARY KEY) WITHOUT ROWID")
    for schema in ["b", "main"] + (["p"] if has_previous else []):
        connection.execute(f"""INSERT OR IGNORE INTO touched SELECT node FROM {schema}.source_nodes
            WHERE source IN (SELECT id FROM {schema}.sources WHERE name IN changed)""")


def _replaced_sources(connection: sqlite3.Connection, has_previous: bool) -> None:
    """TEMP.dropped: the numbers of the changed sources in the base and the previous delta (what
    this delta replaces); TEMP.added: those of the sources this delta writes."""
    connection.execute("CREATE TEMP TABLE dropped(id INTEGER PRIMARY KEY)")
    for schema in ["b"] + (["p"] if has_previous else []):
        connection.execute(f"INSERT OR IGNORE INTO dropped SELECT id FROM {schema}.sources WHERE name IN changed")
    connection.execute("CREATE TEMP TABLE added(id INTEGER PRIMARY KEY)")
    connection.execute("INSERT INTO added SELECT id FROM main.sources WHERE name IN changed")


def _touched_counts(connection: sqlite3.Connection, at: state.State) -> dict[str, Counter]:
    """The rank counts of the touched nodes, in state `at`, but the relations (edge_delta.moved_relations
    counts those of the edges that moved); leaves TEMP.edge: the edges it keeps with an end among them."""
    edge_delta.kept_edges(connection, at, "touched")
    return derive.rank_counts(connection, at, at.table("nodes"), "touched", "temp.unrelated")


def _subtract(ranks: dict[str, Counter], counts: dict[str, Counter]) -> None:
    for name, counter in counts.items():
        ranks[name].subtract(counter)


def _add(ranks: dict[str, Counter], counts: dict[str, Counter]) -> None:
    for name, counter in counts.items():
        ranks[name].update(counter)


def _node_count(connection: sqlite3.Connection) -> int:
    """The nodes of base and delta: the base's, less those the delta removes, plus those it adds."""
    base = int(tables.meta(connection, "b")["nodes"])
    # each of the delta's nodes looked up in the base by its key (a NOT IN list of the base's nodes was built whole)
    added = connection.execute("SELECT COUNT(*) FROM main.nodes d WHERE family IS NOT NULL AND NOT EXISTS "
                               "(SELECT 1 FROM b.nodes n WHERE n.node = d.node AND n.family IS NOT NULL)").fetchone()[0]
    removed = connection.execute("SELECT COUNT(*) FROM main.nodes d WHERE family IS NULL AND EXISTS "
                                 "(SELECT 1 FROM b.nodes n WHERE n.node = d.node AND n.family IS NOT NULL)").fetchone()[0]
    return base + added - removed


def compact(base: Path, delta: Path, overview_size: int) -> None:
    """Write `base` and `delta` as one new base at `base`'s name (a new file: the old one may be a
    link to another build's), then remove the delta. IRIs keep their numbers."""
    with _writing(base) as connection:
        tables.attach(connection, base, "b")
        tables.attach(connection, delta, "d")
        connection.execute("INSERT INTO main.classes SELECT * FROM b.classes")
        connection.execute("INSERT INTO main.terms SELECT * FROM b.terms UNION ALL SELECT * FROM d.terms")
        # a delta numbers its sources after the base's: the numbers stay
        connection.execute("INSERT INTO main.sources SELECT id, name FROM b.sources "
                           "WHERE name NOT IN (SELECT name FROM d.replaced)")
        for table in tables.ROW_TABLES:
            connection.execute(f"INSERT INTO main.{table} SELECT * FROM b.{table} "
                               "WHERE source IN (SELECT id FROM main.sources)")
        connection.execute("INSERT INTO main.sources SELECT id, name FROM d.sources")
        for table in tables.ROW_TABLES:
            connection.execute(f"INSERT INTO main.{table} SELECT * FROM d.{table}")
        connection.executescript(tables.INDEXES)
        _derive_all(connection, state.define(connection, "v", "main", None), overview_size)
    delta.unlink()
    checksums.unseal(delta)


class _writing:
    """A segment written at a temporary name beside `path` (new, or a copy of the segment `copied`),
    renamed to it when complete."""

    def __init__(self, path: Path, copied: Path | None = None) -> None:
        self.path, self.copied = Path(path), copied
        self.partial = self.path.with_name(f".{self.path.name}.{os.getpid()}.part")

    def __enter__(self) -> sqlite3.Connection:
        self.partial.unlink(missing_ok=True)
        if self.copied is None:
            self.connection = tables.create(self.partial)
        else:
            shutil.copyfile(self.copied, self.partial)
            self.connection = tables.open_write(self.partial)
        return self.connection

    def __exit__(self, kind, value, traceback) -> None:
        try:
            if kind is None:
                self.connection.execute("INSERT INTO meta VALUES ('complete', '1')")
            self.connection.close()
            if kind is None:
                checksums.seal(self.partial, kept_as=self.path)
                os.replace(self.partial, self.path)
        finally:
            self.partial.unlink(missing_ok=True)
