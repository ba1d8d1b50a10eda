"""HTTP for the remote store: one session per thread, credentials, status checks.

Credentials come from settings or the environment (`KG_STORE_USER` with
`KG_STORE_PASSWORD`, or `KG_STORE_TOKEN`; `KG_STORE_AUTH` picks basic,
digest or bearer), never from the URL, which shows on the command line and in
logs. They travel only in the Authorization header of requests to the
store's own host; no message, repr or log line carries them.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Iterator, Mapping
from urllib.parse import urlsplit

import requests
from requests.auth import AuthBase, HTTPBasicAuth, HTTPDigestAuth

from kg.errors import QueryError, QueryTimeout, StoreError
from kg.settings import load

AUTH_SCHEMES = ("basic", "digest", "bearer")
CHUNK = 64 * 1024


class RemoteTimeout(StoreError, QueryTimeout):
    """The remote server did not answer within the time limit."""


@dataclass(frozen=True)
class Credentials:
    """How to authenticate to the store; repr shows the scheme and the user, never the secret."""

    scheme: str = ""
    user: str = ""
    secret: str = field(default="", repr=False)

    def __post_init__(self) -> None:
        if self.scheme and self.scheme not in AUTH_SCHEMES:
            raise StoreError(f"unknown store authentication {self.scheme!r} (expected one of {', '.join(AUTH_SCHEMES)})")
        if self.scheme in ("basic", "digest") and not self.user:
            raise StoreError(f"{self.scheme} authentication needs a user (KG_STORE_USER)")
        if self.scheme == "bearer" and not self.secret:
            raise StoreError("bearer authentication needs a token (KG_STORE_TOKEN)")

    def __bool__(self) -> bool:
        return bool(self.scheme)

    @classmethod
    def from_settings(cls, values: Mapping[str, str | None]) -> Credentials:
        """From a mapping with STORE_AUTH, STORE_USER, STORE_PASSWORD, STORE_TOKEN (missing: none).
        Without STORE_AUTH the scheme is bearer when a token is given, basic when a user is."""
        user, password, token = (values.get(k) or "" for k in ("STORE_USER", "STORE_PASSWORD", "STORE_TOKEN"))
        scheme = (values.get("STORE_AUTH") or "").lower() or ("bearer" if token else "basic" if user else "")
        return cls(scheme, user, token if scheme == "bearer" else password)

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> Credentials:
        return cls.from_settings(load(environ=environ))

    def auth(self) -> AuthBase | None:
        if self.scheme == "basic":
            return HTTPBasicAuth(self.user, self.secret)
        if self.scheme == "digest":
            return HTTPDigestAuth(self.user, self.secret)
        if self.scheme == "bearer":
            return _Bearer(self.secret)
        return None


class _Bearer(AuthBase):
    def __init__(self, token: str) -> None:
        self._token = token

    def __call__(self, request: requests.PreparedRequest) -> requests.PreparedRequest:
        request.headers["Authorization"] = f"Bearer {self._token}"
        return request


def check_url(url: str) -> str:
    """Refuse credentials inside a URL: they would show in the process list and in messages."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise StoreError(f"not an http(s) URL: {_safe(url)!r} (expected e.g. http://host:7878)")
    if parts.username or parts.password:
        raise StoreError(f"credentials in the store URL {_safe(url)} would be visible to anyone listing processes "
                         "(expected KG_STORE_USER and KG_STORE_PASSWORD, or KG_STORE_TOKEN, in the environment)")
    return url


def _safe(url: str) -> str:
    parts = urlsplit(url)
    if parts.username or parts.password:
        return parts._replace(netloc=parts.hostname + (f":{parts.port}" if parts.port else "")).geturl()
    return url


WRITE_RETRIES = 5
IDEMPOTENT_WRITES = ("PUT", "DELETE")


class _Dropped(Exception):
    """A connection refused, reset or closed without an answer; `error` is what the caller
    sees when the request is not sent again."""

    def __init__(self, error: StoreError) -> None:
        super().__init__(str(error))
        self.error = error


class Client:
    """Sessions (one per thread, so that the endpoint's request threads never share one),
    credentials, the time limit of each thread, and the status checks. `rolled_back` lists
    words of a 500 answer meaning that the server rolled a write back and that it may be sent
    again (an engine's quirk, from its profile: kg.store.remote.engines)."""

    def __init__(self, credentials: Credentials, timeout: float, *, rolled_back: tuple[str, ...] = ()) -> None:
        self.credentials = credentials
        self.timeout = timeout
        self.rolled_back = tuple(word.lower() for word in rolled_back)
        self._local = threading.local()

    def limit_time(self, seconds: float) -> None:
        self._local.timeout = seconds

    def current_timeout(self) -> float:
        return getattr(self._local, "timeout", None) or self.timeout

    def request(self, method: str, url: str, *, idempotent: bool = False, **kwargs) -> requests.Response:
        """Send a request; a write the store says it rolled back (see `rolled_back`) is sent
        again, a few times, and so is an idempotent write (PUT, DELETE, or a request the caller
        says may be sent twice) whose connection the server closed without an answer (Virtuoso
        does so now and then under load)."""
        for attempt in range(WRITE_RETRIES + 1):
            last = attempt == WRITE_RETRIES
            try:
                response = self._send(method, url, **kwargs)
            except _Dropped as dropped:
                if last or not (idempotent or method in IDEMPOTENT_WRITES):
                    raise dropped.error from dropped.__cause__
                self.close()
            else:
                if last or not self._rolled_back(method, response):
                    return response
                response.close()
            time.sleep(0.05 * 2 ** attempt)
        raise AssertionError("unreachable")

    def _send(self, method: str, url: str, **kwargs) -> requests.Response:
        timeout = self.current_timeout()
        try:
            return self._session().request(method, url, timeout=timeout, allow_redirects=False, **kwargs)
        except requests.Timeout as exc:
            raise RemoteTimeout(f"{url} did not answer within {timeout:g} s") from exc
        except requests.ConnectionError as exc:
            raise _Dropped(StoreError(f"cannot reach {url}: {type(exc).__name__}")) from exc
        except requests.RequestException as exc:
            raise StoreError(f"cannot reach {url}: {type(exc).__name__}") from exc

    def chunks(self, response: requests.Response) -> Iterator[bytes]:
        """The body chunk by chunk; a stalled read becomes RemoteTimeout."""
        try:
            yield from response.iter_content(CHUNK)
        except requests.RequestException as exc:
            raise read_error(response, exc) from exc

    def close(self) -> None:
        session = getattr(self._local, "session", None)
        if session is not None:
            session.close()
            self._local.session = None

    def _rolled_back(self, method: str, response: requests.Response) -> bool:
        """A graph write (PUT, DELETE, POST) the server rolled back, safe to send again."""
        if not self.rolled_back or method not in ("PUT", "DELETE", "POST") or response.status_code != 500:
            return False
        text = response.text.lower()
        return any(word in text for word in self.rolled_back)

    def _session(self) -> requests.Session:
        session = getattr(self._local, "session", None)
        if session is None:
            session = self._local.session = requests.Session()
            session.trust_env = False  # no proxy or .netrc from the environment: kg's own settings only
            session.auth = self.credentials.auth()
        return session


def read_error(response: requests.Response, exc: Exception) -> StoreError:
    """What a failed read of a response body becomes."""
    if "timed out" in str(exc).lower() or "timeout" in type(exc).__name__.lower():
        return RemoteTimeout(f"{_where(response)} stopped answering in time")
    return StoreError(f"{_where(response)}: connection lost while reading the answer")


def check(response: requests.Response, *, allowed: tuple[int, ...] = ()) -> None:
    """Raise unless the status is a success (or one of `allowed`): 400 is the query's fault
    (QueryError), anything else the store's (StoreError), with the server's own words."""
    if 200 <= response.status_code < 300 or response.status_code in allowed:
        return
    detail = " ".join(response.text.split())[:500] or response.reason
    if response.status_code == 400:
        raise QueryError(detail)
    if response.status_code in (401, 403):
        detail = ("the store refused the credentials (KG_STORE_USER/KG_STORE_PASSWORD or KG_STORE_TOKEN)"
                  if response.request.headers.get("Authorization") else
                  "the store asks for credentials (set KG_STORE_USER and KG_STORE_PASSWORD, or KG_STORE_TOKEN)")
    raise StoreError(f"{_where(response)}: HTTP {response.status_code}: {detail}")


def media_type(response: requests.Response) -> str:
    return response.headers.get("Content-Type", "").split(";")[0].strip().lower()


def _where(response: requests.Response) -> str:
    return f"{response.request.method} {response.url.split('?')[0]}"
