"""networkx view graph -> one self-contained HTML page.

pyvis builds the vis-network node and edge option dicts (`pyvis.node.Node`,
`pyvis.edge.Edge`) and the base options (`pyvis.options.Options`); the page
itself comes from our own Jinja2 template with autoescape, because pyvis's
template loads Bootstrap from a CDN and does not escape its inputs. vis-network
and every script and style are inlined; the data travels as a JSON data block
with `<`, `>`, `&` escaped, and the page's script puts corpus text into the DOM
with `textContent` only. A Content-Security-Policy admits exactly the page's
own two scripts (by hash), no network access, and no inline event handlers.
"""

from __future__ import annotations

import base64
import hashlib
import json
from importlib import resources
from pathlib import Path

import jinja2
import networkx as nx
import pyvis
from markupsafe import Markup
from pyvis.edge import Edge
from pyvis.node import Node
from pyvis.options import Options

from kg.iris import DOCUMENT, ONTOLOGY, RESOURCE, fold
from viz.layout import python_layout
from viz.network import FAMILIES

LAYOUT_THRESHOLD = 1000  # from this many nodes on, positions come from Python and physics is off
LABEL_MAX = 40
STYLE = {  # family -> (colour, vis shape)
    "Person": ("#4e79a7", "dot"),
    "Organization": ("#f28e2b", "square"),
    "Place": ("#59a14f", "triangle"),
    "Date": ("#b07aa1", "diamond"),
    "Event": ("#e15759", "star"),
    "Figure": ("#edc948", "triangleDown"),
    "Quote": ("#9c755f", "hexagon"),
}
VIS_DIR = Path(pyvis.__file__).parent / "lib" / "vis-9.1.2"


def render(graph: nx.MultiDiGraph, *, size_by: str = "degree", focus: str | None = None,
           depth: int = 1, title: str = "Knowledge graph", physics: bool | None = None) -> str:
    """The page for `graph`. Positions always start from the Python layout; `physics`
    None: live physics (until stable) below LAYOUT_THRESHOLD nodes, none at and above it. `focus`/`depth` are shown as the initial focus."""
    if physics is None:
        physics = graph.number_of_nodes() < LAYOUT_THRESHOLD
    data = view_data(graph, size_by=size_by, physics=physics)
    total = graph.graph.get("total_nodes", graph.number_of_nodes())
    data["meta"].update(focus=focus, depth=depth, title=title, total=total,
                        prefixes={"kgr": RESOURCE, "doc": DOCUMENT})
    script = _asset("view.js")
    vis_js = _read(VIS_DIR / "vis-network.min.js")
    return _template().render(
        title=title,
        csp=_csp(vis_js, script),
        vis_css=_raw(_read(VIS_DIR / "vis-network.css"), "style"),
        view_css=_raw(_asset("view.css"), "style"),
        vis_js=_raw(vis_js, "script"),
        view_js=_raw(script, "script"),
        data=Markup(safe_json(data)),
        node_count=graph.number_of_nodes(),
        total_count=total,
        edge_count=graph.number_of_edges(),
    )


def view_data(graph: nx.MultiDiGraph, *, size_by: str = "degree", physics: bool = True) -> dict:
    """Everything the page needs, as JSON-ready data: vis nodes and edges, their details,
    the cited sentences and documents, the legend and the vis options."""
    if size_by not in ("degree", "mentions"):
        raise ValueError(f"size_by must be 'degree' or 'mentions', not {size_by!r}")
    docs = list(graph.graph.get("docs", {}))
    sentences = list(graph.graph.get("sentences", {}))
    sentence_index = {s: i for i, s in enumerate(sentences)}
    positions = python_layout(graph)
    nodes, node_details = _nodes(graph, size_by, positions, sentence_index)
    edges, edge_details = _edges(graph, sentence_index)
    doc_index = {d: i for i, d in enumerate(docs)}
    return {
        "meta": {"nodes": len(nodes), "edges": len(edges), "physics": physics},
        "legend": _legend(graph),
        "options": _options(physics, len(nodes)),
        "nodes": nodes,
        "edges": edges,
        "nodeDetails": node_details,
        "edgeDetails": edge_details,
        "sentences": [{"text": graph.graph["sentences"][s]["text"],
                       "doc": doc_index.get(graph.graph["sentences"][s]["doc"], -1)} for s in sentences],
        "docs": [{"iri": d, **graph.graph["docs"][d]} for d in docs],
    }


def _nodes(graph: nx.MultiDiGraph, size_by: str, positions: dict, sentence_index: dict) -> tuple[list, dict]:
    nodes, details = [], {}
    for iri, d in graph.nodes(data=True):
        colour, shape = STYLE[d["family"]]
        degree = graph.degree(iri)
        value = d["mentions"] if size_by == "mentions" else degree
        summary = f"{d['label']}\n{d['type_labels'][0] if d['type_labels'] else d['family']}" \
                  f" · {degree} relation{'s' * (degree != 1)} · {d['mentions']} mention{'s' * (d['mentions'] != 1)}"
        options = {"group": d["family"], "color": colour, "value": max(value, 1), "title": summary}
        if iri in positions:
            options["x"], options["y"] = positions[iri]
        nodes.append(Node(iri, shape, label=_short(d["label"]), **options).options)
        details[iri] = {
            "label": d["label"], "family": d["family"], "types": d["type_labels"], "alt": d["alt"],
            "wikidata": d["wikidata"], "mentions": d["mentions"], "facts": [list(f) for f in d["facts"]],
            "sentences": [sentence_index[s] for s in d["mention_sentences"] if s in sentence_index],
            "search": "\n".join(sorted({fold(s) for s in [d["label"], *d["alt"], *d["hidden"]]})),
        }
    return nodes, details


def _edges(graph: nx.MultiDiGraph, sentence_index: dict) -> tuple[list, dict]:
    edges, details, parallel = [], {}, {}
    for i, (s, o, key, d) in enumerate(graph.edges(keys=True, data=True)):
        pair = tuple(sorted((s, o)))
        nth = parallel[pair] = parallel.get(pair, -1) + 1
        eid = f"e{i}"
        n = len(d["evidence"])
        options = {"id": eid, "label": d["label"],
                   "title": f"{graph.nodes[s]['label']} — {d['label']} → {graph.nodes[o]['label']}\n"
                            f"{n} source sentence{'s' * (n != 1)}"}
        if nth:
            options["smooth"] = {"enabled": True, "type": "curvedCW", "roundness": 0.15 * nth}
        edges.append(Edge(s, o, directed=True, **options).options)
        details[eid] = {"predicate": key, "label": d["label"],
                        "sentences": [sentence_index[x] for x in d["evidence"] if x in sentence_index]}
    return edges, details


def _legend(graph: nx.MultiDiGraph) -> list[dict]:
    labels = graph.graph.get("labels", {})
    counts = {f: 0 for f in FAMILIES}
    for _, family in graph.nodes(data="family"):
        counts[family] += 1
    return [{"family": f, "label": labels.get(ONTOLOGY + f) or f.lower(),
             "color": STYLE[f][0], "shape": STYLE[f][1], "count": counts[f]} for f in FAMILIES]


def _options(physics: bool, n: int) -> dict:
    """vis-network options, starting from pyvis's defaults."""
    options = json.loads(Options().to_json())
    options["edges"].update({
        "arrows": {"to": {"enabled": True, "scaleFactor": 0.5}},
        "color": {"inherit": False, "color": "#9aa5b1", "highlight": "#333333", "hover": "#555555"},
        "font": {"size": 10, "align": "middle", "color": "#444444", "strokeWidth": 3},
        "smooth": {"enabled": physics, "type": "continuous"},
        "width": 1,
    })
    options["nodes"] = {
        "font": {"size": 14, "face": "system-ui, sans-serif"},
        "borderWidth": 1,
        "scaling": {"min": 8, "max": 36, "label": {"enabled": False, "drawThreshold": 5 if physics else 9}},
    }
    options["interaction"].update({"hover": True, "tooltipDelay": 150, "hideEdgesOnDrag": n > 500,
                                   "hideEdgesOnZoom": n > 500})
    options["layout"] = {"improvedLayout": physics and n <= 150, "randomSeed": 7}
    if physics:
        options["physics"] = {"enabled": True, "solver": "barnesHut", "barnesHut": {"damping": 0.5},
                              "minVelocity": 2.0, "stabilization": {"enabled": False}}
    else:
        options["physics"] = {"enabled": False}
    return options


def _short(label: str) -> str:
    return label if len(label) <= LABEL_MAX else label[: LABEL_MAX - 1].rstrip() + "…"


def safe_json(data: object) -> str:
    """JSON that cannot end a <script> element or open markup inside it."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    for char, escape in (("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e"),
                         ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(char, escape)
    return text


def _raw(text: str, element: str) -> Markup:
    """Static code for a <script> or <style> element; refuses text that would close it."""
    lowered = text.lower()
    if f"</{element}" in lowered or "<!--" in lowered:
        raise ValueError(f"asset contains </{element}> or <!--")
    return Markup(text)


def _csp(*scripts: str) -> str:
    hashes = " ".join(
        f"'sha256-{base64.b64encode(hashlib.sha256(s.encode()).digest()).decode()}'" for s in scripts)
    return (f"default-src 'none'; script-src {hashes}; style-src 'unsafe-inline'; img-src data:; "
            "font-src data:; base-uri 'none'; form-action 'none'")


def _asset(name: str) -> str:
    return resources.files("viz").joinpath("static", name).read_text(encoding="utf-8")


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _template() -> jinja2.Template:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("viz", "templates"),
        autoescape=True, undefined=jinja2.StrictUndefined, keep_trailing_newline=True,
    )
    return env.get_template("view.html")
