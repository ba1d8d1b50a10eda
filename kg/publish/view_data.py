"""The network view's data as a build reads it: the view's schema (which classes are nodes, their
families and ancestors, the labels of classes and properties: all of it from the ontology graph,
which an incremental build never changes) and the part of every document graph and every entity
record (kg.model.view_parts). The build keeps them, by node, in its view index
(kg.publish.view_index); an incremental build hands it the parts of what it read again.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Iterable

from kg.model import iris
from kg.model.iris import ONTOLOGY, prologue
from kg.model.schema.default_alignment import ENTITY_ROOT
from kg.model.view_parts import ViewPart, pack, split_by_subject, unpack, view_part
from kg.store.protocol import Select

# Node families in priority order (a node of two families shows as the first); the last is the
# family of the entities whose type is the corpus's own, aligned to none of kg's classes.
FAMILIES = ("Event", "Person", "Group", "Organization", "Place", "Date", "Figure", "Quote", "Entity")
CORPUS_FAMILY = FAMILIES[-1]
# The families drawn as actors (the others are layers: events, quotes, figures, dates).
ACTORS = ("Person", "Group", "Organization", "Place", CORPUS_FAMILY)



@dataclass
class ViewSchema:
    """`labels` {class or property IRI: label}, `supers` {class: every ancestor}, `classes`
    {class whose instances are nodes: family}."""

    labels: dict[str, str]
    supers: dict[str, set[str]]
    classes: dict[str, str]


def view_schema(select: Select) -> ViewSchema:
    """The schema of the graph `select` answers for (only its ontology graph is read)."""
    supers = superclasses(select)
    return ViewSchema(ontology_labels(select), supers, view_classes(select, supers))


def ontology_labels(select: Select) -> dict[str, str]:
    """rdfs:label of every class and property in the ontology graph (English or plain first)."""
    rows = select(prologue() + f"""
        SELECT ?t ?label (LANG(?label) AS ?lang) WHERE {{
          GRAPH <{iris.ONTOLOGY_GRAPH}> {{ ?t rdfs:label ?label }} }}""")
    labels: dict[str, str] = {}
    for row in sorted(rows, key=lambda r: r.get("lang", "") not in ("", "en")):
        labels.setdefault(row["t"], row["label"])
    return labels


def superclasses(select: Select) -> dict[str, set[str]]:
    """{class: its ancestors} of every class with one."""
    # `?c rdfs:subClassOf+ ?s` as one step then `*`: the same pairs, and Virtuoso refuses a
    # transitive path with neither end bound ("transitive start not given")
    rows = select(prologue() + "SELECT DISTINCT ?c ?s WHERE { ?c rdfs:subClassOf ?d . "
                               "?d rdfs:subClassOf* ?s FILTER(isIRI(?s)) }")
    supers: dict[str, set[str]] = defaultdict(set)
    for row in rows:
        supers[row["c"]].add(row["s"])
    return supers


def view_classes(select: Select, supers: dict[str, set[str]]) -> dict[str, str]:
    """{class IRI: family} of every class whose instances are nodes of the view: kg's family classes
    and their subclasses (in a class of two families, the first), and the classes the corpus minted
    (iris.VOCABULARY) under none of kg's classes but kgo:Entity: the corpus's own entity types."""
    classes: dict[str, str] = {}
    for family in reversed(FAMILIES[:-1]):
        classes[ONTOLOGY + family] = family
        classes.update({c: family for c, ups in supers.items() if ONTOLOGY + family in ups})
    rows = select(prologue() + f"""SELECT DISTINCT ?c WHERE {{ GRAPH <{iris.ONTOLOGY_GRAPH}> {{ ?c a owl:Class }}
        FILTER(STRSTARTS(STR(?c), "{iris.VOCABULARY}")) }}""")
    for row in rows:
        if not any(up.startswith(ONTOLOGY) and up != ONTOLOGY + ENTITY_ROOT for up in supers.get(row["c"], ())):
            classes.setdefault(row["c"], CORPUS_FAMILY)
    return classes


def ontology_schema(ontology_nquads: str) -> ViewSchema:
    """The schema of a build, from its ontology graph (kg.pipeline.load_file.ontology_nquads)."""
    from kg.store.embedded import EmbeddedStore  # pyoxigraph only for a build

    with EmbeddedStore() as store:
        store.load_nquads(ontology_nquads.encode())
        return view_schema(store.select)


@dataclass
class ViewParts:
    """What a build keeps of its view: the schema, the ontology graph's part, and the part of each
    document graph (by slug) and of each entity record (by canonical key), packed
    (kg.model.view_parts.pack)."""

    schema: ViewSchema
    ontology: ViewPart
    documents: dict[str, bytes] = field(default_factory=dict)
    records: dict[str, bytes] = field(default_factory=dict)

    def all_parts(self) -> Iterable[ViewPart]:
        """Every part, unpacked one at a time."""
        yield self.ontology
        yield from map(unpack, self.documents.values())
        yield from map(unpack, self.records.values())


def start_parts(ontology_nquads: str) -> ViewParts:
    """A full build's view data before any document: the schema and the ontology graph's part."""
    schema = ontology_schema(ontology_nquads)
    return ViewParts(schema, view_part(ontology_nquads, schema.classes))


def record_parts(records_nquads: str, classes: Iterable[str]) -> dict[str, bytes]:
    """The part of each entity record in `records_nquads` (kg.model.entities.entity_records), by key, packed."""
    start = len(iris.RESOURCE)
    parts = split_by_subject(view_part(records_nquads, classes),
                             lambda s: s[start:] if s.startswith(iris.RESOURCE) else None)
    return {key: pack(part) for key, part in parts.items()}
