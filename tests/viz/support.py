"""Helpers the view's test modules share: the sample graph's files, builds of it, page data."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pyoxigraph as ox

from kg import build_dirs
from kg.store import EmbeddedStore

SAMPLE = Path(__file__).resolve().parent / "sample.trig"
DATA_BLOCK = re.compile(r'<script type="application/json" id="kg-data">(.*?)</script>', re.S)
NODE_COUNT = """PREFIX kgo: <https://kg.example.org/ontology#>
SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE {
  VALUES ?c { kgo:Person kgo:Organization kgo:Place kgo:Date kgo:Figure kgo:Quote kgo:Event }
  ?x a ?c }"""


def page_data(path: Path) -> dict:
    """The JSON data block of a view page."""
    return json.loads(DATA_BLOCK.search(path.read_text(encoding="utf-8")).group(1))


def publish_sample(data_dir: Path, *, with_view: bool) -> Path:
    """Make `data_dir` hold a current build whose store is the sample graph."""
    from viz import write_view

    build = build_dirs.new_build_dir(data_dir)
    store = EmbeddedStore(build_dirs.store_path(build))
    store.oxigraph.load(path=str(SAMPLE), format=ox.RdfFormat.TRIG)
    store.oxigraph.flush()
    if with_view:
        write_view(build, store)
    store.close()
    del store
    (build / build_dirs.MANIFEST_FILE).write_text("{}", encoding="utf-8")
    build_dirs.publish(data_dir, build)
    return build
