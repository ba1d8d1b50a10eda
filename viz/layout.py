"""Node positions computed in Python, for graphs too large for live physics in the browser.

networkx's spring layout is quadratic per iteration; at 5,000 nodes it takes
half a minute. So small graphs get a plain spring layout, and larger ones a
two-level layout: a spring layout of the best-connected `CORE_SIZE` nodes,
then every other node placed near the nodes it links to, in breadth-first
order, and components the core does not reach laid out on their own in a row
below. Deterministic: the same graph gives the same positions.
"""

from __future__ import annotations

import math
import random

import networkx as nx

from kg.viz.network import ordered_subgraph

CORE_SIZE = 400
SPREAD = 60.0  # pixels per sqrt(node): the drawing grows with the graph


def python_layout(graph: nx.Graph) -> dict[str, tuple[float, float]]:
    """Positions in vis-network canvas pixels for every node of `graph`."""
    simple = nx.Graph(graph.to_undirected(as_view=True)) if graph.is_directed() else nx.Graph(graph)
    if simple.number_of_nodes() == 0:
        return {}
    pos = _spring(simple) if len(simple) <= CORE_SIZE else _two_level(simple)
    scale = SPREAD * math.sqrt(len(simple))
    return {n: (round(x * scale, 1), round(y * scale, 1)) for n, (x, y) in pos.items()}


def _spring(graph: nx.Graph) -> dict:
    return {n: tuple(p) for n, p in nx.spring_layout(graph, seed=7, iterations=60).items()}


def _two_level(graph: nx.Graph) -> dict:
    core = sorted(graph, key=lambda n: (-graph.degree(n), str(n)))[:CORE_SIZE]
    pos = _spring(ordered_subgraph(graph, core))
    step = 1.0 / math.sqrt(len(graph))
    _place_near_neighbours(graph, pos, 0.5 * step, 1.5 * step)
    _place_unreached(graph, pos)
    return pos


def _place_near_neighbours(graph: nx.Graph, pos: dict, near: float, far: float) -> None:
    """Place every node `pos` lacks, in breadth-first order from the placed ones, at a random
    distance between `near` and `far` from the mean of its placed neighbours (seeded)."""
    rng = random.Random(7)
    for node in _bfs_from(graph, pos):
        placed = [pos[m] for m in graph[node] if m in pos]
        cx = sum(p[0] for p in placed) / len(placed)
        cy = sum(p[1] for p in placed) / len(placed)
        angle, radius = rng.uniform(0, 2 * math.pi), rng.uniform(near, far)
        pos[node] = (cx + radius * math.cos(angle), cy + radius * math.sin(angle))


def _bfs_from(graph: nx.Graph, placed: dict) -> list:
    """Nodes not yet placed, in breadth-first order from the placed ones."""
    order, frontier, seen = [], list(placed), set(placed)
    while frontier:
        nxt = []
        for node in frontier:
            for m in sorted(graph[node], key=str):
                if m not in seen:
                    seen.add(m)
                    order.append(m)
                    nxt.append(m)
        frontier = nxt
    return order


def _place_unreached(graph: nx.Graph, pos: dict) -> None:
    """Lay out each component the core does not touch, side by side under the main drawing."""
    rest = [c for c in nx.connected_components(graph) if not c & pos.keys()]
    if not rest:
        return
    bottom = max((p[1] for p in pos.values()), default=0.0) + 0.3
    left = min((p[0] for p in pos.values()), default=0.0)
    x = left
    for comp in sorted(rest, key=lambda c: (-len(c), sorted(map(str, c))[0])):
        width = 0.1 * math.sqrt(len(comp))
        sub = nx.spring_layout(ordered_subgraph(graph, comp), seed=7, center=(x + width / 2, bottom), scale=width / 2) \
            if len(comp) > 1 else {next(iter(comp)): (x, bottom)}
        pos.update({n: tuple(p) for n, p in sub.items()})
        x += width + 0.05
        if x > left + 2.0:
            x, bottom = left, bottom + 0.3


# ---- the story layout: communities together, no two nodes overlapping --------------------------

NODE_GAP = 6.0  # pixels kept free between two nodes' shapes
COMMUNITY_SPACING = 70.0  # pixels per sqrt(member): a community's disc grows with its size
ASPECT = 1.6  # width / height of the drawing, as a screen
SCREEN = (1000.0, 640.0)  # the window the room for labels is reckoned for
LABELLED_SHARE = 0.5  # the larger half of the actors get room for a label,
LABELLED_MAX = 60  # but no more than a screen can show
DENSE_MAX = 150  # up to this many nodes, overlaps are looked for among all pairs (faster than a tree)
BIG_BOX = 45.0  # half-side beyond which a box is wider than any node (a node with its label)


def story_layout(story: nx.Graph, sizes: dict[str, float], labels: dict[str, str] | None = None,
                 ranks: dict[str, float] | None = None) -> dict[str, tuple[float, float]]:
    """Pixel positions of the actors: Louvain communities (networkx) each laid out on its own disc,
    discs placed by a spring layout of the community graph, stretched to a screen's shape, then
    nodes pushed apart so that no two shapes (half-side `sizes[n]`) overlap and the largest nodes
    have room for their `labels` on a screen showing the whole drawing (the first by `ranks`, the
    order in which the page labels nodes; by size when not given). Actors with no link go in
    rows under the drawing, the largest first."""
    linked = ordered_subgraph(story, [n for n in story if story.degree(n)])
    pos = _communities_layout(linked) if len(linked) else {}
    pos = remove_overlaps({n: (x * ASPECT, y) for n, (x, y) in pos.items()}, {n: sizes[n] for n in pos})
    for _ in range(3 if pos else 0):
        pos = remove_overlaps(pos, _label_room(pos, sizes, labels or {}, ranks or {}), rounds=60)
    pos = remove_overlaps(pos, {n: sizes[n] for n in pos})  # the label room may leave shapes touching
    _row_below(pos, sorted((n for n in story if n not in pos), key=lambda n: (-sizes[n], n)), sizes)
    return {n: (round(x, 1), round(y, 1)) for n, (x, y) in pos.items()}


def _label_room(pos: dict, sizes: dict[str, float], labels: dict[str, str], ranks: dict[str, float]) -> dict:
    """Half-sizes of the node boxes, widened for the labels of the larger nodes (the ones the page
    labels first) at the scale at which a SCREEN-sized window shows the whole drawing."""
    if not pos:
        return {}  # nothing placed yet (a graph with no actors: its schema names no person, place...)
    xs, ys = [p[0] for p in pos.values()], [p[1] for p in pos.values()]
    scale = min(SCREEN[0] / max(max(xs) - min(xs), 1.0), SCREEN[1] / max(max(ys) - min(ys), 1.0))
    font = min(14.0 / scale, 112.0)
    ranked = sorted(pos, key=lambda n: (-ranks.get(n, sizes[n]), n))
    roomy = set(ranked[: max(1, min(int(len(ranked) * LABELLED_SHARE), LABELLED_MAX))])
    return {n: (max(sizes[n], 0.3 * font * len(labels.get(n, ""))), sizes[n] + font) if n in roomy
            else sizes[n] for n in pos}


def communities(graph: nx.Graph) -> list[set]:
    """Louvain communities, largest first, deterministic."""
    found = nx.community.louvain_communities(graph, weight="weight", seed=7)
    return sorted(found, key=lambda c: (-len(c), min(map(str, c))))


def _communities_layout(graph: nx.Graph) -> dict:
    groups = communities(graph)
    member = {n: i for i, c in enumerate(groups) for n in c}
    radius = [COMMUNITY_SPACING * math.sqrt(len(c)) for c in groups]
    quotient = nx.Graph()
    quotient.add_nodes_from(range(len(groups)))
    for u, v, w in graph.edges(data="weight", default=1):
        if member[u] != member[v]:
            a, b = sorted((member[u], member[v]))
            quotient.add_edge(a, b, weight=quotient.get_edge_data(a, b, {"weight": 0})["weight"] + w)
    centres = _pack(quotient, radius)
    pos = {}
    for i, group in enumerate(groups):
        inner = python_layout_unit(ordered_subgraph(graph, group))
        cx, cy = centres[i]
        pos.update({n: (cx + x * radius[i], cy + y * radius[i]) for n, (x, y) in inner.items()})
    return pos


def _pack(quotient: nx.Graph, radius: list[float]) -> dict:
    """Community centres: a spring layout of the community graph shrunk until the discs almost
    touch, so linked communities sit side by side and unlinked ones fill the gaps around them."""
    if len(radius) == 1:
        return {0: (0.0, 0.0)}
    spring = nx.spring_layout(quotient, seed=7, weight="weight", iterations=100)
    area = math.sqrt(sum(r * r for r in radius))
    centres = {i: (x * area, y * area) for i, (x, y) in spring.items()}
    return remove_overlaps(centres, dict(enumerate(radius)), gap=COMMUNITY_SPACING / 3, rounds=500)


def python_layout_unit(graph: nx.Graph) -> dict:
    """A layout of `graph` within the unit disc (a single node at the centre)."""
    if len(graph) == 1:
        return {next(iter(graph)): (0.0, 0.0)}
    pos = _spring(graph) if len(graph) <= CORE_SIZE else _two_level(graph)
    far = max(math.hypot(x, y) for x, y in pos.values()) or 1.0
    return {n: (x / far, y / far) for n, (x, y) in pos.items()}


def place_around(graph: nx.Graph, pos: dict, sizes: dict[str, float]) -> dict[str, tuple[float, float]]:
    """Positions for the nodes of `graph` not in `pos` (the layers: events, quotes, figures, dates,
    or the actors a large page adds on demand): each near the placed nodes it links to, in
    breadth-first order, then pushed apart from every other node while the nodes of `pos` stay
    put. Returns all positions."""
    placed = dict(pos)
    _place_near_neighbours(graph, placed, 0.4 * COMMUNITY_SPACING, 0.9 * COMMUNITY_SPACING)
    _row_below(placed, [n for n in graph if n not in placed], sizes)
    placed = remove_overlaps(placed, {n: sizes[n] for n in placed}, fixed=set(pos), rounds=100)
    return {n: (round(x, 1), round(y, 1)) for n, (x, y) in placed.items()}


def _row_below(pos: dict, nodes: list, sizes: dict[str, float]) -> None:
    """Put `nodes` in rows under the drawing (the nodes nothing links to), the rows as wide as the
    drawing, or wide enough for the rows to take a screen's shape (a graph with no link at all)."""
    if not nodes:
        return
    xs = [p[0] for p in pos.values()] or [0.0]
    row_length = sum(2 * sizes[n] + 2.5 * COMMUNITY_SPACING for n in nodes)  # as one row
    screen_shaped = math.sqrt(row_length * 1.5 * COMMUNITY_SPACING * ASPECT)
    left, right = min(xs), max(max(xs), min(xs) + max(1200.0, screen_shaped))
    y = max((p[1] for p in pos.values()), default=0.0) + 3 * COMMUNITY_SPACING
    x = left
    for node in nodes:
        step = 2 * sizes[node] + 2.5 * COMMUNITY_SPACING
        if x + step > right and x > left:
            x, y = left, y + 1.5 * COMMUNITY_SPACING
        pos[node] = (x, y)
        x += step


def remove_overlaps(pos: dict, radii: dict, *, fixed: set | frozenset = frozenset(), gap: float = NODE_GAP,
                    rounds: int = 300) -> dict:
    """Move nodes apart (never the `fixed` ones) until no two boxes of half-side `radii[n]` (a number,
    or a (half-width, half-height) pair) come closer than `gap`, or `rounds` passes are done.
    Each overlapping pair is pushed apart along the axis where they overlap least; pairs are
    found with a k-d tree in the maximum norm."""
    import numpy as np

    nodes = list(pos)
    if len(nodes) < 2:
        return dict(pos)
    xy = np.array([pos[n] for n in nodes], dtype=float)
    half = np.array([radii[n] if isinstance(radii[n], tuple) else (radii[n], radii[n]) for n in nodes], dtype=float)
    free = np.array([n not in fixed for n in nodes], dtype=float)
    extent = half.max(axis=1)
    big = np.flatnonzero(extent > BIG_BOX)
    small_reach = 2 * min(extent.max(), BIG_BOX) + gap
    every = np.column_stack(np.triu_indices(len(nodes), 1)) if len(nodes) <= DENSE_MAX else None
    for _ in range(rounds):
        if every is not None:  # few nodes: every pair, no tree
            pairs = every
        else:
            from scipy.spatial import cKDTree  # seconds of import, for the graphs that need it

            tree = cKDTree(xy)
            pairs = tree.query_pairs(small_reach, p=np.inf, output_type="ndarray")
            if len(big):  # the few wide boxes (nodes with room for a label) look further
                near = tree.query_ball_point(xy[big], extent[big] + extent.max() + gap, p=np.inf)
                wide = np.column_stack([np.repeat(big, [len(k) for k in near]),
                                        np.concatenate(near).astype(int)])
                wide = wide[wide[:, 0] != wide[:, 1]]
                pairs = np.unique(np.sort(np.vstack([pairs.reshape(-1, 2), wide]), axis=1), axis=0)
        if not len(pairs):
            break
        i, j = pairs[:, 0], pairs[:, 1]
        d = xy[j] - xy[i]
        depth = half[i] + half[j] + gap - np.abs(d)
        over = (depth > 0).all(axis=1) & ((free[i] + free[j]) > 0)
        if not over.any():
            break
        i, j, d, depth = i[over], j[over], d[over], depth[over]
        axis = np.argmin(depth, axis=1)
        rows = np.arange(len(i))
        sign = np.sign(d[rows, axis])
        sign[sign == 0] = np.where((i[sign == 0] % 2) == 0, 1.0, -1.0)  # coincident: part by index
        push = np.zeros_like(d)
        push[rows, axis] = sign * (depth[rows, axis] + 0.5) * 0.6
        share_i = free[i] / (free[i] + free[j])
        share_j = free[j] / (free[i] + free[j])
        delta = np.zeros_like(xy)
        np.add.at(delta, i, -push * share_i[:, None])
        np.add.at(delta, j, push * share_j[:, None])
        xy += delta
    return {n: (float(x), float(y)) for n, (x, y) in zip(nodes, xy)}
