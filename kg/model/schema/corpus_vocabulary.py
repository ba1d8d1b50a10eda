"""The corpus vocabulary: the annotation schema of a corpus as RDF classes and properties.

Every entity and event type of annotation.conf is a class, and every relation
type, event role and attribute a property. A type named as one of kgo's
domain classes (`Person`, `Country`, `Attack`...) is that class, and a
relation, role or attribute named as a kgo property (`MemberOf`: memberOf) is
that property; any other name is minted in the corpus vocabulary namespace
(`kgv:`) with the configuration's own spelling (`WORKS_AS`: kgv:WORKS_AS; a
property named as a type has its first letter lowered: the role Entity is
kgv:entity beside the class kgv:Entity), labelled, placed under its parent
of the configuration's hierarchy (events under kgo:Event), and published in
the ontology graph. kg's internal terms
(kgo:Sentence, kgo:Mention, kgo:sentence...) never capture a name.

The usual NER and event type names (PER, ORG, GPE, DATE...) are aligned by
kg.model.schema.default_alignment; the optional `kg.toml` of the corpus aligns the
corpus's own names with kg's ontology, winning over that table:

    [align]
    PER = "Person"            # an entity or event type -> a kgo class
    GPE = "Place"
    Employment = "memberOf"   # a relation type, role or attribute -> a kgo property
    default = false           # optional: no default alignment

An aligned type is a subclass of its kgo class and its annotations are typed
with both, so a query for kgo:Person finds PER mentions; kg's own semantics
(figures, quotes, dates, memberships, qualifiers) follow the alignment.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Iterable

from kg.errors import ConfigError
from kg.formats import limits
from kg.formats.brat.conf import MAPPING_FILE, AnnotationConfig, TypeNode, decode_utf8
from kg.formats.positions import toml_error, toml_key_lines
from kg.model import iris
from kg.model.entities import sharing
from kg.model.entities.knowledge_bases import KnowledgeBases
from kg.model.iris import FIXED_PREFIXES, ONTOLOGY, fold
from kg.model.nquads import QuadWriter, iri, literal
from kg.model.schema.default_alignment import (
    DOMAIN_CLASSES,
    ENTITY_CLASSES,
    ENTITY_ROOT,
    EVENT_CLASSES,
    INTERNAL_CLASSES,
    INTERNAL_PROPERTIES,
    KGO_PARENTS,
    default_class,
)
from kg.model.schema.ontology import KGO

DEFAULT_KEY = "default"  # [align] default = false: no default alignment
RDF, RDFS, OWL = FIXED_PREFIXES["rdf"], FIXED_PREFIXES["rdfs"], FIXED_PREFIXES["owl"]
# Families of canonical keys for kg's own kinds of things; other types use their top type's name.
SECTION_NOUNS = {"entities": "entity type", "events": "event type", "relations": "relation type",
                 "attributes": "attribute", "roles": "event role"}
FAMILIES = {"Person": "person", "Group": "group", "Organization": "organization", "Place": "place", "Date": "date",
            "Figure": "figure", "Quote": "quote"}


def property_name(annotation_name: str) -> str:
    """Relation type, role or attribute name to the kgo property it names: MemberOf -> memberOf."""
    return annotation_name[0].lower() + annotation_name[1:]


def _kgo_term(name: str) -> bool:
    return name in KGO.__annotations__


def _alignable(term: str) -> bool:
    """Whether kg.toml may align a name with this kgo term (not one of kg's internal terms)."""
    return _kgo_term(term) and term not in INTERNAL_CLASSES and term not in INTERNAL_PROPERTIES


@dataclass(frozen=True)
class Alignment:
    """kg.toml's [align] table: corpus name -> kgo term name, with the line of each entry."""

    terms: dict[str, str] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)
    path: str = MAPPING_FILE
    defaults: bool = True  # `default = false` in [align]: no default alignment (kg.model.schema.default_alignment)
    sharing_by_type: dict[str, str] = field(default_factory=dict)  # [entities]: type -> shared or local (kg.model.entities.sharing)
    identity: frozenset[str] = frozenset()  # [identity] relations: types that state identity (kg.model.entities.identity)


def load_alignment(path: Path) -> Alignment:
    """Read kg.toml (absent: no alignment; at most limits.CONFIG, UTF-8); every kgo term it names must exist."""
    path = Path(path)
    if not path.is_file():
        return Alignment(path=str(path))
    raw = decode_utf8(limits.read_bounded(path, limits.CONFIG, ConfigError), path)
    try:
        data = tomllib.loads(raw)
    except tomllib.TOMLDecodeError as exc:
        raise toml_error(exc, path, '[align] NAME = "kgo term"') from exc
    table = data.get("align", {})
    unknown = sorted(set(data) - {"align", *sharing.TABLES})
    key_lines = toml_key_lines(raw)
    if unknown or not isinstance(table, dict):
        raise ConfigError(f"unknown table {unknown[0] if unknown else 'align'!r} (expected one [align] table "
                          "of NAME = \"kgo term\", and [entities], [identity])", path,
                          key_lines.get(unknown[0] if unknown else "align"))
    table = dict(table)
    defaults = table.pop(DEFAULT_KEY) if isinstance(table.get(DEFAULT_KEY), bool) else True
    lines = {}
    for name, term in table.items():
        lines[name] = key_lines.get(name)
        if not isinstance(term, str) or not _alignable(term):
            raise ConfigError(f"{name} = {term!r}: not a term of kg's ontology a name can be aligned with (expected "
                              "a kgo class such as Person, Place, Organization, Event, or a property such as "
                              f"memberOf; or {DEFAULT_KEY} = false)", path, lines[name])
    shared, identity = sharing.read_tables(data, key_lines, path)
    lines.update((name, key_lines.get(name)) for name in shared if name not in lines)
    return Alignment(table, lines, str(path), defaults, shared, identity)


@dataclass(frozen=True)
class Vocabulary:
    """Classes and properties of one annotation configuration, aligned with kg's ontology, and the
    knowledge bases its normalizations may name (tools.conf)."""

    config: AnnotationConfig
    alignment: Alignment = field(default_factory=Alignment)
    knowledge_bases: KnowledgeBases = field(default_factory=KnowledgeBases)

    def class_iri(self, type_: str) -> str:
        """The class of an annotation type: kgo's domain class of that name, or a minted one."""
        if type_ not in self.alignment.terms and type_ in DOMAIN_CLASSES:
            return ONTOLOGY + type_
        return iris.VOCABULARY + iris.iri_escaped(type_)

    def property_iri(self, name: str) -> str:
        """The property of a relation type, role or attribute: the kgo property it names
        (MemberOf: kgo:memberOf), or one minted with the configuration's spelling (kgv:WORKS_AS),
        its first letter lowered only where a type has that name (the role Entity: kgv:entity,
        beside the class kgv:Entity)."""
        local = property_name(name)
        if name not in self.alignment.terms and _alignable(local):
            return ONTOLOGY + local
        types = self.config.entities.keys() | self.config.events.keys()
        return iris.VOCABULARY + iris.iri_escaped(local if name in types else name)

    def aligned(self, type_: str) -> str | None:
        """The kgo class an entity or event type is aligned with: kg.toml's entry, the domain class
        of its name, or the default table's (unless kg.toml turns it off)."""
        if type_ in self.alignment.terms:
            return self.alignment.terms[type_]
        if type_ in DOMAIN_CLASSES:
            return type_
        return default_class(type_, type_ in self.config.events) if self.alignment.defaults else None

    def kgo_classes(self, type_: str) -> list[str]:
        """kgo class names a type is, itself included, from its hierarchy and the alignment (a
        COUNTRY aligned with Country is also a Place, and its mentions resolve as places)."""
        names = []
        for ancestor in self.config.ancestors(type_):
            term = self.aligned(ancestor)
            names += [t for t in (term, KGO_PARENTS.get(term)) if t and t not in names]
        if type_ in self.config.events and "Event" not in names:
            names.append("Event")
        return names

    def class_iris(self, type_: str) -> list[str]:
        """Every class an annotation of this type gets: its own, its ancestors', their kgo alignments."""
        iris = [self.class_iri(t) for t in self.config.ancestors(type_)]
        return list(dict.fromkeys(iris + [ONTOLOGY + n for n in self.kgo_classes(type_)]))

    def is_a(self, type_: str, kgo_class: str) -> bool:
        return kgo_class in self.kgo_classes(type_)

    def means(self, name: str, kgo_property: str) -> bool:
        """Whether a relation type, role or attribute name stands for a kgo property."""
        return self.alignment.terms.get(name, property_name(name)) == kgo_property

    def family(self, type_: str) -> str:
        """The family of the canonical keys of this type: person, place... or the top type's letters."""
        for name in self.kgo_classes(type_):
            if name in FAMILIES:
                return FAMILIES[name]
        letters = re.sub(r"[^a-z]", "", fold(self.config.top(type_)))
        return letters or "thing"

    def minted(self) -> list[tuple[str, str, str]]:
        """(subject, predicate, object N-Triples term) of every minted class and property: its type,
        label (the project's display name of it, INCEpTION's uiName, else the configuration's name), comment (the configuration's comment above its
        declaration, else what it is) and place under its parent, its kgo class or property where
        aligned, and kgo:Event or kgo:Entity at the top; an event role has kgo:Event as its domain
        (what the JSON API lists as an event's participants)."""
        triples: list[tuple[str, str, str]] = []
        for section, types in (("entities", self.config.entities), ("events", self.config.events)):
            for name, node in types.items():
                own = self.class_iri(name)
                if own.startswith(iris.VOCABULARY):
                    triples += self._declaration(own, OWL + "Class", name, section, self._superclasses(name, node))
        for name in self.property_names():
            own = self.property_iri(name)
            if not own.startswith(iris.VOCABULARY):
                continue
            kind = OWL + ("ObjectProperty" if self._links(name) else "DatatypeProperty")
            supers = [ONTOLOGY + self.alignment.terms[name]] if name in self.alignment.terms else []
            section = self._property_section(name)
            triples += self._declaration(own, kind, name, section, supers)
            if section == "roles":  # only an event has it (a name that is also a relation's is not a role alone)
                triples.append((own, RDFS + "domain", iri(ONTOLOGY + "Event")))
        return sorted(set(triples))

    def _declaration(self, own: str, kind: str, name: str, section: str, supers: list[str]) -> list[tuple[str, str, str]]:
        comment = self.config.comments.get((section, name)) or f"The {SECTION_NOUNS[section]} {name} of the corpus."
        sub = RDFS + ("subClassOf" if kind == OWL + "Class" else "subPropertyOf")
        label = self.config.labels.get(name, name)  # the project's display name, where it gives one
        return [(own, RDF + "type", iri(kind)), (own, RDFS + "label", literal(label)),
                (own, RDFS + "comment", literal(comment)), *((own, sub, iri(s)) for s in supers)]

    def _superclasses(self, name: str, node: TypeNode) -> list[str]:
        parents = [self.class_iri(node.parent)] if node.parent else []
        parents += [ONTOLOGY + self.aligned(name)] if self.aligned(name) else []
        if name in self.config.events and not node.parent:
            parents.append(ONTOLOGY + "Event")
        elif not node.parent and not self.aligned(name):
            parents.append(ONTOLOGY + ENTITY_ROOT)
        return parents

    def _property_section(self, name: str) -> str:
        if name in self.config.relations:
            return "relations"
        return "attributes" if name in self.config.attributes else "roles"

    def nquads(self, graph: str) -> str:
        """The minted terms as N-Quads in `graph`."""
        out = QuadWriter(graph)
        for subject, predicate, obj in self.minted():
            out.add(subject, predicate, obj)
        return out.text()

    def declared(self) -> frozenset[str]:
        """IRIs of the minted terms (validation accepts them besides the ontology's)."""
        return frozenset(s for s, _, _ in self.minted())

    def extended(self, entity_types: Iterable[str], event_types: Iterable[str]) -> Vocabulary:
        """This vocabulary with the types a document uses that its annotation.conf lacks (brat displays
        them; kg reads them as entity types, or event types where an event uses them)."""
        entity_types, event_types = list(entity_types), list(event_types)
        if not entity_types and not event_types:
            return self
        def nodes(names: list[str]) -> dict[str, TypeNode]:
            return {name: TypeNode(name, (), None, False, (), {}, 0) for name in names}
        config = replace(self.config, entities={**nodes(entity_types), **self.config.entities},
                         events={**nodes(event_types), **self.config.events})
        return replace(self, config=config)

    def property_names(self) -> list[str]:
        equivalences = set(self.config.equiv_types())  # they join mentions; no triple uses them
        names = [n for n in self.config.relations if n not in equivalences] + list(self.config.attributes)
        names += [r.name for node in self.config.events.values() for r in node.roles]
        return list(dict.fromkeys(names))

    def _links(self, name: str) -> bool:
        attribute = self.config.attributes.get(name)
        return attribute is None


def check_alignment_names(vocab: Vocabulary) -> None:
    """Every name kg.toml aligns is declared, and a type goes to a class, a relation to a property;
    every type its [entities] table names is an entity type."""
    config, path = vocab.config, vocab.alignment.path
    types = set(config.entities) | set(config.events)
    for name in vocab.alignment.sharing_by_type:
        if name not in config.entities:
            raise ConfigError(f"{name} in [entities] is not an entity type of annotation.conf (expected one of "
                              f"{', '.join(sorted(config.entities)) or 'none'})", path, vocab.alignment.lines.get(name))
    for name, term in vocab.alignment.terms.items():
        line = vocab.alignment.lines.get(name)
        if name in types and not term[0].isupper():
            raise ConfigError(f"{name} is an annotation type but {term!r} is a property (expected a kgo class)",
                              path, line)
        if name in config.entities and term in EVENT_CLASSES:
            raise ConfigError(f"{name} is an entity type but {term!r} is an event class (expected an entity class "
                              "such as Person, Place or Organization: an event has a trigger and roles)", path, line)
        if name in config.events and term in ENTITY_CLASSES | {ENTITY_ROOT}:
            raise ConfigError(f"{name} is an event type but {term!r} is an entity class (expected an event class "
                              "such as Event, Claim or Membership)", path, line)
        if name not in types and name not in vocab.property_names():
            raise ConfigError(f"{name} is not declared in annotation.conf (expected one of its types, relations, "
                              "roles or attributes)", path, line)
        if name not in types and term[0].isupper():
            raise ConfigError(f"{name} is a relation, role or attribute but {term!r} is a class (expected a kgo "
                              "property such as memberOf)", path, line)
