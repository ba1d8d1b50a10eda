"""`kg serve`: build the graph if there is none, then serve it with waitress.

Registered in the `kg.commands` entry-point group (setup.cfg), so `kg serve`
works; `python -m api serve` is the same command without the kg group.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from api import settings
from kg import layout
from kg.errors import KgError


def _help(name: str) -> str:
    setting = next(s for s in settings.SETTINGS if s.name == name)
    return f"{setting.help} [env KG_{name}, default {setting.default!r}]"


@click.command("serve")
@click.option("--host", default=None, help=_help("HOST"))
@click.option("--port", type=click.IntRange(0, 65535), default=None, help=_help("PORT") + " (0: any free port)")
@click.option("--data", "data", type=click.Path(file_okay=False, path_type=Path), default=None, help=_help("DATA"))
@click.option("--corpus", "corpus", type=click.Path(file_okay=False, path_type=Path), default=None,
              help=_help("CORPUS"))
@click.option("--query-timeout", type=click.FloatRange(0.1, 3600), default=None, help=_help("QUERY_TIMEOUT"))
@click.option("--store", "store", default=None, help=_help("STORE"))
@click.option("--cors/--no-cors", default=None, help=_help("CORS"))
@click.option("--max-rows", type=click.IntRange(0), default=None, help=_help("MAX_ROWS"))
@click.option("--max-request-bytes", type=click.IntRange(1024), default=None, help=_help("MAX_REQUEST_BYTES"))
@click.option("--threads", type=click.IntRange(1, 256), default=None, help=_help("THREADS"))
@click.option("--workers", type=click.IntRange(1, 64), default=None, help=_help("WORKERS"))
@click.option("--memory-quads", type=click.IntRange(0), default=None, help=_help("MEMORY_QUADS"))
def serve(**options: Any) -> None:
    """Serve the graph: SPARQL at /sparql, JSON API at /api, query page at /."""
    config = settings.load({k.upper(): v for k, v in options.items()})
    try:
        ensure_built(config)
    except KgError as exc:
        raise click.ClickException(f"cannot build the graph: {exc}") from exc
    run(config)


def ensure_built(config: dict[str, Any]) -> None:
    """Build from the corpus when the store has no graph yet."""
    from kg.build import build

    if config["STORE"]:
        from kg.remote import connect

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
    if layout.current_build(Path(config["DATA"])) is None:
        click.echo(f"no graph in {config['DATA']}: building {config['CORPUS']}", err=True)
        build(Path(config["CORPUS"]), Path(config["DATA"]), progress=True)


def run(config: dict[str, Any]) -> None:
    """Serve `create_app(config)` with waitress until interrupted."""
    import waitress

    from api import create_app

    app = create_app(config)
    server = waitress.create_server(
        app, host=config["HOST"], port=int(config["PORT"]), threads=int(config["THREADS"]),
        # waitress buffers bodies: its own (plain-text) limit stays well above ours,
        # so that the app answers an oversize request with the JSON error shape
        max_request_body_size=2 * int(config["MAX_REQUEST_BYTES"]) + 65536, ident="kg",
        channel_timeout=max(30, int(float(config["QUERY_TIMEOUT"])) + 10))
    click.echo(f"Serving kg on http://{server.effective_host}:{server.effective_port}/ (SPARQL at /sparql)")
    sys.stdout.flush()
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        app.extensions["kg"].close()



@click.group()
def main() -> None:
    """`python -m api serve ...`: the serve command without the kg group."""


main.add_command(serve)
