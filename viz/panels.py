"""The two tables a reader of these articles compares: the timeline of dated events and
the reported figures side by side. Pure data from the view graph; the page draws them.

Figures are grouped by what they count: the kind of event and the role they fill
("flight, agent": people who fled; "expulsion, patient": people expelled). A figure
in no event goes to "other figures", with the words that follow it in its sentence.
"""

from __future__ import annotations

import re
from collections import defaultdict
from datetime import date

import networkx as nx

from kg.model.iris import ONTOLOGY
from kg.viz.story import is_actor, uncertainty

OTHER_FIGURES = "other figures"
REPORTED_BY = ONTOLOGY + "reportedBy"
# what a figure counts, or the place whose capacity it is, is no source of it
NOT_SOURCES = {ONTOLOGY + "counts", ONTOLOGY + "capacityOf"}
CONTEXT_WORDS = 8
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December")


def day_label(value: str) -> str:
    """'2019-02-23' -> 'Saturday 23 February 2019', '2019-02' -> 'February 2019', other values as given."""
    parts = value.split("-")
    try:
        if len(parts) == 3:
            day = date(int(parts[0]), int(parts[1]), int(parts[2]))
            return f"{day:%A} {day.day} {MONTHS[day.month - 1]} {day.year}"
        if len(parts) == 2:
            return f"{MONTHS[int(parts[1]) - 1]} {int(parts[0])}"
    except (ValueError, IndexError):
        pass
    return value


def event_sentences(graph: nx.MultiDiGraph, event: str) -> list[str]:
    """The sentences that state any role of an event, in a stable order."""
    return sorted({s for _, _, ev in graph.out_edges(event, data="evidence") for s in ev or ()})


def timeline(graph: nx.MultiDiGraph) -> list[dict]:
    """Dated events in date order, one group per distinct date value (a day, or a month or year
    when the text gives no day): [{"date", "label", "events": [{"id", "label", "type",
    "uncertain", "participants", "sentences"}]}]."""
    dated = sorted((d["props"]["date"], d["label"], n) for n, d in graph.nodes(data=True)
                   if d["family"] == "Event" and d.get("props", {}).get("date"))
    groups: dict[str, list[dict]] = {}
    for value, label, event in dated:
        data = graph.nodes[event]
        groups.setdefault(value, []).append({
            "id": event, "label": label, "type": (data["type_labels"] or ["event"])[0],
            "uncertain": uncertainty(data),
            "participants": sorted({o for _, o in graph.out_edges(event) if graph.nodes[o]["family"] != "Date"}),
            "sentences": event_sentences(graph, event),
        })
    return [{"date": value, "label": day_label(value), "events": events} for value, events in groups.items()]


def figure_groups(graph: nx.MultiDiGraph) -> list[dict]:
    """Every figure, in groups of figures about the same thing: [{"topic", "rows": [{"id", "label",
    "value", "qualifier", "sources", "date", "doc", "sentence", "context"}]}], the largest group first."""
    groups: dict[str, list[dict]] = defaultdict(list)
    for figure in sorted(n for n, f in graph.nodes(data="family") if f == "Figure"):
        row = figure_row(graph, figure)
        for topic in figure_topics(graph, figure) or [OTHER_FIGURES]:
            groups[topic].append(dict(row))
    for rows in groups.values():
        rows.sort(key=lambda r: (r["date"] or "9999", _number(r["value"]), r["id"]))
    order = sorted(groups, key=lambda t: (t == OTHER_FIGURES, -len(groups[t]), t))
    return [{"topic": t, "rows": groups[t]} for t in order]


def figure_topics(graph: nx.MultiDiGraph, figure: str) -> list[str]:
    """'<event kind>, <role>' for each event the figure takes part in."""
    topics = set()
    for event, _, data in graph.in_edges(figure, data=True):
        if graph.nodes[event]["family"] == "Event":
            kind = (graph.nodes[event]["type_labels"] or ["event"])[0]
            topics.add(f"{kind}, {data.get('label', '')}".rstrip(", "))
    return sorted(topics)


def figure_row(graph: nx.MultiDiGraph, figure: str) -> dict:
    data = graph.nodes[figure]
    props = data.get("props", {})
    sources, dates = [], []
    for _, target, key in graph.out_edges(figure, keys=True):
        if graph.nodes[target]["family"] == "Date":
            dates.append(graph.nodes[target].get("props", {}).get("dateValue") or graph.nodes[target]["label"])
        elif key == REPORTED_BY or (key not in NOT_SOURCES and is_actor(graph, target)):
            sources.append(target)
    sentence = data["mention_sentences"][0] if data["mention_sentences"] else None
    text = graph.graph.get("sentences", {}).get(sentence, {})
    return {
        "id": figure, "label": data["label"], "value": props.get("value", ""),
        "qualifier": props.get("qualifier", ""), "sources": sorted(sources), "date": min(dates, default=""),
        "doc": text.get("doc") or document_of(graph, figure), "sentence": sentence,
        "context": after_span(text.get("text", ""), data["label"]),
    }


def document_of(graph: nx.MultiDiGraph, node: str) -> str:
    """The document a document-local node (`<doc>/figure/T8`) belongs to, or ''."""
    head = node.rsplit("/", 2)[0]
    return head if head in graph.graph.get("docs", {}) else ""


def after_span(sentence: str, span: str) -> str:
    """The words after the first occurrence of `span` in `sentence` (what a figure counts), up to a clause end."""
    at = sentence.lower().find(span.lower()) if span else -1
    if at < 0:
        return ""
    tail = re.split(r"[.;:()\"“”]|,\s", sentence[at + len(span):], maxsplit=1)[0].split()
    words = tail[:CONTEXT_WORDS]
    return " ".join(words) + (" …" if len(tail) > CONTEXT_WORDS else "")


def _number(value: str) -> float:
    try:
        return float(value)
    except ValueError:
        return float("inf")
