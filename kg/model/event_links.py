"""Which events are merged with the canonical event their `KG:` link names, and why not the others.

A canonical event (`KG:event/...`) is one node shared by every article that links to it, so it
may hold only what all of them assert of it, in one type. A linked event is therefore merged only
when it is asserted and of the canonical event's type (the alias table's `type`, or a subtype of
it). Otherwise it stays a document-local node of its own type, linked to the canonical one by
kgo:linkedEvent, and its trigger's kgo:resolvedBy says why: an aid delivery within the aid-convoy
confrontation keeps its type without retyping the confrontation, and a report that troops blocked
the aid is the reporter's claim without making the confrontation unasserted.
"""

from __future__ import annotations

from dataclasses import dataclass

from kg.formats.records import Document, Event
from kg.model.entities.aliases import AliasTable
from kg.model.entities.resolve import LINKED_AS
from kg.model.schema.corpus_vocabulary import Vocabulary


@dataclass(frozen=True)
class EventLink:
    """An event's `KG:` key, whether the event is merged with it, and how that was decided."""

    key: str
    merged: bool
    explanation: str


def event_links(doc: Document, vocab: Vocabulary, aliases: AliasTable) -> dict[str, EventLink]:
    """Event id -> its KG link, for every event (not membership) linked on its E id or its trigger."""
    ann = doc.annotations
    keys = {n.target: n.ref for n in ann.normalizations if n.db == "KG"}
    claimed = _claimed_events(doc, vocab)
    links = {}
    for event in ann.events:
        key = keys.get(event.id) or keys.get(event.trigger)
        if key and not vocab.is_a(event.type, "Membership"):
            links[event.id] = _link(event, key, event.id in claimed, vocab, aliases)
    return links


def _link(event: Event, key: str, claimed: bool, vocab: Vocabulary, aliases: AliasTable) -> EventLink:
    entry = aliases.entries.get(key)
    canonical_type = entry.type if entry is not None else None
    if claimed:
        reason = "only the content of a claim"
    elif canonical_type not in (None, "Event") and canonical_type not in vocab.config.ancestors(event.type) \
            and not vocab.is_a(event.type, canonical_type):
        reason = f"a {event.type} event, the key a {canonical_type}"
    else:
        return EventLink(key, True, f"KG normalization: {key}")
    return EventLink(key, False, f"local, not merged with its KG link ({reason}); {LINKED_AS}KG:{key}")


def _claimed_events(doc: Document, vocab: Vocabulary) -> set[str]:
    """Ids of the events that are the content of a claim."""
    return {target for event in doc.annotations.events if vocab.is_a(event.type, "Claim")
            for role, target in event.args if vocab.means(role, "content")}
