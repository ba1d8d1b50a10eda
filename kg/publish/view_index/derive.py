"""What the index derives from its rows, in SQL: each node's family, kind, mention count, degree,
score and date (`nodes`), the whole graph's rankings and summaries (`ranks`) and the overview.

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
from kg.publish.view_index.write import Numbers

SKIPPED_EDGES = (RDF_TYPE, FIXED_PREFIXES["owl"] + "sameAs", FIXED_PREFIXES["prov"] + "wasDerivedFrom")
MENTION_COUNT, DATE = ONTOLOGY + "mentionCount", ONTOLOGY + "date"
OVERVIEW_FAMILIES = (*ACTORS, "Event")  # what the overview ranks: quotes, figures and dates are layers
RANKINGS = ("types", "events", "relations", "dates", "figures")
OVERVIEW_IN = ", ".join(f"'{f}'" for f in OVERVIEW_FAMILIES)
_ACTORS = ", ".join(f"'{f}'" for f in ACTORS)
LEXICAL = "substr({v}, 2, instr(substr({v}, 2), '\"') - 1)"  # an N-Quads literal's text between its quotes


def fill_classes(connection: sqlite3.Connection, schema: ViewSchema, numbers: Numbers) -> None:
    """The view's classes with their family, its priority and their depth (ancestors), in main."""
    connection.executemany("INSERT INTO classes VALUES (?, ?, ?, ?)",
                           [(numbers[cls], family, FAMILIES.index(family), len(schema.supers.get(cls, ())))
                            for cls, family in schema.classes.items()])


def derive_edges(connection: sqlite3.Connection, state: State, todo: str | None, into: str = "edge") -> None:
    """TEMP.<into>: the edges of `state` with an end among the nodes of the TEMP table `todo` (None:
    every edge), each with the number of sources that state it."""
    connection.execute(f"DROP TABLE IF EXISTS temp.{into}")
    connection.execute(f"CREATE TEMP TABLE {into}(s INTEGER, p INTEGER, o INTEGER, sources INTEGER)")
    types, skipped = state.table("types"), state.terms(SKIPPED_EDGES)
    if todo is None:
        connection.execute("CREATE TEMP TABLE isnode(node INTEGER PRIMARY KEY)")
        connection.execute(f"INSERT OR IGNORE INTO isnode SELECT node FROM {types}")
        connection.execute(f"""INSERT INTO {into} SELECT s, p, o, COUNT(DISTINCT source) FROM {state.table('links')}
            WHERE p NOT IN {skipped} AND s IN isnode AND o IN isnode GROUP BY s, p, o""")
        connection.execute("DROP TABLE isnode")
    else:  # the condition on `todo` inside each segment's arm: SQLite pushes none through a view's union
        from_s = state.rows("links", "s, p, o, source", f"s IN {todo}")
        to_o = state.rows("links", "s, p, o, source", f"o IN {todo} AND s NOT IN {todo}")
        connection.execute(f"""INSERT INTO {into} SELECT s, p, o, COUNT(DISTINCT source) FROM ({from_s} UNION ALL {to_o})
            WHERE p NOT IN {skipped} AND EXISTS (SELECT 1 FROM {types} t WHERE t.node = s)
              AND EXISTS (SELECT 1 FROM {types} t WHERE t.node = o) GROUP BY s, p, o""")
    connection.execute(f"CREATE INDEX temp.{into}_s ON {into}(s)")
    connection.execute(f"CREATE INDEX temp.{into}_o ON {into}(o)")


def derive_nodes(connection: sqlite3.Connection, state: State, todo: str | None) -> None:
    """Write the `nodes` rows of main for the nodes of `state` listed in the TEMP table `todo`
    (None: every node), from TEMP.edge as derive_edges left it for the same nodes."""
    only = "true" if todo is None else f"node IN {todo}"  # inside each arm (State.rows): SQLite pushes none down
    lexical = LEXICAL.format(v="v")
    connection.execute(f"""INSERT OR REPLACE INTO main.nodes(node, family, kind, mentions, sentences, degree, score, date)
        WITH typed AS (
          SELECT t.node, c.cls, c.family, c.priority, c.depth FROM
            (SELECT DISTINCT node, cls FROM ({state.rows('types', 'node, cls', only)})) t JOIN main.classes c USING (cls)),
        kinds AS (
          SELECT node, kind, family FROM (
            SELECT node, cls AS kind,
                   FIRST_VALUE(family) OVER (PARTITION BY node ORDER BY priority) AS family,
                   ROW_NUMBER() OVER (PARTITION BY node ORDER BY depth DESC, iri) AS r
            FROM typed JOIN {state.table('terms')} ON id = cls)
          WHERE r = 1),
        counted AS (
          SELECT node, CAST(MAX(CAST({lexical} AS REAL)) AS INTEGER) AS n
          FROM ({state.rows('literals', 'node, v', f'p = {state.term(MENTION_COUNT)} AND {only}')}) GROUP BY node),
        said AS (
          SELECT node, COUNT(DISTINCT sentence) AS n FROM ({state.rows('mentions', 'node, sentence', only)}) GROUP BY node),
        dated AS (
          SELECT node, MIN({lexical}) AS v FROM ({state.rows('literals', 'node, v', f'p = {state.term(DATE)} AND {only}')})
          GROUP BY node),
        degrees AS (
          SELECT node, COUNT(*) AS degree FROM (SELECT s AS node FROM edge UNION ALL SELECT o FROM edge) GROUP BY node)
        SELECT k.node, k.family, k.kind, COALESCE(c.n, s.n, 0), COALESCE(s.n, 0), COALESCE(d.degree, 0),
               COALESCE(c.n, s.n, 0) + COALESCE(d.degree, 0), CASE WHEN k.family = 'Event' THEN t.v END
        FROM kinds k LEFT JOIN counted c ON c.node = k.node LEFT JOIN said s ON s.node = k.node
          LEFT JOIN degrees d ON d.node = k.node LEFT JOIN dated t ON t.node = k.node""")


def rank_counts(connection: sqlite3.Connection, state: State, nodes: str, todo: str | None = None) -> dict[str, Counter]:
    """{ranking: Counter} of the nodes of the view or table `nodes` (those in the TEMP table `todo`;
    None: all) and of the edges in TEMP.edge, keyed by IRI: types {kind: nodes}, events {kind:
    nodes}, dates {date: events}, figures {'kind<TAB>role': figures, '': figures in no event},
    relations {predicate: edges} and between {predicate: edges between two actors}."""
    terms = state.table("terms")
    if todo:
        nodes = _near(connection, nodes, todo)

    def only(alias: str) -> str:
        return f"AND {alias}.node IN {todo}" if todo else ""

    def counter(sql: str) -> Counter:
        return Counter(dict(connection.execute(sql)))

    relations, between = Counter(), Counter()
    for p, n, actors in connection.execute(f"""
            SELECT (SELECT iri FROM {terms} WHERE id = e.p), COUNT(*),
                   SUM(a.family IN ({_ACTORS}) AND b.family IN ({_ACTORS})) FROM edge e
            JOIN {nodes} a ON a.node = e.s JOIN {nodes} b ON b.node = e.o GROUP BY e.p"""):
        relations[p], between[p] = n, actors or 0
    figures = counter(f"""SELECT (SELECT iri FROM {terms} WHERE id = e.kind) || '\t' ||
                                 (SELECT iri FROM {terms} WHERE id = ed.p), COUNT(DISTINCT f.node) FROM edge ed
        JOIN {nodes} e ON e.node = ed.s AND e.family = 'Event'
        JOIN {nodes} f ON f.node = ed.o AND f.family = 'Figure' {only('f')} GROUP BY e.kind, ed.p""")
    alone = connection.execute(f"""SELECT COUNT(*) FROM {nodes} f WHERE f.family = 'Figure' {only('f')}
        AND NOT EXISTS (SELECT 1 FROM edge ed WHERE ed.o = f.node
                        AND (SELECT e.family FROM {nodes} e WHERE e.node = ed.s) = 'Event')""").fetchone()[0]
    if alone:
        figures[""] = alone
    kinds = f"SELECT (SELECT iri FROM {terms} WHERE id = n.kind), COUNT(*) FROM {nodes} n"
    return {
        "types": counter(f"{kinds} WHERE family = '{CORPUS_FAMILY}' {only('n')} GROUP BY kind"),
        "events": counter(f"{kinds} WHERE family = 'Event' AND kind != {state.term(ONTOLOGY + 'Event')} "
                          f"{only('n')} GROUP BY kind"),
        "dates": counter(f"SELECT date, COUNT(*) FROM {nodes} n WHERE date IS NOT NULL {only('n')} GROUP BY date"),
        "figures": figures, "relations": relations, "between": between,
    }


def _near(connection: sqlite3.Connection, nodes: str, todo: str) -> str:
    """TEMP.near: the rows of `nodes` for the nodes of `todo` and the ends of TEMP.edge, all that the
    counts of `todo` read, with an index: a state's nodes are a view over the segments, which SQLite
    scanned again for every edge joined to it (245 s for a one-article edit at 10,000 articles)."""
    connection.execute("DROP TABLE IF EXISTS temp.near")
    connection.execute(f"""CREATE TEMP TABLE near AS SELECT * FROM {nodes} WHERE node IN (
        SELECT node FROM {todo} UNION SELECT s FROM temp.edge UNION SELECT o FROM temp.edge)""")
    connection.execute("CREATE INDEX temp.near_node ON near(node)")
    return "temp.near"


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


def best(connection: sqlite3.Connection, state: State, condition: str, params: tuple, limit: int) -> list[tuple[int, str]]:
    """(number, IRI) of the `limit` nodes of `state` with the best score among those meeting
    `condition` (SQL over the columns of `nodes`; empty: the overview's families), ties by IRI.
    The base's are read in its index's order (with every node tied with the last), less the nodes
    the delta overrides, and merged with the delta's: no sort of the whole graph."""
    condition = condition or f"family IN ({OVERVIEW_IN})"
    overridden: dict[int, int | None] = {}
    if state.delta is not None:
        overridden = {node: score if met else None for node, score, met in connection.execute(
            f"SELECT node, score, family IS NOT NULL AND ({condition}) FROM {state.delta}.nodes", params)}
    table = f"{state.base}.nodes"
    top = connection.execute(f"SELECT score FROM {table} WHERE family IS NOT NULL AND ({condition}) "
                             "ORDER BY score DESC LIMIT 1 OFFSET ?", (*params, limit + len(overridden) - 1)).fetchone()
    bound = f"AND score >= {int(top[0])}" if top else ""
    found = {node: score for node, score in connection.execute(
        f"SELECT node, score FROM {table} WHERE family IS NOT NULL AND ({condition}) {bound}", params)
        if node not in overridden}
    found.update((node, score) for node, score in overridden.items() if score is not None)
    iris = names(connection, state, found)
    ranked = sorted(found, key=lambda n: (-found[n], iris[n]))[:limit]
    return [(n, iris[n]) for n in ranked]


def names(connection: sqlite3.Connection, state: State, numbers) -> dict[int, str]:
    """{number: IRI} of `numbers`."""
    connection.execute("CREATE TEMP TABLE IF NOT EXISTS asked(id INTEGER PRIMARY KEY)")
    connection.execute("DELETE FROM asked")
    connection.executemany("INSERT OR IGNORE INTO asked VALUES (?)", ((n,) for n in numbers))
    return dict(connection.execute(f"SELECT id, iri FROM {state.table('terms')} WHERE id IN asked"))


def write_overview(connection: sqlite3.Connection, nodes: list[int]) -> None:
    connection.execute("DELETE FROM main.overview")
    connection.executemany("INSERT INTO main.overview VALUES (?, ?)", enumerate(nodes))
