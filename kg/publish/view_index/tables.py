"""The files of a build's view index and their tables (SQLite): one base segment, written whole by
a full build, and at most one delta segment, written by each incremental build.

A segment holds the view's rows (as kg.model.view_parts reads them from each graph), each row
tagged with its source: a document graph (`d:<slug>`), an entity record (`r:<key>`), the ontology
graph (`o:`) or a whole store read at once (`s:`). The delta holds the rows of every source
changed since the base was written, and in `replaced` the names of those sources: the index is
the base's rows of the sources not replaced, plus the delta's. So an incremental build writes only
the delta (small: the documents edited since the last full build) and hard-links the base.

Every IRI is a number (`terms`): the base numbers those it holds, a delta keeps the base's numbers
and numbers the IRIs the base lacks after them, so that rows of both compare as they are. Literals
are kept as N-Quads terms (the readers' text), read as lexical forms.

Beside the rows, each segment keeps what was derived from them (kg.publish.view_index.derive):
`nodes` (every node of the base; in a delta, the nodes its sources touch, NULL family for a node
that is gone), `edges` (the distinct edges between nodes, and how many sources state each: the
neighbour index), `ranks` (the whole graph's rankings and summaries, by IRI) and `overview` (the
nodes the page opens on).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

FORMAT = 3  # PRAGMA user_version
APPLICATION_ID = 0x6B677631  # "kgv1"
HEAD_FILE = "head.pickle"  # the view's schema and the ontology graph's part (kg.publish.view_data)
BASE_FILE = "base.sqlite"
DELTA_FILE = "delta.sqlite"

# The row tables: (name, columns), each with a `source` column after these; every column an IRI's
# number but literals (`v`, an N-Quads term) and texts.
ROW_TABLES = {
    "types": ("node", "cls"),
    "literals": ("node", "p", "v"),  # and owl:sameAs, its object as an N-Quads IRI term (<...>)
    "links": ("s", "p", "o"),  # every other triple with an IRI object, whether or not the object is a node
    "statements": ("s", "p", "o", "sentence"),
    "mentions": ("node", "sentence"),
    "sentences": ("sentence", "text", "doc"),
    "docs": ("doc", "title", "date", "publisher"),
    "source_nodes": ("node",),  # the IRIs a source's rows name (what an incremental build recomputes)
}
# a node's literals are read from their index alone (`literals`: every column a reader asks for, in it): a
# place named in every article has a row per article stating the same few, thousands of rows
ROW_INDEXES = (
    ("types", "node"), ("literals", "node, p, v, source"), ("links", "s"), ("links", "o"), ("statements", "s, o"),
    ("mentions", "node"), ("sentences", "sentence"), ("docs", "doc"), ("source_nodes", "source"),
)
NODE_COLUMNS = ("node", "family", "kind", "mentions", "sentences", "degree", "score", "date")
EDGE_COLUMNS = ("s", "p", "o", "sources")

SCHEMA = "\n".join([
    f"PRAGMA application_id = {APPLICATION_ID};",
    f"PRAGMA user_version = {FORMAT};",
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;",
    "CREATE TABLE terms(id INTEGER PRIMARY KEY, iri TEXT NOT NULL);",
    "CREATE TABLE sources(id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL);",
    "CREATE TABLE replaced(name TEXT PRIMARY KEY) WITHOUT ROWID;",
    "CREATE TABLE classes(cls INTEGER PRIMARY KEY, family TEXT NOT NULL, priority INTEGER NOT NULL, "
    "depth INTEGER NOT NULL);",
    *(f"CREATE TABLE {name}({', '.join(columns)}, source INTEGER NOT NULL);" for name, columns in ROW_TABLES.items()),
    "CREATE TABLE nodes(node INTEGER PRIMARY KEY, family TEXT, kind INTEGER, mentions INTEGER, sentences INTEGER, "
    "degree INTEGER, score INTEGER, date TEXT);",
    # the view's edges (distinct, between nodes) with the sources that state them: the base's all, a
    # delta's those with an end in `masked` (every node a delta since the base touched)
    "CREATE TABLE edges(s INTEGER NOT NULL, p INTEGER NOT NULL, o INTEGER NOT NULL, sources INTEGER NOT NULL);",
    "CREATE TABLE masked(node INTEGER PRIMARY KEY);",
    "CREATE TABLE ranks(ranking TEXT NOT NULL, key TEXT NOT NULL, count INTEGER NOT NULL, "
    "actors INTEGER NOT NULL, PRIMARY KEY (ranking, key)) WITHOUT ROWID;",
    "CREATE TABLE overview(rank INTEGER PRIMARY KEY, node INTEGER NOT NULL);",
])
# each end's edges with every column (a neighbourhood reads the other end of thousands of edges)
EDGE_INDEXES = "CREATE INDEX edges_s ON edges(s, o, p, sources); CREATE INDEX edges_o ON edges(o, s, p, sources);"
INDEXES = "\n".join(
    ["CREATE UNIQUE INDEX terms_iri ON terms(iri);"]
    + [f"CREATE INDEX {table}_{column.replace(', ', '_')} ON {table}({column});" for table, column in ROW_INDEXES]
    + ["CREATE INDEX nodes_score ON nodes(score DESC, node) WHERE family IS NOT NULL;",
       "CREATE INDEX nodes_kind ON nodes(kind, score DESC) WHERE family IS NOT NULL;",
       "CREATE INDEX nodes_family ON nodes(family, score DESC) WHERE family IS NOT NULL;",
       "CREATE INDEX nodes_date ON nodes(date) WHERE date IS NOT NULL;"])


def create(path: Path) -> sqlite3.Connection:
    """A new, empty segment at `path`, set up for one writer that needs no crash safety (the file
    is renamed into place, or thrown away with its build, once complete)."""
    connection = open_write(path)
    connection.executescript(SCHEMA)
    return connection


def open_write(path: Path) -> sqlite3.Connection:
    """A connection writing the segment file at `path` (a new one, or a copy that becomes a new
    segment), set up as `create` sets up a new one."""
    connection = sqlite3.connect(path, isolation_level=None)
    connection.executescript("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -262144; "
                             "PRAGMA temp_store = MEMORY; PRAGMA locking_mode = EXCLUSIVE;")
    return connection


def open_read(path: Path) -> sqlite3.Connection:
    """A connection reading the segment at `path`, which no one writes any more (`immutable`: no
    locks, no journal), usable from any thread (one at a time)."""
    connection = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro&immutable=1", uri=True,
                                 isolation_level=None, check_same_thread=False)
    # the reader's TEMP tables (the nodes a request asks for) in memory: on disk, each row inserted
    # outside a transaction was a journalled write (12,000 rows 0.4-1 s, against 0.02 s)
    connection.execute("PRAGMA temp_store = MEMORY")
    check(connection, path)
    return connection


def attach(connection: sqlite3.Connection, path: Path, name: str) -> None:
    """Attach another segment, read-only, as `name`."""
    connection.execute(f"ATTACH DATABASE ? AS {name}", (f"{path.absolute().as_uri()}?mode=ro&immutable=1",))
    check(connection, path, name)


def check(connection: sqlite3.Connection, path: Path, schema: str = "main") -> None:
    """Raise sqlite3.DatabaseError unless the file is a complete view index segment of this FORMAT."""
    application = connection.execute(f"PRAGMA {schema}.application_id").fetchone()[0]
    version = connection.execute(f"PRAGMA {schema}.user_version").fetchone()[0]
    if application != APPLICATION_ID or version != FORMAT or meta(connection, schema).get("complete") != "1":
        raise sqlite3.DatabaseError(f"{path} is not a complete view index of format {FORMAT}")


def meta(connection: sqlite3.Connection, schema: str = "main") -> dict[str, str]:
    return dict(connection.execute(f"SELECT key, value FROM {schema}.meta"))
