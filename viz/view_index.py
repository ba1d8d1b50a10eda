"""The graphs a page shows, cut from a build's view index (kg.publish.view_index): the page's own
(the whole graph when it is small, else the overview), one node's neighbourhood, what a filter
selects (a type, a date, a document), and a focus. Each is made by `graph_of` from the rows of its
nodes alone, with the whole graph's ranks (so colours agree between them), so it costs what it
shows. A graph cut from a larger one carries `total_nodes` and, on each node, `outside`: how many
of the node's edges lead out of it (the page fetches them when the node is clicked).
"""

from __future__ import annotations

import tempfile
from collections import deque
from pathlib import Path

import networkx as nx

from kg.errors import InputError
from kg.model import iris, nquads
from kg.model.iris import fold
from kg.model.view_parts import ViewPart
from kg.publish.view_data import FAMILIES, ViewParts, ViewSchema, view_schema
from kg.publish.view_index import ViewIndex, ViewRows, open_index, write_index
from kg.publish.view_index.read import SENTENCES_SHOWN_OTHERS, Scored
from kg.store.protocol import Select
from kg.viz.network import graph_of, store_rows

NEIGHBOURS_MAX = 200  # nodes a neighbourhood, a selection or a focus holds at most
OVERVIEW_LINKS = 8  # edges of each node an overview keeps: its strongest (the page draws 3 until one is selected)
ALL_FAMILIES = FAMILIES


def page_graph(index: ViewIndex, size: int | None = None) -> nx.MultiDiGraph:
    """The graph a page opens on: the whole graph when it has at most `size` nodes (default: the
    build's overview size), else the overview with each node's OVERVIEW_LINKS strongest edges,
    and the whole graph's summaries (dated events by date, figures by what they count) in
    `graph.graph["summary"]`."""
    nodes = index.overview(size)
    if len(nodes) >= index.total:
        return graph_of(index.schema, index.rows(nodes, cap=None), whole_ranks=index.ranks())
    graph = part_graph(index, nodes, strongest=OVERVIEW_LINKS)
    graph.graph["summary"] = {"dates": index.dates(), "figures": index.figure_topics()}
    return graph


def part_graph(index: ViewIndex, nodes: list[str], centre: str | None = None, edges_of: set[str] | None = None,
               strongest: int | None = None, mentions_of: set[str] | None = None) -> nx.MultiDiGraph:
    """The graph of `nodes` (and the edges among them; with `edges_of`, only those with an end
    among these; with `strongest`, only those among the strongest of an end) out of the index's
    whole graph, with the first SENTENCES_SHOWN_OTHERS sentences of each node's mentions (of those
    of `mentions_of` only, when given) and each edge's evidence (SENTENCES_SHOWN of `centre`'s mentions)."""
    rows: ViewRows = index.rows(nodes, SENTENCES_SHOWN_OTHERS, centre=centre, edges_of=edges_of, strongest=strongest,
                                mentions_of=mentions_of)
    graph = graph_of(index.schema, rows, whole_ranks=index.ranks())
    graph.graph["total_nodes"] = index.total
    scores = index.scores(graph)
    for node, data in graph.nodes(data=True):
        data["outside"] = max(0, scores[node].degree - graph.degree(node))
        if node in rows.mentioned:
            data["mentioned"] = rows.mentioned[node]
    return graph


def neighbourhood_graph(index: ViewIndex, node: str, limit: int = NEIGHBOURS_MAX) -> nx.MultiDiGraph:
    """`node`, its neighbours and its events' other actors: the `limit` best (score, then IRI)."""
    if node not in index:
        raise InputError(f"no node {node!r} in the view graph (expected the IRI of an entity or event)")
    # the node's edges and its events' roles (what links it to the entities it shares events
    # with): the edges among its neighbours come with their own neighbourhoods
    chosen, events_kept, figures = index.neighbourhood(node, limit)
    return part_graph(index, [node] + chosen, centre=node, edges_of={node} | events_kept,
                      mentions_of={node} | figures)


def selection_graph(index: ViewIndex, *, kind: str = "", family: str = "", date: str = "", doc: str = "",
                    limit: int = NEIGHBOURS_MAX) -> nx.MultiDiGraph:
    """The best nodes (at most half of `limit`) of a kind (a class IRI), a family, a date (a day,
    month or year as the timeline gives it: events dated so or within it) or a document, with
    what the events among them name (their actors, figures, quotes and dates; up to `limit` in all)."""
    half = max(1, limit // 2)
    if doc:
        chosen = _best(index, index.of_document(doc), half)
    elif date:
        chosen = index.best("date >= ? AND date < ?", (date, date + "\uffff"), half)
    elif kind:
        chosen = index.best_of_kind(kind, half)
    elif family:
        chosen = index.best("family = ?", (family,), half)
    else:
        raise InputError("a selection needs a kind, a family, a date or a document")
    scores = index.scores(chosen)
    events = [n for n, s in scores.items() if s.family == "Event"]
    named = index.participants(events, ALL_FAMILIES) - set(chosen)
    more = _best(index, named, limit - len(chosen))
    figures = {n for n, s in (scores | index.scores(more)).items() if s.family == "Figure"}
    return part_graph(index, chosen + more, mentions_of=figures)


def focus_graph(index: ViewIndex, node: str, depth: int, limit: int = NEIGHBOURS_MAX) -> nx.MultiDiGraph:
    """`node` and the nodes within `depth` edges of it (direction ignored), breadth first, the best
    of each ring first, at most `limit`."""
    if depth < 0:
        raise InputError(f"depth must be 0 or more, not {depth}")
    kept, queue = [node], deque([(node, 0)])
    seen = {node}
    while queue and len(kept) < limit:
        here, distance = queue.popleft()
        if distance == depth:
            continue
        ring = _best(index, index.neighbours(here) - seen, limit - len(kept))
        seen.update(ring)
        kept += ring
        queue.extend((n, distance + 1) for n in ring)
    return part_graph(index, kept) if len(kept) < index.total else page_graph(index, index.total)


def _best(index: ViewIndex, nodes: set[str], limit: int) -> list[str]:
    scores: dict[str, Scored] = index.scores(nodes)
    return sorted(scores, key=lambda n: (-scores[n].score, n))[:max(0, limit)]


def resolve(index: ViewIndex, ident: str, names=None) -> str:
    """The node an identifier names: an IRI, a canonical key ('person/juan-guaido'), a prefixed
    name ('kgr:person/juan-guaido'), or a whole label or alias of an entity (accents and case
    ignored), found with `names` (a search index, kg.publish.search)."""
    prefix, _, rest = ident.partition(":")
    candidates = [ident, iris.RESOURCE + ident]
    if prefix in iris.PREFIXES and not rest.startswith("//"):
        candidates.append(iris.PREFIXES[prefix] + rest)
    for candidate in candidates:
        if candidate in index:
            return candidate
    named = []
    if names is not None:  # a shared entity of that name, else a thing local to a document
        named = _named(index, names, ident, local=False) or _named(index, names, ident, local=True)
    if len(named) == 1:
        return named[0]
    if named:
        shown = ", ".join(_short_key(n) for n in named[:10])
        more = f" and {len(named) - 10} more" if len(named) > 10 else ""
        raise InputError(f"focus {ident!r} is ambiguous (expected one of: {shown}{more})")
    raise InputError(f"focus {ident!r} names no entity or event of the graph (expected a key such as "
                     "person/juan-guaido, an IRI, a label or an alias)")


def _named(index: ViewIndex, names, ident: str, local: bool) -> list[str]:
    """The nodes whose whole label or alias is `ident` (accents and case ignored): shared entities only,
    unless `local`."""
    key = fold(ident).strip()
    return sorted({hit.entity for hit in names.search(ident, 50, local=local)
                   if hit.rank == "exact" and fold(hit.label).strip() == key and hit.entity in index})


def _short_key(iri: str) -> str:
    """A node as `kg viz --focus` takes it: its canonical key, or its IRI."""
    return iri[len(iris.RESOURCE):] if iri.startswith(iris.RESOURCE) else iri


def store_index(select: Select, directory: Path | None = None) -> ViewIndex:
    """A view index of a store whose build kept none (a remote store): its rows read with SPARQL through
    the store's `select` and written as an index in `directory` (default: a temporary directory, removed with the index)."""
    schema = view_schema(select)
    rows = store_rows(select, schema)
    if directory is None:
        holder = tempfile.TemporaryDirectory(prefix="kg-view-")
        directory = Path(holder.name)
    else:
        holder = None
    parts = ViewParts(schema, rows_as_part(rows, schema))
    write_index(directory, parts)
    index = open_index(directory)
    assert index is not None
    index.holder = holder  # the temporary directory lives as long as the index
    return index


def rows_as_part(rows: ViewRows, schema: ViewSchema) -> ViewPart:
    """A store's view rows as one part (kg.model.view_parts), its literals as N-Quads terms."""
    classes = schema.classes
    triples = [(x, p, nquads.literal(v) if literal else f"<{v}>") for x, p, v, literal in rows.triples]
    docs = [(doc, d["title"], d["date"], rows.publishers.get(doc, "")) for doc, d in rows.docs.items()]
    return ViewPart([(x, c) for x, _, c in rows.nodes if c in classes], triples, rows.statements, rows.mentions,
                    [(s, d["text"], d["doc"]) for s, d in rows.sentences.items()], docs)
