"""`kg serve`: build the graph if there is none, then serve it with waitress.

Registered in the `kg.commands` entry-point group (setup.cfg), so `kg serve`
works; `python -m kg.api serve` is the same command without the kg group.
"""

from __future__ import annotations

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
@_option("spooled_answers", type=click.IntRange(1))
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
        from kg.api.waitress_server import serve_app

        serve_app(config)
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

        with connect(config["STORE"], config) as remote:
            if remote.graphs():
                return
        click.echo(f"{config['STORE']} holds no graph of kg: building {config['CORPUS']} into it", err=True)
        build(Path(config["CORPUS"]), Path(config["DATA"]), store_url=config["STORE"], progress=True,
              store_settings=config)
        return
    if build_dirs.current_build(Path(config["DATA"])) is None:
        click.echo(f"no graph in {config['DATA']}: building {config['CORPUS']}", err=True)
        build(Path(config["CORPUS"]), Path(config["DATA"]), progress=True)


@click.group(cls=KgErrorsGroup)
def main() -> None:
    """`python -m kg.api serve ...`: the serve command without the kg group."""


main.add_command(serve)
