"""Every setting of the project in one table: name, default, help, environment variable and
the commands that read it. A value comes from the default, then the environment variable
`KG_<NAME>`, then the command line (where the setting is an option), then, in tests, the
mapping given to `api.create_app`. docs/settings.md is rendered from this table
(`python -m kg.settings > docs/settings.md`; tests/cli/test_settings.py keeps it so).

Adding a setting is one line in SETTINGS; a command that lists it gets its option from
`kg.cli.setting_option`.

Beside the settings, LIMITS holds the server's fixed limits: the bounds on what one request may
cost and how long the server waits for what, which no deployment needs to change but everyone
who reads the server should find in one place. The module named in `where` binds each one
(a constant bound from `limit(name)`); docs/settings.md lists them after the settings.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Any, Mapping

from kg.errors import SettingError

REMOTE = ("build", "serve", "query", "stats", "export", "viz")  # the commands that reach a remote store
SERVE = ("serve",)


@dataclass(frozen=True)
class Setting:
    """One setting. `option`: each command in `commands` also takes it as --<name>."""

    name: str
    default: Any
    help: str
    commands: tuple[str, ...]
    option: bool = True

    @property
    def env(self) -> str:
        return f"KG_{self.name.upper()}"

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")


SETTINGS: tuple[Setting, ...] = (
    Setting("corpus", "corpus", "directory of the annotated corpus (.txt, .ann, .json, annotation.conf, "
            "aliases.toml); kg serve builds it when nothing is built yet", ("build", "check", "suggest", "serve")),
    Setting("data", "data", "directory holding the builds (data/current -> builds/<id>): the store, the exports "
            "and the network view", ("build", "export", "query", "validate", "stats", "serve", "viz", "compact")),
    Setting("base_iri", "https://kg.example.org/", "base IRI under which every IRI of the graph is minted "
            "(entities, documents, named graphs, the corpus vocabulary; the ontology's terms keep their own); "
            "an absolute http(s) IRI ending in '/'; changing it rebuilds everything", ("build",)),
    Setting("cluster", "", "Dask scheduler to read documents on: tcp://HOST:8786 (workers started with `dask "
            "worker`, seeing the corpus and data directories at the same paths), or local:N for N worker "
            "processes on this machine; empty: this machine's process pool (--workers)", ("build",)),
    Setting("store", "", "URL of a SPARQL 1.1 server (base or query URL) to build into and answer from instead "
            "of the embedded store; empty: the embedded store", REMOTE),
    Setting("store_engine", "auto", "engine of the remote store: oxigraph, virtuoso, fuseki, graphdb, or auto "
            "(guessed from the URL)", REMOTE, option=False),
    Setting("store_update", "", "update endpoint of the remote store (default: the engine's, next to the query "
            "URL)", REMOTE, option=False),
    Setting("store_gsp", "", "Graph Store Protocol endpoint of the remote store (default: the engine's)", REMOTE,
            option=False),
    Setting("store_isql", "", "Virtuoso's SQL port (HOST:PORT, as isql takes it) through which a full build is "
            "bulk-loaded (ld_dir, rdf_loader_run) from its kg.nq, when the server reads the data directory at the "
            "same path (DirsAllowed in virtuoso.ini); the login is store_user and store_password (default dba); "
            "empty: graph by graph over HTTP", REMOTE, option=False),
    Setting("store_union", "graphs", "how the remote store gets the union default graph: graphs (kg's graphs "
            "only), param or native", REMOTE, option=False),
    Setting("store_auth", "", "authentication to the remote store: basic, digest or bearer (default: bearer with "
            "a token, basic with a user)", REMOTE, option=False),
    Setting("store_user", "", "user for the remote store (environment only)", REMOTE, option=False),
    Setting("store_password", "", "password for the remote store (environment only; never logged)", REMOTE,
            option=False),
    Setting("store_token", "", "bearer token for the remote store (environment only; never logged)", REMOTE,
            option=False),
    Setting("compact_after", 8, "incremental builds in a row after which `kg build` compacts the store in a "
            "process of its own, so that edits do not pile up uncompacted until one waits minutes for RocksDB "
            "(kg.store.compaction); 0: never", ("build",), option=False),
    Setting("view_nodes", 500, "nodes the network view opens on: a graph with more shows its most mentioned and "
            "most connected entities and events, and the rest on demand (search, expand, filters) when served by "
            "kg serve", ("build", "serve", "viz"), option=False),
    Setting("query_timeout", 10.0, "seconds a query may run before the client gets 503 and the work is stopped",
            SERVE),
    Setting("max_rows", 10000, "most rows (or triples) a query answer carries; 0 for no cap", SERVE),
    Setting("max_request_bytes", 1_000_000, "largest request body or query string accepted (413 beyond)", SERVE),
    Setting("max_response_bytes", 50_000_000, "largest answer a query may produce, in bytes before conversion "
            "to the requested format (422 beyond); 0 for no cap", SERVE),
    Setting("worker_memory", 1024, "megabytes of address space a query worker may add to what it holds after "
            "opening the graph (RLIMIT_AS); a query needing more ends with 503", SERVE),
    Setting("max_batch", 100, "most queries in one reconciliation batch, entities in one data extension and "
            "properties asked of them (413 beyond)", SERVE),
    Setting("queue", 32, "requests that may wait for a query worker; beyond, 503 with Retry-After at once", SERVE),
    Setting("connections", 1000, "open client connections at most (waitress stops accepting beyond)", SERVE),
    Setting("idle_timeout", 10, "seconds a connection may stay idle or half-sent before it is closed", SERVE),
    Setting("spooled_answers", 1024, "MiB of answers spooled to disk for clients that have not read them yet, all "
            "connections together; past it a request is answered 503 with Retry-After at once, and a thread "
            "writing more waits for its client as for a slow reader (cut after slow_reader seconds)", SERVE),
    Setting("workers", 3, "query worker processes (forked from one process that opens the store)", SERVE),
    Setting("memory_quads", 1_500_000, "a build with at most this many quads is loaded into memory once and "
            "shared by the workers (several times faster joins, ~380 bytes a quad); 0: always on disk", SERVE),
    Setting("threads", 48, "request threads of the WSGI server (at least 2 x workers + queue + 10, so that "
            "requests which need no worker, like /health, always find a thread)", SERVE),
    Setting("cors", True, "send Access-Control-Allow-Origin: * on reads", SERVE),
    Setting("license", "", "IRI of the licence the graph is published under (dcterms:license of the VoID "
                       "description at /.well-known/void); empty: none declared", SERVE),
    Setting("host", "127.0.0.1", "interface to listen on", SERVE),
    Setting("port", 5000, "port to listen on (0: any free port)", SERVE),
)
BY_NAME: dict[str, Setting] = {s.name: s for s in SETTINGS}


@dataclass(frozen=True)
class Limit:
    """A fixed limit of the server, applied by the module `where`."""

    name: str
    value: int | float
    help: str
    where: str


LIMITS: tuple[Limit, ...] = (
    # what a request may cost
    Limit("page_size", 500, "most items one page of a JSON API list gives (`limit=`)", "api/json_api/params.py"),
    Limit("page_offset", 10**9, "largest `offset=` of a JSON API list", "api/json_api/params.py"),
    Limit("search_size", 100, "most entities one /api/search answer gives (`limit=`)", "api/json_api/routes.py"),
    Limit("entity_part", 100, "items (statements, mentions, memberships) per part of an /api/entities/<id> answer; "
          "each part pages on its own", "api/json_api/routes.py"),
    Limit("relation_rows", 2000, "rows of (predicate, other end, document, sentence) per direction of a "
          "neighbourhood", "api/json_api/queries.py"),
    Limit("page_rows", 1000, "most statements or properties an HTML page of a thing lists (its RDF has the "
          "endpoint's max_rows)", "api/linked_data/describe.py"),
    Limit("header_fields", 64 * 1024, "bytes of header fields after the request line (431 beyond; the request "
          "line carries a GET's query, bounded by max_request_bytes)", "api/waitress_server.py"),
    Limit("query_tokens", 50_000, "tokens of a query's text the lexer reads before it refuses it (400)",
          "kg/store/sparql_lexer.py"),
    Limit("query_depth", 100, "nested groups, brackets and unary operators of a query (the engine's parser "
          "recurses on each)", "kg/store/sparql_lexer.py"),
    Limit("query_resolved", 1_000_000, "characters of IRIs that BASE, PREFIX and FROM may resolve to, together",
          "kg/store/sparql_lexer.py"),
    # request threads and admission
    Limit("reserved_threads", 4, "request threads a flood never takes: /health and the cheap routes use them",
          "api/admission.py"),
    Limit("reading_slots", 2, "long queries read (decoded, lexed) at once", "api/admission.py"),
    Limit("reading_queue", 4, "long queries that may wait for a reading slot (503 beyond)", "api/admission.py"),
    Limit("short_request", 4096, "bytes of a request read without waiting for a reading slot", "api/admission.py"),
    Limit("slow_reader", 10.0, "seconds a request thread waits for a client to read the answers queued "
          "before its own (counted against admission); the connection is cut after", "api/waitress_server.py"),
    # how long the server waits, and for what
    Limit("health_wait", 0.5, "seconds /health waits for a build that is loading", "api/json_api/routes.py"),
    Limit("explain_wait", 2.0, "seconds a query the engine rejected may wait for its turn to be explained",
          "api/sparql/endpoint.py"),
    Limit("demote_after", 0.5, "seconds a job runs at normal CPU priority before its worker yields to shorter "
          "jobs (nice 19)", "api/backend/workers.py"),
    Limit("fork_timeout", 60.0, "seconds the template process may take to fork one query worker",
          "api/backend/worker_handles.py"),
    Limit("answer_budget", 1800.0, "seconds an answer computed once per build (the stats, the VoID counts) may "
          "take, in the background", "api/build_answers.py"),
    Limit("answer_retry", 10, "seconds a client asking for an answer still being computed is told to wait "
          "(Retry-After)", "api/build_answers.py"),
    Limit("search_budget", 60.0, "seconds a search index computed from the store may take, in the background",
          "api/backend/search_indexes.py"),
    Limit("search_file_wait", 30.0, "seconds a search waits for its build's index file to be read",
          "api/backend/search_indexes.py"),
    Limit("search_retry", 2, "seconds a search answered 503 while its index is prepared is told to wait",
          "api/backend/search_indexes.py"),
    Limit("remote_ttl", 60.0, "seconds an answer computed from a remote store is kept (its data may change)",
          "api/backend/remote.py"),
    Limit("context_max_age", 86400, "seconds a client may keep /context.jsonld", "api/linked_data/dereference.py"),
)
LIMIT_BY_NAME: dict[str, Limit] = {item.name: item for item in LIMITS}


def limit(name: str) -> Any:
    """The value of one of the server's fixed limits."""
    return LIMIT_BY_NAME[name].value


def setting(name: str, environ: Mapping[str, str] | None = None) -> Any:
    """The value of one setting: KG_<NAME> from the environment (as the default's type), else its default."""
    item = BY_NAME[name]
    raw = (os.environ if environ is None else environ).get(item.env)
    return item.default if raw is None else parse(item, raw)


def load(overrides: Mapping[str, Any] | None = None, environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Every setting, keyed by its name in capitals (QUERY_TIMEOUT): defaults, then KG_* environment
    variables, then the `overrides` that are not None (keyed either way)."""
    values = {s.name.upper(): setting(s.name, environ) for s in SETTINGS}
    values.update({k.upper(): v for k, v in (overrides or {}).items() if v is not None})
    return values


def parse(item: Setting, raw: str) -> Any:
    """An environment string as the type of the setting's default."""
    kind = type(item.default)
    if kind is bool:
        lowered = raw.strip().lower()
        if lowered in ("1", "true", "yes", "on"):
            return True
        if lowered in ("0", "false", "no", "off"):
            return False
        raise SettingError(f"{item.env}: expected a boolean (1, true, yes, on, 0, false, no, off), got {raw!r}")
    try:
        return kind(raw)
    except ValueError:
        raise SettingError(f"{item.env}: expected {kind.__name__}, got {raw!r}") from None


def markdown() -> str:
    """docs/settings.md: the table as Markdown."""
    lines = ["# Settings", "",
             "Every setting of kg, from one table (`kg/settings.py`; this page is rendered from it by",
             "`python -m kg.settings > docs/settings.md`). A value is the default, overridden by the",
             "environment variable, overridden by the command-line option of the commands that have one.", "",
             "| setting | environment | option | default | commands | what |", "|---|---|---|---|---|---|"]
    for s in SETTINGS:
        option = f"`{s.flag}`" if s.option else "(environment only)"
        commands = ", ".join(f"`kg {c}`" for c in s.commands)
        lines.append(f"| {s.name} | `{s.env}` | {option} | `{s.default!r}` | {commands} | {s.help} |")
    lines += ["", "## Fixed limits of the server", "",
              "Not settings: the bounds on what one request may cost and how long the server waits for what,",
              "listed here so that they are all in one place (`kg/settings.py` LIMITS; each is applied where it says).",
              "", "| limit | value | applied in | what |", "|---|---|---|---|"]
    lines += [f"| {item.name} | `{item.value!r}` | `{item.where}` | {item.help} |" for item in LIMITS]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(markdown())
