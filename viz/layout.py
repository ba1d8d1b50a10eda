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
    rng = random.Random(7)
    core = sorted(graph, key=lambda n: (-graph.degree(n), str(n)))[:CORE_SIZE]
    pos = _spring(graph.subgraph(core))
    step = 1.0 / math.sqrt(len(graph))
    for node in _bfs_from(graph, pos):
        placed = [pos[m] for m in graph[node] if m in pos]
        cx = sum(p[0] for p in placed) / len(placed)
        cy = sum(p[1] for p in placed) / len(placed)
        angle, radius = rng.uniform(0, 2 * math.pi), step * rng.uniform(0.5, 1.5)
        pos[node] = (cx + radius * math.cos(angle), cy + radius * math.sin(angle))
    _place_unreached(graph, pos)
    return pos


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
        sub = nx.spring_layout(graph.subgraph(comp), seed=7, center=(x + width / 2, bottom), scale=width / 2) \
            if len(comp) > 1 else {next(iter(comp)): (x, bottom)}
        pos.update({n: tuple(p) for n, p in sub.items()})
        x += width + 0.05
        if x > left + 2.0:
            x, bottom = left, bottom + 0.3
