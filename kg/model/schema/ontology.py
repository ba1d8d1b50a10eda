"""The ontology as a closed rdflib namespace: a misspelt term fails at import time.

Kept in step with ontology.ttl by tests/model/test_ontology.py.
"""

from rdflib import URIRef
from rdflib.namespace import DefinedNamespace, Namespace

from kg.model.iris import ONTOLOGY


class KGO(DefinedNamespace):
    """Classes and properties of https://kg.example.org/ontology#."""

    _NS = Namespace(ONTOLOGY)
    _fail = True

    AidDelivery: URIRef
    Announcement: URIRef
    Appointment: URIRef
    AsylumRequest: URIRef
    Attack: URIRef
    BorderClosure: URIRef
    City: URIRef
    Claim: URIRef
    Confrontation: URIRef
    Country: URIRef
    Date: URIRef
    Defection: URIRef
    Detention: URIRef
    Election: URIRef
    Entity: URIRef
    Event: URIRef
    Expulsion: URIRef
    Facility: URIRef
    Figure: URIRef
    Flight: URIRef
    GovernmentBody: URIRef
    Group: URIRef
    Inauguration: URIRef
    IntergovernmentalOrganization: URIRef
    Interview: URIRef
    MediaOrganization: URIRef
    Membership: URIRef
    Mention: URIRef
    MilitaryUnit: URIRef
    NGO: URIRef
    NewsArticle: URIRef
    Organization: URIRef
    Person: URIRef
    Place: URIRef
    PoliticalGroup: URIRef
    Post: URIRef
    Protest: URIRef
    Quote: URIRef
    Region: URIRef
    Role: URIRef
    Sentence: URIRef
    Stance: URIRef
    Statement: URIRef
    Uprising: URIRef
    Waterway: URIRef

    agent: URIRef
    annotationId: URIRef
    annotationType: URIRef
    argumentLabels: URIRef
    asOf: URIRef
    asserted: URIRef
    author: URIRef
    borders: URIRef
    capacityOf: URIRef
    capitalOf: URIRef
    claimant: URIRef
    claimedBy: URIRef
    content: URIRef
    counts: URIRef
    date: URIRef
    dateBasis: URIRef
    dateNote: URIRef
    datePrecision: URIRef
    dateValue: URIRef
    denotes: URIRef
    destination: URIRef
    endDate: URIRef
    endTime: URIRef
    evidence: URIRef
    hasRole: URIRef
    holds: URIRef
    isName: URIRef
    linkedEvent: URIRef
    livesIn: URIRef
    locatedIn: URIRef
    measure: URIRef
    member: URIRef
    memberOf: URIRef
    mention: URIRef
    mentionCount: URIRef
    mentionForm: URIRef
    negated: URIRef
    objectMention: URIRef
    offsets: URIRef
    opposes: URIRef
    organization: URIRef
    origin: URIRef
    participant: URIRef
    partnerOf: URIRef
    patient: URIRef
    periodBound: URIRef
    place: URIRef
    position: URIRef
    post: URIRef
    postIn: URIRef
    publisher: URIRef
    qualifier: URIRef
    quoteText: URIRef
    recognizes: URIRef
    reference: URIRef
    reportedBy: URIRef
    resolvedBy: URIRef
    role: URIRef
    saidBy: URIRef
    sentence: URIRef
    share: URIRef
    sourceFile: URIRef
    speculated: URIRef
    startDate: URIRef
    startTime: URIRef
    subjectMention: URIRef
    subOrganizationOf: URIRef
    supports: URIRef
    target: URIRef
    temporalQualifier: URIRef
    time: URIRef
    topic: URIRef
    trigger: URIRef
    unit: URIRef
    unnamed: URIRef
    value: URIRef


class _PlainTerms:
    """The terms of a DefinedNamespace as plain strings, each looked up once: for code that writes
    N-Quads text term by term (every lookup in a DefinedNamespace is checked and makes a new
    URIRef). A name the namespace lacks fails as it does there."""

    def __init__(self, namespace: type[DefinedNamespace]) -> None:
        self._namespace = namespace
        self._found: dict[str, str] = {}

    def __getattr__(self, name: str) -> str:
        value = self[name]
        setattr(self, name, value)  # found as an attribute from now on
        return value

    def __getitem__(self, name: str) -> str:
        found = self._found.get(name)
        if found is None:
            found = self._found[name] = str(self._namespace[name])
        return found


KGO_IRIS = _PlainTerms(KGO)  # KGO's IRIs as str

# Attribute meanings that describe the thing a mention names, not a statement about it.
THING_ATTRIBUTES = ("qualifier", "unnamed", "unit")
PRECISIONS = {4: "year", 7: "month", 10: "day"}


def date_precision(iso_value: str) -> str:
    """How much of a date an ISO 8601 value fixes (kgo:datePrecision): year (2019), month (2019-02) or day."""
    return PRECISIONS.get(len(iso_value), "day")


NIF = Namespace("http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#")
