"""`kg serve`: build the graph if there is none, then serve it with waitress.

Registered in the `kg.commands` entry-point group (setup.cfg), so `kg serve`
works; `python -m kg.api serve` is the same command without the kg group.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Callable

import click

from kg.cli import DIRECTORY, KgCommandError, KgErrorsGroup, setting_option
from kg.errors import KgError
from kg.settings import load
from kg.store import build_dirs


def _option(name: str, **kwargs: Any) -> Callable:
    """The option of a setting, left None unless given: config.load adds the environment and defaults."""
    return setting_option(name, default=None, **kwargs)


@click.command("serve")
@_option("host")
@_option("port", type=click.IntRange(0, 65535))
@_option("data", type=DIRECTORY)
@_option("corpus", type=DIRECTORY)
@_option("query_timeout", type=click.FloatRange(0.1, 3600))
@_option("store")
@setting_option("cors", "--cors/--no-cors", default=None)
@_option("max_rows", type=click.IntRange(0))
@_option("max_request_bytes", type=click.IntRange(1024))
@_option("threads", type=click.IntRange(1, 256))
@_option("workers", type=click.IntRange(1, 64))
@_option("max_response_bytes", type=click.IntRange(0))
@_option("worker_memory", type=click.IntRange(0))
@_option("queue", type=click.IntRange(0, 1024))
@_option("max_batch", type=click.IntRange(1, 10000))
@_option("connections", type=click.IntRange(10, 100000))
@_option("idle_timeout", type=click.IntRange(1, 3600))
@_option("memory_quads", type=click.IntRange(0))
@_option("license")
@click.option("--watch", is_flag=True,
              help="Rebuild when a file of the corpus changes (debounced) and serve the new build.")
def serve(watch: bool, **options: Any) -> None:
    """Serve the graph: SPARQL at /sparql, JSON API at /api, query page at /."""
    config = load(options)
    try:
        ensure_built(config)
    except KgError as exc:
        raise KgCommandError(exc, "cannot build the graph") from exc
    watcher = _watcher(config) if watch else None
    try:
        run(config)
    finally:
        if watcher:
            watcher.stop()


def _watcher(config: dict[str, Any]):
    from kg.api.watch import CorpusWatcher

    extra = ("--store", config["STORE"]) if config["STORE"] else ()
    watcher = CorpusWatcher(Path(config["CORPUS"]), Path(config["DATA"]), extra_args=extra)
    watcher.start()
    click.echo(f"Watching {config['CORPUS']} for changes", err=True)
    return watcher


def ensure_built(config: dict[str, Any]) -> None:
    """Build from the corpus when the store has no graph yet."""
    from kg.pipeline.builder import build

    if config["STORE"]:
        from kg.store.remote import connect

        remote = connect(config["STORE"], config)
        try:
            if remote.graphs():
                return
        finally:
            remote.close()
        click.echo(f"{config['STORE']} holds no graph of kg: building {config['CORPUS']} into it", err=True)
        build(Path(config["CORPUS"]), Path(config["DATA"]), store_url=config["STORE"], progress=True,
              store_settings=config)
        return
    if build_dirs.current_build(Path(config["DATA"])) is None:
        click.echo(f"no graph in {config['DATA']}: building {config['CORPUS']}", err=True)
        build(Path(config["CORPUS"]), Path(config["DATA"]), progress=True)


def run(config: dict[str, Any]) -> None:
    """Serve `create_app(config)` with waitress until interrupted."""
    import waitress

    from kg.api import create_app, errors

    app = create_app(config)
    server = waitress.create_server(app, ident="kg", **waitress_options(config))
    server.channel_class = errors.waitress_channel()
    click.echo(f"Serving kg on http://{server.effective_host}:{server.effective_port}/ (SPARQL at /sparql)")
    sys.stdout.flush()
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        app.extensions["kg"].close()


def waitress_options(config: dict[str, Any]) -> dict[str, Any]:
    """waitress's limits. Its own body and header limits stay above the app's, so that the app
    answers an oversize request itself (413, 414); past them waitress answers 413 / 431, in the
    same JSON shape (api.errors.waitress_channel). Threads: enough that the requests which may
    hold or wait for a query worker never take the last ones (/health needs no worker), which
    api/sparql/admission.py keeps for /health and the cheap routes.
    Idle and half-sent connections are closed after IDLE_TIMEOUT (checked every second),
    busy ones never; CONNECTIONS bounds them all."""
    from kg.api.sparql.admission import request_threads

    max_bytes = int(config["MAX_REQUEST_BYTES"])
    threads = request_threads(config)
    _raise_open_files(int(config["CONNECTIONS"]) + 256)
    return {"host": config["HOST"], "port": int(config["PORT"]), "threads": threads,
            "max_request_body_size": 2 * max_bytes + 65536,
            "max_request_header_size": 3 * max_bytes + 65536,  # a query string may be percent-encoded
            "connection_limit": int(config["CONNECTIONS"]),
            "channel_timeout": int(config["IDLE_TIMEOUT"]), "cleanup_interval": 1}


def _raise_open_files(wanted: int) -> None:
    """Raise the soft limit of open files towards `wanted` (each connection holds one)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


@click.group(cls=KgErrorsGroup)
def main() -> None:
    """`python -m kg.api serve ...`: the serve command without the kg group."""


main.add_command(serve)
