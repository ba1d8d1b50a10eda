"""Resolve surface forms to canonical entities: deterministic and explainable.

A mention resolves, first rule that applies:
1. a `KG:<key>` normalization on it;
2. a Date with an `ISO8601:` value: `date/<value>`;
3. Figures, Quotes, Groups, Dates without a value and `Unnamed` mentions stay
   local to their document;
4. the alias table: its normalized text equals the normalized label, alias or
   hidden label of an entry of the same family;
5. its own normalized text: `<family>/<slug>`.
Mentions joined by `*	Equiv` share the strongest resolution of their group.
Every resolution records the rule that made it (kgo:resolvedBy). A surname
never links to a full name unless the alias table lists it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from kg.model.aliases import AliasTable, family_of, normalize
from kg.errors import AnnotationError, InputErrors
from kg.model.iris import local_iri, resource_iri, slugify
from kg.formats.records import Document, TextBound
from kg.model.corpus_vocabulary import Vocabulary

LOCAL_FAMILIES = {"figure", "quote", "group"}


class Rule(StrEnum):
    """How a mention was resolved, strongest first; an Equiv group takes its strongest member's rule."""

    KG = "KG normalization"
    ISO8601 = "ISO 8601 value"
    ALIAS_TABLE = "alias table"
    UNNAMED = "unnamed"
    LOCAL = "local"
    NORMALIZED = "normalized form"


RULES = tuple(Rule)


@dataclass(frozen=True)
class Resolution:
    """Where a mention points and why."""

    iri: str
    key: str | None
    rule: Rule
    equiv: bool = False  # taken from another mention of its Equiv group

    @property
    def explanation(self) -> str:
        how = f"{self.rule} (Equiv)" if self.equiv else str(self.rule)
        return f"{how}: {self.key}" if self.key else how


def resolve_document(doc: Document, vocab: Vocabulary, aliases: AliasTable) -> dict[str, Resolution]:
    """Resolution of every entity mention (T of an entity type) of one document."""
    ann = doc.annotations
    _check_normalization_families(doc, vocab)
    kg_links = {n.target: n.ref for n in ann.normalizations if n.db == "KG"}
    iso = {n.target: n.ref for n in ann.normalizations if n.db == "ISO8601"}
    unnamed = {a.target for a in ann.attributes if vocab.means(a.name, "unnamed")}
    own = {}
    for tid, bound in ann.textbounds.items():
        if bound.type in vocab.config.entities:
            own[tid] = _resolve_one(doc.slug, bound, vocab, aliases, kg_links, iso, unnamed)
    return _merge_equivalents(own, doc)


def _check_normalization_families(doc: Document, vocab: Vocabulary) -> None:
    """ISO8601 names dates, Number figures, and a KG key has the family of what it links (a person
    is never linked to a place key): anything else is a located error."""
    ann, errors = doc.annotations, []
    events = {e.id: e.type for e in ann.events}
    for norm in ann.normalizations:
        if norm.target in ann.textbounds:
            type_ = ann.textbounds[norm.target].type
            if type_ not in vocab.config.entities:
                continue
            family = family_of(type_, vocab)
        elif norm.target in events:
            type_, family = events[norm.target], family_of(events[norm.target], vocab)
        else:
            continue
        wanted = {"ISO8601": "date", "Number": "figure"}.get(norm.db)
        if norm.db == "KG":
            wanted = family
            if norm.ref.split("/", 1)[0] == family:
                continue
            problem = (f"KG:{norm.ref} links {norm.target}, a {type_}, to a key of the "
                       f"{norm.ref.split('/', 1)[0]} family (expected a {family}/... key)")
        elif wanted is not None and wanted != family:
            problem = f"{norm.db}:{norm.ref} on {norm.target}, a {type_} (expected {norm.db} only on {wanted} mentions)"
        else:
            continue
        errors.append(AnnotationError(problem, doc.source or f"{doc.slug}.ann", norm.line))
    if errors:
        raise InputErrors(errors)


def _resolve_one(slug: str, bound: TextBound, vocab: Vocabulary, aliases: AliasTable,
                 kg_links: dict, iso: dict, unnamed: set) -> Resolution:
    family = family_of(bound.type, vocab)
    if bound.id in kg_links:
        key = kg_links[bound.id]
        return Resolution(resource_iri(key), key, Rule.KG)
    if family == "date" and bound.id in iso:
        key = f"date/{iso[bound.id]}"
        return Resolution(resource_iri(key), key, Rule.ISO8601)
    if family in LOCAL_FAMILIES or family == "date":
        return Resolution(local_iri(slug, family, bound.id), None, Rule.LOCAL)
    if bound.id in unnamed:
        return Resolution(local_iri(slug, family, bound.id), None, Rule.UNNAMED)
    key = aliases.lookup(family, bound.text)
    if key:
        return Resolution(resource_iri(key), key, Rule.ALIAS_TABLE)
    key = f"{family}/{slugify(normalize(bound.text))}"
    return Resolution(resource_iri(key), key, Rule.NORMALIZED)


def _merge_equivalents(own: dict[str, Resolution], doc: Document) -> dict[str, Resolution]:
    resolved = dict(own)
    for equiv in doc.annotations.equivs:
        members = [m for m in equiv.members if m in own]
        if not members:
            continue
        best = min((own[m] for m in members), key=lambda r: (RULES.index(r.rule), r.iri))
        for member in members:
            if resolved[member] != best:
                resolved[member] = Resolution(best.iri, best.key, best.rule, equiv=True)
    return resolved


def resolve_role(text: str, aliases: AliasTable) -> tuple[str, str]:
    """Canonical key of a role from its trigger words ('Lt.' -> role/lieutenant), and the rule."""
    key = aliases.lookup("role", text)
    if key:
        return key, "alias table"
    return f"role/{slugify(normalize(text))}", "normalized form"


def resolve_event(doc: Document, event_id: str, trigger_id: str) -> str | None:
    """Canonical key of an event linked with `KG:` on the event or its trigger, else None."""
    for norm in doc.annotations.normalizations:
        if norm.db == "KG" and norm.target in (event_id, trigger_id):
            return norm.ref
    return None
