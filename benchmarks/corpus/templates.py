"""Sentence templates of the synthetic news corpus.

Each template writes one sentence into a `Document` and annotates it the
way the annotation guidelines do: its mentions, the relations and events
it states (with roles typed as annotation.conf allows), attributes and
normalizations. Together they use every entity, relation, event and
attribute type of annotation.conf.
"""

from __future__ import annotations

from typing import Callable

from benchmarks.corpus.document import Document

MILITARY_ROLES = ("sergeant", "lieutenant", "captain", "colonel", "general", "major", "corporal", "commander")
CIVIL_ROLES = ("spokesperson", "director", "adviser", "member", "minister", "ambassador")
SPEAKER_ROLES = ("spokesperson", "director", "adviser", "minister", "ambassador")
TROOPS = ("soldiers", "members of the armed forces", "troops", "defectors", "police officers")
PEOPLE = ("people", "migrants", "refugees", "protesters", "residents")


def _maybe(d: Document, p: float) -> bool:
    return d.rng.random() < p


def _role(d: Document, roles: tuple[str, ...], article: bool = True, title: bool = False) -> str:
    """A Membership trigger: the role word after 'a' or 'an' when `article`; as a title
    before a name ('Sgt.'), the abbreviation of the alias table when there is one."""
    role = d.pool.role_by_label[d.rng.choice(roles)]
    abbreviations = [a for a in role.aliases if a.endswith(".")]
    text = abbreviations[0] if title and abbreviations else role.label
    if article:
        d.put("an " if text[0] in "aeiouAEIOU" else "a ")
    elif not title and role.aliases and _maybe(d, 0.3):
        text = role.aliases[0]
    return d.trigger("Membership", text)


def _date(d: Document, p: float) -> str | None:
    if not _maybe(d, p):
        return None
    d.put(" ")
    return d.date()


def _shared(d: Document, trigger: str, type_: str, p: float) -> None:
    """Link the trigger to a canonical event of the alias table (a KG: normalization)."""
    event = d.pool.shared_event(d.rng, type_)
    if event is not None and _maybe(d, p):
        d.normalize(trigger, f"KG:{event.key}", event.label)


# -- event sentences -------------------------------------------------------------------

def defection(d: Document) -> None:
    former = False
    if _maybe(d, 0.3):
        role = _role(d, MILITARY_ROLES, article=False, title=True)
        d.put(" ")
        person = d.entity("Person")
        d.put(" of ")
        unit = d.entity("MilitaryUnit")
        d.put(" ")
    else:
        person = d.entity("Person")
        d.put(", ")
        former = _maybe(d, 0.2)  # 'a former sergeant': the membership held no longer
        if former:
            d.put("a former ")
        role = _role(d, MILITARY_ROLES, article=not former)
        d.put(" in ")
        unit = d.entity("MilitaryUnit")
        d.put(", ")
    trigger = d.trigger("Defection", "defected")
    d.put(" to ")
    destination = d.entity("Country", "City")
    time = _date(d, 0.6)
    d.end_sentence()
    membership = d.event("Membership", role, [("Member", person.id), ("Organization", unit.id)])
    if former:
        d.attribute("TemporalQualifier", membership, "Former")
    d.event("Defection", trigger, [("Agent", person.id), ("Origin", unit.id),
                                   ("Destination", destination.id), ("Time", time)])


def flight(d: Document) -> None:
    figure = d.figure(d.rng.choice(TROOPS))
    d.put(" have ")
    trigger = d.trigger("Flight", "fled")
    river = None
    if _maybe(d, 0.4):
        d.put(" across ")
        river = d.entity("Waterway")
    else:
        d.put(" across the border")
    d.put(" into ")
    city = d.entity("City")
    d.put(", ")
    country = d.entity("Country", reuse=0.6)
    d.put(", according to ")
    source = d.entity("Organization", "Person")
    as_of = None
    if _maybe(d, 0.4):
        d.put(", as of ")
        as_of = d.date(bare=True)
    d.end_sentence()
    d.event("Flight", trigger, [("Agent", figure), ("Destination", city.id), ("Place", river.id if river else None)])
    d.relation("LocatedIn", city.id, country.id)
    d.relation("ReportedBy", figure, source.id)
    if as_of:
        d.relation("AsOf", figure, as_of)


def confrontation(d: Document) -> None:
    unit = d.entity("MilitaryUnit")
    d.put(" ")
    trigger = d.trigger("Confrontation", "clashed")
    d.put(" with supporters of ")
    party = d.entity("PoliticalGroup")
    d.put(" at ")
    site = d.entity("Facility")
    d.put(" near ")
    city = d.entity("City")
    time = _date(d, 0.7)
    d.end_sentence()
    d.event("Confrontation", trigger, [("Participant", unit.id), ("Participant", party.id),
                                       ("Place", site.id), ("Time", time)])
    d.relation("LocatedIn", site.id, city.id)
    if _maybe(d, 0.15):  # what a place holds is its capacity, no count of people
        d.separate(paragraph=False)
        d.put("it has room for ")
        capacity = d.span("Figure", str(d.rng.choice((40, 120, 300, 1500))))
        d.put(" people")
        d.end_sentence()
        d.attribute("Unit", capacity, "Person")
        d.relation("CapacityOf", capacity, site.id)
    _shared(d, trigger, "Confrontation", 0.25)


def aid(d: Document) -> None:
    donor = d.entity("IntergovernmentalOrganization", "Country", "NGO")
    d.put(" ")
    trigger = d.trigger("AidDelivery", "delivered")
    d.put(" humanitarian aid to ")
    city = d.entity("City")
    d.put(" in ")
    region = d.entity("Region")
    time = _date(d, 0.6)
    d.end_sentence()
    d.event("AidDelivery", trigger, [("Agent", donor.id), ("Destination", city.id), ("Time", time)])
    d.relation("LocatedIn", city.id, region.id)
    _shared(d, trigger, "AidDelivery", 0.2)


def protest(d: Document) -> None:
    crowd = d.figure(d.rng.choice(PEOPLE))
    d.put(" ")
    trigger = d.trigger("Protest", "marched")
    d.put(" in ")
    city = d.entity("City")
    organizer = None
    if _maybe(d, 0.4):
        d.put(" at the call of ")
        organizer = d.entity("PoliticalGroup")
    time = _date(d, 0.6)
    d.end_sentence()
    d.event("Protest", trigger, [("Agent", crowd), ("Agent", organizer.id if organizer else None),
                                 ("Place", city.id), ("Time", time)])
    _shared(d, trigger, "Protest", 0.2)


def interview(d: Document) -> None:
    d.put("In an ")
    trigger = d.trigger("Interview", "interview")
    d.put(" with ")
    outlet = d.entity("MediaOrganization")
    d.put(" in ")
    city = d.entity("City")
    d.put(", ")
    person = d.entity("Person")
    d.put(" said the border crossings would reopen soon")
    d.end_sentence()
    d.event("Interview", trigger, [("Agent", outlet.id), ("Participant", person.id), ("Place", city.id)])


def announcement(d: Document) -> None:
    body = d.entity("GovernmentBody")
    d.put(" ")
    announced = d.trigger("Announcement", "announced")
    time = _date(d, 0.8)
    d.put(" that the border with ")
    country = d.entity("Country", reuse=0.5)
    d.put(" would be ")
    closed = d.trigger("BorderClosure", "closed")
    d.end_sentence()
    d.event("Announcement", announced, [("Agent", body.id), ("Time", time)])
    closure = d.event("BorderClosure", closed, [("Agent", body.id), ("Place", country.id)])
    d.attribute("Speculated", closure)


def expulsion(d: Document) -> None:
    agent = d.entity("GovernmentBody", "PoliticalGroup") if _maybe(d, 0.5) else None
    if agent:
        d.put(" ")
        trigger = d.trigger("Expulsion", "expelled")
        d.put(" ")
        person = d.entity("Person")
        d.put(" from ")
    else:
        person = d.entity("Person")
        d.put(" was ")
        trigger = d.trigger("Expulsion", "expelled")
        d.put(" from ")
    origin = d.entity("MilitaryUnit", "PoliticalGroup")
    time = _date(d, 0.6)
    d.end_sentence()
    d.event("Expulsion", trigger, [("Agent", agent.id if agent else None), ("Patient", person.id),
                                   ("Origin", origin.id), ("Time", time)])


def detention(d: Document) -> None:
    unit = d.entity("MilitaryUnit", "GovernmentBody")
    negated = _maybe(d, 0.5)
    if negated:
        d.put(" did not ")
        trigger = d.trigger("Detention", "detain")
    else:
        d.put(" ")
        trigger = d.trigger("Detention", "detained")
    d.put(" ")
    person = d.entity("Person")
    d.put(" in ")
    city = d.entity("City")
    time = _date(d, 0.5)
    length = None
    if not negated and _maybe(d, 0.4):
        d.put(" for ")
        length = _duration(d)
    d.end_sentence()
    event = d.event("Detention", trigger, [("Agent", unit.id), ("Patient", person.id),
                                           ("Place", city.id), ("Time", time), ("Measure", length)])
    if negated:
        d.attribute("Negated", event)


def election(d: Document) -> None:
    person = d.entity("Person")
    d.put(" was ")
    trigger = d.trigger("Election", "elected")
    d.put(" in ")
    country = d.entity("Country")
    time = _date(d, 0.8)
    d.end_sentence()
    d.event("Election", trigger, [("Patient", person.id), ("Place", country.id), ("Time", time)])


def inauguration(d: Document) -> None:
    person = d.entity("Person")
    d.put(" was ")
    trigger = d.trigger("Inauguration", "sworn in")
    d.put(" in ")
    city = d.entity("City")
    time = _date(d, 0.8)
    d.end_sentence()
    d.event("Inauguration", trigger, [("Agent", person.id), ("Place", city.id), ("Time", time)])


def appointment(d: Document) -> None:
    body = d.entity("GovernmentBody")
    d.put(" ")
    trigger = d.trigger("Appointment", "appointed")
    d.put(" ")
    person = d.entity("Person")
    d.put(" as ")
    role = _role(d, CIVIL_ROLES, article=False)
    time = _date(d, 0.6)
    d.end_sentence()
    d.event("Appointment", trigger, [("Agent", body.id), ("Patient", person.id), ("Time", time)])
    d.event("Membership", role, [("Member", person.id), ("Organization", body.id)])


def asylum(d: Document) -> None:
    figure = d.figure(d.rng.choice(TROOPS))
    d.put(" have ")
    trigger = d.trigger("AsylumRequest", "asked")
    d.put(" ")
    country = d.entity("Country")
    d.put(" for asylum, ")
    source = d.entity("NGO", "IntergovernmentalOrganization")
    d.put(" reported")
    d.end_sentence()
    d.event("AsylumRequest", trigger, [("Agent", figure), ("Patient", country.id)])
    d.relation("ReportedBy", figure, source.id)


def attack(d: Document) -> None:
    unit = d.entity("MilitaryUnit", "Organization")
    speculated = _maybe(d, 0.3)
    d.put(" may have " if speculated else " ")
    trigger = d.trigger("Attack", "attacked")
    d.put(" offices of ")
    party = d.entity("PoliticalGroup", "NGO", "MediaOrganization")
    d.put(" in ")
    city = d.entity("City")
    d.end_sentence()
    event = d.event("Attack", trigger, [("Agent", unit.id), ("Patient", party.id), ("Place", city.id)])
    if speculated:
        d.attribute("Speculated", event)


def uprising(d: Document) -> None:
    leader = d.entity("Person")
    d.put(" called for an ")
    trigger = d.trigger("Uprising", "uprising")
    d.put(" against ")
    target = d.entity("Person")
    d.put(" in ")
    city = d.entity("City")
    time = _date(d, 0.6)
    d.end_sentence()
    d.event("Uprising", trigger, [("Agent", leader.id), ("Patient", target.id), ("Place", city.id), ("Time", time)])
    _shared(d, trigger, "Uprising", 0.3)


# -- quotes ------------------------------------------------------------------------------

def quote_person(d: Document) -> None:
    quote = d.quote()
    d.put(',"')
    d.put(" said ")
    person = d.entity("Person")
    d.put(", ")
    role = _role(d, SPEAKER_ROLES)
    d.put(" for ")
    org = d.entity("NGO", "GovernmentBody", "IntergovernmentalOrganization", "PoliticalGroup")
    d.end_sentence()
    d.relation("SaidBy", quote, person.id)
    d.event("Membership", role, [("Member", person.id), ("Organization", org.id)])


def quote_organization(d: Document) -> None:
    quote = d.quote()
    d.put(',"')
    d.put(" ")
    org = d.entity("Organization")
    d.put(" ")
    said = d.trigger("Claim", "said")
    d.put(" in a statement about ")
    topic = d.entity("Person")
    d.end_sentence()
    d.relation("SaidBy", quote, org.id)
    d.event("Claim", said, [("Claimant", org.id), ("Content", quote), ("Topic", topic.id)])


def quote_unnamed(d: Document) -> None:
    quote = d.quote()
    d.put(',"')
    d.put(" ")
    said = d.trigger("Claim", "said")
    d.put(" ")
    source = d.unnamed(d.rng.choice(("one defector", "a soldier", "a sergeant who deserted", "one officer")))
    d.put(", who asked not to be named")
    d.end_sentence()
    d.relation("SaidBy", quote, source.id)
    d.event("Claim", said, [("Claimant", source.id), ("Content", quote)])


# -- relation sentences ------------------------------------------------------------------

def stance(d: Document) -> None:
    backer = d.entity("Country", "Person", "Organization")
    d.put(" has backed ")
    backed = d.entity("Person")
    d.put(", while ")
    opponent = d.entity("Country", "Organization")
    d.put(" opposed ")
    opposed = d.entity("Person", "Organization")
    d.end_sentence()
    d.relation("Supports", backer.id, backed.id)
    d.relation("Opposes", opponent.id, opposed.id)


def held_stance(d: Document) -> None:
    """A stance as an event, with its position and the share of its holders ("up to 90 percent of
    troops oppose Maduro")."""
    share = d.span("Figure", d.rng.choice(("up to 90", "about 60", "more than 70")))
    d.attribute("Unit", share, "Percent")
    d.put(" percent of ")
    holders = d.entity("MilitaryUnit", "Organization", "Country")
    d.put(" ")
    position = d.rng.choice(("Supports", "Opposes"))
    trigger = d.trigger("Stance", "support" if position == "Supports" else "oppose")
    d.put(" ")
    target = d.entity("Person")
    time = _date(d, 0.4)
    d.end_sentence()
    event = d.event("Stance", trigger, [("Agent", holders.id), ("Target", target.id), ("Share", share), ("Time", time)])
    d.attribute("Position", event, position)


def residence(d: Document) -> None:
    person = d.entity("Person")
    d.put(" now lives in ")
    city = d.entity("City")
    d.put(", the capital of ")
    country = d.entity("Country", reuse=0.6)
    d.put(", which borders ")
    neighbour = d.entity("Country", reuse=0.6)
    d.put("; ")
    partner = d.entity("Organization", "Country")
    d.put(" is its main partner")
    d.end_sentence()
    d.relation("LivesIn", person.id, city.id)
    if d.span_type(city.id) == "City":  # not when the annotator chose the parent type, Place
        d.relation("CapitalOf", city.id, country.id)
    d.relation("Borders", country.id, neighbour.id)
    d.relation("PartnerOf", partner.id, country.id)


def _duration(d: Document) -> str:
    """Write '<n> months' (or years); the Figure span is the number, with its Unit."""
    value = d.rng.choice((2, 3, 8, 14))
    figure = d.span("Figure", str(value))
    d.normalize(figure, f"Number:{value}", str(value))
    unit = d.rng.choice(("Month", "Year"))
    d.attribute("Unit", figure, unit)
    d.put(f" {unit.lower()}s")
    return figure


def recognition(d: Document) -> None:
    country = d.entity("Country")
    d.put(" recognized ")
    person = d.entity("Person")
    d.put(" as ")
    role = _role(d, ("interim president", "president"), article=False)
    d.put(" of ")
    other = d.entity("Country", reuse=0.6)
    d.end_sentence()
    d.relation("Recognizes", country.id, person.id)
    d.event("Membership", role, [("Member", person.id), ("Organization", other.id)])


def hierarchy(d: Document) -> None:
    unit = d.entity("MilitaryUnit")
    d.put(" reports to ")
    body = d.entity("GovernmentBody")
    d.put(", which answers to the government of ")
    country = d.entity("Country", reuse=0.6)
    d.end_sentence()
    d.relation("SubOrganizationOf", unit.id, body.id)
    d.relation("SubOrganizationOf", body.id, country.id)


def geography(d: Document) -> None:
    city = d.entity("City")
    d.put(" lies in ")
    region = d.entity("Region")
    d.put(" of ")
    country = d.entity("Country", reuse=0.6)
    d.put(", near ")
    d.entity("Place", "Facility", "Waterway")
    d.end_sentence()
    d.relation("LocatedIn", city.id, region.id)
    d.relation("LocatedIn", region.id, country.id)


def membership(d: Document) -> None:
    person = d.entity("Person")
    d.put(", a member of ")
    org = d.entity("PoliticalGroup", "NGO", "Organization")
    d.put(", visited ")
    city = d.entity("City")
    _date(d, 0.5)
    d.end_sentence()
    d.relation("MemberOf", person.id, org.id)
    del city


def headquarters(d: Document) -> None:
    org = d.entity("Organization")
    d.put(" is based in ")
    city = d.entity("City")
    d.put(", ")
    country = d.entity("Country", reuse=0.6)
    d.end_sentence()
    d.relation("LocatedIn", org.id, city.id)
    d.relation("LocatedIn", city.id, country.id)


def registry(d: Document) -> None:
    org = d.entity("GovernmentBody", "NGO", "IntergovernmentalOrganization")
    d.put(" said it had registered ")
    figure = d.figure(d.rng.choice(PEOPLE))
    d.put(" as of ")
    as_of = d.date(bare=True)
    d.end_sentence()
    d.relation("ReportedBy", figure, org.id)
    d.relation("AsOf", figure, as_of)


# -- sentences without annotations (most sentences of a real article) -------------------

_SUBJECTS = ("The situation", "The mood among the defectors", "Life at the border", "The economic crisis",
             "The humanitarian response", "The standoff", "The government's position", "Public anger",
             "The flow of migrants", "Security along the frontier")
_PREDICATES = ("remained tense throughout the week", "has changed little in recent months",
               "worsened after the latest clashes", "drew criticism from rights groups",
               "is expected to dominate talks in the coming days", "has stretched local services to the limit",
               "showed no sign of easing", "became the focus of regional diplomacy",
               "left many families without income", "was described as critical by aid workers")
_CONTEXT = ("", "", " according to residents", " as food and medicine ran short",
            " despite repeated calls for calm", " while talks stalled", " as prices kept rising")


def background(d: Document) -> None:
    d.put(f"{d.rng.choice(_SUBJECTS)} {d.rng.choice(_PREDICATES)}{d.rng.choice(_CONTEXT)}")
    d.end_sentence()


Template = Callable[[Document], None]
EVENTS: tuple[Template, ...] = (defection, flight, confrontation, aid, protest, interview, announcement,
                                expulsion, detention, election, inauguration, appointment, asylum, attack,
                                uprising)
QUOTES: tuple[Template, ...] = (quote_person, quote_organization, quote_unnamed)
FACTS: tuple[Template, ...] = (stance, held_stance, recognition, hierarchy, geography, residence, membership,
                               headquarters, registry)
