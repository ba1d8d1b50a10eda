"""The rows of the index as one set, for SQL: TEMP views over the segments.

A state named `v` has a view `v_<table>` for every row table: the rows of each of its arms, an arm
being a segment's table, less (for the base under a delta) the rows of the sources the delta
replaced. `v_nodes` is the nodes derived for it (the base's, overridden by the delta's), `v_edges`
its edges (the base's but those with an end the delta masks, and the delta's) and `v_terms` the
numbers of its IRIs (the base's and the delta's own).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from kg.publish.view_index.tables import EDGE_COLUMNS, NODE_COLUMNS, ROW_TABLES


@dataclass(frozen=True)
class State:
    """Names of a state's views: `name`, its base schema and its delta's (None: the base alone)."""

    name: str
    base: str
    delta: str | None

    def table(self, table: str) -> str:
        return f"{self.name}_{table}"

    def rows(self, table: str, columns: str, where: str) -> str:
        """SQL for the `columns` of the rows of the row table `table` where `where` holds (a condition
        on its unqualified columns), put inside each arm: SQLite pushes no condition holding a subquery
        (`node IN keep`) down through the union of a view, and scanned both segments whole."""
        arms = [f"SELECT {columns} FROM {self.base}.{table} WHERE ({where}) AND source NOT IN {self.name}_gone"]
        if self.delta is not None:
            arms.append(f"SELECT {columns} FROM {self.delta}.{table} WHERE {where}")
        return " UNION ALL ".join(arms)

    def term(self, iri: str) -> str:
        """SQL for the number of `iri` (a constant of kg's: no quote in it)."""
        return f"(SELECT id FROM {self.name}_terms WHERE iri = '{iri}')"

    def terms(self, iris: tuple[str, ...]) -> str:
        listed = ", ".join(f"'{iri}'" for iri in iris)
        return f"(SELECT id FROM {self.name}_terms WHERE iri IN ({listed}))"


def define(connection: sqlite3.Connection, name: str, base: str, delta: str | None) -> State:
    """Create the TEMP views of a state over the attached segments `base` and `delta`."""
    gone = f"{name}_gone"
    connection.execute(f"CREATE TEMP TABLE {gone}(id INTEGER PRIMARY KEY)")
    if delta is not None:
        connection.execute(f"INSERT INTO {gone} SELECT s.id FROM {base}.sources s "
                           f"JOIN {delta}.replaced r ON r.name = s.name")
    for table, columns in ROW_TABLES.items():
        listed = ", ".join((*columns, "source"))
        arms = [f"SELECT {listed} FROM {base}.{table} WHERE source NOT IN {gone}"]
        if delta is not None:
            arms.append(f"SELECT {listed} FROM {delta}.{table}")
        connection.execute(f"CREATE TEMP VIEW {name}_{table} AS {' UNION ALL '.join(arms)}")
    columns = ", ".join(NODE_COLUMNS)
    if delta is None:
        nodes = f"SELECT {columns} FROM {base}.nodes WHERE family IS NOT NULL"
        terms = f"SELECT id, iri FROM {base}.terms"
    else:
        nodes = (f"SELECT {columns} FROM {base}.nodes WHERE family IS NOT NULL AND node NOT IN "
                 f"(SELECT node FROM {delta}.nodes) UNION ALL "
                 f"SELECT {columns} FROM {delta}.nodes WHERE family IS NOT NULL")
        terms = f"SELECT id, iri FROM {base}.terms UNION ALL SELECT id, iri FROM {delta}.terms"
    connection.execute(f"CREATE TEMP VIEW {name}_nodes AS {nodes}")
    listed = ", ".join(EDGE_COLUMNS)
    edges = f"SELECT {listed} FROM {base}.edges"
    if delta is not None:
        edges += (f" WHERE s NOT IN {delta}.masked AND o NOT IN {delta}.masked"
                  f" UNION ALL SELECT {listed} FROM {delta}.edges")
    connection.execute(f"CREATE TEMP VIEW {name}_edges AS {edges}")
    connection.execute(f"CREATE TEMP VIEW {name}_terms AS {terms}")
    return State(name, base, delta)
