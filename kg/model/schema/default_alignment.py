"""The default alignment: the usual type names of NER and event schemas, aligned with kgo without a kg.toml.

A corpus annotated with PER, ORG, GPE or DATE gets persons, organizations,
places and dates (the network view, the timeline, resolution) out of the box.
The table is matched case-insensitively, `-` and space read as `_`; it only
aligns: the type keeps its own class (kgv:PER), a subclass of the kgo class.
kg.toml's [align] entries win over it, and `[align] default = false` turns
it off (docs/model.md documents the table).

kgo's classes fall in three sets. A type named exactly as a domain class
(Person, Country, Attack...) is that class. kg's internal classes (documents,
sentences, mentions, statements, posts, roles) are what kg makes of the
annotations: a user type of that name stays in the corpus vocabulary, and
kg.toml cannot align a type with them. kgo:Entity (ENTITY_ROOT) is the third:
the superclass of the corpus's entity types aligned with nothing closer.
"""

from __future__ import annotations

ENTITY_CLASSES = frozenset({
    "Person", "Group", "Organization", "GovernmentBody", "MilitaryUnit", "NGO", "IntergovernmentalOrganization",
    "MediaOrganization", "PoliticalGroup", "Place", "Country", "City", "Region", "Facility", "Waterway", "Date",
    "Figure", "Quote"})
EVENT_CLASSES = frozenset({
    "Event", "Claim", "Membership", "Defection", "Flight", "Confrontation", "AidDelivery", "Uprising", "Protest",
    "Interview", "Announcement", "Expulsion", "Detention", "Election", "Inauguration", "AsylumRequest",
    "Appointment", "Attack", "BorderClosure", "Stance"})
DOMAIN_CLASSES = ENTITY_CLASSES | EVENT_CLASSES
# kgo:Entity: the class a corpus's own entity type goes under when no closer one fits. No type name
# captures it (a type named Entity stays the corpus's own), but kg.toml may align a type with it.
ENTITY_ROOT = "Entity"
# The kgo superclass of a domain class (ontology.ttl's rdfs:subClassOf within kgo: one level).
KGO_PARENTS = {
    **dict.fromkeys(["GovernmentBody", "MilitaryUnit", "NGO", "IntergovernmentalOrganization", "MediaOrganization",
                     "PoliticalGroup"], "Organization"),
    **dict.fromkeys(["Country", "City", "Region", "Facility", "Waterway"], "Place"),
    **dict.fromkeys(EVENT_CLASSES - {"Event", "Membership"}, "Event"),
}
INTERNAL_CLASSES = frozenset({"NewsArticle", "Sentence", "Mention", "Statement", "Post", "Role"})
# Properties kg writes for every annotation; a relation, role or attribute of that name is the corpus's own.
INTERNAL_PROPERTIES = frozenset({
    "annotationId", "annotationType", "argumentLabels", "offsets", "sentence", "mention", "mentionCount", "mentionForm",
    "isName",
    "evidence", "sourceFile", "subjectMention", "objectMention", "trigger", "resolvedBy", "denotes"})

# Entity type names of CoNLL 2002/2003 (PER ORG LOC MISC), OntoNotes 5 (PERSON NORP FAC ORG GPE LOC
# DATE TIME PERCENT MONEY QUANTITY CARDINAL EVENT...), WikiNER, ACE/ERE (PER ORG GPE LOC FAC), TAC KBP
# and Stanford CoreNLP (STATE_OR_PROVINCE, COUNTRY, CITY, NATIONALITY), INCEpTION/WebAnno NamedEntity
# values and the French archival tag set (persname, orgname, geogname). A kgo class name in any case
# (ORGANIZATION, country) is also matched. MISC, EVENT (an entity), NATIONALITY and the like stay unaligned.
ENTITY_NAMES = {
    "PER": "Person", "PERS": "Person", "PERSNAME": "Person", "PERSON_NAME": "Person", "HUMAN": "Person",
    "ORG": "Organization", "ORGANISATION": "Organization", "ORGNAME": "Organization", "COMPANY": "Organization",
    "CORPORATION": "Organization", "INSTITUTION": "Organization",
    "LOC": "Place", "LOCATION": "Place", "GPE": "Place", "GEO": "Place", "GEOGNAME": "Place", "LOCALITY": "Place",
    "FAC": "Facility", "STATE_OR_PROVINCE": "Region", "STATE": "Region", "PROVINCE": "Region",
    "NORP": "Group",
    "TIME": "Date", "DATETIME": "Date", "TIMEX": "Date", "TIMEX3": "Date", "DATE_TIME": "Date",
    "NUMBER": "Figure", "CARDINAL": "Figure", "QUANTITY": "Figure", "PERCENT": "Figure",
    "PERCENTAGE": "Figure", "MONEY": "Figure",
    "QUOTATION": "Quote",
}
# Event type names of ACE 2005 / ERE (Conflict.Attack, Conflict.Demonstrate, Justice.Arrest-Jail,
# Personnel.Elect, Personnel.Start-Position, Movement.Transport is left alone) and plain EVENT.
EVENT_NAMES = {
    "DEMONSTRATE": "Protest", "DEMONSTRATION": "Protest", "ELECT": "Election", "ARREST": "Detention",
    "ARREST_JAIL": "Detention", "START_POSITION": "Appointment", "CONFLICT_ATTACK": "Attack",
    "CONFLICT_DEMONSTRATE": "Protest", "JUSTICE_ARREST_JAIL": "Detention", "PERSONNEL_ELECT": "Election",
    "PERSONNEL_START_POSITION": "Appointment",
}


def default_class(name: str, event: bool) -> str | None:
    """The kgo class the table aligns an entity (or event) type name with, or None."""
    key = name.upper().replace("-", "_").replace(" ", "_").replace(".", "_")
    classes, names = (EVENT_CLASSES, EVENT_NAMES) if event else (ENTITY_CLASSES, ENTITY_NAMES)
    return names.get(key) or next((c for c in classes if c.upper() == key), None)
