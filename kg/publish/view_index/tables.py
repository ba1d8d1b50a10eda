"""The files of a build's view index and their tables (SQLite): one base segment, written whole by
a full build, and at most one delta segment, written by each incremental build.

A segment holds the view's rows (as kg.model.view_parts reads them from each graph), each row
tagged with its source: a document graph (`d:<slug>`), an entity record (`r:<key>`), the ontology
graph (`o:`) or a whole store read at once (`s:`). The delta holds the rows of every source
changed since the base was written, and in `replaced` the names of those sources: the index is
the base's rows of the sources not replaced, plus the delta's. So an incremental build writes only
the delta (small: the documents edited since the last full build) and hard-links the base.

Beside the rows, each segment keeps what was derived from them (kg.publish.view_index.derive):
`nodes` (every node of the base; in a delta, the nodes its sources touch, NULL family for a node
that is gone), `ranks` (the whole graph's frequencies of types, kinds of event and relations) and
`overview` (the nodes the page opens on).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

FORMAT = 1  # PRAGMA user_version
APPLICATION_ID = 0x6B677631  # "kgv1"
HEAD_FILE = "head.pickle"  # the view's schema and the ontology graph's part (kg.publish.view_data)
BASE_FILE = "base.sqlite"
DELTA_FILE = "delta.sqlite"

# The row tables: (name, columns), each with a `source` column after these.
ROW_TABLES = {
    "types": ("node", "cls"),
    "literals": ("node", "p", "v"),  # v: the literal's lexical form
    "links": ("s", "p", "o"),  # every triple with an IRI object, whether or not the object is a node
    "statements": ("s", "p", "o", "sentence"),
    "mentions": ("node", "sentence"),
    "sentences": ("sentence", "text", "doc"),
    "docs": ("doc", "title", "date", "publisher"),
}
ROW_INDEXES = (
    ("types", "node"), ("literals", "node"), ("links", "s"), ("links", "o"), ("statements", "s"),
    ("mentions", "node"), ("sentences", "sentence"), ("docs", "doc"), ("source_nodes", "source"),
)
# The derived tables and what they hold per node.
NODE_COLUMNS = ("node", "family", "kind", "mentions", "degree", "score", "date")

SCHEMA = "\n".join([
    f"PRAGMA application_id = {APPLICATION_ID};",
    f"PRAGMA user_version = {FORMAT};",
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;",
    "CREATE TABLE sources(id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL);",
    "CREATE TABLE replaced(name TEXT PRIMARY KEY) WITHOUT ROWID;",
    "CREATE TABLE classes(cls TEXT PRIMARY KEY, family TEXT NOT NULL, priority INTEGER NOT NULL, "
    "depth INTEGER NOT NULL) WITHOUT ROWID;",
    *(f"CREATE TABLE {name}({', '.join(columns)}, source INTEGER NOT NULL);" for name, columns in ROW_TABLES.items()),
    "CREATE TABLE source_nodes(source INTEGER NOT NULL, node TEXT NOT NULL);",  # the nodes a source's rows name
    "CREATE TABLE nodes(node TEXT PRIMARY KEY, family TEXT, kind TEXT, mentions INTEGER, "
    "degree INTEGER, score INTEGER, date TEXT) WITHOUT ROWID;",
    "CREATE TABLE ranks(ranking TEXT NOT NULL, key TEXT NOT NULL, count INTEGER NOT NULL, "
    "actors INTEGER NOT NULL, PRIMARY KEY (ranking, key)) WITHOUT ROWID;",
    "CREATE TABLE overview(rank INTEGER PRIMARY KEY, node TEXT NOT NULL);",
])
INDEXES = "\n".join(
    [f"CREATE INDEX {table}_{column} ON {table}({column});" for table, column in ROW_INDEXES]
    + ["CREATE INDEX nodes_score ON nodes(score DESC, node) WHERE family IS NOT NULL;",
       "CREATE INDEX nodes_kind ON nodes(kind, score DESC) WHERE family IS NOT NULL;",
       "CREATE INDEX nodes_family ON nodes(family, score DESC) WHERE family IS NOT NULL;",
       "CREATE INDEX nodes_date ON nodes(date) WHERE date IS NOT NULL;"])


def create(path: Path) -> sqlite3.Connection:
    """A new, empty segment at `path`, set up for one writer that needs no crash safety (the file
    is renamed into place, or thrown away with its build, once complete)."""
    connection = sqlite3.connect(path, isolation_level=None)
    connection.executescript("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -262144; "
                             "PRAGMA temp_store = MEMORY; PRAGMA locking_mode = EXCLUSIVE;")
    connection.executescript(SCHEMA)
    return connection


def open_read(path: Path) -> sqlite3.Connection:
    """A connection reading the segment at `path`, which no one writes any more (`immutable`: no
    locks, no journal), usable from any thread (one at a time)."""
    connection = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro&immutable=1", uri=True,
                                 isolation_level=None, check_same_thread=False)
    check(connection, path)
    return connection


def attach(connection: sqlite3.Connection, path: Path, name: str) -> None:
    """Attach another segment, read-only, as `name`."""
    connection.execute(f"ATTACH DATABASE ? AS {name}", (f"{path.absolute().as_uri()}?mode=ro&immutable=1",))
    check(connection, path, name)


def check(connection: sqlite3.Connection, path: Path, schema: str = "main") -> None:
    """Raise sqlite3.DatabaseError unless the file is a view index segment of this FORMAT."""
    application = connection.execute(f"PRAGMA {schema}.application_id").fetchone()[0]
    version = connection.execute(f"PRAGMA {schema}.user_version").fetchone()[0]
    if application != APPLICATION_ID or version != FORMAT:
        raise sqlite3.DatabaseError(f"{path} is not a view index of format {FORMAT}")


def meta(connection: sqlite3.Connection, schema: str = "main") -> dict[str, str]:
    return dict(connection.execute(f"SELECT key, value FROM {schema}.meta"))
