"""The parameters of the JSON API's routes, read strictly (a 400 naming what is expected), and
the one shape of a paged list (`type`, read against the corpus's own classes, is corpus_terms.py's)."""

from __future__ import annotations

from typing import Any

from flask import request, url_for

from kg.errors import ApiError
from kg.settings import limit

MAX_LIMIT = limit("page_size")
MAX_OFFSET = limit("page_offset")


def paging() -> tuple[int, int]:
    return int_arg("limit", 50, 1, MAX_LIMIT), int_arg("offset", 0, 0, MAX_OFFSET)


def int_arg(name: str, default: int, low: int, high: int) -> int:
    raw = request.args.get(name)
    if raw is None:
        return default
    if not raw.isascii() or not raw.isdigit() or len(raw) > 18:
        raise ApiError(400, f"'{name}' must be a whole number of at most 18 digits")
    value = int(raw)
    if not low <= value <= high:
        raise ApiError(400, f"'{name}' must be between {low} and {high}")
    return value


def paged(total: int, limit: int, offset: int, items: list, endpoint: str, **args: Any) -> dict[str, Any]:
    args = {k: v for k, v in args.items() if v is not None}
    nxt = url_for(endpoint, limit=limit, offset=offset + limit, **args) if offset + limit < total else None
    return {"total": total, "limit": limit, "offset": offset, "next": nxt, "items": items}
