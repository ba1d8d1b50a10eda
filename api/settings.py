"""The endpoint's settings: one table of name, default and help.

Every setting can be overridden by an environment variable `KG_<NAME>`
(e.g. `KG_QUERY_TIMEOUT=5`; KG_DATA, KG_CORPUS and KG_STORE are shared with `kg build`), then by the command line of `kg serve`, then,
in tests, by the `test_config` mapping given to `create_app`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Mapping


@dataclass(frozen=True)
class Setting:
    name: str
    default: Any
    help: str


SETTINGS: tuple[Setting, ...] = (
    Setting("DATA", "data", "directory holding the builds (data/current -> builds/<id>)"),
    Setting("CORPUS", "corpus", "corpus to build from when no graph has been built yet"),
    Setting("STORE", "", "answer from this SPARQL 1.1 server (base or query URL) instead of the embedded store"),
    Setting("STORE_ENGINE", "auto", "engine of the remote store: oxigraph, virtuoso, fuseki, graphdb, or auto "
                                    "(guessed from the URL)"),
    Setting("STORE_UPDATE", "", "update endpoint of the remote store (default: the engine's, next to the query URL)"),
    Setting("STORE_GSP", "", "Graph Store Protocol endpoint of the remote store (default: the engine's)"),
    Setting("STORE_UNION", "graphs", "how the remote store gets the union default graph: graphs (kg's graphs "
                                     "only), param or native"),
    Setting("STORE_AUTH", "", "authentication to the remote store: basic, digest or bearer (default: bearer with "
                              "a token, basic with a user)"),
    Setting("STORE_USER", "", "user for the remote store (environment only)"),
    Setting("STORE_PASSWORD", "", "password for the remote store (environment only; never logged)"),
    Setting("STORE_TOKEN", "", "bearer token for the remote store (environment only; never logged)"),
    Setting("QUERY_TIMEOUT", 10.0, "seconds a query may run before the client gets 503 and the work is stopped"),
    Setting("MAX_ROWS", 10000, "most rows (or triples) a query answer carries; 0 for no cap"),
    Setting("MAX_REQUEST_BYTES", 1_000_000, "largest request body or query string accepted (413 beyond)"),
    Setting("MAX_RESPONSE_BYTES", 50_000_000, "largest answer a query may produce, in bytes before conversion "
                                              "to the requested format (422 beyond); 0 for no cap"),
    Setting("WORKER_MEMORY", 1024, "megabytes of address space a query worker may add to what it holds after "
                                   "opening the graph (RLIMIT_AS); a query needing more ends with 503"),
    Setting("QUEUE", 32, "requests that may wait for a query worker; beyond, 503 with Retry-After at once"),
    Setting("CONNECTIONS", 1000, "open client connections at most (waitress stops accepting beyond)"),
    Setting("IDLE_TIMEOUT", 10, "seconds a connection may stay idle or half-sent before it is closed"),
    Setting("WORKERS", 3, "query worker processes (forked from one process that opens the store)"),
    Setting("MEMORY_QUADS", 1_500_000, "a build with at most this many quads is loaded into memory once and shared "
                                       "by the workers (several times faster joins, ~380 bytes a quad); "
                                       "0: always on disk"),
    Setting("THREADS", 48, "request threads of the WSGI server (at least 2 x workers + queue + 4, so that "
                           "requests which need no worker, like /health, always find a thread)"),
    Setting("CORS", True, "send Access-Control-Allow-Origin: * on reads"),
    Setting("LICENSE", "", "IRI of the licence the graph is published under (dcterms:license of the VoID "
                           "description at /.well-known/void); empty: none declared"),
    Setting("HOST", "127.0.0.1", "interface to listen on"),
    Setting("PORT", 5000, "port to listen on"),
)
DEFAULTS: dict[str, Any] = {s.name: s.default for s in SETTINGS}


def load(overrides: Mapping[str, Any] | None = None, environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Defaults, then KG_* environment variables, then `overrides`."""
    environ = os.environ if environ is None else environ
    values = dict(DEFAULTS)
    for setting in SETTINGS:
        raw = environ.get(f"KG_{setting.name}")
        if raw is not None:
            values[setting.name] = parse(setting, raw)
    for name, value in (overrides or {}).items():
        if value is not None:
            values[name] = value
    return values


def parse(setting: Setting, raw: str) -> Any:
    """Convert an environment string to the type of the setting's default."""
    kind = type(setting.default)
    if kind is bool:
        lowered = raw.strip().lower()
        if lowered in ("1", "true", "yes", "on"):
            return True
        if lowered in ("0", "false", "no", "off"):
            return False
        raise ValueError(f"KG_{setting.name}: expected a boolean, got {raw!r}")
    try:
        return kind(raw)
    except ValueError:
        raise ValueError(f"KG_{setting.name}: expected {kind.__name__}, got {raw!r}") from None


def table() -> str:
    """The settings as a Markdown table (for docs/endpoint.md)."""
    lines = ["| setting | environment | default | what |", "|---|---|---|---|"]
    for s in SETTINGS:
        lines.append(f"| {s.name.lower().replace('_', '-')} | `KG_{s.name}` | `{s.default!r}` | {s.help} |")
    return "\n".join(lines)
