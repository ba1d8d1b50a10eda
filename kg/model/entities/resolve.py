"""Resolve surface forms to canonical entities: deterministic and explainable.

A mention resolves, first rule that applies:
1. a `KG:<key>` normalization on it (a knowledge-base link beside it is the key's item unless
   the alias table says otherwise);
2. a Date with an `ISO8601:` value: `date/<value>`;
3. Figures, Quotes, Groups and Dates without a value stay local to their document, and so does
   every mention of a type `kg.toml` says is local (`[entities] TYPE = "local"`);
4. a link to a knowledge-base item (kg.model.entities.knowledge_bases): the alias table's
   entry that gives the item, else the item's own key (`wikidata/q76`), whatever the
   mention's type; a mention linked to two items follows Wikidata's, else its first;
5. `Unnamed` mentions stay local to their document;
6. the alias table: its normalized text equals the normalized label, alias or
   hidden label of an entry of the same family;
7. its own normalized text, `<family>/<slug>`, when its words are a name (kg.model.entities.names) or
   `kg.toml` says its type is shared (`[entities] TYPE = "shared"`);
8. else it is no name ("that", "we", "his mother"): local to its document.
Mentions stated to be one thing (kg.model.entities.identity: Equiv lines, identity relations, chains)
share the strongest resolution of their chain (of two, the one more of its mentions have, then the
IRI that sorts first), with the family of the chain's type. Every resolution records the rule that made it and any link it did
not follow (kgo:resolvedBy). A surname never links to a full name unless the alias table lists it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import lru_cache

from kg.errors import AnnotationError, InputErrors
from kg.formats.records import Document, Normalization, TextBound
from kg.model.entities.aliases import AliasTable, family_of, normalize
from kg.model.entities.identity import Chain, identity_chains
from kg.model.entities.knowledge_bases import WIKIDATA_NAME, BadItem, Item
from kg.model.entities.names import name_mentions
from kg.model.entities.sharing import LOCAL, SHARED
from kg.model.iris import local_iri, resource_iri, slugify
from kg.model.schema.corpus_vocabulary import Vocabulary

LOCAL_FAMILIES = {"figure", "quote", "group"}
LINKED_AS = "linked as "  # a note of kgo:resolvedBy: the knowledge-base link followed, as written


class Rule(StrEnum):
    """How a mention was resolved, strongest first; an Equiv group takes its strongest member's rule."""

    KG = "KG normalization"
    ISO8601 = "ISO 8601 value"
    KNOWLEDGE_BASE = "knowledge base"
    ALIAS_TABLE = "alias table"
    UNNAMED = "unnamed"
    LOCAL = "local"
    NORMALIZED = "normalized form"
    NOT_A_NAME = "local, not a name"


RULES = tuple(Rule)


@dataclass(frozen=True)
class Resolution:
    """Where a mention points and why."""

    iri: str
    key: str | None
    rule: Rule
    equiv: str = ""  # "Equiv" or "identity": taken from another mention of its chain, joined so
    item: Item | None = None  # the knowledge-base item it follows
    notes: tuple[str, ...] = ()  # the link as written, and links not followed
    type: str = ""  # the annotation type the thing takes (its chain's): what a local thing is
    named: bool = False  # the mention's own words are a name of it (kg.model.entities.names)

    @property
    def explanation(self) -> str:
        """`rule: key`, then `; ` and each note: `knowledge base: wikidata/q76; linked as Wikidata:Q76`."""
        how = f"{self.rule} ({self.equiv})" if self.equiv else str(self.rule)
        return "; ".join([f"{how}: {self.key}" if self.key else how, *self.notes])


Links = dict[str, list[tuple[Normalization, Item]]]  # mention id -> its knowledge-base links, the followed first


def resolve_document(doc: Document, vocab: Vocabulary, aliases: AliasTable) -> dict[str, Resolution]:
    """Resolution of every entity mention (T of an entity type) of one document."""
    ann = doc.annotations
    _check_normalization_families(doc, vocab)
    chains, _ = identity_chains(doc, vocab)
    chain_types = {member: chain.type for chain in chains for member in chain.members}
    bounds = [b for b in ann.textbounds.values() if b.type in vocab.config.entities]
    types = {b.type for b in bounds}
    context = _Context(doc.slug, vocab, aliases, {n.target: n.ref for n in ann.normalizations if n.db == "KG"},
                       {n.target: n.ref for n in ann.normalizations if n.db == "ISO8601"},
                       {a.target for a in ann.attributes if vocab.means(a.name, "unnamed")},
                       knowledge_links(doc, vocab), set(),
                       {t: family_of(t, vocab) for t in types | set(chain_types.values())},
                       {t: _sharing(t, vocab) for t in types})
    dates = [b.id for b in bounds if context.families[chain_types.get(b.id, b.type)] == "date"]
    context.named.update(name_mentions(doc.text, bounds, dates))
    own = {b.id: _resolve_one(context, b, chain_types.get(b.id, b.type)) for b in bounds}
    return _merge_chains(own, chains, {m for equiv in ann.equivs for m in equiv.members})


@dataclass(frozen=True)
class _Context:
    """What resolving one mention of a document needs to know of the others, and of the types
    its mentions take (each type's family and sharing asked once, not once per mention)."""

    slug: str
    vocab: Vocabulary
    aliases: AliasTable
    kg_links: dict[str, str]
    iso: dict[str, str]
    unnamed: set[str]
    items: Links
    named: set[str]
    families: dict[str, str]
    sharing: dict[str, str | None]


def knowledge_links(doc: Document, vocab: Vocabulary) -> Links:
    """The knowledge-base items each mention (or event) is linked to, Wikidata's first, then in
    the order of the file; a knowledge base's identifier that names no item is a located error."""
    links: Links = {}
    errors = []
    for norm in doc.annotations.normalizations:
        try:
            item = vocab.knowledge_bases.item(norm.db, norm.ref)
        except BadItem as exc:
            errors.append(AnnotationError(str(exc), doc.source or f"{doc.slug}.ann", norm.line))
            continue
        if item is not None:
            links.setdefault(norm.target, []).append((norm, item))
    if errors:
        raise InputErrors(errors)
    for found in links.values():
        found.sort(key=lambda link: link[1].base != WIKIDATA_NAME)
    return links


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


def _resolve_one(ctx: _Context, bound: TextBound, type_: str) -> Resolution:
    """One mention's own resolution, as a mention of `type_` (its chain's type): the first rule of
    the module's docstring that applies, marked named when its own words are a name."""
    family = ctx.families[type_]
    sharing = ctx.sharing[bound.type]
    named = bound.id in ctx.named
    if bound.id in ctx.kg_links:
        return _marked(_by_key(ctx.kg_links[bound.id], ctx.items.get(bound.id, []), ctx.aliases), named)
    if family == "date" and bound.id in ctx.iso:
        key = f"date/{ctx.iso[bound.id]}"
        return Resolution(resource_iri(key), key, Rule.ISO8601, named=named)
    if family in LOCAL_FAMILIES or family == "date" or sharing == LOCAL:
        return _local(ctx, bound, family, type_, Rule.LOCAL, named)
    if bound.id in ctx.items:
        return _marked(_by_item(family, bound, ctx.items[bound.id], ctx.aliases), named)
    if bound.id in ctx.unnamed:
        return _local(ctx, bound, family, type_, Rule.UNNAMED, named)
    key = ctx.aliases.lookup(family, bound.text)
    if key:
        return Resolution(resource_iri(key), key, Rule.ALIAS_TABLE, named=named)
    if sharing == SHARED or named:
        key = _normalized_key(family, bound.text)
        return Resolution(resource_iri(key), key, Rule.NORMALIZED, named=named)
    return _local(ctx, bound, family, type_, Rule.NOT_A_NAME, named)


def _marked(resolution: Resolution, named: bool) -> Resolution:
    return replace(resolution, named=True) if named else resolution


def _local(ctx: _Context, bound: TextBound, family: str, type_: str, rule: Rule, named: bool) -> Resolution:
    """A thing of the mention's document alone."""
    return Resolution(local_iri(ctx.slug, family, bound.id), None, rule, type=type_, named=named)


@lru_cache(maxsize=1 << 16)  # a corpus names its things again and again
def _normalized_key(family: str, text: str) -> str:
    """The key a mention's own words give it: `<family>/<slug>`."""
    return f"{family}/{slugify(normalize(text))}"


def _sharing(type_: str, vocab: Vocabulary) -> str | None:
    """What kg.toml's [entities] table says of a type or its nearest ancestor it names, if anything."""
    settings = vocab.alignment.sharing_by_type
    return next((settings[t] for t in vocab.config.ancestors(type_) if t in settings), None)


def _by_key(key: str, links: list[tuple[Normalization, Item]], aliases: AliasTable) -> Resolution:
    """A `KG:` key, with the first item linked beside it that the alias table does not contradict
    (by giving the item to another entry, or the entry another Wikidata item)."""
    given = aliases.entries[key].wikidata if key in aliases.entries else None
    agreeing = [item for _, item in links if aliases.with_item(item) in (None, key)
                and (given is None or item.base != WIKIDATA_NAME or item.id == given)]
    item = agreeing[0] if agreeing else None
    contradicting = sorted({str(other) for _, other in links if other not in agreeing})
    extra = sorted({str(other) for other in agreeing if other != item})
    notes = [f"not followed: {', '.join(contradicting)} (the alias table says {key} is another item)"] \
        if contradicting else []
    notes += [f"not followed: {', '.join(extra)} (one mention, one entity)"] if extra else []
    return Resolution(resource_iri(key), key, Rule.KG, item=item, notes=tuple(notes))


def _by_item(family: str, bound: TextBound, links: list[tuple[Normalization, Item]],
             aliases: AliasTable) -> Resolution:
    """The entity of the item a mention is linked to: the alias table's entry that gives the item,
    else the item's own key. What was not followed is said: another item, the alias table's entry
    the mention's words would have named."""
    norm, item = links[0]
    key = aliases.with_item(item) or item.key()
    notes = [f"{LINKED_AS}{norm.db}:{norm.ref}"]
    others = sorted({str(other) for _, other in links if other != item})
    if others:
        notes.append(f"not followed: {', '.join(others)} (one mention, one entity)")
    by_words = aliases.lookup(family, bound.text)
    if by_words and by_words != key:
        given = aliases.entries[by_words].wikidata
        notes.append(f"not followed: alias table {by_words} ({f'Wikidata:{given}' if given else 'no item'})")
    return Resolution(resource_iri(key), key, Rule.KNOWLEDGE_BASE, item=item, notes=tuple(notes))


def _merge_chains(own: dict[str, Resolution], chains: list[Chain], in_equivs: set[str]) -> dict[str, Resolution]:
    """Every mention of a chain takes the strongest resolution among its members' (of two of one
    rule, the one more of its members have, then the IRI that sorts first: a chain that says
    "Rohatinski" three times and "Dodal je" once is Rohatinski), marked as joined by an Equiv line or
    by an identity relation."""
    resolved = dict(own)
    for chain in chains:
        members = [m for m in chain.members if m in own]
        if not members:
            continue
        said = Counter(own[m].iri for m in members)
        best = min((own[m] for m in members), key=lambda r: (RULES.index(r.rule), -said[r.iri], r.iri))
        for member in members:
            if replace(own[member], named=best.named) == best:
                continue
            mine = own[member].item
            unfollowed = (f"not followed: {mine} (Equiv with {best.item})",) if mine and mine != best.item else ()
            joined = "Equiv" if member in in_equivs else "identity"
            resolved[member] = replace(best, equiv=joined, notes=best.notes[:1] + unfollowed, named=own[member].named)
    return resolved


def resolve_role(text: str, aliases: AliasTable) -> tuple[str, str]:
    """Canonical key of a role from its trigger words ('Lt.' -> role/lieutenant), and the rule."""
    key = aliases.lookup("role", text)
    if key:
        return key, "alias table"
    return f"role/{slugify(normalize(text))}", "normalized form"
