"""An incremental build's edges of the nodes it touched, patched rather than derived again.

An edge's `sources` is how many sources state it. A popular node is linked by thousands of
documents, and an edit touches it: deriving its edges again from every link that names it (as
derive.derive_edges does) costs what the corpus holds, not what the edit changed. The edges the
previous state kept are right but for the links of the sources the build replaced, so each edge's
count is its count before, less the sources replaced that stated it, plus the sources written anew
that state it. Only a touched node that became a node or stopped being one (its last type gone, or
its first come) has its edges derived from the links: every edge of it appears or goes.
"""

from __future__ import annotations

import sqlite3

from kg.publish.view_index.derive import SKIPPED_EDGES, derive_edges
from kg.publish.view_index.state import State


def kept_edges(connection: sqlite3.Connection, state: State, todo: str, into: str = "edge") -> None:
    """TEMP.<into>: the edges `state` keeps (its view of edges, read by node: no link is read) with an
    end among the nodes of the TEMP table `todo`: what derive_edges derives for them."""
    connection.execute(f"DROP TABLE IF EXISTS temp.{into}")
    edges = state.table("edges")
    connection.execute(f"""CREATE TEMP TABLE {into} AS
        SELECT s, p, o, sources FROM {edges} WHERE s IN {todo}
        UNION ALL SELECT s, p, o, sources FROM {edges} WHERE o IN {todo} AND s NOT IN {todo}""")
    _index(connection, into)


def patch_edges(connection: sqlite3.Connection, before: State, after: State, todo: str, dropped: str,
                added: str) -> None:
    """TEMP.edge: the edges of `after` with an end among the nodes of the TEMP table `todo`, from
    TEMP.edge_before (kept_edges of `before` for them), the links of the sources of `before` numbered
    in the TEMP table `dropped` (those replaced) and those of `after`'s delta numbered in `added`
    (those written anew). Every link of a replaced or new source has both ends among `todo`."""
    skipped = after.terms(SKIPPED_EDGES)
    for name in ("flip", "typed_now"):
        connection.execute(f"DROP TABLE IF EXISTS temp.{name}")
        connection.execute(f"CREATE TEMP TABLE {name}(node PRIMARY KEY) WITHOUT ROWID")
    typed_after = f"EXISTS (SELECT 1 FROM {after.table('types')} x WHERE x.node = t.node)"
    typed_before = f"EXISTS (SELECT 1 FROM {before.table('types')} x WHERE x.node = t.node)"
    connection.execute(f"INSERT INTO typed_now SELECT node FROM {todo} t WHERE {typed_after}")
    connection.execute(f"INSERT INTO flip SELECT node FROM {todo} t WHERE {typed_before} != (node IN typed_now)")
    gone = before.rows("links", "s, p, o, source", f"source IN {dropped}")
    new = f"SELECT s, p, o, source FROM {after.delta}.links WHERE source IN {added}"
    connection.execute("DROP TABLE IF EXISTS temp.edge")
    connection.execute(f"""CREATE TEMP TABLE edge AS SELECT s, p, o, SUM(n) AS sources FROM (
          SELECT s, p, o, sources AS n FROM temp.edge_before
          UNION ALL SELECT s, p, o, -COUNT(DISTINCT source) FROM ({gone}) WHERE p NOT IN {skipped} GROUP BY s, p, o
          UNION ALL SELECT s, p, o, COUNT(DISTINCT source) FROM ({new}) WHERE p NOT IN {skipped} GROUP BY s, p, o)
        WHERE s NOT IN flip AND o NOT IN flip AND (s NOT IN {todo} OR s IN typed_now) AND (o NOT IN {todo} OR o IN typed_now)
        GROUP BY s, p, o HAVING SUM(n) > 0""")
    if connection.execute("SELECT 1 FROM flip LIMIT 1").fetchone():
        derive_edges(connection, after, "temp.flip", into="edge_flip")
        connection.execute("INSERT INTO temp.edge SELECT s, p, o, sources FROM temp.edge_flip")
    _index(connection, "edge")


def _index(connection: sqlite3.Connection, table: str) -> None:
    connection.execute(f"CREATE INDEX temp.{table}_s ON {table}(s)")
    connection.execute(f"CREATE INDEX temp.{table}_o ON {table}(o)")
