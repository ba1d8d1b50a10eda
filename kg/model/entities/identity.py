"""Identity the annotators stated: the mentions of one document that are one thing.

Mentions are one thing when an equivalence joins them (brat's `*	Equiv` line, or any relation
type annotation.conf declares symmetric and transitive), or a relation whose type states identity:
by default the usual names, Alias, Coref, Coreference, SameAs, Same_as, Synonym, Abbreviation,
Acronym and Equiv (compared without case), and any relation type `kg.toml` names in its
`[identity]` table. Joined with one another, they make chains (a coreference chain of INCEpTION
or WebAnno read as brat lines is one). A chain is one entity, of the type most frequent among its
mentions (ties: the first in the file): kg.model.entities.resolve gives every mention of a chain one
resolution. A chain across types is a counted warning naming the types left over. Only entity
mentions can be one thing: an event trigger in a chain is left out of it, with a warning.

Every reader's output (brat, INCEpTION XMI, WebAnno TSV, all read as brat lines) goes through
`identity_chains`: it is the one place the merge rule lives.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from kg.errors import InputWarning
from kg.formats.records import Annotations, Document
from kg.model.entities.chain_types import ranked_types
from kg.model.schema.corpus_vocabulary import Vocabulary

IDENTITY_RELATIONS = frozenset(("alias", "coref", "coreference", "sameas", "same_as", "synonym", "abbreviation",
                                "acronym", "equiv"))


@dataclass(frozen=True)
class Chain:
    """Mentions stated to be one thing: their ids (in file order), the type the chain takes, and the
    line of the first annotation that joins them."""

    members: tuple[str, ...]
    type: str
    line: int
    types: tuple[tuple[str, int], ...]  # every type of its mentions with its count, most frequent first


def states_identity(relation_type: str, vocab: Vocabulary) -> bool:
    """Whether a relation type joins its arguments into one entity."""
    return _identity_test(vocab)(relation_type)


def _identity_test(vocab: Vocabulary) -> Callable[[str], bool]:
    """states_identity for many relation types of one vocabulary: its names and equivalences read once."""
    named = IDENTITY_RELATIONS | {name.casefold() for name in vocab.alignment.identity}
    equivalences = set(vocab.config.equiv_types())
    return lambda relation_type: relation_type.casefold() in named or relation_type in equivalences


def identity_warnings(doc: Document, vocab: Vocabulary) -> list[InputWarning]:
    """What the chains of a document warn about (read with the types it uses beyond its configuration)."""
    return identity_chains(doc, vocab.extended(*doc.annotations.undeclared))[1]


def identity_chains(doc: Document, vocab: Vocabulary) -> tuple[list[Chain], list[InputWarning]]:
    """The chains of a document (two mentions at least each) and the warnings they give."""
    ann = doc.annotations
    entities = {tid for tid, bound in ann.textbounds.items() if bound.type not in vocab.config.events}
    links, warnings = _links(ann, vocab, entities, doc.source or f"{doc.slug}.ann")
    parent: dict[str, str] = {}

    def root(member: str) -> str:
        while parent.get(member, member) != member:
            member = parent[member]
        return member

    first_line: dict[str, int] = {}
    for members, line in links:
        for member in members:
            parent.setdefault(member, member)
            first_line[member] = min(first_line.get(member, line), line)
        for member in members[1:]:
            parent[root(member)] = root(members[0])
    groups: dict[str, list[str]] = {}
    for member in sorted(parent, key=lambda m: ann.textbounds[m].line):
        groups.setdefault(root(member), []).append(member)
    chains = [_chain(members, ann, first_line) for members in groups.values() if len(members) > 1]
    warnings += [_mixed(chain, types, doc) for chain in chains if len(types := _readings(chain, ann)) > 1]
    return chains, warnings


def _readings(chain: Chain, ann: Annotations) -> list[str]:
    """The types a chain's mentions give the thing: its own, and those of mentions on words where no
    mention of its type stands. A mention of another layer on the very words of one of the chain's
    type (a NamedEntity and a Sentiment on "Rohatinski") annotates that mention: it is no other reading."""
    by_words: dict[tuple, set[str]] = {}
    for member in chain.members:
        bound = ann.textbounds[member]
        by_words.setdefault(tuple((s.begin, s.end) for s in bound.spans), set()).add(bound.type)
    others = {t for types in by_words.values() if chain.type not in types for t in types}
    return [chain.type, *sorted(others - {chain.type})]


def _links(ann: Annotations, vocab: Vocabulary, entities: set[str],
           path: str) -> tuple[list[tuple[list[str], int]], list[InputWarning]]:
    """The groups of mention ids each equivalence or identity relation joins, with its line;
    members that are not entity mentions are left out, with a warning."""
    stated = [(list(equiv.members), equiv.line, equiv.type) for equiv in ann.equivs]
    identity = _identity_test(vocab)
    stated += [([rel.arg1, rel.arg2], rel.line, rel.type) for rel in ann.relations if identity(rel.type)]
    links, warnings = [], []
    for members, line, type_ in stated:
        kept = [m for m in members if m in entities]
        for left in (m for m in members if m not in entities):
            warnings.append(InputWarning(f"{type_} joins {left}, which is no entity mention: left out of the "
                                         "entity it states (expected entity mentions only)", path, line))
        if len(kept) > 1:
            links.append((kept, line))
    return links, warnings


def _chain(members: list[str], ann: Annotations, first_line: dict[str, int]) -> Chain:
    ranked = ranked_types(ann.textbounds[m].type for m in members)
    return Chain(tuple(members), ranked[0][0], min(first_line[m] for m in members), tuple(ranked))


def _mixed(chain: Chain, readings: list[str], doc: Document) -> InputWarning:
    """The warning of a chain across types, the same for every chain of those types (so counted together)."""
    types = ", ".join(sorted(readings))
    return InputWarning(f"identity joins mentions of several types ({types}): one entity of the type most frequent "
                        "in its chain, the first on a tie (expected the mentions of one thing annotated with one type)",
                        doc.source or f"{doc.slug}.ann", chain.line)
