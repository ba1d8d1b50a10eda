"""What both versions of the reconciliation service read from a request and send back.

A JSON parameter (`queries`, `extend`) comes from the query string or a form body, a 1.0-draft
batch from a JSON body; malformed JSON is a 400 with the parser's line and column, a batch past
the max_batch setting a 413, a text past MAX_TEXT characters a 400. A 0.2 GET may ask for JSONP
(`callback`, as OpenRefine's suggest widget does): a callback that is not a plain JavaScript
name is refused, so that no request can make the service write script of its choosing.
"""

from __future__ import annotations

import json
import re
from typing import Any

from flask import Response, current_app, g, jsonify, request

from kg.api.app_state import app_state
from kg.api.errors import ApiError
from kg.api.request_life import pinned_backend
from kg.publish.search import SearchIndex

MAX_TEXT = 500  # characters of a query's text, a suggest prefix, a property value
MAX_LIMIT = 100  # candidates or suggestions per query
_CALLBACK = re.compile(r"^[A-Za-z_$][\w$]{0,63}(?:\.[A-Za-z_$][\w$]{0,63}){0,3}$")


def max_batch() -> int:
    return int(current_app.config["MAX_BATCH"])


def json_param(name: str) -> Any | None:
    """The JSON a form or query-string parameter holds; None when the request has no such parameter."""
    raw = request.form.get(name) if request.method == "POST" else None
    raw = raw if raw is not None else request.args.get(name)
    return None if raw is None else parse_json(raw, f"'{name}'")


def json_body() -> Any:
    """The request's JSON body (1.0-draft), or a JSON form parameter named as the route expects."""
    raw = request.get_data(cache=True, as_text=True)
    if not raw.strip():
        raise ApiError(400, "missing JSON body")
    return parse_json(raw, "the body")


def parse_json(raw: str, what: str) -> Any:
    try:
        return json.loads(raw)
    except ValueError as exc:
        line, column = getattr(exc, "lineno", None), getattr(exc, "colno", None)
        raise ApiError(400, f"{what} is not JSON: {exc}", line=line, column=column) from None


def check_batch(count: int, what: str) -> None:
    """413 for a batch past the max_batch setting."""
    if count > max_batch():
        raise ApiError(413, f"{count} {what} in one request; at most {max_batch()} (--max-batch): "
                            "send them in several batches", limit=max_batch())


def text(value: Any, what: str) -> str:
    """A string of the request, at most MAX_TEXT characters."""
    if not isinstance(value, str):
        raise ApiError(400, f"{what} must be a string")
    if len(value) > MAX_TEXT:
        raise ApiError(400, f"{what} is {len(value):,} characters long; at most {MAX_TEXT}")
    return value


def limit_of(value: Any, default: int) -> int:
    """A query's `limit`: a whole number from 1 to MAX_LIMIT (0 or none: the default)."""
    if value is None or value == 0:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value) or value < 0:
        raise ApiError(400, f"'limit' must be a whole number from 0 to {MAX_LIMIT}")
    return min(int(value), MAX_LIMIT)


def int_arg(name: str, default: int, high: int) -> int:
    """A whole-number query-string parameter from 0 to `high`."""
    raw = request.args.get(name)
    if raw is None or raw == "":
        return default
    if not raw.isascii() or not raw.isdigit() or len(raw) > 9:
        raise ApiError(400, f"'{name}' must be a whole number")
    return min(int(raw), high)


def search_index() -> SearchIndex:
    """The search index of the build the request answers from."""
    return app_state().search.get(pinned_backend(), g.deadline)


def answer(body: Any, *, jsonp: bool = False) -> Response:
    """`body` as JSON, or as JSONP when allowed and the request names a callback."""
    callback = request.args.get("callback") if jsonp else None
    if not callback:
        return jsonify(body)
    if not _CALLBACK.match(callback):
        raise ApiError(400, "'callback' must be a JavaScript name (letters, digits, _ and $, dotted)")
    payload = json.dumps(body, ensure_ascii=True).replace("<", "\\u003c")
    return Response(f"/**/{callback}({payload});\n", mimetype="application/javascript")
