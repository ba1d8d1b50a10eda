"""HTTP content negotiation with q-values (RFC 9110, section 12.5.1).

Each offer is matched against the most specific media range of the Accept
header that covers it (type/subtype over type/* over */*); its quality is
that range's q. The best quality wins; ties go to the server's order of
preference. No Accept header means the first offer.
"""

from __future__ import annotations

from dataclasses import dataclass

JSON = "application/sparql-results+json"
XML = "application/sparql-results+xml"
CSV = "text/csv"
TSV = "text/tab-separated-values"
TURTLE = "text/turtle"
NTRIPLES = "application/n-triples"
JSONLD = "application/ld+json"
RDFXML = "application/rdf+xml"
NQUADS = "application/n-quads"
TRIG = "application/trig"
N3 = "text/n3"
HTML = "text/html"

# offered media type -> engine format, in the server's order of preference
SOLUTION_OFFERS: dict[str, str] = {
    JSON: JSON, XML: XML, CSV: CSV, TSV: TSV,
    "application/json": JSON, "application/xml": XML, "text/xml": XML,
}
GRAPH_OFFERS: dict[str, str] = {
    TURTLE: TURTLE, NTRIPLES: NTRIPLES, JSONLD: JSONLD, RDFXML: RDFXML, NQUADS: NQUADS, TRIG: TRIG, N3: N3,
    "application/x-turtle": TURTLE, "text/plain": NTRIPLES, "application/json": JSONLD,
    "application/xml": RDFXML, "text/xml": RDFXML,
}
# `format=` / `output=` values (Fuseki, Virtuoso and many clients send them instead of an
# Accept header) -> the Accept header they stand for; a value with a slash is a media type.
FORMAT_ALIASES: dict[str, str] = {
    "json": f"{JSON}, {JSONLD}", "xml": f"{XML}, {RDFXML}", "csv": CSV, "tsv": TSV,
    "ttl": TURTLE, "turtle": TURTLE, "nt": NTRIPLES, "ntriples": NTRIPLES, "n-triples": NTRIPLES,
    "nq": NQUADS, "nquads": NQUADS, "n-quads": NQUADS, "trig": TRIG, "n3": N3,
    "jsonld": JSONLD, "json-ld": JSONLD, "rdf": RDFXML, "rdfxml": RDFXML, "rdf/xml": RDFXML, "rdf+xml": RDFXML,
}


@dataclass(frozen=True)
class MediaRange:
    type: str
    subtype: str
    q: float

    def specificity(self, media_type: str) -> int:
        """-1 if this range does not cover `media_type`, else 0 (*/*), 1 (type/*), 2 (exact)."""
        kind, _, sub = media_type.partition("/")
        if self.type == "*":
            return 0
        if self.type != kind:
            return -1
        if self.subtype == "*":
            return 1
        return 2 if self.subtype == sub else -1


def parse_accept(header: str) -> list[MediaRange]:
    """The media ranges of an Accept header; malformed parts are skipped."""
    ranges: list[MediaRange] = []
    for part in header.split(","):
        fields = [f.strip() for f in part.split(";")]
        kind, slash, sub = fields[0].lower().partition("/")
        if not slash or not kind or not sub:
            continue
        q = 1.0
        for param in fields[1:]:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    q = min(1.0, max(0.0, float(value.strip())))
                except ValueError:
                    q = 0.0
        ranges.append(MediaRange(kind, sub, q))
    return ranges


def quality(ranges: list[MediaRange], media_type: str) -> float:
    """The q the client gives `media_type` (0 when no range covers it)."""
    best, best_q = -1, 0.0
    for media_range in ranges:
        spec = media_range.specificity(media_type)
        if spec > best or (spec == best and media_range.q > best_q):
            best, best_q = spec, media_range.q
    return best_q if best >= 0 else 0.0


def accept_of_format(value: str) -> str | None:
    """The Accept header a `format=` / `output=` value stands for, None when it names no format."""
    value = value.strip()
    if "/" in value and value.lower() not in FORMAT_ALIASES:
        return value
    return FORMAT_ALIASES.get(value.lower())


def prefers_html(accept: str | None, offers: dict[str, str]) -> bool:
    """Whether a client (a browser) wants HTML more than any of `offers`: HTML is offered last,
    so a tie (e.g. */*) goes to the data formats."""
    if not accept:
        return False
    chosen = choose(accept, {**offers, HTML: HTML})
    return chosen is not None and chosen[0] == HTML


def choose(accept: str | None, offers: dict[str, str]) -> tuple[str, str] | None:
    """(media type to send, engine format) for the Accept header, or None (406)."""
    order = list(offers)
    if not accept or not accept.strip():
        return order[0], offers[order[0]]
    ranges = parse_accept(accept)
    if not ranges:
        return order[0], offers[order[0]]
    scored = [(quality(ranges, offer), -i, offer) for i, offer in enumerate(order)]
    q, _, offer = max(scored)
    if q <= 0:
        return None
    return offer, offers[offer]
