"""`kg viz` on a data directory: the whole graph, a focus, and the errors a user can make."""

from __future__ import annotations

from pathlib import Path

from kg.publish.view_index.derive import OVERVIEW_FAMILIES
from kg.store import build_dirs
from kg.viz.network import load_graph
from tests.helpers import run_kg
from tests.viz.support import page_data


def test_writes_the_whole_view_to_data_graph_html_by_default(sample_data: Path, monkeypatch):
    monkeypatch.chdir(sample_data.parent)
    result = run_kg("viz")
    assert result.exit_code == 0, result.output
    data = page_data(sample_data / "graph.html")
    assert data["meta"]["nodes"] == len(data["nodes"]) == 11
    assert "wrote data/graph.html (11 nodes)" in result.output


def test_focus_and_depth_keep_the_neighbourhood_only(sample_data: Path, tmp_path: Path):
    out = tmp_path / "cucuta.html"
    result = run_kg("viz", "--data", str(sample_data), "-o", str(out), "--focus", "Cucuta", "--depth", "1")
    assert result.exit_code == 0, result.output
    data = page_data(out)
    names = sorted(d["label"] for d in data["nodeDetails"].values())
    assert names == ["Colombia", "Cúcuta", "Mora defects to Cúcuta"]
    assert data["meta"]["focus"] == "https://kg.example.org/id/place/cucuta"


def test_size_by_mentions(sample_data: Path, tmp_path: Path):
    out = tmp_path / "m.html"
    assert run_kg("viz", "--data", str(sample_data), "-o", str(out), "--size", "mentions").exit_code == 0
    sizes = {n["id"].rsplit("/", 1)[-1]: n["size"] for n in page_data(out)["nodes"]}
    assert sizes["juan-guaido"] > sizes["juan-carlos-mora"] > sizes["evil"]  # 3, 2 and 1 mentions
    degree = tmp_path / "d.html"
    assert run_kg("viz", "--data", str(sample_data), "-o", str(degree), "--size", "degree").exit_code == 0
    sizes = {n["id"].rsplit("/", 1)[-1]: n["size"] for n in page_data(degree)["nodes"]}
    assert sizes["juan-carlos-mora"] > sizes["juan-guaido"]  # 4 relations against 1


def test_unknown_focus_is_an_input_error(sample_data: Path, tmp_path: Path):
    result = run_kg("viz", "--data", str(sample_data), "-o", str(tmp_path / "x.html"), "--focus", "nobody")
    assert result.exit_code == 2
    assert "focus 'nobody' names no entity or event" in result.output
    assert not (tmp_path / "x.html").exists()


def test_no_build_yet_says_what_to_do(tmp_path: Path):
    result = run_kg("viz", "--data", str(tmp_path / "empty"))
    assert result.exit_code == 1
    assert "(expected `kg build` to have run)" in result.output


def test_a_graph_over_max_nodes_is_written_as_its_overview(sample_data: Path, tmp_path: Path):
    out = tmp_path / "top.html"
    result = run_kg("viz", "--data", str(sample_data), "-o", str(out), "--max-nodes", "3")
    assert result.exit_code == 0, result.output
    assert "(3 nodes: the overview of 11 nodes; `kg serve` shows the rest" in result.output
    data = page_data(out)
    whole = _whole(sample_data)
    score = {n: (d["mentions"] or len(d["mention_sentences"])) + whole.degree(n) for n, d in whole.nodes(data=True)
             if d["family"] in OVERVIEW_FAMILIES}
    best = sorted(score, key=lambda n: (-score[n], n))[:3]  # mentions and links, among the entities and events
    assert sorted(data["nodeDetails"]) == sorted(best)
    assert data["meta"]["total"] == 11
    html = out.read_text(encoding="utf-8")
    assert "(an overview of 11)</span>" in html and "holds the 3 most mentioned and connected of the graph" in html


def test_max_nodes_defaults_to_the_view_nodes_setting(sample_data: Path, tmp_path: Path, monkeypatch):
    monkeypatch.setenv("KG_VIEW_NODES", "4")
    out = tmp_path / "top.html"
    assert run_kg("viz", "--data", str(sample_data), "-o", str(out)).exit_code == 0
    assert page_data(out)["meta"]["nodes"] == 4


def _whole(data: Path):
    store = build_dirs.build_store(build_dirs.require_current_build(data))
    try:
        return load_graph(store)
    finally:
        store.close()
