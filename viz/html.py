"""networkx view graph -> one self-contained HTML page.

pyvis gives the base vis-network options (`pyvis.options.Options`) and vis-network
itself; nodes and edges travel as compact records the page turns into vis items; the page
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
import math
from importlib import resources
from pathlib import Path

import jinja2
import networkx as nx
import pyvis
from markupsafe import Markup
from pyvis.options import Options

from kg.errors import InputError, KgError
from kg.iris import DOCUMENT, ONTOLOGY, RESOURCE, fold
from viz.layout import place_around, story_layout
from viz.network import FAMILIES
from viz.panels import figure_groups, timeline
from viz.story import ACTORS, LAYERS, actor_graph, actor_links, link_direction, link_label, link_uncertain, \
    strongest_links, top_actors, uncertainty

STORY_MAX = 150  # past this many linked actors, the page opens on the best-connected ones and grows on click
STRONG_LINKS = 3  # links per actor a large graph draws before one is selected
LABEL_MAX = 40
STYLE = {  # family -> (colour, vis shape); Okabe-Ito colours, safe for colour-blind readers, and distinct shapes
    "Person": ("#0072B2", "dot"),
    "Organization": ("#E69F00", "square"),
    "Place": ("#009E73", "triangle"),
    "Event": ("#CC79A7", "diamond"),
    "Date": ("#56B4E9", "triangleDown"),
    "Figure": ("#D55E00", "star"),
    "Quote": ("#F0E442", "hexagon"),
}
LAYER_SIZE = 9.0
VIS_DIR = Path(pyvis.__file__).parent / "lib" / "vis-9.1.2"


def render(graph: nx.MultiDiGraph, *, size_by: str = "mentions", focus: str | None = None,
           depth: int = 1, title: str = "Knowledge graph") -> str:
    """The page for `graph`: the actors and their links first, the rest as layers, with the
    timeline and the figures table. `focus`/`depth` are shown as the initial focus."""
    data = view_data(graph, size_by=size_by)
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
    )


def view_data(graph: nx.MultiDiGraph, *, size_by: str = "mentions") -> dict:
    """Everything the page needs, as JSON-ready data: nodes (every node, placed) and edges (actor
    links and layer edges), every relation with its sentences, node details, the timeline, the
    figures, the cited sentences and documents, the legend and the vis options. Edges and
    relations name their nodes by number (their place in `nodes`), which keeps a large page small."""
    if size_by not in ("degree", "mentions"):
        raise InputError(f"size_by must be 'degree' or 'mentions', not {size_by!r}")
    docs = list(graph.graph.get("docs", {}))
    doc_index = {d: i for i, d in enumerate(docs)}
    sentences = list(graph.graph.get("sentences", {}))
    sentence_index = {s: i for i, s in enumerate(sentences)}
    links = actor_links(graph)
    story = actor_graph(graph, links)
    sizes = node_sizes(graph, size_by)
    labels = {n: _short(graph.nodes[n]["label"]) for n in story}
    linked = sum(1 for n in story if story.degree(n))
    initial = top_actors(story, graph, STORY_MAX) if linked > STORY_MAX else None
    positions = _positions(graph, story, initial, sizes, labels)
    node_index = {n: i for i, n in enumerate(graph)}
    relations, relation_index = _relations(graph, node_index, sentence_index)
    nodes, details = _nodes(graph, story, sizes, positions, sentence_index)
    for i, (s, o, _) in enumerate(relation_index):
        details[s]["relations"].append(i)
        if o != s:
            details[o]["relations"].append(i)
    edges = _link_edges(graph, links, node_index, relation_index) + _layer_edges(graph, node_index, relation_index)
    return {
        "meta": {"nodes": len(nodes), "edges": len(edges), "physics": False, "actors": len(story),
                 "linked": linked, "links": len(links), "layers": list(LAYERS),
                 "initial": initial},
        "legend": _legend(graph),
        "options": _options(len(nodes)),
        "nodes": nodes,
        "edges": edges,
        "relations": relations,
        "nodeDetails": details,
        "timeline": _timeline(graph, sentence_index, doc_index),
        "figures": _figures(graph, sentence_index, doc_index),
        "sentences": [{"text": graph.graph["sentences"][s]["text"],
                       "doc": doc_index.get(graph.graph["sentences"][s]["doc"], -1)} for s in sentences],
        "docs": [{"iri": d, **graph.graph["docs"][d]} for d in docs],
    }


def _positions(graph: nx.MultiDiGraph, story: nx.Graph, initial: list[str] | None, sizes: dict,
               labels: dict) -> dict:
    """The actors the page opens on laid out first (all of them, or the best-connected of a large
    graph), then the other actors next to those they link to, then the layer nodes."""
    core = story_layout(story.subgraph(initial) if initial else story, sizes, labels)
    actors = place_around(story, core, sizes) if initial else core
    return place_around(nx.Graph(graph.to_undirected(as_view=True)), actors, sizes)


def node_sizes(graph: nx.MultiDiGraph, size_by: str) -> dict[str, float]:
    """Radius in pixels: actors by mentions (or degree), 10 to 40; layer nodes a fixed small size."""
    sizes = {}
    for node, data in graph.nodes(data=True):
        if data["family"] in ACTORS:
            value = data["mentions"] if size_by == "mentions" else graph.degree(node)
            sizes[node] = round(min(40.0, 10.0 + 4.0 * math.sqrt(max(value, 0))), 1)
        else:
            sizes[node] = LAYER_SIZE
    return sizes


def _relations(graph: nx.MultiDiGraph, node_index: dict, sentence_index: dict) -> tuple[list[dict], dict]:
    """Every edge of the view graph (a stated fact or an event role) with its source sentences."""
    relations, index = [], {}
    for s, o, key, d in graph.edges(keys=True, data=True):
        index[(s, o, key)] = len(relations)
        relations.append({"from": node_index[s], "to": node_index[o], "predicate": key, "label": d["label"],
                          "sentences": [sentence_index[x] for x in d["evidence"] if x in sentence_index]})
    return relations, index


def _nodes(graph: nx.MultiDiGraph, story: nx.Graph, sizes: dict, positions: dict,
           sentence_index: dict) -> tuple[list, dict]:
    """Compact node records (the page adds colour, shape and tooltip from the legend) and node details."""
    nodes, details = [], {}
    for iri, d in graph.nodes(data=True):
        doubt = uncertainty(d)
        links = story.degree(iri) if iri in story else 0
        node = {"id": iri, "label": _short(d["label"]), "family": d["family"], "size": sizes[iri],
                "x": positions[iri][0], "y": positions[iri][1], "rank": sizes[iri] * 1000 + d["mentions"] + links}
        if doubt:
            node["uncertain"] = doubt
        nodes.append(node)
        details[iri] = {
            "label": d["label"], "family": d["family"], "types": d["type_labels"], "alt": d["alt"],
            "wikidata": d["wikidata"], "mentions": d["mentions"], "facts": [list(f) for f in d["facts"]],
            "uncertain": doubt, "date": d.get("props", {}).get("date", ""), "relations": [], "links": links,
            "sentences": [sentence_index[s] for s in d["mention_sentences"] if s in sentence_index],
            "search": "\n".join(sorted({fold(s) for s in [d["label"], *d["alt"], *d["hidden"]]})),
        }
    return nodes, details


def _link_edges(graph: nx.MultiDiGraph, links: dict, node_index: dict, relation_index: dict) -> list[dict]:
    """One edge per linked pair of actors, labelled with what relates them; `from`/`to`/`events`
    are node numbers. `arrow`: a one-way statement; `dashes`: resting on uncertain events only;
    `strong`: among the STRONG_LINKS heaviest of one of its actors (a large graph draws only those)."""
    edges = []
    strong = strongest_links(links, STRONG_LINKS)
    for i, ((a, b), link) in enumerate(sorted(links.items())):
        head = link_direction(link)
        frm, to = (b, a) if head == a else (a, b)
        edge = {"id": f"k{i}", "from": node_index[frm], "to": node_index[to], "kind": "link",
                "text": link_label(graph, link), "weight": link.weight(),
                "relations": [relation_index[s] for s in link.statements],
                "events": [node_index[e] for e in link.events]}
        if head is not None:
            edge["arrow"] = True
        if (a, b) in strong:
            edge["strong"] = True
        if link_uncertain(graph, link):
            edge["dashes"] = True
        edges.append(edge)
    return edges


def _layer_edges(graph: nx.MultiDiGraph, node_index: dict, relation_index: dict) -> list[dict]:
    """One edge per pair of nodes one of which is an event, quote, figure or date."""
    pairs: dict[tuple[str, str], list] = {}
    for s, o, key, d in graph.edges(keys=True, data=True):
        if graph.nodes[s]["family"] in LAYERS or graph.nodes[o]["family"] in LAYERS:
            pairs.setdefault((s, o), []).append((key, d["label"]))
    return [{"id": f"r{i}", "from": node_index[s], "to": node_index[o], "kind": "layer", "arrow": True,
             "text": ", ".join(sorted({lab for _, lab in keyed})),
             "relations": [relation_index[(s, o, k)] for k, _ in keyed]}
            for i, ((s, o), keyed) in enumerate(sorted(pairs.items()))]


def _timeline(graph: nx.MultiDiGraph, sentence_index: dict, doc_index: dict) -> list[dict]:
    sentences = graph.graph.get("sentences", {})
    days = timeline(graph)
    for day in days:
        for event in day["events"]:
            event["docs"] = sorted({doc_index[sentences[s]["doc"]] for s in event["sentences"]
                                    if s in sentences and sentences[s]["doc"] in doc_index})
            event["sentences"] = [sentence_index[s] for s in event["sentences"] if s in sentence_index]
    return days


def _figures(graph: nx.MultiDiGraph, sentence_index: dict, doc_index: dict) -> list[dict]:
    groups = figure_groups(graph)
    for group in groups:
        for row in group["rows"]:
            row["doc"] = doc_index.get(row["doc"], -1)
            row["sentence"] = sentence_index.get(row["sentence"], -1)
    return groups


def _legend(graph: nx.MultiDiGraph) -> list[dict]:
    labels = graph.graph.get("labels", {})
    counts = {f: 0 for f in FAMILIES}
    for _, family in graph.nodes(data="family"):
        counts[family] += 1
    order = [f for f in FAMILIES if f in ACTORS] + [f for f in FAMILIES if f not in ACTORS]
    return [{"family": f, "label": labels.get(ONTOLOGY + f) or f.lower(), "layer": f in LAYERS,
             "color": STYLE[f][0], "shape": STYLE[f][1], "count": counts[f]} for f in order]


def _options(n: int) -> dict:
    """vis-network options, starting from pyvis's defaults: positions come from Python, no physics."""
    options = json.loads(Options().to_json())
    options["edges"].update({
        "arrows": {"to": {"enabled": True, "scaleFactor": 0.5}},
        "color": {"inherit": False, "color": "#a7b0ba", "highlight": "#222222", "hover": "#555555"},
        "font": {"size": 11, "align": "middle", "color": "#333333", "strokeWidth": 4},
        "smooth": {"enabled": False},
        "selectionWidth": 2,
    })
    options["nodes"] = {
        "font": {"size": 14, "face": "system-ui, sans-serif", "color": "#1a1a1a", "strokeWidth": 3,
                 "strokeColor": "#ffffff"},
        "borderWidth": 1,
        "chosen": True,
    }
    options["interaction"].update({"hover": True, "tooltipDelay": 150, "hideEdgesOnDrag": n > 2000,
                                   "hideEdgesOnZoom": n > 2000, "navigationButtons": False,
                                   "keyboard": {"enabled": True, "bindToWindow": False}})
    options["layout"] = {"improvedLayout": False, "randomSeed": 7}
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
        raise KgError(f"asset contains </{element}> or <!--")
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
