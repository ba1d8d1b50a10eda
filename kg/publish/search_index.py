"""The search index of a build: every label of every entity, folded (accents and case stripped,
kg.model.iris.fold), with what a hit shows (preferred label, types, mentions), in one SQLite file.

`kg build` writes it into the build directory (build_dirs.SEARCH_INDEX_FILE), so that the endpoint
only opens a file: no request waits for an index to be built. A full build reads its rows off the
N-Quads it wrote (kg.publish.search_locals, kg.publish.search_records), as the store would answer
the queries below. An incremental build copies the previous build's file and deletes and inserts the
rows of the entities whose records it rewrote, asked of the store. kg.publish.search answers searches from it.

Things local to one document (kg.model.entities.resolve: descriptions, a caseless script's single
mentions) are indexed as well, each with its document's IRI: a hit on one is a local result tied to
that document, ranked after every shared hit (kg.publish.search), and a patch replaces the local
things of the documents a build changed or removed.

The file: `entities` (IRI, what a hit shows, the document of a local thing, the descriptions of a
record: its rdfs:comment values in kgg:entities, as a JSON list) and `labels` (label,
kind, folded, the entity's mentions and whether it is local, so that ranking needs no join) in plain tables,
a B-tree on the folded label (whole labels and prefixes), and two FTS5 tables over the labels:
`words` (unicode61 over the folded label with every character that is not a letter, digit or mark
(kg.model.iris.word_chars) turned into a space, and only spaces separating, so that its tokens start
exactly where the ranking's words do, in any script and any Unicode version), and `grams`
(trigram over the folded label: substrings of three characters or more). Both are written from
here, row by row, never by triggers: the file needs no Python function to be read.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

from kg.model import iris
from kg.model.iris import fold, prologue, word_chars
from kg.publish.search_locals import LocalRows
from kg.publish.search_records import record_rows
from kg.store import build_dirs, checksums
from kg.store.protocol import Select

FORMAT = 5  # PRAGMA user_version (1 and 2 were search-index.json, read by kg before FTS5; 3 had no local things;
# 4 no descriptions)
APPLICATION_ID = 0x6B677331  # "kgs1": PRAGMA application_id, what tells this file from another database

Rows = list[dict[str, str]]

LABELS = """
SELECT DISTINCT ?e ?label ?kind WHERE {
  GRAPH kgg:entities {
    { ?e skos:prefLabel ?label BIND("pref" AS ?kind) } UNION { ?e skos:altLabel ?label BIND("alt" AS ?kind) }
    UNION { ?e skos:hiddenLabel ?label BIND("hidden" AS ?kind) } UNION { ?e rdfs:label ?label BIND("label" AS ?kind) }
  }
}
"""

SUMMARIES = """
SELECT ?e (SAMPLE(?l) AS ?label) (MAX(?n) AS ?mentions) (GROUP_CONCAT(DISTINCT STR(?t); separator=" ") AS ?types) WHERE {
  GRAPH kgg:entities { ?e skos:prefLabel ?l ; a ?t }
  OPTIONAL { GRAPH kgg:entities { ?e kgo:mentionCount ?n } }
}
GROUP BY ?e
"""

# The descriptions (rdfs:comment) of the records: what a knowledge-base lookup shows beside a name
# (api/sparql/full_text.py answers INCEpTION's lookup of them from here)
DESCRIPTIONS = """
SELECT DISTINCT ?e ?description WHERE {
  GRAPH kgg:entities { ?e rdfs:comment ?description }
}
"""

# Things local to one document (descriptions, a caseless script's single mentions: not shared
# across documents, kg.model.entities.resolve) are searchable too, each tied to its document; quotes
# and figures, local too, are statements' content, not things to look up.
LOCALS = """
SELECT DISTINCT ?e ?label ?kind ?doc WHERE {
  GRAPH ?g {
    ?e kgo:mention [] ; prov:wasDerivedFrom ?doc .
    { ?e skos:prefLabel ?label BIND("pref" AS ?kind) } UNION { ?e skos:altLabel ?label BIND("alt" AS ?kind) }
    UNION { ?e rdfs:label ?label BIND("label" AS ?kind) }
    FILTER NOT EXISTS { ?e a ?content VALUES ?content { kgo:Quote kgo:Figure } }
  }
  FILTER (?g != kgg:entities)
}
"""

LOCAL_SUMMARIES = """
SELECT ?e ?doc (SAMPLE(?l) AS ?label) (COUNT(DISTINCT ?m) AS ?mentions)
       (GROUP_CONCAT(DISTINCT STR(?t); separator=" ") AS ?types) WHERE {
  GRAPH ?g {
    ?e kgo:mention ?m ; prov:wasDerivedFrom ?doc ; a ?t ; skos:prefLabel|rdfs:label ?l .
    FILTER NOT EXISTS { ?e a ?content VALUES ?content { kgo:Quote kgo:Figure } }
  }
  FILTER (?g != kgg:entities)
}
GROUP BY ?e ?doc
"""

KINDS = {"pref": 0, "alt": 1, "hidden": 2, "label": 3}  # of labels folding alike, a hit shows the first

SCHEMA = f"""
PRAGMA application_id = {APPLICATION_ID};
PRAGMA user_version = {FORMAT};
CREATE TABLE entities (id INTEGER PRIMARY KEY, iri TEXT NOT NULL UNIQUE,
                       summary INTEGER NOT NULL,  -- 0: no preferred label and type (the hit shows its label)
                       label TEXT NOT NULL, types TEXT NOT NULL, mentions INTEGER NOT NULL,
                       document TEXT,  -- the document's IRI, of a thing local to it; NULL: shared
                       descriptions TEXT);  -- JSON list of a summarized record's rdfs:comment values; NULL: not read
CREATE TABLE labels (row INTEGER PRIMARY KEY, entity INTEGER NOT NULL, label TEXT NOT NULL, kind TEXT NOT NULL,
                     kind_order INTEGER NOT NULL, folded TEXT NOT NULL,
                     mentions INTEGER NOT NULL,  -- the entity's, so that ranking needs no join
                     local INTEGER NOT NULL);  -- 1: the entity's, local to one document (ranked after the shared)
-- covering, in the order an entity's labels rank: a prefix search reads it alone, and stops where the prefix ends
CREATE INDEX labels_folded ON labels (folded, entity, kind_order, label, kind, mentions, local);
CREATE INDEX labels_entity ON labels (entity, folded);
CREATE INDEX entities_mentions ON entities (mentions);
CREATE INDEX entities_document ON entities (document) WHERE document IS NOT NULL;
CREATE VIRTUAL TABLE words USING fts5 (text, content = '', prefix = '1 2 3',
                                       tokenize = "unicode61 remove_diacritics 0 categories 'L* N* M* P* S* C*'");
CREATE VIRTUAL TABLE grams USING fts5 (text, content = '', tokenize = 'trigram');
"""


def word_text(folded: str) -> str:
    """What `words` indexes of a folded label: its letters, digits and marks, every other character a
    space (the same length: the word starts are where the ranking's are)."""
    return word_chars(folded)


def index_path(build_dir: Path) -> Path:
    return Path(build_dir) / build_dirs.SEARCH_INDEX_FILE


def label_rows(select: Select, entities: frozenset[str] | None = None,
               documents: frozenset[str] | None = None) -> tuple[Rows, Rows]:
    """The answers of LABELS and SUMMARIES (of `entities` only, when given; each summary with its record's
    DESCRIPTIONS as a JSON list), with those of LOCALS and LOCAL_SUMMARIES (of the things local to `documents` only, document IRIs, when given), from any
    SELECT function."""
    labels, summaries = select(_only(LABELS, entities)), select(_only(SUMMARIES, entities))
    described: dict[str, list[str]] = {}
    for row in select(_only(DESCRIPTIONS, entities)):
        described.setdefault(row["e"], []).append(row["description"])
    for row in summaries:
        row["descriptions"] = json.dumps(sorted(described.get(row["e"], [])), ensure_ascii=False)
    if documents is None or documents:
        labels += _of_documents(select, LOCALS, documents)
        summaries += _of_documents(select, LOCAL_SUMMARIES, documents)
    return labels, summaries


def _only(query: str, entities: frozenset[str] | None) -> str:
    """`query` with the prologue, restricted to `entities` (None: every entity). (With a VALUES
    of (predicate, kind) pairs, or an OPTIONAL inside the GRAPH, 20 entities of 10,000 articles
    took 0.25 s and 0.9 s; as written, 3 ms each.)"""
    if entities is None:
        return prologue() + query
    values = " ".join(f"<{iri}>" for iri in sorted(entities))
    return prologue() + query.replace("GRAPH kgg:entities {", f"VALUES ?e {{ {values} }}\n  GRAPH kgg:entities {{", 1)


def _of_documents(select: Select, query: str, documents: frozenset[str] | None) -> Rows:
    """The answers of `query` (LOCALS or LOCAL_SUMMARIES) for the things of `documents` (None: every
    document), asked one document at a time of the graph that holds its statements: with the document
    bound by VALUES the engine read every graph (10 s an edit at 10,000 articles)."""
    if documents is None:
        return select(prologue() + query)
    rows: Rows = []
    for document in sorted(documents):
        graph = _graph_of(document)
        rows += select(prologue() + query.replace(
            "GRAPH ?g {", f"VALUES (?doc ?g) {{ (<{document}> <{graph}>) }}\n  GRAPH <{graph}> {{", 1))
    return rows


def _graph_of(document: str) -> str:
    """The graph of a document's statements, where its local things live."""
    ids = iris.current()
    return iris.graph_iri(document[len(ids.document):]) if document.startswith(ids.document) else document


def open_read_only(path: Path) -> sqlite3.Connection:
    """A connection to a finished index file, usable from any thread. The file is never changed once
    renamed into place (a patch writes a copy), so SQLite takes no locks and needs no write access."""
    uri = "file:" + urllib.request.pathname2url(str(Path(path).absolute())) + "?mode=ro&immutable=1"
    return sqlite3.connect(uri, uri=True, check_same_thread=False, isolation_level=None)


def readable(path: Path, trust_seal: bool = False) -> bool:
    """Whether `path` is a whole, sound index file of this format (not another database, not cut
    short, no damaged page: SQLite's quick_check, which reads every page once; and the bytes it was
    sealed with, kg.store.checksums: a flipped bit in a row quick_check cannot see). With
    `trust_seal`, a file kept with its checksum is not quick-checked: its sum, or the status noted
    with it, vouches for its bytes (an incremental build reads its previous build's file so, where
    quick_check read every page of it: 0.85 s at 10,000 articles, ten times that at 100,000)."""
    if not checksums.intact(path):
        return False
    try:
        size = Path(path).stat().st_size
        db = open_read_only(path)
        try:
            found = [db.execute(f"PRAGMA {name}").fetchone()[0]
                     for name in ("application_id", "user_version", "page_count", "page_size")]
            sound = found[:2] == [APPLICATION_ID, FORMAT] and found[2] * found[3] == size
            if sound and not (trust_seal and checksums.sidecar(path).is_file()):
                sound = db.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        finally:
            db.close()
    except (OSError, sqlite3.Error):
        return False
    return sound


def write(db: sqlite3.Connection, labels: Rows, summaries: Rows) -> None:
    """A whole index into an empty database (`db` in autocommit mode)."""
    db.executescript(SCHEMA)
    with _transaction(db):
        _insert(db, labels, summaries)
    db.execute("INSERT INTO words (words) VALUES ('optimize')")
    db.execute("INSERT INTO grams (grams) VALUES ('optimize')")


def patch(db: sqlite3.Connection, touched: frozenset[str], labels: Rows, summaries: Rows,
          documents: frozenset[str] = frozenset()) -> None:
    """The rows of the entities `touched`, and of the things local to `documents` (document IRIs:
    changed, added or removed), replaced by `labels` and `summaries` (theirs, read again)."""
    with _transaction(db):
        db.execute("CREATE TEMP TABLE touched (iri TEXT PRIMARY KEY)")
        db.executemany("INSERT INTO touched VALUES (?)", [(iri,) for iri in touched])
        db.executemany("INSERT OR IGNORE INTO touched SELECT iri FROM entities WHERE document = ?",
                       [(document,) for document in documents])
        gone = db.execute("SELECT l.row, l.folded FROM labels l JOIN entities e ON e.id = l.entity "
                          "WHERE e.iri IN (SELECT iri FROM touched)").fetchall()
        db.executemany("INSERT INTO words (words, rowid, text) VALUES ('delete', ?, ?)",
                       [(row, word_text(folded)) for row, folded in gone])
        db.executemany("INSERT INTO grams (grams, rowid, text) VALUES ('delete', ?, ?)", gone)
        db.executemany("DELETE FROM labels WHERE row = ?", [(row,) for row, _ in gone])
        db.execute("DELETE FROM entities WHERE iri IN (SELECT iri FROM touched)")
        db.execute("DROP TABLE touched")
        _insert(db, labels, summaries)


@contextmanager
def _transaction(db: sqlite3.Connection) -> Iterator[None]:
    """One transaction (the connections here are in autocommit mode: isolation_level None)."""
    db.execute("BEGIN")
    try:
        yield
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _insert(db: sqlite3.Connection, labels: Rows, summaries: Rows) -> None:
    """Entities (in IRI order) and their labels (in entry order: entity, kind, label), both FTS5 tables too."""
    summary_of = {r["e"]: r for r in summaries}
    document_of = {r["e"]: r["doc"] for r in (*labels, *summaries) if r.get("doc")}
    iris = sorted({r["e"] for r in labels} | set(summary_of))
    db.executemany("INSERT INTO entities (iri, summary, label, types, mentions, document, descriptions) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?)",
                   [(*_entity(iri, summary_of.get(iri)), document_of.get(iri),
                     (summary_of.get(iri) or {}).get("descriptions")) for iri in iris])
    number = dict(db.execute("SELECT iri, id FROM entities WHERE iri IN (SELECT value FROM json_each(?))",
                             (json.dumps(iris),)))
    mentions = {r["e"]: int(r.get("mentions") or 0) for r in summaries}
    rows = sorted((number[r["e"]], KINDS.get(r["kind"], len(KINDS)), r["label"], r["kind"], mentions.get(r["e"], 0),
                   int(r["e"] in document_of)) for r in labels)
    first = db.execute("SELECT coalesce(max(row), 0) + 1 FROM labels").fetchone()[0]
    numbered = [(first + i, entity, label, kind, order, fold(label), count, local)
                for i, (entity, order, label, kind, count, local) in enumerate(rows)]
    db.executemany("INSERT INTO labels (row, entity, label, kind, kind_order, folded, mentions, local) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", numbered)
    db.executemany("INSERT INTO words (rowid, text) VALUES (?, ?)", [(r[0], word_text(r[5])) for r in numbered])
    db.executemany("INSERT INTO grams (rowid, text) VALUES (?, ?)", [(r[0], r[5]) for r in numbered])


def _entity(iri: str, summary: dict[str, str] | None) -> tuple[str, int, str, str, int]:
    if summary is None:
        return iri, 0, "", "", 0
    types = " ".join(sorted(summary.get("types", "").split()))
    return iri, 1, summary.get("label", ""), types, int(summary.get("mentions") or 0)


def _filled(path: Path, fill: Callable[[sqlite3.Connection], None]) -> None:
    """`path` (a partial file, renamed into place by the caller) filled by `fill`, without a journal:
    a file cut short by a crash is never renamed into place."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode = OFF")
        db.execute("PRAGMA synchronous = OFF")
        fill(db)
    finally:
        db.close()


def make_index(path: Path, labels: Rows, summaries: Rows) -> Path:
    """The index of these rows at `path`, made once (build_dirs.made_once)."""
    return build_dirs.made_once(path, lambda partial: _filled(partial, lambda db: write(db, labels, summaries)))


def write_build_index(build_dir: Path, previous_dir: Path | None = None,
                      touched: frozenset[str] | None = None, documents: frozenset[str] = frozenset(),
                      local_rows: LocalRows | None = None, records: str | None = None) -> None:
    """`kg build`'s step: the index of the build's store, into the build directory. An
    incremental build (`previous_dir`, the entities whose records it rewrote and the IRIs of the
    documents it added, changed or removed) patches a copy of the previous build's file: an edit
    costs what it changes, not a read of every label. A full build gives the rows of the things
    local to its documents as it read them (`local_rows`, kg.publish.search_locals) and the records'
    N-Quads it wrote (`records`, kg.publish.search_records): the store is not asked (its bulk load
    is then still under way)."""
    if local_rows is not None and records is not None:
        labels, summaries = record_rows(records)
        make_index(index_path(build_dir), labels + local_rows.labels, summaries + local_rows.summaries)
        return
    previous = index_path(previous_dir) if previous_dir is not None and touched is not None else None
    if previous is not None and not readable(previous, trust_seal=True):  # none (an earlier kg's build), or damaged
        previous = None
    with build_dirs.build_store(build_dir) as store:
        if previous is None:
            labels, summaries = label_rows(store.select)
        else:
            labels, summaries = label_rows(store.select, touched, documents)
    if previous is None:
        make_index(index_path(build_dir), labels, summaries)
    else:
        make_patched(previous, index_path(build_dir), touched, labels, summaries, documents)


def make_patched(previous: Path, path: Path, touched: frozenset[str], labels: Rows, summaries: Rows,
                 documents: frozenset[str] = frozenset()) -> Path:
    """The `previous` index file with the rows of `touched` and of `documents`' local things replaced,
    at `path` (made once; the previous file, which a server may be reading, is copied, never changed)."""
    def patched(partial: Path) -> None:
        shutil.copyfile(previous, partial)
        _filled(partial, lambda db: patch(db, touched, labels, summaries, documents))
    return build_dirs.made_once(path, patched)
