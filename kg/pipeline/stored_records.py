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
from kg.model.entities.evidence import MAX_SENTENCE, UNDATED, Evidence, MentionCounts
from kg.model.iris import FIXED_PREFIXES, resource_iri
from kg.model.schema.corpus_vocabulary import Vocabulary
from kg.store.embedded import EmbeddedStore

XSD_INTEGER = FIXED_PREFIXES["xsd"] + "integer"

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


# The first mention of each entity: the least "date<TAB>document<TAB>offset" (the offset padded to 12
# digits, so that text order is number order; a tab sorts before any character of a date or an IRI,
# so that the order is that of the (date, document, offset) tuples of kg.model.entities.evidence).
_FIRSTS = """
PREFIX kgo: <{kgo}>
PREFIX nif: <{nif}>
PREFIX dcterms: <http://purl.org/dc/terms/>
SELECT ?e (MIN(?key) AS ?first) WHERE {{
  {values}
  GRAPH ?g {{ ?m kgo:denotes ?e ; kgo:sentence ?s ; nif:beginIndex ?b ; nif:referenceContext ?doc }}
  OPTIONAL {{ GRAPH ?g {{ ?doc dcterms:date ?d }} }}
  FILTER(STRSTARTS(STR(?e), "{resource}"))
  BIND(CONCAT(COALESCE(STR(?d), "{undated}"), "\t", STR(?doc), "\t",
              SUBSTR(CONCAT("000000000000", STR(?b)), STRLEN(STR(?b)) + 1)) AS ?key)
}} GROUP BY ?e
"""
_SENTENCES = """
PREFIX kgo: <{kgo}>
PREFIX nif: <{nif}>
SELECT ?doc ?b (SAMPLE(?text) AS ?sentence) WHERE {{
  VALUES (?doc ?b) {{ {pairs} }}
  ?m nif:referenceContext ?doc ; nif:beginIndex ?b ; kgo:sentence ?s . ?s nif:anchorOf ?text
}} GROUP BY ?doc ?b
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
    _set_firsts(store, evidence, fill)
    return dict(evidence)


def _set_firsts(store: EmbeddedStore, evidence: dict[str, MentionCounts], fill: dict[str, str]) -> None:
    """Each entity's first mention (kg.model.entities.evidence.First), asked of the store."""
    firsts = {}
    for row in store.select(_FIRSTS.format(undated=UNDATED, **fill)):
        date, document, offset = row["first"].split("\t")
        firsts[row["e"][len(iris.RESOURCE):]] = (date, document, int(offset))
    places = sorted({(document, offset) for _, document, offset in firsts.values()})
    sentences: dict[tuple[str, int], str] = {}
    for chunk in range(0, len(places), 1000):
        pairs = " ".join(f'(<{d}> "{o}"^^<{XSD_INTEGER}>)' for d, o in places[chunk:chunk + 1000])
        for row in store.select(_SENTENCES.format(pairs=pairs, **fill)):
            sentences[row["doc"], int(row["b"])] = row["sentence"][:MAX_SENTENCE]
    for key, (date, document, offset) in firsts.items():
        item = evidence[key]
        item.first, item.stale = (date, document, offset, sentences.get((document, offset), "")), False


def refresh_firsts(store: EmbeddedStore, evidence: Evidence) -> None:
    """Ask the store for the first mention of the entities whose first is stale (its article was
    replaced or removed by an incremental build)."""
    stale = sorted(key for key, item in evidence.items() if item.stale)
    if not stale:
        return
    values = "VALUES ?e { " + " ".join(f"<{resource_iri(k)}>" for k in stale) + " }"
    for key in stale:
        evidence[key].first, evidence[key].stale = None, False
    _set_firsts(store, evidence, dict(kgo=FIXED_PREFIXES["kgo"], nif=FIXED_PREFIXES["nif"], resource=iris.RESOURCE,
                                       values=values))


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
