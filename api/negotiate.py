"""HTTP content negotiation with q-values (RFC 9110, section 12.5.1).

Each offer is matched against the most specific media range of the Accept
header that covers it (type/subtype over type/* over */*); its quality is
that range's q. The best quality wins; ties go to the server's order of
preference. No Accept header means the first offer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from kg.errors import ApiError
from kg.formats import rdf_syntaxes

if TYPE_CHECKING:
    from flask import Request

HTML = "text/html"
FORMAT_PARAMS = ("format", "output")  # parameters that stand for the Accept header


def _offers(table: tuple) -> dict[str, str]:
    """Offered media type -> the format's own media type: each format's own types first, in the
    server's order of preference, then the other types clients ask for them by."""
    offers = {f.media_type: f.media_type for f in table}
    offers.update((alias, f.media_type) for f in table for alias in f.also if alias not in offers)
    return offers


def _format_aliases() -> dict[str, str]:
    """`format=` / `output=` values (Fuseki, Virtuoso and many clients send them instead of an
    Accept header) -> the Accept header they stand for ("json": either kind of JSON)."""
    aliases: dict[str, list[str]] = {}
    for f in (*rdf_syntaxes.RESULTS_FORMATS, *rdf_syntaxes.RDF_FORMATS):
        for name in f.names:
            aliases.setdefault(name, []).append(f.media_type)
    return {name: ", ".join(types) for name, types in aliases.items()}


SOLUTION_OFFERS = _offers(rdf_syntaxes.RESULTS_FORMATS)
GRAPH_OFFERS = _offers(rdf_syntaxes.RDF_FORMATS)
FORMAT_ALIASES = _format_aliases()  # a value with a slash is a media type


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


def requested_accept(request: Request) -> tuple[str | None, bool]:
    """(the Accept header a GET asks with, whether a `format=` / `output=` parameter gave it)."""
    explicit = format_accept([v for k, v in request.args.items(multi=True) if k in FORMAT_PARAMS])
    return (explicit, True) if explicit is not None else (request.headers.get("Accept"), False)


def format_accept(values: list[str]) -> str | None:
    """The Accept header that `format=` / `output=` stand for (several: any of them)."""
    if not values:
        return None
    accepts = [accept_of_format(v) for v in values]
    unknown = [v for v, a in zip(values, accepts) if a is None]
    if unknown:
        raise ApiError(400, f"unknown format {unknown[0]!r}: give a media type or one of "
                            + ", ".join(FORMAT_ALIASES))
    return ", ".join(accepts)
