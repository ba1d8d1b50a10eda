"""Helpers the view's test modules share: the sample graph's files, builds of it, page data."""

from __future__ import annotations

import base64
import gzip
import json
import re
from pathlib import Path

from kg.store import build_dirs
from kg.store.embedded import EmbeddedStore

SAMPLE = Path(__file__).resolve().parent / "sample.trig"
DATA_BLOCK = re.compile(r'<script type="application/json" id="kg-data">(.*?)</script>', re.S)
MORE_BLOCK = re.compile(r'<script type="application/json" id="kg-more" data-encoding="(json|gzip)">(.*?)</script>', re.S)
NODE_COUNT = """PREFIX kgo: <https://kg.example.org/ontology#>
SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE {
  VALUES ?c { kgo:Person kgo:Group kgo:Organization kgo:Place kgo:Date kgo:Figure kgo:Quote kgo:Event }
  ?x a ?c }"""


def page_data(path: Path) -> dict:
    """The data of a view page: its first block joined to the rest (numbered on from the first)."""
    return join_blocks(path.read_text(encoding="utf-8"))


def join_blocks(html: str) -> dict:
    """Both data blocks of a page as one, as the page joins them."""
    data = json.loads(DATA_BLOCK.search(html).group(1))
    encoding, text = MORE_BLOCK.search(html).groups()
    more = json.loads(gzip.decompress(base64.b64decode(text)) if encoding == "gzip" else text)
    return {**more, **data, "nodes": data["nodes"] + more["nodes"], "edges": data["edges"] + more["edges"]}


def publish_sample(data_dir: Path, *, with_view: bool, source: Path = SAMPLE) -> Path:
    """Make `data_dir` hold a current build whose store is the sample graph (or another TriG file)."""
    from kg.viz import write_view

    build = build_dirs.new_build_dir(data_dir)
    store = EmbeddedStore(build_dirs.store_path(build))
    store.load_file(source, "trig")
    store.flush()
    if with_view:
        write_view(build, store)
    store.close()
    del store
    (build / build_dirs.MANIFEST_FILE).write_text("{}", encoding="utf-8")
    build_dirs.publish(data_dir, build)
    return build


def row_table_scans(index) -> set[tuple[str, str]]:
    """(query, plan step) of every step that scans a row table (or its whole index) in the queries the
    view index `index` runs for a part of the graph of its overview and the best node's neighbourhood:
    a page must cost what it shows, not what the corpus holds."""
    from kg.publish.view_index.tables import ROW_TABLES

    return {(query, detail) for query, detail in plan_steps(index)
            if detail.startswith("SCAN") and detail.split()[1].rsplit(".", 1)[-1] in ROW_TABLES}


def plan_steps(index) -> set[tuple[str, str]]:
    """(query, plan step) of the queries the view index `index` runs for a part of the graph of its
    overview and the best node's neighbourhood (each query named by its first eight words)."""
    from kg.viz.view_index import neighbourhood_graph, part_graph

    connection, _ = index._connection()
    asked: list[str] = []
    connection.set_trace_callback(asked.append)
    try:
        part_graph(index, index.overview(40))
        neighbourhood_graph(index, index.best("", (), 1)[0])
    finally:
        connection.set_trace_callback(None)
    queries = [sql for sql in asked if sql.lstrip().upper().startswith(("SELECT", "WITH", "INSERT"))]
    assert queries
    return {(" ".join(sql.split()[:8]), detail) for sql in queries
            for *_, detail in connection.execute("EXPLAIN QUERY PLAN " + sql)}
