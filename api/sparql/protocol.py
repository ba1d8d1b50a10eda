"""Read a SPARQL 1.1 Protocol request (https://www.w3.org/TR/sparql11-protocol/).

Three ways to send a query: GET with `query=` in the URL, POST with a
form-encoded body, POST with the query itself as `application/sparql-query`.
Parameters are decoded strictly as UTF-8 here (not by Werkzeug, which would
replace bad bytes), so a body that is not UTF-8 is a 400, never a 500.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import parse_qsl

from flask import Request

from kg.api.errors import ApiError
from kg.api.negotiate import FORMAT_PARAMS, format_accept

FORM = "application/x-www-form-urlencoded"
SPARQL_QUERY = "application/sparql-query"
SPARQL_UPDATE = "application/sparql-update"


@dataclass
class Call:
    """The protocol parameters of one request."""

    query: str | None = None
    update: bool = False
    default_graphs: list[str] = field(default_factory=list)
    named_graphs: list[str] = field(default_factory=list)
    accept: str | None = None  # what `format=` / `output=` ask for, as an Accept header; None: the header's


def url_params(request: Request, max_bytes: int) -> list[tuple[str, str]]:
    """The URL's query-string parameters, decoded strictly."""
    raw = request.query_string
    if len(raw) > max_bytes:
        raise ApiError(414, f"the URL's query string is longer than {max_bytes} bytes; POST the query instead")
    return _parse(raw, "URL query string")


def read(request: Request, max_bytes: int) -> Call:
    """The Call a GET or POST request makes; raises ApiError for a bad one."""
    params = url_params(request, max_bytes)
    if request.method == "POST":
        params, body_query = _post_params(request, params)
    else:
        body_query = None
    return _call(params, body_query)


def _post_params(request: Request, params: list[tuple[str, str]]) -> tuple[list[tuple[str, str]], str | None]:
    header = request.headers.get("Content-Type")
    if not header:
        raise ApiError(400, f"a POST needs a Content-Type: {FORM} or {SPARQL_QUERY}")
    media_type, charset = _media_type(header)
    if media_type == SPARQL_UPDATE:
        raise ApiError(403, "this endpoint is read-only: SPARQL Update is refused")
    if media_type not in (FORM, SPARQL_QUERY):
        raise ApiError(415, f"unsupported Content-Type {media_type!r}: use {FORM} or {SPARQL_QUERY}")
    if charset not in (None, "utf-8", "utf8"):
        raise ApiError(415, f"unsupported charset {charset!r}: send UTF-8")
    body = request.get_data(cache=False)
    if media_type == FORM:
        return params + _parse(body, "form body"), None
    try:
        return params, body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ApiError(400, f"the query is not valid UTF-8 (byte {exc.start})") from None


def _call(params: list[tuple[str, str]], body_query: str | None) -> Call:
    queries = [v for k, v in params if k == "query"]
    if body_query is not None:
        queries.append(body_query)
    call = Call(update=any(k == "update" for k, _ in params))
    call.default_graphs = [v for k, v in params if k == "default-graph-uri"]
    call.named_graphs = [v for k, v in params if k == "named-graph-uri"]
    call.accept = format_accept([v for k, v in params if k in FORMAT_PARAMS])
    if call.update:
        return call
    if not queries and body_query is None and all(k in FORMAT_PARAMS for k, _ in params):
        return call  # no parameter but a format: a GET of the service description
    if not queries:
        raise ApiError(400, "missing 'query' parameter")
    if len(queries) > 1:
        raise ApiError(400, f"'query' given {len(queries)} times; give it once")
    if not queries[0].strip():
        raise ApiError(400, "the 'query' parameter is empty")
    call.query = queries[0]
    return call


def _parse(raw: bytes, where: str) -> list[tuple[str, str]]:
    try:
        text = raw.decode("utf-8")
        return parse_qsl(text, keep_blank_values=True, encoding="utf-8", errors="strict")
    except UnicodeDecodeError as exc:
        raise ApiError(400, f"the {where} is not valid UTF-8 (byte {exc.start})") from None
    except ValueError as exc:
        raise ApiError(400, f"the {where} cannot be decoded: {exc}") from None


def _media_type(header: str) -> tuple[str, str | None]:
    fields = [f.strip() for f in header.split(";")]
    charset = None
    for param in fields[1:]:
        name, _, value = param.partition("=")
        if name.strip().lower() == "charset":
            charset = value.strip().strip('"').lower()
    return fields[0].lower(), charset
