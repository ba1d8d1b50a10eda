"""The entity records in a build's store: their evidence asked of the store in SPARQL (for a
store that kept no evidence, and to check that the evidence the readers summed agrees), and
records replaced in place (kg.model.entities.entity_records writes them).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Iterable

from kg.model import iris
from kg.model.entities.aliases import AliasTable
from kg.model.entities.entity_records import records_nquads
from kg.model.entities.evidence import Evidence, MentionCounts
from kg.model.iris import FIXED_PREFIXES, resource_iri
from kg.model.schema.corpus_vocabulary import Vocabulary
from kg.store.embedded import EmbeddedStore

_MENTIONS = """
PREFIX kgo: <{kgo}>
PREFIX nif: <{nif}>
SELECT ?e ?text ?type (COUNT(?m) AS ?n) WHERE {{
  {values}
  GRAPH ?g {{ ?m kgo:denotes ?e ; nif:anchorOf ?text ; kgo:annotationType ?type }}
  FILTER(STRSTARTS(STR(?e), "{resource}"))
}} GROUP BY ?e ?text ?type
"""
_NAMES = """
PREFIX kgo: <{kgo}>
PREFIX nif: <{nif}>
SELECT ?e ?text (COUNT(?m) AS ?n) WHERE {{
  {values}
  GRAPH ?g {{ ?m kgo:denotes ?e ; nif:anchorOf ?text ; kgo:annotationType ?type ; kgo:isName true }}
  FILTER(STRSTARTS(STR(?e), "{resource}"))
}} GROUP BY ?e ?text
"""
# Posts are named by no mention: their evidence is the memberships that fill them, their forms
# the labels the documents give them ("president, Venezuela").
_POSTS = """
PREFIX kgo: <{kgo}>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
SELECT ?e ?text (COUNT(DISTINCT ?membership) AS ?n) WHERE {{
  {values}
  GRAPH ?g {{ ?e a kgo:Post ; rdfs:label ?text . ?membership kgo:post ?e }}
  FILTER(STRSTARTS(STR(?e), "{resource}"))
}} GROUP BY ?e ?text
"""
_REFERENCES = """
PREFIX kgo: <{kgo}>
SELECT ?e (COUNT(*) AS ?n) WHERE {{
  {values}
  VALUES ?p {{ kgo:publisher kgo:author }}
  GRAPH ?g {{ ?d ?p ?e }}
  FILTER(STRSTARTS(STR(?e), "{resource}"))
}} GROUP BY ?e
"""

_ITEMS = """
PREFIX owl: <http://www.w3.org/2002/07/owl#>
SELECT ?e ?item (COUNT(DISTINCT ?g) AS ?n) WHERE {{
  {values}
  GRAPH ?g {{ ?e owl:sameAs ?item }}
  FILTER(?g != <{entities}> && STRSTARTS(STR(?e), "{resource}"))
}} GROUP BY ?e ?item
"""


def gather_evidence(store: EmbeddedStore, keys: Iterable[str] | None = None) -> Evidence:
    """Mentions and references per canonical key, for every key or only `keys`, asked of the store."""
    values = ""
    if keys is not None:
        keys = sorted(keys)
        if not keys:
            return {}
        values = "VALUES ?e { " + " ".join(f"<{resource_iri(k)}>" for k in keys) + " }"
    fill = dict(kgo=FIXED_PREFIXES["kgo"], nif=FIXED_PREFIXES["nif"], resource=iris.RESOURCE, values=values,
                entities=iris.ENTITIES_GRAPH)
    evidence: dict[str, MentionCounts] = defaultdict(MentionCounts)
    for row in store.select(_MENTIONS.format(**fill)):
        item = evidence[row["e"][len(iris.RESOURCE):]]
        count = int(row["n"])
        item.forms[row["text"]] += count
        item.types[row["type"]] += count
    for row in store.select(_NAMES.format(**fill)):
        evidence[row["e"][len(iris.RESOURCE):]].names[row["text"]] += int(row["n"])
    for row in store.select(_POSTS.format(**fill)):
        item = evidence[row["e"][len(iris.RESOURCE):]]
        item.forms[row["text"]] += int(row["n"])
        item.types["Post"] += int(row["n"])
    for row in store.select(_REFERENCES.format(**fill)):
        evidence[row["e"][len(iris.RESOURCE):]].references += int(row["n"])
    for row in store.select(_ITEMS.format(**fill)):
        evidence[row["e"][len(iris.RESOURCE):]].items[row["item"]] += int(row["n"])
    return dict(evidence)


def rebuild_records(store: EmbeddedStore, vocab: Vocabulary, aliases: AliasTable,
                    keys: Iterable[str] | None = None) -> tuple[int, str]:
    """Replace the records of `keys` (all when None) by ones computed from the store.

    Returns how many records were written and their N-Quads."""
    keys = None if keys is None else set(keys)
    return replace_records(store, gather_evidence(store, keys), vocab, aliases, keys)


def replace_records(store: EmbeddedStore, evidence: Evidence, vocab: Vocabulary, aliases: AliasTable,
                    keys: set[str] | None) -> tuple[int, str]:
    """Replace the records of `keys` (all when None) by ones written from `evidence` (which may
    hold more keys). Returns how many records were written and their N-Quads."""
    count, text = records_nquads(evidence, vocab, aliases, keys)
    _drop_records(store, keys)
    store.load_nquads(text.encode())
    return count, text


def _drop_records(store: EmbeddedStore, keys: set[str] | None) -> None:
    if keys is None:
        store.drop_graph(iris.ENTITIES_GRAPH)
        return
    store.drop_subjects(iris.ENTITIES_GRAPH, [resource_iri(k) for k in keys])
