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
from kg.settings import limit

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


MAX_HEADER_FIELDS = limit("header_fields")


def waitress_channel():
    """A waitress channel class whose own error answers (400 on bad framing, 413 for a body
    past max_request_body_size, 431 for headers past the limits) leave in the one error shape,
    like the app's. waitress bounds the request line and the header fields together, and the
    request line of a GET may carry a query of up to --max-request-bytes (3 x percent-encoded):
    the header fields after it are bounded on their own, to MAX_HEADER_FIELDS."""
    from waitress.channel import HTTPChannel
    from waitress.parser import HTTPRequestParser
    from waitress.task import ErrorTask
    from waitress.utilities import RequestHeaderFieldsTooLarge

    class JsonErrorTask(ErrorTask):
        def execute(self) -> None:
            error = self.request.error
            body = (json.dumps(error_body(error.code, error.body), ensure_ascii=False) + "\n").encode("utf-8")
            self.status = f"{error.code} {error.reason}"
            self.response_headers.append(("Content-Type", ERROR_TYPE))
            self.set_close_on_finish()
            self.content_length = len(body)
            self.write(body)

    class BoundedHeaderParser(HTTPRequestParser):
        def received(self, data: bytes) -> int:
            if self.body_rcv is None and not self.completed and _header_fields_size(self.header_plus + data) \
                    > MAX_HEADER_FIELDS:
                self.parse_header(b"GET / HTTP/1.0\r\n")
                self.error = RequestHeaderFieldsTooLarge(
                    f"header fields over {MAX_HEADER_FIELDS:,} bytes (the request line aside)")
                self.completed = True
                return len(data)
            return super().received(data)

    class JsonErrorChannel(HTTPChannel):
        error_task_class = JsonErrorTask
        parser_class = BoundedHeaderParser

    return JsonErrorChannel


def _header_fields_size(received: bytes) -> int:
    """Bytes of header fields received so far: after the request line, before the blank line."""
    received = received.lstrip()  # waitress skips blank lines before a request
    line_end = received.find(b"\n")
    if line_end < 0:
        return 0
    end = received.find(b"\r\n\r\n", line_end - 1)
    end = received.find(b"\n\n", line_end) if end < 0 else end
    return (end if end >= 0 else len(received)) - line_end - 1
