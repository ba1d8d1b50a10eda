"""A part of the graph as the page's data, for a page served by `kg serve` that holds only part of
a large graph: a click on a node with neighbours outside the page, a search hit, a filter fetch it
(api/view.py: `/graph/neighbours?node=`, `/graph/nodes?...`) and the page merges it in.

The part (kg.viz.view_index: a neighbourhood or a selection) is sent unplaced: the page places new
nodes around the node that brought them in. It carries what the canvas draws (nodes, edges, the
relations behind them, labels, types, counts, the dated events and figures the tables list) and
the sentences of the node it is about (its mentions and its relations: the panel its click opens);
every other node's and relation's sentences are `null`, fetched when a visitor opens their panel
(`/graph/sources`, `sources_data`): a neighbourhood of a most mentioned node cites over a thousand
sentences that nobody may read. Likewise the documents: those of the sentences and figures the block
cites come whole (title, date, publisher), those only its dated events list come as references
(their IRI alone), which the page completes when its timeline shows them: an event lists every
article that states it, some eight hundred documents in a neighbourhood of a most mentioned node.
"""

from __future__ import annotations

import networkx as nx

from kg.publish.view_index.read import Sources
from kg.viz.html import graph_data

SENT = ("nodes", "edges", "relations", "nodeDetails", "timeline", "figures")


def neighbourhood_data(part: nx.MultiDiGraph, node: str) -> dict:
    """The page's data for `part` (around `node`, '' for a selection): nodes (unplaced), edges,
    relations, details, its dated events and figures, and the sentences and documents they cite,
    numbered within this block, the documents of dated events alone as references {"iri"} (see the
    module docstring)."""
    data, _ = graph_data(part, place=False)
    block = {"node": node, **{key: data[key] for key in SENT}}
    numbers = {n["id"]: i for i, n in enumerate(data["nodes"])}
    cited = _Citations(data["sentences"], data["docs"])
    for relation in block["relations"]:
        about = numbers.get(node) in (relation["from"], relation["to"])
        relation["sentences"] = cited.sentences(relation["sentences"]) if about else None
    for iri, details in block["nodeDetails"].items():
        details["sentences"] = cited.sentences(details["sentences"]) if iri == node else None
    for day in block["timeline"]:
        for event in day["events"]:
            event["docs"] = [cited.doc(k, whole=False) for k in event["docs"]]
            event["sentences"] = []  # the page lists an event's documents; its panel cites its sentences
    for group in block["figures"]:
        for row in group["rows"]:
            row["doc"], row["sentence"] = cited.doc(row["doc"]), -1
    return {**block, "sentences": cited.kept_sentences, "docs": cited.kept_docs}


class _Citations:
    """The sentences and documents of a block that it keeps, numbered again in the order kept: a
    document whole when a sentence or a figure cites it, else as a reference (its IRI)."""

    def __init__(self, sentences: list[dict], docs: list[dict]) -> None:
        self._sentences, self._docs = sentences, docs
        self._sentence_numbers: dict[int, int] = {}
        self._doc_numbers: dict[int, int] = {}
        self.kept_sentences: list[dict] = []
        self.kept_docs: list[dict] = []

    def sentences(self, numbers: list[int]) -> list[int]:
        return [self._sentence(k) for k in numbers]

    def _sentence(self, k: int) -> int:
        if k not in self._sentence_numbers:
            self._sentence_numbers[k] = len(self.kept_sentences)
            sentence = self._sentences[k]
            self.kept_sentences.append({"text": sentence["text"], "doc": self.doc(sentence["doc"])})
        return self._sentence_numbers[k]

    def doc(self, k: int, whole: bool = True) -> int:
        if k < 0:
            return k
        if k not in self._doc_numbers:
            self._doc_numbers[k] = len(self.kept_docs)
            self.kept_docs.append({"iri": self._docs[k]["iri"]})
        if whole:
            self.kept_docs[self._doc_numbers[k]] = self._docs[k]
        return self._doc_numbers[k]


def sources_data(found: Sources) -> dict:
    """The page's data for a panel's provenance (`/graph/sources`): {"mentions": {node: [sentence
    numbers]}, "mentioned": {node: how many sentences mention it, when more than listed},
    "relations": [[sentence numbers] of each relation asked, in order], "sentences": [{"text",
    "doc"}], "docs": [{"iri", "title", "date", "publisher"}]}, numbered within this answer."""
    docs = list(found.docs)
    doc_number = {d: i for i, d in enumerate(docs)}
    sentence_number = {s: i for i, s in enumerate(found.sentences)}
    return {
        "mentions": {node: [sentence_number[s] for s in said] for node, said in found.mentions.items()},
        "mentioned": found.mentioned,
        "relations": [[sentence_number[s] for s in said] for said in found.stated],
        "sentences": [{"text": d["text"], "doc": doc_number.get(d["doc"], -1)} for d in found.sentences.values()],
        "docs": [{"iri": d, **found.docs[d]} for d in docs],
    }
