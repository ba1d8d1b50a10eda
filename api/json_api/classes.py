"""The ontology's classes the JSON API's `type` parameters accept (matched ignoring case), and the
orders its entity and document lists take."""

from __future__ import annotations

from kg.model.schema.ontology import KGO

CLASSES = tuple(sorted(n for n in KGO.__annotations__ if n[0].isupper()))
# Classes an entity record can have: all of them but those of things that are never entity records.
NOT_ENTITY_TYPES = frozenset({"Figure", "Quote", "Mention", "Sentence", "Statement", "NewsArticle", "Membership"})
ENTITY_TYPES = tuple(n for n in CLASSES if n not in NOT_ENTITY_TYPES)
EVENT_TYPES = ("Event", "AidDelivery", "Announcement", "Appointment", "AsylumRequest", "Attack", "BorderClosure",
               "Confrontation", "Defection", "Detention", "Election", "Expulsion", "Flight", "Inauguration",
               "Interview", "Protest", "Uprising")
ENTITY_ORDERS = ("label", "mentions")  # how /api/entities may be sorted, the default first
DOCUMENT_ORDERS = ("id", "date")  # how /api/documents may be sorted, the default first
