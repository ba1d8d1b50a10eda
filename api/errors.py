"""The one error shape of every HTTP error the app sends, made here only:

    {"error": {"status": 400, "title": "Bad Request", "detail": "...", ...}}

Extra members (e.g. `line` and `column` of a SPARQL syntax error) sit beside
`detail`. Handlers below turn every exception that reaches Flask into it.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any

from flask import Flask, Response
from werkzeug.exceptions import HTTPException
from werkzeug.http import HTTP_STATUS_CODES

from kg.errors import (
    AnswerTooLarge,
    ApiError,
    KgError,
    QueryError,
    QueryTimeout,
    StoreError,
    WorkerCrashed,
    WorkerOutOfMemory,
)

ERROR_TYPE = "application/json"
_POSITION = re.compile(r"(?:error )?at (\d+):(\d+)")
log = logging.getLogger(__name__)
TIMEOUT_HINT = ("the query ran out of time and was stopped; "
                "narrow it (LIMIT, more specific patterns) or raise --query-timeout")


def error_body(status: int, detail: str, **extra: Any) -> dict[str, Any]:
    """The error document: the single place its shape is defined."""
    error = {"status": status, "title": HTTP_STATUS_CODES.get(status, "Error"), "detail": detail}
    error.update({k: v for k, v in extra.items() if v is not None})
    return {"error": error}


def error_response(status: int, detail: str, headers: dict[str, str] | None = None, **extra: Any) -> Response:
    body = json.dumps(error_body(status, detail, **extra), ensure_ascii=False)
    response = Response(body + "\n", status=status, mimetype=ERROR_TYPE)
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def query_error(exc: QueryError) -> ApiError:
    """400 for a query the engine rejects, with the line and column it reports."""
    message = str(exc)
    match = _POSITION.search(message)
    line, column = (int(match.group(1)), int(match.group(2))) if match else (None, None)
    return ApiError(400, f"SPARQL syntax error: {message}", line=line, column=column)


def to_api_error(exc: Exception) -> ApiError:
    """Any exception as the HTTP error to send: the status is the class's (kg.errors), the
    detail says what the client can do; anything outside the tree is a 500 without details."""
    if isinstance(exc, ApiError):
        return exc
    if isinstance(exc, QueryError):
        return query_error(exc)
    if not isinstance(exc, KgError):
        return ApiError(500, "internal server error")
    headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after else {}
    extra = {"limit": exc.limit} if isinstance(exc, AnswerTooLarge) else {}
    if isinstance(exc, WorkerCrashed):
        extra = {"cause": "worker-memory" if isinstance(exc, WorkerOutOfMemory) else "worker-crash"}
    return ApiError(exc.http_status, _detail(exc), headers, **extra)


def _detail(exc: KgError) -> str:
    if isinstance(exc, QueryTimeout):
        return TIMEOUT_HINT
    if isinstance(exc, AnswerTooLarge):
        return (f"{exc} (--max-response-bytes): the query was stopped there; "
                "narrow it (LIMIT, fewer variables or shorter values)")
    if isinstance(exc, WorkerOutOfMemory):
        return (f"{exc}: the query needed more memory than a worker may take (--worker-memory); "
                "narrow it (LIMIT, fewer rows to group or sort)")
    if isinstance(exc, WorkerCrashed):
        said = exc.last_words.strip().splitlines()[-1][:300] if exc.last_words.strip() else "nothing"
        return f"{exc}: the query engine crashed on this query (its last words: {said}); the worker was replaced"
    if isinstance(exc, StoreError):
        return f"the store cannot answer: {exc}"
    if exc.http_status == 503:
        return f"the server is busy ({exc}); try again"
    return str(exc)


def register(app: Flask) -> None:
    """Install handlers so that every error leaves in the one shape."""

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException) -> Response:
        headers = {k: v for k, v in exc.get_headers() if k.lower() != "content-type"}
        return error_response(exc.code or 500, exc.description or "", headers)

    @app.errorhandler(Exception)
    def _any(exc: Exception) -> Response:
        api_error = to_api_error(exc)
        if not isinstance(exc, KgError):
            log.exception("unexpected error")
        return error_response(api_error.status, api_error.detail, api_error.headers, **api_error.extra)
