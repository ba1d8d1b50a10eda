"""What the index derives from its rows, in SQL: each node's family, kind, mention count, degree,
score and date (`nodes`), the whole graph's rankings (`ranks`) and the overview.

The definitions are the view graph's (kg.viz.network): a node is an IRI typed with a view class; its
family the first of FAMILIES among its classes', its kind its most specific class (most
ancestors, then IRI); an edge every distinct (subject, predicate, object) between two nodes but
rdf:type, owl:sameAs and prov:wasDerivedFrom; the degree its edges, each end counted (a loop
twice, as networkx counts). Mentions: the record's kgo:mentionCount, else the sentences that
mention the node. A node's score, what the overview ranks by, is its mentions plus its degree.
"""

from __future__ import annotations

import sqlite3
from collections import Counter

from kg.model.iris import FIXED_PREFIXES, ONTOLOGY, RDF_TYPE
from kg.publish.view_data import ACTORS, CORPUS_FAMILY, FAMILIES, ViewSchema
from kg.publish.view_index.state import State

SKIPPED_EDGES = (RDF_TYPE, FIXED_PREFIXES["owl"] + "sameAs", FIXED_PREFIXES["prov"] + "wasDerivedFrom")
MENTION_COUNT, DATE = ONTOLOGY + "mentionCount", ONTOLOGY + "date"
OVERVIEW_FAMILIES = (*ACTORS, "Event")  # what the overview ranks: quotes, figures and dates are layers
RANKINGS = ("types", "events", "relations", "dates", "figures")
_SKIPPED = ", ".join(f"'{p}'" for p in SKIPPED_EDGES)
_ACTORS = ", ".join(f"'{f}'" for f in ACTORS)
OVERVIEW_IN = ", ".join(f"'{f}'" for f in OVERVIEW_FAMILIES)


def fill_classes(connection: sqlite3.Connection, schema: ViewSchema) -> None:
    """The view's classes with their family, its priority and their depth (ancestors), in main."""
    connection.executemany("INSERT INTO classes VALUES (?, ?, ?, ?)",
                           [(cls, family, FAMILIES.index(family), len(schema.supers.get(cls, ())))
                            for cls, family in schema.classes.items()])


def derive_edges(connection: sqlite3.Connection, state: State, todo: str | None) -> None:
    """TEMP.edge: the edges of `state` with an end among the nodes of the TEMP table `todo` (None:
    every edge)."""
    connection.execute("DROP TABLE IF EXISTS temp.edge")
    links, types = state.table("links"), state.table("types")
    if todo is None:
        connection.execute("CREATE TEMP TABLE isnode(node TEXT PRIMARY KEY) WITHOUT ROWID")
        connection.execute(f"INSERT INTO isnode SELECT DISTINCT node FROM {types}")
        connection.execute(f"""CREATE TEMP TABLE edge AS SELECT DISTINCT s, p, o FROM {links}
            WHERE p NOT IN ({_SKIPPED}) AND s IN isnode AND o IN isnode""")
        connection.execute("DROP TABLE isnode")
    else:
        connection.execute(f"""CREATE TEMP TABLE edge AS SELECT DISTINCT s, p, o FROM (
              SELECT s, p, o FROM {links} WHERE s IN {todo} UNION ALL SELECT s, p, o FROM {links} WHERE o IN {todo})
            WHERE p NOT IN ({_SKIPPED}) AND EXISTS (SELECT 1 FROM {types} t WHERE t.node = s)
              AND EXISTS (SELECT 1 FROM {types} t WHERE t.node = o)""")
    connection.execute("CREATE INDEX temp.edge_s ON edge(s)")
    connection.execute("CREATE INDEX temp.edge_o ON edge(o)")


def derive_nodes(connection: sqlite3.Connection, state: State, todo: str | None) -> None:
    """Write the `nodes` rows of main for the nodes of `state` listed in the TEMP table `todo`
    (None: every node), from TEMP.edge as derive_edges left it for the same nodes."""
    only = "" if todo is None else f"WHERE node IN {todo}"
    degree = "SELECT node, COUNT(*) AS degree FROM (SELECT s AS node FROM edge UNION ALL SELECT o FROM edge) GROUP BY node"
    connection.execute(f"""INSERT OR REPLACE INTO main.nodes(node, family, kind, mentions, degree, score, date)
        WITH typed AS (
          SELECT t.node, c.cls, c.family, c.priority, c.depth FROM
            (SELECT DISTINCT node, cls FROM {state.table('types')} {only}) t JOIN main.classes c USING (cls)),
        kinds AS (
          SELECT node, kind, family FROM (
            SELECT node, cls AS kind,
                   FIRST_VALUE(family) OVER (PARTITION BY node ORDER BY priority) AS family,
                   ROW_NUMBER() OVER (PARTITION BY node ORDER BY depth DESC, cls) AS r FROM typed)
          WHERE r = 1),
        counted AS (
          SELECT node, CAST(MAX(CAST(v AS REAL)) AS INTEGER) AS n FROM {state.table('literals')}
          WHERE p = '{MENTION_COUNT}' {only.replace('WHERE', 'AND')} GROUP BY node),
        said AS (
          SELECT node, COUNT(DISTINCT sentence) AS n FROM {state.table('mentions')} {only} GROUP BY node),
        dated AS (
          SELECT node, MIN(v) AS v FROM {state.table('literals')}
          WHERE p = '{DATE}' {only.replace('WHERE', 'AND')} GROUP BY node),
        degrees AS ({degree})
        SELECT k.node, k.family, k.kind, COALESCE(c.n, s.n, 0), COALESCE(d.degree, 0),
               COALESCE(c.n, s.n, 0) + COALESCE(d.degree, 0), CASE WHEN k.family = 'Event' THEN t.v END
        FROM kinds k LEFT JOIN counted c ON c.node = k.node LEFT JOIN said s ON s.node = k.node
          LEFT JOIN degrees d ON d.node = k.node LEFT JOIN dated t ON t.node = k.node""")


def rank_counts(connection: sqlite3.Connection, nodes: str, todo: str | None = None) -> dict[str, Counter]:
    """{ranking: Counter} of the nodes of the view or table `nodes` (those in the TEMP table `todo`;
    None: all) and of the edges in TEMP.edge: types {kind: nodes}, events {kind: nodes}, dates
    {date: events}, figures {'kind<TAB>role': figures, '': figures in no event}, relations
    {predicate: edges} and between {predicate: edges between two actors}."""
    def only(alias: str) -> str:
        return f"AND {alias}.node IN {todo}" if todo else ""

    def counter(sql: str) -> Counter:
        return Counter(dict(connection.execute(sql)))

    relations, between = Counter(), Counter()
    for p, count, actors in connection.execute(f"""
            SELECT e.p, COUNT(*), SUM(a.family IN ({_ACTORS}) AND b.family IN ({_ACTORS})) FROM edge e
            JOIN {nodes} a ON a.node = e.s JOIN {nodes} b ON b.node = e.o GROUP BY e.p"""):
        relations[p], between[p] = count, actors or 0
    figures = counter(f"""SELECT e.kind || '	' || ed.p, COUNT(DISTINCT f.node) FROM edge ed
        JOIN {nodes} e ON e.node = ed.s AND e.family = 'Event'
        JOIN {nodes} f ON f.node = ed.o AND f.family = 'Figure' {only('f')} GROUP BY e.kind, ed.p""")
    alone = connection.execute(f"""SELECT COUNT(*) FROM {nodes} f WHERE f.family = 'Figure' {only('f')}
        AND NOT EXISTS (SELECT 1 FROM edge ed JOIN {nodes} e ON e.node = ed.s AND e.family = 'Event'
                        WHERE ed.o = f.node)""").fetchone()[0]
    if alone:
        figures[""] = alone
    return {
        "types": counter(f"SELECT kind, COUNT(*) FROM {nodes} n WHERE family = '{CORPUS_FAMILY}' {only('n')} GROUP BY kind"),
        "events": counter(f"SELECT kind, COUNT(*) FROM {nodes} n WHERE family = 'Event' AND kind != '{ONTOLOGY}Event' "
                          f"{only('n')} GROUP BY kind"),
        "dates": counter(f"SELECT date, COUNT(*) FROM {nodes} n WHERE date IS NOT NULL {only('n')} GROUP BY date"),
        "figures": figures, "relations": relations, "between": between,
    }


def write_ranks(connection: sqlite3.Connection, counts: dict[str, Counter]) -> None:
    rows = [(name, key, n, counts["between"].get(key, 0) if name == "relations" else 0)
            for name in RANKINGS for key, n in counts[name].items() if n > 0]
    connection.execute("DELETE FROM main.ranks")
    connection.executemany("INSERT INTO main.ranks VALUES (?, ?, ?, ?)", rows)


def read_ranks(connection: sqlite3.Connection, schema: str = "main") -> dict[str, Counter]:
    counts: dict[str, Counter] = {name: Counter() for name in (*RANKINGS, "between")}
    for name, key, n, actors in connection.execute(f"SELECT ranking, key, count, actors FROM {schema}.ranks"):
        counts[name][key] = n
        if name == "relations":
            counts["between"][key] = actors
    return counts


def ordered_ranks(counts: dict[str, Counter]) -> dict[str, list[str]]:
    """The rankings as kg.viz.network.ranks orders them: most frequent first, relations between
    two actors before the others; ties by IRI."""
    types, events, relations, between = (counts[k] for k in ("types", "events", "relations", "between"))
    return {"types": sorted(types, key=lambda k: (-types[k], k)),
            "events": sorted(events, key=lambda k: (-events[k], k)),
            "relations": sorted(relations, key=lambda k: (-between[k], -relations[k], k))}


def overview(connection: sqlite3.Connection, nodes: str, size: int) -> list[tuple[str, int]]:
    """(node, score) of the `size` nodes of the overview families with the highest score (ties by
    IRI), from the view or table `nodes`."""
    return list(connection.execute(
        f"SELECT node, score FROM {nodes} WHERE family IN ({OVERVIEW_IN}) ORDER BY score DESC, node LIMIT ?", (size,)))


def write_overview(connection: sqlite3.Connection, nodes: list[str]) -> None:
    connection.execute("DELETE FROM main.overview")
    connection.executemany("INSERT INTO main.overview VALUES (?, ?)", enumerate(nodes))
