"""Helpers the view's test modules share: the sample graph's files, builds of it, page data."""

from __future__ import annotations

import json
import re
from pathlib import Path


from kg import layout
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
    from viz.hooks import write_view

    build = layout.new_build_dir(data_dir)
    store = EmbeddedStore(layout.store_path(build))
    store.load_file(SAMPLE, "trig")
    store.flush()
    if with_view:
        write_view(build, store)
    store.close()
    del store
    (build / layout.MANIFEST_FILE).write_text("{}", encoding="utf-8")
    layout.publish(data_dir, build)
    return build
