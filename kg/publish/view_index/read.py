"""Reading a build's view index: what a page shows, asked node by node, never the whole graph.

Every answer is bounded by what it is asked for: the rows of the nodes a page shows (their mention
sentences and each edge's sentences capped), one node's neighbours, the best nodes of a type, a date
or a document, and the rankings and summaries the build derived. The segments are opened
read-only (`immutable`), one connection per thread. Nodes are named by IRI outside, by number inside.
"""

from __future__ import annotations

import sqlite3
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from kg.model.iris import FIXED_PREFIXES
from kg.model.view_parts import lexical
from kg.publish.view_data import ACTORS, ViewSchema
from kg.publish.view_index import derive, state, tables

SAME_AS = FIXED_PREFIXES["owl"] + "sameAs"
PREF_LABEL = FIXED_PREFIXES["skos"] + "prefLabel"
SENTENCES_SHOWN = 20  # mention sentences of the node a block is about (the count says the rest)
SENTENCES_SHOWN_OTHERS = 3  # ... and of every other node and edge of a part of the graph
# nodes whose literal rows a reader keeps once read, the last read: a place named in every article has
# a row per article stating it (its owl:sameAs), thousands, for a few distinct, and is in most parts
LITERALS_KEPT = 10_000
TERMS_KEPT = 50_000  # IRIs of numbers a reader keeps once read, the last read (nodes, predicates, documents recur)


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


@dataclass
class Sources:
    """What a click on a node or an edge shows of its provenance: `mentions` {node: the first
    sentences that mention it}, `mentioned` {node: how many do, when more than listed}, `stated`
    [the first sentences that state each relation asked, in the order asked], `sentences`
    {sentence: {"text", "doc"}} and `docs` {document: {"title", "date", "publisher"}} of them all."""

    mentions: dict[str, list[str]]
    mentioned: dict[str, int]
    stated: list[list[str]]
    sentences: dict[str, dict[str, str]]
    docs: dict[str, dict[str, str]]


@dataclass(frozen=True)
class Scored:
    """A node's family, kind (its most specific class), mentions, degree and score, as the build
    derived them."""

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
        self._literals: OrderedDict[int, list[tuple[int, int, str]]] = OrderedDict()  # see LITERALS_KEPT
        self._kept_lock = threading.Lock()  # of what a reader keeps (_literals, _terms)
        self._terms: OrderedDict[int, str] = OrderedDict()  # see TERMS_KEPT
        connection, _ = self._connection()
        info = tables.meta(connection, "d" if delta else "main")
        self.total = int(info["nodes"])
        self.overview_size = int(info["overview"])
        self.counts = derive.read_ranks(connection, "d" if delta else "main")
        self._ranks = derive.ordered_ranks(self.counts)

    def _connection(self) -> tuple[sqlite3.Connection, state.State]:
        found = getattr(self._local, "connection", None)
        if found is None:
            connection = tables.open_read(self.base)
            if self.delta is not None:
                tables.attach(connection, self.delta, "d")
            whole = state.define(connection, "v", "main", "d" if self.delta else None)
            # numbers without a type, as the row tables' columns have none: `x IN keep` on an untyped
            # column then probes its index for each number, where an INTEGER column's affinity made
            # SQLite scan the whole index (a neighbourhood's literals: 0.16 s, now 0.05 s)
            for table in ("keep", "more"):
                connection.execute(f"CREATE TEMP TABLE {table}(node PRIMARY KEY) WITHOUT ROWID")
            connection.execute("CREATE TEMP TABLE wanted(iri TEXT PRIMARY KEY) WITHOUT ROWID")
            # a neighbourhood's candidates: one edge away (`adjacent`), or actors named by an event that is
            connection.execute("CREATE TEMP TABLE near(node PRIMARY KEY, family TEXT, score INTEGER, adjacent INTEGER) "
                               "WITHOUT ROWID")
            # ... and the roles of the events among them: (event, its score, actor, its family and score)
            connection.execute("CREATE TEMP TABLE roles(event, rank INTEGER, actor, family TEXT, score INTEGER)")
            found = self._local.connection = (connection, whole)
        return found

    def __len__(self) -> int:
        return self.total

    def __contains__(self, node: object) -> bool:
        if not isinstance(node, str):
            return False
        connection, _ = self._connection()
        return connection.execute("SELECT 1 FROM v_nodes WHERE node = (SELECT id FROM v_terms WHERE iri = ?)",
                                  (node,)).fetchone() is not None

    # -- what the build derived ---------------------------------------------------------------

    def ranks(self) -> dict[str, list[str]]:
        """The whole graph's rankings of types, kinds of event and relations (kg.viz.network.ranks)."""
        return {key: list(self._ranks[key]) for key in ("types", "events", "relations")}

    def overview(self, size: int | None = None) -> list[str]:
        """The nodes a page of at most `size` nodes opens on (default: the build's overview): every node
        when the graph has no more, else the `size` with the best score."""
        size = self.overview_size if size is None else size
        if self.total <= size:
            return self.all_nodes()
        connection, whole = self._connection()
        if size != self.overview_size:
            return self.best("", (), size)
        kept = f"{'d' if self.delta else 'main'}.overview"
        ranked = [row[0] for row in connection.execute(f"SELECT node FROM {kept} ORDER BY rank")]
        iris = derive.names(connection, whole, ranked)  # by number: a join with the terms' union read it whole
        return [iris[node] for node in ranked]

    def all_nodes(self) -> list[str]:
        connection, _ = self._connection()
        return sorted(row[0] for row in connection.execute(
            "SELECT t.iri FROM v_nodes n JOIN v_terms t ON t.id = n.node"))

    def dates(self) -> list[tuple[str, int]]:
        """(date, dated events) of the whole graph, in date order."""
        return sorted(self.counts["dates"].items())

    def figure_topics(self) -> list[tuple[str, str, int]]:
        """(kind of event, role, figures) of the whole graph; ('', '', n): the figures in no event."""
        return [(*(key.split("\t") if key else ("", "")), n) for key, n in self.counts["figures"].items()]

    def scores(self, nodes: Iterable[str]) -> dict[str, Scored]:
        connection, _ = self._keep(nodes)
        return {node: Scored(family, kind, mentions, degree, score) for node, family, kind, mentions, degree, score
                in connection.execute("""
                    SELECT t.iri, n.family, k.iri, n.mentions, n.degree, n.score FROM v_nodes n
                    JOIN v_terms t ON t.id = n.node JOIN v_terms k ON k.id = n.kind WHERE n.node IN keep""")}

    # -- choosing nodes ----------------------------------------------------------------------

    def best(self, where: str, params: tuple, limit: int) -> list[str]:
        """The `limit` nodes with the best score among those `where` (SQL over the columns of
        `nodes`; empty: the overview's families), ties by IRI."""
        if limit <= 0:
            return []
        connection, whole = self._connection()
        return [iri for _, iri in derive.best(connection, whole, where, params, limit)]

    def best_of_kind(self, kind: str, limit: int) -> list[str]:
        return self.best("kind = (SELECT id FROM v_terms WHERE iri = ?)", (kind,), limit)

    def neighbours(self, node: str) -> set[str]:
        """The nodes one edge away from `node`, either way."""
        connection, _ = self._connection()
        return {row[0] for row in connection.execute("""
            WITH x(id) AS (SELECT id FROM v_terms WHERE iri = ?),
                 near(n) AS (SELECT o FROM v_edges WHERE s = (SELECT id FROM x)
                             UNION SELECT s FROM v_edges WHERE o = (SELECT id FROM x))
            SELECT iri FROM v_terms WHERE id IN near AND id != (SELECT id FROM x)""", (node,))}

    def neighbourhood(self, node: str, limit: int) -> tuple[list[str], set[str], set[str]]:
        """The nodes a neighbourhood of `node` shows besides it, at most `limit`, with the events
        and the figures among them: the best actors (score, then IRI) one edge away or named by an
        event one edge away, three fifths of `limit`; then the best of those events that name a chosen
        actor; then the best of the other nodes one edge away. Chosen in SQL by number (TEMP.near:
        the candidates, their family and score), named once chosen: a node linked to thousands
        costs their rows in SQLite, not in Python."""
        connection, whole = self._connection()
        found = connection.execute("SELECT id FROM v_terms WHERE iri = ?", (node,)).fetchone()
        if found is None:
            return [], set(), set()
        connection.execute("DELETE FROM near")
        connection.execute("""INSERT INTO near SELECT n.node, n.family, n.score, 1 FROM v_nodes n
            WHERE n.node IN (SELECT o FROM v_edges WHERE s = ?1 UNION SELECT s FROM v_edges WHERE o = ?1) AND n.node != ?1""",
                           (found[0],))
        listed = ", ".join(f"'{f}'" for f in ACTORS)
        connection.execute("DELETE FROM roles")
        connection.execute(f"""INSERT INTO roles SELECT e.node, e.score, n.node, n.family, n.score
            FROM near e JOIN v_edges l ON l.s = e.node JOIN v_nodes n ON n.node = l.o
            WHERE e.family = 'Event' AND n.family IN ({listed})""")
        connection.execute("INSERT OR IGNORE INTO near SELECT DISTINCT actor, family, score, 0 FROM roles WHERE actor != ?",
                           (found[0],))
        chosen = _best_near(connection, whole, f"family IN ({listed})", (limit - 1) * 3 // 5)
        connection.execute("DELETE FROM keep")
        connection.executemany("INSERT INTO keep VALUES (?)", ((n,) for n in chosen))
        linking = dict(connection.execute("SELECT DISTINCT event, rank FROM roles WHERE actor IN keep"))
        chosen += _best_of(connection, whole, linking, limit - 1 - len(chosen))
        connection.executemany("INSERT OR IGNORE INTO keep VALUES (?)", ((n,) for n in chosen))
        chosen += _best_near(connection, whole, "adjacent AND node NOT IN keep", limit - 1 - len(chosen))
        iris = derive.names(connection, whole, chosen)
        connection.execute("DELETE FROM keep")
        connection.executemany("INSERT INTO keep VALUES (?)", ((n,) for n in chosen))
        families = dict(connection.execute("SELECT node, family FROM near WHERE adjacent AND node IN keep"))
        return ([iris[n] for n in chosen], {iris[n] for n in chosen if families.get(n) == "Event"},
                {iris[n] for n in chosen if families.get(n) == "Figure"})

    def participants(self, events: Iterable[str], families: Iterable[str] = ACTORS) -> set[str]:
        """The nodes of `families` (default: the actors) the events name in any role (their out-edges)."""
        return {node for named in self.roles(events, families).values() for node in named}

    def roles(self, events: Iterable[str], families: Iterable[str] = ACTORS) -> dict[str, set[str]]:
        """{event: the nodes of `families` (default: the actors) it names} of `events`."""
        connection, _ = self._keep(events)
        listed = ", ".join(f"'{f}'" for f in families)
        found: dict[str, set[str]] = {}
        for event, named in connection.execute(f"""
                SELECT e.iri, a.iri FROM v_edges l JOIN v_nodes n ON n.node = l.o
                JOIN v_terms e ON e.id = l.s JOIN v_terms a ON a.id = l.o
                WHERE l.s IN keep AND n.family IN ({listed})"""):
            found.setdefault(event, set()).add(named)
        return found

    def of_document(self, doc: str) -> set[str]:
        """The nodes a document's graph names (its own and the entities it mentions)."""
        connection, _ = self._connection()
        arms = [("main", "v_gone")] + ([("d", None)] if self.delta else [])
        named: set[int] = set()
        for schema, gone in arms:
            skip = f"AND d.source NOT IN {gone}" if gone else ""
            named.update(row[0] for row in connection.execute(f"""
                SELECT sn.node FROM {schema}.docs d JOIN {schema}.source_nodes sn ON sn.source = d.source
                WHERE d.doc = (SELECT id FROM v_terms WHERE iri = ?) {skip}""", (doc,)))
        connection.execute("DELETE FROM more")
        connection.executemany("INSERT OR IGNORE INTO more VALUES (?)", ((n,) for n in named))
        return {row[0] for row in connection.execute(
            "SELECT t.iri FROM v_nodes n JOIN v_terms t ON t.id = n.node WHERE n.node IN more")}

    # -- the rows of nodes ---------------------------------------------------------------------

    def rows(self, nodes: Iterable[str], cap: int | None = SENTENCES_SHOWN, *, centre: str | None = None,
             edges_of: Iterable[str] | None = None, strongest: int | None = None,
             mentions_of: Iterable[str] | None = None) -> ViewRows:
        """The rows of the view graph of `nodes` and the edges among them: their types, literals and
        edges, the sentences of their mentions and of their edges (the first `cap` found of each;
        None: all; SENTENCES_SHOWN for the mentions of `centre`), the texts of those sentences and
        the documents they and the nodes belong to. With `edges_of`, only the edges with an end
        among those nodes; with `strongest`, only those among the `strongest` of one of their ends
        (the most sources stating them, then the first by number); with `mentions_of`, the mention
        sentences of those nodes only (the others' counted). Each query reads the rows of one
        node or edge, as many as it keeps: a node mentioned a hundred thousand times costs `cap` rows."""
        cap = 2**62 if cap is None else cap
        connection, whole = self._keep(nodes)
        found = list(connection.execute(f"""
            SELECT DISTINCT t.node, c.family, t.cls FROM ({whole.rows("types", "node, cls", "node IN keep")}) t
            JOIN main.classes c USING (cls)"""))
        same_as = connection.execute(f"SELECT {whole.term(SAME_AS)}").fetchone()[0]
        literals, links = [], []
        for node, p, v in self._literal_rows(connection, whole):
            (links if p == same_as else literals).append((node, p, v))
        edges = self._edges(connection, edges_of, strongest)
        totals = dict(connection.execute("SELECT node, sentences FROM v_nodes WHERE node IN keep"))
        centre_id = connection.execute("SELECT id FROM v_terms WHERE iri = ?", (centre or "",)).fetchone()
        centre_id = centre_id[0] if centre_id else None
        read = None if mentions_of is None else set(self._numbers(set(mentions_of)).values())
        mentions = []
        for node in list(totals):
            limit = max(cap, SENTENCES_SHOWN) if node == centre_id else cap
            if read is not None and node not in read:
                limit = 0
            if limit:
                mentions += [(node, sentence) for sentence in _mention_sentences(connection, node, limit)]
            if totals[node] <= limit:
                del totals[node]
        statements = [(s, p, o, sentence) for s, p, o in edges for sentence in _stating(connection, (s, p, o), cap)]
        cited = {row[3] for row in statements} | {row[1] for row in mentions}
        texts = _sentences(connection, whole, cited)
        named = {x for row in found for x in (row[0], row[2])} | {x for row in literals for x in row[:2]}
        named |= {x for rows in (edges, statements, mentions) for row in rows for x in row} | {same_as}
        iris = self._names(connection, whole, named | {x for row in links for x in row[:2]} | {doc for _, doc in texts.values()})
        sentences = {iris[s]: {"text": text, "doc": iris[doc]} for s, (text, doc) in sorted(
            texts.items(), key=lambda item: iris[item[0]])}
        heads = {iris[n].rsplit("/", 2)[0] for n, _, _ in found}  # a document's own nodes are named after it
        return ViewRows(
            [(iris[n], family, iris[c]) for n, family, c in found],
            [(iris[n], iris[p], lexical(v), True) for n, p, v in literals]
            + [(iris[n], SAME_AS, v[1:-1], False) for n, _, v in links]
            + [(iris[s], iris[p], iris[o], False) for s, p, o in edges],
            [(iris[s], iris[p], iris[o], iris[e]) for s, p, o, e in statements],
            [(iris[n], iris[e]) for n, e in mentions],
            sentences, self._documents({doc for _, doc in texts.values()}, heads),
            {iris[n]: total for n, total in totals.items()})

    def sources(self, nodes: Iterable[str], relations: Iterable[tuple[str, str, str]], docs: Iterable[str] = (),
                node_cap: int = SENTENCES_SHOWN, relation_cap: int = SENTENCES_SHOWN_OTHERS) -> Sources:
        """The provenance of `nodes` (the first `node_cap` sentences that mention each) and of
        `relations` (subject, predicate, object IRIs: the first `relation_cap` sentences that
        state each; none for a relation the graph lacks), with those sentences' texts and
        documents, and the documents `docs` (those the index holds): what the panel of a clicked
        node or edge cites, and the timeline lists. Costs what it is asked for."""
        nodes, relations = list(nodes), list(relations)
        connection, whole = self._connection()
        number = self._numbers({*nodes, *(term for relation in relations for term in relation)})
        mentions: dict[int, list[int]] = {}
        mentioned: dict[int, int] = {}
        for node in (number[n] for n in nodes if n in number):
            mentions[node] = _mention_sentences(connection, node, node_cap)
            total = connection.execute("SELECT sentences FROM v_nodes WHERE node = ?", (node,)).fetchone()
            if total and total[0] > len(mentions[node]):
                mentioned[node] = total[0]
        stated = [_stating(connection, tuple(number[t] for t in relation), relation_cap)
                  if all(t in number for t in relation) else [] for relation in relations]
        texts = _sentences(connection, whole, {s for found in [*mentions.values(), *stated] for s in found})
        iris = self._names(connection, whole, set(texts) | {doc for _, doc in texts.values()})
        sentences = {iris[s]: {"text": text, "doc": iris[doc]} for s, (text, doc) in sorted(
            texts.items(), key=lambda item: iris[item[0]])}
        name = {n: iri for iri, n in number.items()}
        return Sources({name[n]: [iris[s] for s in found] for n, found in mentions.items()},
                       {name[n]: total for n, total in mentioned.items()},
                       [[iris[s] for s in found] for found in stated], sentences,
                       self._documents({doc for _, doc in texts.values()}, set(docs)))

    def _names(self, connection: sqlite3.Connection, whole: state.State, numbers: set[int]) -> dict[int, str]:
        """{number: IRI} of `numbers` (derive.names), those kept from an earlier read not read again
        (TERMS_KEPT)."""
        with self._kept_lock:
            found = {n: self._terms[n] for n in numbers if n in self._terms}
            for n in found:
                self._terms.move_to_end(n)
        read = derive.names(connection, whole, [n for n in numbers if n not in found])
        with self._kept_lock:
            self._terms.update(read)
            while len(self._terms) > TERMS_KEPT:
                self._terms.popitem(last=False)
        return found | read

    def _literal_rows(self, connection: sqlite3.Connection, whole: state.State) -> list[tuple[int, int, str]]:
        """The distinct (node, predicate, N-Quads term) of the literals (and owl:sameAs) of the nodes
        in TEMP.keep: those kept from an earlier read, and the others read (then kept, the
        LITERALS_KEPT last read)."""
        numbers = [row[0] for row in connection.execute("SELECT node FROM keep")]
        with self._kept_lock:
            found = {n: self._literals[n] for n in numbers if n in self._literals}
            for n in found:
                self._literals.move_to_end(n)
        read: dict[int, list[tuple[int, int, str]]] = {n: [] for n in numbers if n not in found}
        connection.execute("DELETE FROM more")
        connection.executemany("INSERT INTO more VALUES (?)", ((n,) for n in read))
        for node, p, v in connection.execute(
                f"SELECT DISTINCT node, p, v FROM ({whole.rows('literals', 'node, p, v', 'node IN more')})"):
            read[node].append((node, p, v))
        with self._kept_lock:
            self._literals.update(read)
            while len(self._literals) > LITERALS_KEPT:
                self._literals.popitem(last=False)
        return [row for rows in (*found.values(), *read.values()) for row in rows]

    def _numbers(self, terms: set[str]) -> dict[str, int]:
        """{IRI: number} of those of `terms` the index names."""
        connection, _ = self._connection()
        connection.execute("DELETE FROM wanted")
        connection.executemany("INSERT OR IGNORE INTO wanted VALUES (?)", ((t,) for t in terms))
        return dict(connection.execute("SELECT iri, id FROM v_terms WHERE iri IN wanted"))

    @staticmethod
    def _edges(connection: sqlite3.Connection, edges_of: Iterable[str] | None,
               strongest: int | None) -> list[tuple[int, int, int]]:
        """The edges among TEMP.keep (see `rows`)."""
        if edges_of is None:
            # by subject (`+o`: not by object's index): a node's out-edges are its roles and relations, a
            # few, while its in-edges are every event naming it, thousands for the most mentioned
            found = list(connection.execute("SELECT s, p, o, sources FROM v_edges WHERE s IN keep AND +o IN keep"))
        else:
            connection.execute("DELETE FROM wanted")
            connection.executemany("INSERT OR IGNORE INTO wanted VALUES (?)", ((n,) for n in edges_of))
            connection.execute("DELETE FROM more")
            connection.execute("INSERT OR IGNORE INTO more SELECT id FROM v_terms WHERE iri IN wanted")
            # the out-edges and the in-edges of those ends, not every out-edge of the kept nodes (a
            # place or a date kept is the object of thousands)
            found = list(connection.execute("SELECT s, p, o, sources FROM v_edges WHERE s IN more AND +o IN keep UNION ALL "
                                            "SELECT s, p, o, sources FROM v_edges WHERE o IN more AND +s IN keep "
                                            "AND +s NOT IN more"))
        if strongest is not None:
            by_end: dict[int, list[tuple[int, tuple]]] = {}
            for s, p, o, sources in found:
                for end in (s, o):
                    by_end.setdefault(end, []).append((-sources, (s, p, o)))
            kept = {edge for ranked in by_end.values() for _, edge in sorted(ranked)[:strongest]}
            return sorted(kept)
        return [(s, p, o) for s, p, o, _ in found]

    def _documents(self, numbers: set[int], candidates: set[str]) -> dict[str, dict[str, str]]:
        """{document: title, date, publisher's label} of the candidates (by number, and by IRI) that are documents."""
        connection, whole = self._connection()
        connection.execute("DELETE FROM wanted")
        connection.executemany("INSERT OR IGNORE INTO wanted VALUES (?)", ((c,) for c in candidates))
        connection.execute("DELETE FROM more")
        connection.execute("INSERT OR IGNORE INTO more SELECT id FROM v_terms WHERE iri IN wanted")
        connection.executemany("INSERT OR IGNORE INTO more VALUES (?)", ((n,) for n in numbers))
        found = set(connection.execute(
            f"SELECT doc, title, date, publisher FROM ({whole.rows('docs', 'doc, title, date, publisher', 'doc IN more')})"))
        connection.execute("DELETE FROM more")
        connection.executemany("INSERT OR IGNORE INTO more VALUES (?)", {(row[3],) for row in found if row[3]})
        named = dict(connection.execute(f"""SELECT node, MIN(v) FROM ({whole.rows(
            'literals', 'node, v', f'node IN more AND p = {whole.term(PREF_LABEL)}')}) GROUP BY node"""))
        iris = self._names(connection, whole, {row[0] for row in found})
        rows = sorted({(iris[doc], title, date, named.get(publisher) or "") for doc, title, date, publisher in found})
        docs: dict[str, dict[str, str]] = {}
        for doc, title, date, publisher in rows:
            docs.setdefault(doc, {"title": title, "date": date, "publisher": lexical(publisher) if publisher else ""})
        return docs

    def _keep(self, nodes: Iterable[str]) -> tuple[sqlite3.Connection, state.State]:
        """The connection, with the numbers of `nodes` in TEMP.keep."""
        connection, whole = self._connection()
        connection.execute("DELETE FROM wanted")
        connection.executemany("INSERT OR IGNORE INTO wanted VALUES (?)", ((n,) for n in nodes))
        connection.execute("DELETE FROM keep")
        connection.execute("INSERT OR IGNORE INTO keep SELECT id FROM v_terms WHERE iri IN wanted")
        return connection, whole


def _best_near(connection: sqlite3.Connection, whole: state.State, condition: str, limit: int) -> list[int]:
    """The `limit` nodes of TEMP.near meeting `condition` with the best score, ties by IRI: only
    those tied with the last kept or better are read."""
    if limit <= 0:
        return []
    bound = connection.execute(f"SELECT score FROM near WHERE {condition} ORDER BY score DESC LIMIT 1 OFFSET ?",
                               (limit - 1,)).fetchone()
    at_least = f"AND score >= {int(bound[0])}" if bound else ""
    return _best_of(connection, whole, dict(connection.execute(f"SELECT node, score FROM near WHERE {condition} {at_least}")),
                    limit)


def _best_of(connection: sqlite3.Connection, whole: state.State, scores: dict[int, int], limit: int) -> list[int]:
    """The `limit` numbers of `scores` with the best score, ties by IRI: only those tied with the
    last kept or better are named."""
    if limit <= 0 or not scores:
        return []
    ranked = sorted(scores.values(), reverse=True)
    bound = ranked[min(limit, len(ranked)) - 1]
    tied = [n for n, score in scores.items() if score >= bound]
    iris = derive.names(connection, whole, tied)
    return sorted(tied, key=lambda n: (-scores[n], iris[n]))[:limit]


def _mention_sentences(connection: sqlite3.Connection, node: int, limit: int) -> list[int]:
    """The first `limit` sentences that mention `node` (by number)."""
    return [row[0] for row in connection.execute(
        "SELECT DISTINCT sentence FROM v_mentions WHERE node = ? LIMIT ?", (node, limit))]


def _stating(connection: sqlite3.Connection, edge: tuple[int, ...], limit: int) -> list[int]:
    """The first `limit` sentences that state `edge` (subject, predicate, object, by number)."""
    s, p, o = edge
    return [row[0] for row in connection.execute(
        "SELECT DISTINCT sentence FROM v_statements WHERE s = ? AND o = ? AND p = ? LIMIT ?", (s, o, p, limit))]


def _sentences(connection: sqlite3.Connection, whole: state.State, cited: set[int]) -> dict[int, tuple[str, int]]:
    """{sentence: (its text, its document)} of the cited sentence numbers, read through `whole`
    (the base and any delta) by lookup."""
    connection.execute("DELETE FROM more")
    connection.executemany("INSERT OR IGNORE INTO more VALUES (?)", ((s,) for s in cited))
    return {sentence: (text, doc) for sentence, text, doc in connection.execute(
        f"SELECT DISTINCT sentence, text, doc FROM ({whole.rows('sentences', 'sentence, text, doc', 'sentence IN more')})"
        " ORDER BY sentence, text, doc")}
