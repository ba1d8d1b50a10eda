"""Reading a build's view index: what a page shows, asked node by node, never the whole graph.

Every answer is bounded by what it is asked for: the rows of the nodes a page shows (their mention
sentences and each edge's sentences capped), one node's neighbours, the best nodes of a type, a date
or a document, and the rankings and summaries the build derived. The segments are opened
read-only (`immutable`), one connection per thread.
"""

from __future__ import annotations

import sqlite3
import threading
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from kg.model.iris import FIXED_PREFIXES
from kg.publish.view_data import ACTORS, ViewSchema
from kg.publish.view_index import derive, state, tables

SAME_AS = FIXED_PREFIXES["owl"] + "sameAs"
PREF_LABEL = FIXED_PREFIXES["skos"] + "prefLabel"
SENTENCES_SHOWN = 20  # mention sentences of a node and sentences of an edge a page carries (the count says the rest)


@dataclass
class ViewRows:
    """The answers the view graph is made of, from a store's queries or from a build's view index:
    `nodes` (node, family, class); `triples` (node, predicate, value, is a literal) of every distinct
    triple about a node; `statements` (subject, predicate, object, sentence); `mentions` (node,
    sentence); `sentences` {sentence: {"text", "doc"}}; `docs` {document: {"title", "date",
    "publisher"}}; `mentioned` {node: the sentences that mention it, when `mentions` lists fewer};
    `publishers` {document: its publisher's IRI} (a store's answers)."""

    nodes: list[tuple[str, str, str]]
    triples: list[tuple[str, str, str, bool]]
    statements: list[tuple[str, str, str, str]]
    mentions: list[tuple[str, str]]
    sentences: dict[str, dict[str, str]]
    docs: dict[str, dict[str, str]]
    mentioned: dict[str, int] = field(default_factory=dict)
    publishers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Scored:
    """A node's family, kind, mentions, degree and score, as the build derived them."""

    family: str
    kind: str
    mentions: int
    degree: int
    score: int


class ViewIndex:
    """The view index of one build directory's `view-index/` (kg.publish.view_index)."""

    def __init__(self, schema: ViewSchema, base: Path, delta: Path | None) -> None:
        self.schema, self.base, self.delta = schema, base, delta
        self._local = threading.local()
        connection = self._connection()
        info = tables.meta(connection, "d" if delta else "main")
        self.total = int(info["nodes"])
        self.overview_size = int(info["overview"])
        self.counts = derive.read_ranks(connection, "d" if delta else "main")

    def _connection(self) -> sqlite3.Connection:
        connection = getattr(self._local, "connection", None)
        if connection is None:
            connection = tables.open_read(self.base)
            if self.delta is not None:
                tables.attach(connection, self.delta, "d")
            state.define(connection, "v", "main", "d" if self.delta else None)
            connection.execute("CREATE TEMP TABLE keep(node TEXT PRIMARY KEY) WITHOUT ROWID")
            connection.execute("CREATE TEMP TABLE wanted(iri TEXT PRIMARY KEY) WITHOUT ROWID")
            self._local.connection = connection
        return connection

    def close(self) -> None:
        connection = getattr(self._local, "connection", None)
        if connection is not None:
            connection.close()
            self._local.connection = None

    def __len__(self) -> int:
        return self.total

    def __contains__(self, node: object) -> bool:
        return isinstance(node, str) and self._connection().execute(
            "SELECT 1 FROM v_nodes WHERE node = ?", (node,)).fetchone() is not None

    # -- what the build derived ---------------------------------------------------------------

    def ranks(self) -> dict[str, list[str]]:
        """The whole graph's rankings of types, kinds of event and relations (kg.viz.network.ranks)."""
        ordered = derive.ordered_ranks(self.counts)
        return {key: ordered[key] for key in ("types", "events", "relations")}

    def overview(self, size: int | None = None) -> list[str]:
        """The nodes a page of at most `size` nodes opens on (default: the build's overview): every node
        when the graph has no more, else the `size` with the best score."""
        size = self.overview_size if size is None else size
        if self.total <= size:
            return self.all_nodes()
        if size == self.overview_size:
            return [row[0] for row in self._connection().execute(
                f"SELECT node FROM {'d' if self.delta else 'main'}.overview ORDER BY rank")]
        return self.best("", (), size)

    def all_nodes(self) -> list[str]:
        return [row[0] for row in self._connection().execute("SELECT node FROM v_nodes ORDER BY node")]

    def dates(self) -> list[tuple[str, int]]:
        """(date, dated events) of the whole graph, in date order."""
        return sorted(self.counts["dates"].items())

    def figure_topics(self) -> list[tuple[str, str, int]]:
        """(kind of event, role, figures) of the whole graph; ('', '', n): the figures in no event."""
        return [(*(key.split("\t") if key else ("", "")), n) for key, n in self.counts["figures"].items()]

    def scores(self, nodes: Iterable[str]) -> dict[str, Scored]:
        connection = self._keep(nodes)
        return {node: Scored(*rest) for node, *rest in connection.execute(
            "SELECT node, family, kind, mentions, degree, score FROM v_nodes WHERE node IN keep")}

    # -- choosing nodes ----------------------------------------------------------------------

    def best(self, where: str, params: tuple, limit: int) -> list[str]:
        """The `limit` nodes with the best score among those `where` (SQL over the `nodes` columns,
        empty: the overview's families), ties by IRI: the base's best (read in its index's order) less the
        nodes the delta overrides, merged with the delta's."""
        condition = where or f"family IN ({derive.OVERVIEW_IN})"
        connection = self._connection()
        overridden = {}
        if self.delta is not None:
            overridden = {node: score for node, score, ok in connection.execute(
                f"SELECT node, score, family IS NOT NULL AND ({condition}) FROM d.nodes", params)}
        found = {node: score for node, score in connection.execute(
            f"SELECT node, score FROM main.nodes WHERE family IS NOT NULL AND ({condition}) "
            "ORDER BY score DESC, node LIMIT ?", (*params, limit + len(overridden))) if node not in overridden}
        if self.delta is not None:
            found.update((node, score) for node, score, ok in connection.execute(
                f"SELECT node, score, 1 FROM d.nodes WHERE family IS NOT NULL AND ({condition})", params))
        return sorted(found, key=lambda n: (-found[n], n))[:limit]

    def neighbours(self, node: str) -> set[str]:
        """The nodes one edge away from `node`, either way."""
        skipped = ", ".join(f"'{p}'" for p in derive.SKIPPED_EDGES)
        return {row[0] for row in self._connection().execute(f"""
            WITH near(x) AS (SELECT o FROM v_links WHERE s = ?1 AND p NOT IN ({skipped})
                             UNION SELECT s FROM v_links WHERE o = ?1 AND p NOT IN ({skipped}))
            SELECT node FROM v_nodes WHERE node IN near AND node != ?1""", (node,))}

    def participants(self, events: Iterable[str]) -> set[str]:
        """The actors the events name in any role (their out-edges to actors)."""
        connection = self._keep(events)
        skipped = ", ".join(f"'{p}'" for p in derive.SKIPPED_EDGES)
        actors = ", ".join(f"'{f}'" for f in ACTORS)
        return {row[0] for row in connection.execute(f"""
            WITH near(x) AS (SELECT o FROM v_links WHERE s IN keep AND p NOT IN ({skipped}))
            SELECT node FROM v_nodes WHERE node IN near AND family IN ({actors})""")}

    def of_document(self, doc: str) -> set[str]:
        """The nodes a document's graph names (its own and the entities it mentions)."""
        connection = self._connection()
        arms = [("main", "v_gone")] + ([("d", None)] if self.delta else [])
        named: set[str] = set()
        for schema, gone in arms:
            skip = f"AND d.source NOT IN {gone}" if gone else ""
            named.update(row[0] for row in connection.execute(f"""
                SELECT sn.node FROM {schema}.docs d JOIN {schema}.source_nodes sn ON sn.source = d.source
                WHERE d.doc = ? {skip}""", (doc,)))
        return set(self.scores(named))

    # -- the rows of nodes ---------------------------------------------------------------------

    def rows(self, nodes: Iterable[str], cap: int | None = SENTENCES_SHOWN) -> ViewRows:
        """The rows of the view graph of `nodes` and the edges among them: their types, literals and
        links, the sentences of their mentions and of their edges (the first `cap` by IRI of each;
        None: all), the texts of those sentences and the documents they and the nodes belong to."""
        cap = 2**62 if cap is None else cap
        connection = self._keep(nodes)
        found = [tuple(row) for row in connection.execute("""
            SELECT DISTINCT t.node, c.family, t.cls FROM v_types t JOIN main.classes c USING (cls)
            WHERE t.node IN keep""")]
        triples = [(x, p, v, True) for x, p, v in connection.execute(
            "SELECT DISTINCT node, p, v FROM v_literals WHERE node IN keep")]
        triples += [(x, p, o, False) for x, p, o in connection.execute(
            "SELECT DISTINCT s, p, o FROM v_links WHERE s IN keep AND (o IN keep OR p = ?)", (SAME_AS,))]
        statements = [tuple(row) for row in connection.execute("""
            SELECT s, p, o, sentence FROM (
              SELECT s, p, o, sentence, ROW_NUMBER() OVER (PARTITION BY s, p, o ORDER BY sentence) AS r FROM (
                SELECT DISTINCT s, p, o, sentence FROM v_statements WHERE s IN keep AND o IN keep))
            WHERE r <= ?""", (cap,))]
        mentions, mentioned = [], {}
        for node, sentence, total in connection.execute("""
                SELECT node, sentence, n FROM (
                  SELECT node, sentence, ROW_NUMBER() OVER (PARTITION BY node ORDER BY sentence) AS r,
                         COUNT(*) OVER (PARTITION BY node) AS n FROM (
                    SELECT DISTINCT node, sentence FROM v_mentions WHERE node IN keep))
                WHERE r <= ?""", (cap,)):
            mentions.append((node, sentence))
            if total > cap:
                mentioned[node] = total
        sentences = self._sentences({s for *_, s in statements} | {s for _, s in mentions})
        docs = self._documents({found["doc"] for found in sentences.values()}
                               | {node.rsplit("/", 2)[0] for node, _, _ in found})
        return ViewRows(found, triples, statements, mentions, sentences, docs, mentioned)

    def _sentences(self, cited: set[str]) -> dict[str, dict[str, str]]:
        connection = self._wanted(cited)
        return {sentence: {"text": text, "doc": doc} for sentence, text, doc in connection.execute(
            "SELECT DISTINCT sentence, text, doc FROM v_sentences WHERE sentence IN wanted ORDER BY sentence")}

    def _documents(self, candidates: set[str]) -> dict[str, dict[str, str]]:
        """{document: title, date, publisher's label} of the candidates that are documents."""
        connection = self._wanted(candidates)
        rows = sorted(connection.execute(
            "SELECT DISTINCT doc, title, date, publisher FROM v_docs WHERE doc IN wanted"))
        connection = self._wanted({publisher for *_, publisher in rows if publisher})
        labels = dict(connection.execute(
            "SELECT node, MIN(v) FROM v_literals WHERE node IN wanted AND p = ? GROUP BY node", (PREF_LABEL,)))
        docs: dict[str, dict[str, str]] = {}
        for doc, title, date, publisher in rows:
            docs.setdefault(doc, {"title": title, "date": date, "publisher": labels.get(publisher, "")})
        return docs

    def _keep(self, nodes: Iterable[str]) -> sqlite3.Connection:
        connection = self._connection()
        connection.execute("DELETE FROM keep")
        connection.executemany("INSERT OR IGNORE INTO keep VALUES (?)", ((n,) for n in nodes))
        return connection

    def _wanted(self, iris: Iterable[str]) -> sqlite3.Connection:
        connection = self._connection()
        connection.execute("DELETE FROM wanted")
        connection.executemany("INSERT OR IGNORE INTO wanted VALUES (?)", ((i,) for i in iris))
        return connection


def kind_counts(index: ViewIndex) -> Counter:
    """{kind: nodes} of the whole graph's corpus types and kinds of event."""
    return index.counts["types"] + index.counts["events"]
