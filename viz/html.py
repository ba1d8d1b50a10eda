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
import gzip
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
from kg.model import iris
from kg.model.iris import fold
from kg.viz.layout import place_around, story_layout
from kg.viz.legend import event_legend, event_tint, link_entry, node_kind, node_legend, relation_entry, relation_legend
from kg.viz.network import local_name, ordered_subgraph
from kg.viz.panels import OTHER_FIGURES, day_label, figure_groups, timeline
from kg.viz.story import (
    ACTORS,
    LAYERS,
    actor_graph,
    actor_links,
    is_actor,
    link_direction,
    link_label,
    link_uncertain,
    strongest_links,
    top_actors,
    uncertainty,
)

STORY_MAX = 150  # past this many linked actors, the page opens on the best-connected ones and grows on click
STRONG_LINKS = 3  # links per actor a large graph draws before one is selected
LABEL_MAX = 40
LAYER_SIZE = 9.0
COMPRESS_OVER = 256 * 1024  # bytes of JSON past which the data not needed for the first frame travels gzipped
VIS_DIR = Path(pyvis.__file__).parent / "lib" / "vis-9.1.2"
SCRIPT_MODULES = ("data.js", "layout.js", "drawing.js", "panels.js", "fetch.js", "search.js", "legend.js", "start.js")


def render(graph: nx.MultiDiGraph, *, size_by: str = "mentions", focus: str | None = None,
           depth: int = 1, title: str = "Knowledge graph") -> str:
    """The page for `graph`: the actors and their links first, the rest as layers, with the
    timeline and the figures table. `focus`/`depth` are shown as the initial focus.

    The data travels in two blocks: what the first frame draws (the actors the page opens on and
    their links), then everything else, gzipped and base64-encoded when large, which the page
    reads once the first frame is drawn."""
    data = view_data(graph, size_by=size_by)
    total = graph.graph.get("total_nodes", graph.number_of_nodes())
    data.update(summaries(graph))
    data["meta"].update(focus=focus, depth=depth, title=title, total=total,
                        prefixes={"kgr": iris.RESOURCE, "doc": iris.DOCUMENT})
    first, more = split_data(data)
    encoding, more_text = encode_more(more)
    script = page_script()
    vis_js = _read(VIS_DIR / "vis-network.min.js")
    return _template().render(
        title=title,
        csp=_csp(vis_js, script),
        vis_css=_raw(_read(VIS_DIR / "vis-network.css"), "style"),
        view_css=_raw(_asset("view.css"), "style"),
        vis_js=_raw(vis_js, "script"),
        view_js=_raw(script, "script"),
        data=Markup(safe_json(first)),
        more=Markup(more_text),
        more_encoding=encoding,
        node_count=graph.number_of_nodes(),
        total_count=total,
    )


def split_data(data: dict) -> tuple[dict, dict]:
    """(what the first frame needs, the rest) of `view_data`: the first `meta.first` nodes and the
    links among them the page draws at first (only the strong ones when it opens on the
    best-connected actors); the rest of the nodes (numbered on from the first) and edges, the
    relations, details, timeline, figures, sentences and documents."""
    first_count = data["meta"]["first"]
    sparse = data["meta"]["initial"] is not None

    def drawn_first(edge: dict) -> bool:
        return (edge["kind"] == "link" and edge["from"] < first_count and edge["to"] < first_count
                and (not sparse or bool(edge.get("strong"))))

    first_edges = [e for e in data["edges"] if drawn_first(e)]
    other_edges = [e for e in data["edges"] if not drawn_first(e)]
    first = {"meta": data["meta"], "legend": data["legend"], "relationLegend": data["relationLegend"],
             "eventLegend": data["eventLegend"], "options": data["options"],
             **{key: data[key] for key in ("timelineSummary", "figureSummary") if key in data},
             "nodes": data["nodes"][:first_count], "edges": first_edges}
    more = {key: value for key, value in data.items() if key not in first}
    more.update(nodes=data["nodes"][first_count:], edges=other_edges)
    return first, more


def summaries(graph: nx.MultiDiGraph) -> dict:
    """The whole graph's timeline and figures in counts, for a page that holds part of it:
    `timelineSummary` [{date, label, count}] in date order and `figureSummary` [{topic, kind, role,
    count}] (topics as the figures table names them, the largest first); {} for a whole graph."""
    summary = graph.graph.get("summary")
    if not summary:
        return {}
    labels = graph.graph.get("labels", {})

    def name(iri: str) -> str:
        return labels.get(iri) or local_name(iri)

    figures = [{"topic": f"{name(kind)}, {name(role)}" if kind else OTHER_FIGURES, "kind": kind, "role": role,
                "count": count} for kind, role, count in summary["figures"]]
    figures.sort(key=lambda g: (g["topic"] == OTHER_FIGURES, -g["count"], g["topic"]))
    return {"timelineSummary": [{"date": date, "label": day_label(date), "count": count}
                                for date, count in summary["dates"]],
            "figureSummary": figures}


def encode_more(more: dict) -> tuple[str, str]:
    """('json', escaped JSON) for a small block, ('gzip', base64 of gzipped JSON) for a large one."""
    text = safe_json(more)
    if len(text) <= COMPRESS_OVER:
        return "json", text
    return "gzip", base64.b64encode(gzip.compress(text.encode("utf-8"), compresslevel=1, mtime=0)).decode("ascii")


def view_data(graph: nx.MultiDiGraph, *, size_by: str = "mentions", place: bool = True) -> dict:
    """Everything the page needs, as JSON-ready data: nodes (every node, placed) and edges (actor
    links and layer edges), every relation with its sentences, node details, the timeline, the
    figures, the cited sentences and documents, the legend and the vis options. Edges and
    relations name their nodes by number (their place in `nodes`), which keeps a large page small.
    `nodes` starts with the `meta.first` actors the page opens on (every linked actor, or the
    best-connected of a large graph; when none is linked, every actor, or the most mentioned); only nodes Python placed have `x`/`y` (a large graph's
    other nodes are placed by the page when it first draws them; with `place` false, none is)."""
    drawn, made = graph_data(graph, size_by=size_by, place=place)
    story, days, figures = made["story"], drawn["timeline"], drawn["figures"]
    return {
        "meta": {"nodes": len(drawn["nodes"]), "edges": len(drawn["edges"]), "physics": False, "actors": len(story),
                 "linked": made["linked"], "links": len(made["links"]), "layers": list(LAYERS),
                 "initial": made["initial"], "first": made["first"], "showEvents": events_carry_the_story(graph, story),
                 "timelineEvents": sum(len(d["events"]) for d in days),
                 "figureRows": sum(len(g["rows"]) for g in figures),
                 "datedEvents": sum(count for _, count in graph.graph.get("summary", {}).get("dates", [])),
                 "figures": sum(c for *_, c in graph.graph.get("summary", {}).get("figures", []))},
        "legend": node_legend(graph),
        "relationLegend": relation_legend(graph, made["links"]),
        "eventLegend": event_legend(graph),
        "options": _options(len(drawn["nodes"])),
        **drawn,
    }


def graph_data(graph: nx.MultiDiGraph, *, size_by: str = "mentions", place: bool = True) -> tuple[dict, dict]:
    """The part of `view_data` that draws the graph (nodes, edges, relations, nodeDetails,
    timeline, figures, sentences, docs: what a block fetched by a served page carries too), and
    what its meta and legends are made from (story, links, linked, initial, first)."""
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
    ranks = {n: label_rank(graph, story, sizes, n) for n in graph}
    linked = [n for n in story if story.degree(n)]
    initial = _opening(graph, story, linked, sizes)
    positions = _positions(graph, story, initial, sizes, labels, ranks) if place else {}
    first = initial or linked or sorted(story, key=lambda n: (-sizes[n], n))  # no link at all: every actor
    first_set = set(first)
    order = first + [n for n in graph if n not in first_set]
    node_index = {n: i for i, n in enumerate(order)}
    relations, relation_index = _relations(graph, node_index, sentence_index)
    nodes, details = _nodes(graph, order, story, sizes, ranks, positions, sentence_index)
    for i, (s, o, _) in enumerate(relation_index):
        details[s]["relations"].append(i)
        if o != s:
            details[o]["relations"].append(i)
    edges = _link_edges(graph, links, node_index, relation_index) + _layer_edges(graph, node_index, relation_index)
    days, figures = _timeline(graph, sentence_index, doc_index), _figures(graph, sentence_index, doc_index)
    drawn = {
        "nodes": nodes,
        "edges": edges,
        "relations": relations,
        "nodeDetails": details,
        "timeline": days,
        "figures": figures,
        "sentences": [{"text": graph.graph["sentences"][s]["text"],
                       "doc": doc_index.get(graph.graph["sentences"][s]["doc"], -1)} for s in sentences],
        "docs": [{"iri": d, **graph.graph["docs"][d]} for d in docs],
    }
    return drawn, {"story": story, "links": links, "linked": len(linked), "initial": initial, "first": len(first)}


def events_carry_the_story(graph: nx.MultiDiGraph, story: nx.Graph) -> bool:
    """Whether the page opens with its events drawn: when they outnumber the entities two to one
    (what most of a corpus annotates: events with their arguments), or when they are all that links
    the entities. A news corpus with about as many events as entities (the shipped one: 158 and 156)
    opens on its actors and their stated relations."""
    events = sum(1 for _, family in graph.nodes(data="family") if family == "Event")
    stated = any(is_actor(graph, s) and is_actor(graph, o) and s != o for s, o in graph.edges())
    return events > 0 and (events >= EVENTS_PER_ACTOR_TO_OPEN_ON * story.number_of_nodes() or not stated)


EVENTS_PER_ACTOR_TO_OPEN_ON = 2


def _opening(graph: nx.MultiDiGraph, story: nx.Graph, linked: list[str], sizes: dict) -> list[str] | None:
    """The actors a large page opens on: the STORY_MAX best-connected, or, when no actor is linked
    at all, the STORY_MAX largest (the most mentioned); None when the page opens on every linked
    actor (or on every actor of a small graph with no link)."""
    if len(linked) > STORY_MAX:
        return top_actors(story, graph, STORY_MAX)
    if not linked and len(story) > STORY_MAX:
        return sorted(story, key=lambda n: (-sizes[n], n))[:STORY_MAX]
    return None


def _positions(graph: nx.MultiDiGraph, story: nx.Graph, initial: list[str] | None, sizes: dict,
               labels: dict, ranks: dict) -> dict:
    """The actors laid out in Python, then the layer nodes next to them; a large graph's page
    opens on its best-connected actors and only those are placed here: the page places the
    others around the node that brings them in, among what it draws at that moment."""
    if initial:
        return story_layout(ordered_subgraph(story, initial), sizes, labels, ranks)
    actors = story_layout(story, sizes, labels, ranks)
    return place_around(nx.Graph(graph.to_undirected(as_view=True)), actors, sizes)


def node_sizes(graph: nx.MultiDiGraph, size_by: str) -> dict[str, float]:
    """Radius in pixels: actors by mentions (or degree), 10 to 40; layer nodes a fixed small size.
    An actor without a mention count (a group, local to its article) counts its mention sentences."""
    sizes = {}
    for node, data in graph.nodes(data=True):
        if data["family"] in ACTORS:
            mentions = data["mentions"] or data.get("mentioned") or len(data["mention_sentences"])
            value = mentions if size_by == "mentions" else graph.degree(node)
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


def label_rank(graph: nx.MultiDiGraph, story: nx.Graph, sizes: dict, iri: str) -> float:
    """The order in which the page gives nodes their labels (the largest first, then the most
    mentioned and linked); the layout makes room for the labels of the first in the same order."""
    links = story.degree(iri) if iri in story else 0
    return sizes[iri] * 1000 + graph.nodes[iri]["mentions"] + links


def _nodes(graph: nx.MultiDiGraph, order: list[str], story: nx.Graph, sizes: dict, ranks: dict, positions: dict,
           sentence_index: dict) -> tuple[list, dict]:
    """Compact node records in `order` (the page adds colour, shape and tooltip from the legend,
    so a record carries what the tooltip says) and node details."""
    nodes, details = [], {}
    for iri in order:
        d = graph.nodes[iri]
        doubt = uncertainty(d)
        links = story.degree(iri) if iri in story else 0
        short = _short(d["label"])
        node = {"id": iri, "label": short, "family": node_kind(graph, iri), "size": sizes[iri],
                "rank": ranks[iri], "type": (d["type_labels"] or [""])[0],
                "mentions": d["mentions"], "links": links}
        if iri in positions:
            node["x"], node["y"] = positions[iri]
        tint = event_tint(graph, iri)
        if tint is not None:
            node["tint"] = tint
        if short != d["label"]:
            node["name"] = d["label"]
        if d.get("outside"):
            node["outside"] = d["outside"]
        if doubt:
            node["uncertain"] = doubt
        nodes.append(node)
        details[iri] = {
            "label": d["label"], "family": d["family"], "types": d["type_labels"], "alt": d["alt"],
            "wikidata": d["wikidata"], "mentions": d["mentions"], "facts": [list(f) for f in d["facts"]],
            "uncertain": doubt, "date": d.get("props", {}).get("date", ""), "relations": [], "links": links,
            "sentences": [sentence_index[s] for s in d["mention_sentences"] if s in sentence_index],
            "sentenceCount": d.get("mentioned") or len(d["mention_sentences"]),
            "search": "\n".join(sorted({fold(s) for s in [d["label"], *d["alt"], *d["hidden"]]})),
        }
        if d["family"] in ACTORS and not d.get("record", True):
            details[iri]["local"] = True  # local to one document: the search ranks it after the shared entities
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
                "text": link_label(graph, link), "weight": link.weight(), "rel": link_entry(graph, link),
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
    layered = {n for n, family in graph.nodes(data="family") if family in LAYERS}
    for s, o, key, d in graph.edges(keys=True, data=True):
        if s in layered or o in layered:
            pairs.setdefault((s, o), []).append((key, d["label"]))
    return [{"id": f"r{i}", "from": node_index[s], "to": node_index[o], "kind": "layer", "arrow": True,
             "text": ", ".join(sorted({lab for _, lab in keyed})), "rel": relation_entry(graph, [k for k, _ in keyed]),
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
    # connect-src 'self': served by `kg serve`, the page fetches a node's neighbours from it
    return (f"default-src 'none'; script-src {hashes}; style-src 'unsafe-inline'; img-src data:; "
            "font-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'")


def page_script() -> str:
    """The page's script: its modules (viz/static/view/, each one concept) joined in one function, so
    that they share its variables, as one inline script the page's policy admits by its hash."""
    body = "\n".join(_asset(f"view/{name}") for name in SCRIPT_MODULES)
    return f'var network = null;\nvar kgView = (function () {{\n  "use strict";\n{body}}})();\n'


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath("static", name).read_text(encoding="utf-8")


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _template() -> jinja2.Template:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader(__package__, "templates"),
        autoescape=True, undefined=jinja2.StrictUndefined, keep_trailing_newline=True,
    )
    return env.get_template("view.html")
