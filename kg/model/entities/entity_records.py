"""Entity records (the kgg:entities graph), written from the evidence of the documents.

A record is a function of the mentions that denote the entity in every
document graph, of the articles that name it as publisher or author, and of
the alias table. Builds sum that evidence as the readers find it
(kg.model.entities.evidence), or ask a store for it (kg.pipeline.stored_records). Both
paths end in `records_nquads`, so they cannot disagree on what a record says.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from functools import lru_cache
from typing import Iterable

import pyoxigraph as ox

from kg.model import iris
from kg.model.entities.aliases import AliasTable, normalize
from kg.model.entities.evidence import MAX_SENTENCE, UNDATED, Evidence, MentionCounts
from kg.model.iris import FIXED_PREFIXES, WIKIDATA, resource_iri
from kg.model.nquads import QuadWriter, date_literal, integer, iri, literal
from kg.model.resources import ONTOLOGY_TTL, read_rdf
from kg.model.schema.corpus_vocabulary import Vocabulary
from kg.model.schema.ontology import KGO, date_precision

SHOWN = 200  # characters of the first sentence a description shows
RDF, RDFS, SKOS, OWL = FIXED_PREFIXES["rdf"], FIXED_PREFIXES["rdfs"], FIXED_PREFIXES["skos"], FIXED_PREFIXES["owl"]

def records_nquads(evidence: Evidence, vocab: Vocabulary, aliases: AliasTable,
                   keys: Iterable[str] | None = None) -> tuple[int, str]:
    """The records of the entities of `evidence` (only those among `keys` unless None) as N-Quads,
    and how many there are: an entity without evidence has no record."""
    chosen = sorted(evidence if keys is None else set(keys) & evidence.keys())
    out = QuadWriter(iris.ENTITIES_GRAPH)
    for key in chosen:
        write_record(out, key, evidence[key], vocab, aliases)
    return len(chosen), out.text()


def write_record(out: QuadWriter, key: str, evidence: MentionCounts, vocab: Vocabulary,
                 aliases: AliasTable) -> None:
    """The record of one entity: types, labels, links, mention count, and a description."""
    node = resource_iri(key)
    entry = aliases.entries.get(key)
    family = key.split("/", 1)[0]
    classes = _classes(_type_of(key, entry, evidence, vocab), vocab)
    for class_iri in classes:
        out.add(node, RDF + "type", iri(class_iri))
    out.add(node, RDFS + "comment", literal(description(classes[0] if classes else "", evidence)))
    pref = _preferred_label(key, entry, evidence)
    out.add(node, SKOS + "prefLabel", literal(pref))
    out.add(node, RDFS + "label", literal(pref))
    misspellings = set(entry.hidden if entry else ())
    names = (set(_names(key, evidence)) | set(entry.aliases if entry else ())) - misspellings - {pref}
    for label in names:
        out.add(node, SKOS + "altLabel", literal(label))
    for form in set(evidence.forms) - names - misspellings - {pref}:
        out.add(node, KGO.mentionForm, literal(form))
    hidden = misspellings | {normalize(x) for x in names | misspellings | {pref}}
    for label in hidden - names - {pref} - {""}:
        out.add(node, SKOS + "hiddenLabel", literal(label))
    given = {WIKIDATA + entry.wikidata} if entry and entry.wikidata else set()
    for item in given | set(evidence.items):  # the alias table's item, and those the documents link
        out.add(node, OWL + "sameAs", iri(item))
    if family == "date":
        out.add(node, KGO.dateValue, date_literal(key.split("/", 1)[1]))
        out.add(node, KGO.datePrecision, literal(date_precision(key.split("/", 1)[1])))
    out.add(node, KGO.mentionCount, integer(sum(evidence.forms.values())))


def description(class_iri: str, evidence: MentionCounts) -> str:
    """What a knowledge-base lookup shows beside the name: the entity's class and the sentence that
    names it first in the corpus, with its article ("Person, first named in npr-... (2019-03): “...”")."""
    kind = class_label(class_iri)
    if evidence.first is None:
        return kind
    date, document, _, sentence = evidence.first
    where = document[len(iris.DOCUMENT):] if document.startswith(iris.DOCUMENT) else document
    when = f" ({date})" if date != UNDATED else ""
    said = " ".join(sentence.split())
    if len(said) > SHOWN or len(sentence) >= MAX_SENTENCE:
        said = said[:SHOWN].rsplit(" ", 1)[0] + "…"
    return f"{kind}, first named in {where}{when}: “{said}”" if said else f"{kind}, first named in {where}{when}"


def class_label(class_iri: str) -> str:
    """The name of a class, capitalized: its ontology label ('military unit' -> 'Military unit'), else its
    local name (a corpus vocabulary's class is named as its annotation type)."""
    label = _ontology_labels().get(class_iri) or class_iri.rsplit("#", 1)[-1].rsplit("/", 1)[-1]
    return label[:1].upper() + label[1:]


@lru_cache(maxsize=1)
def _ontology_labels() -> dict[str, str]:
    """rdfs:label of each term of ontology.ttl (read once per process)."""
    quads = ox.parse(read_rdf(ONTOLOGY_TTL), format=ox.RdfFormat.TURTLE)
    return {q.subject.value: q.object.value for q in quads if q.predicate.value == RDFS + "label"}


def _type_of(key: str, entry, evidence: MentionCounts, vocab: Vocabulary) -> str:
    family = key.split("/", 1)[0]
    if family in ("role", "post"):
        return family.capitalize()
    if entry is not None and entry.type != "Event":
        return entry.type
    if not evidence.types:
        return {"person": "Person", "organization": "Organization", "place": "Place", "date": "Date",
                "event": "Event"}.get(family, "Organization")
    # The most specific of the annotated types; ties go to the most frequent, then the name.
    ancestors = {a for t in evidence.types for a in vocab.config.ancestors(t)[1:]}
    candidates = [t for t in evidence.types if t not in ancestors]
    return sorted(candidates, key=lambda t: (-evidence.types[t], t))[0]


def _classes(type_: str, vocab: Vocabulary) -> list[str]:
    """Class IRIs of a record: those of its annotation type (declared by annotation.conf, or by the
    documents that use it), or the kgo class of that name (Role, Post, an alias table's type)."""
    if type_ in vocab.config.entities or type_ in vocab.config.events or type_ not in KGO.__annotations__:
        return vocab.class_iris(type_)
    return [str(KGO[type_])]


def _preferred_label(key: str, entry, evidence: MentionCounts) -> str:
    """The alias table's label, else the date written out, else the fullest and most frequent of the
    names the mentions give (of their words when none is a name)."""
    if entry is not None:
        return entry.label
    family, rest = key.split("/", 1)
    if family == "date":
        return _date_label(rest)
    forms = _names(key, evidence) or evidence.forms
    if forms:
        fullest = [f for f in forms if not any(_part_of(f, other) for other in forms)]
        return sorted(fullest, key=lambda f: (-forms[f], -len(f), f))[0]
    return rest.replace("-", " ")


def _names(key: str, evidence: MentionCounts) -> Counter:
    """The forms that name the entity: those the documents judged names (kg.model.entities.names); a post's
    are the labels kg gives it ("president, Venezuela")."""
    return evidence.forms if key.startswith("post/") else evidence.names


def _part_of(form: str, other: str) -> bool:
    """Whether `form` is a shorter name inside `other` ('Guaidó' in 'Juan Guaidó'): the preferred
    label is never a bare surname when a fuller name of the entity occurs."""
    words, longer = normalize(form).split(), normalize(other).split()
    if not words or len(words) >= len(longer):
        return False
    return any(longer[i:i + len(words)] == words for i in range(len(longer) - len(words) + 1))


def _date_label(value: str) -> str:
    """'2019-02-23' -> '23 February 2019', '2019-02' -> 'February 2019'."""
    parts = [int(p) for p in value.split("-")]
    if len(parts) == 3:
        day = dt.date(*parts)
        return f"{day.day} {day:%B %Y}"
    if len(parts) == 2:
        return f"{dt.date(parts[0], parts[1], 1):%B %Y}"
    return str(parts[0])
