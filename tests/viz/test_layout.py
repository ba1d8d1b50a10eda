"""Positions computed in Python: every node placed, deterministic, neighbours near each other."""

from __future__ import annotations

import math
import random
import statistics
import time

import networkx as nx

from viz.layout import CORE_SIZE, python_layout


def distance(p, q):
    return math.dist(p, q)


def test_small_graph_is_a_spring_layout_with_every_node():
    graph = nx.les_miserables_graph()
    pos = python_layout(graph)
    assert set(pos) == set(graph)
    assert all(map(math.isfinite, (c for p in pos.values() for c in p)))
    assert pos == python_layout(graph)


def test_large_graph_places_neighbours_closer_than_strangers():
    graph = nx.barabasi_albert_graph(3000, 2, seed=3)
    graph.add_edges_from([(5000 + i, 5001 + i) for i in range(0, 30, 3)])  # small separate components
    started = time.perf_counter()
    pos = python_layout(graph)
    assert time.perf_counter() - started < 10
    assert len(graph) > CORE_SIZE and set(pos) == set(graph)
    linked = statistics.median(distance(pos[u], pos[v]) for u, v in graph.edges)
    rng, nodes = random.Random(1), sorted(graph)
    strangers = statistics.median(distance(pos[rng.choice(nodes)], pos[rng.choice(nodes)]) for _ in range(2000))
    assert strangers > 1.4 * linked  # a full spring layout reaches about 2.2, random positions 1.0
    assert len({pos[n] for n in graph}) == len(graph)


def test_directed_multigraph_and_empty_graph():
    graph = nx.MultiDiGraph([("a", "b"), ("a", "b"), ("b", "a")])
    assert set(python_layout(graph)) == {"a", "b"}
    assert python_layout(nx.MultiDiGraph()) == {}
