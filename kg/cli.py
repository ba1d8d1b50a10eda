"""The `kg` command: thin click commands over the library.

Library errors are caught here, and only here (KgErrorsGroup, which api's
and viz's commands run under too), and become a message on stderr and the
exit code their class carries (kg.errors): 2 for bad input or a bad query,
3 for a graph that breaks the shapes, 4 when another build holds the lock,
1 otherwise.
Commands from other packages (`serve` from api, `viz` from viz) are found
through the `kg.commands` entry-point group, so kg never imports them.
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Callable

import click

from kg import __version__, settings
from kg.errors import KgError
from kg.formats import rdf_syntaxes
from kg.formats.registry import OUTPUT_FORMATS, OutputFormat, output_format
from kg.model import iris
from kg.store import build_dirs

if TYPE_CHECKING:
    from kg.store.protocol import GraphStore


class KgCommandError(click.ClickException):
    """A KgError on its way out, keeping the library's exit code."""

    def __init__(self, error: KgError, context: str = "") -> None:
        super().__init__(f"{context}: {error}" if context else str(error))
        self.exit_code = error.exit_code

    def show(self, file=None) -> None:
        click.echo(f"error: {self.message}", err=True)


class KgErrorsGroup(click.Group):
    """A group whose commands' KgErrors end the program with their message and exit code."""

    def invoke(self, ctx: click.Context):
        try:
            with iris.using_base(None):  # a command may switch to its build's base: only for its own run
                return super().invoke(ctx)
        except KgError as exc:
            raise KgCommandError(exc) from exc


class KgGroup(KgErrorsGroup):
    """The kg command: maps KgError to exit codes and adds the commands other packages register."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        from importlib.metadata import entry_points

        return sorted(set(super().list_commands(ctx)) | {ep.name for ep in entry_points(group="kg.commands")})

    def get_command(self, ctx: click.Context, name: str):
        command = super().get_command(ctx, name)
        if command is None:
            from importlib.metadata import entry_points

            for ep in entry_points(group="kg.commands"):
                if ep.name == name:
                    return ep.load()
        return command


def setting_option(name: str, *decls: str, **kwargs: Any) -> Callable:
    """The click option of a setting of kg.settings: flag, help, environment variable and default
    from the table. Its value, unless given on the command line, is KG_<NAME>, else the default;
    `default=None` leaves that to settings.load (kg serve)."""
    item = settings.BY_NAME[name]
    kwargs.setdefault("default", lambda: settings.setting(name) if settings.setting(name) != "" else None)
    kwargs.setdefault("show_default", False)
    help = f"{item.help[0].upper()}{item.help[1:]} [env {item.env}; default {item.default!r}]"
    flags = decls if any(d.startswith(item.flag) for d in decls) else (item.flag, *decls)
    return click.option(*flags, help=help, **kwargs)


def open_graph(data_dir: Path, store_url: str | None = None) -> GraphStore:
    """The current build's store, or the remote store at `store_url` (kg.pipeline.current): the store's
    modules are imported by the commands that query, not by `kg build`, which must answer at once
    when it has nothing to do."""
    from kg.pipeline.current import open_graph as open_store

    return open_store(data_dir, store_url)


DIRECTORY = click.Path(file_okay=False, path_type=Path)
strict_option = click.option("--strict", is_flag=True,
                             help="Every warning (what brat or INCEpTION only warn about) is an error: exit 2.")
data_option = setting_option("data", "data_dir", type=DIRECTORY)
corpus_option = setting_option("corpus", "corpus_dir", type=DIRECTORY)
store_option = setting_option("store", "store_url")


@click.group(cls=KgGroup)
@click.version_option(__version__, prog_name="kg")
def main() -> None:
    """Turn a corpus annotated in brat or INCEpTION (brat standoff, INCEpTION XMI, WebAnno TSV;
    any domain, language and schema) into an RDF knowledge graph that keeps, for every fact, the
    document and sentence that state it; check, build, query, validate and export it, and serve it
    (SPARQL endpoint, JSON API, Linked Data pages, network view).

    \b
    A first run:
      kg check --corpus DIR      what kg makes of the corpus: errors, warnings, its types
      kg build --corpus DIR      the graph, into data/ (only what changed, next time)
      kg serve                   http://127.0.0.1:5000: query page, /sparql, /api, /graph
    """


@main.command()
@corpus_option
@data_option
@store_option
@setting_option("base_iri")
@click.option("--full", is_flag=True, help="Rebuild everything, even documents that did not change.")
@click.option("--no-validate", is_flag=True, help="Skip the SHACL validation of what is built.")
@click.option("--workers", type=click.IntRange(1, 256), default=None,
              help="Processes that read documents (default: every core when 200 or more documents change, else 1).")
@setting_option("cluster")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--eager", is_flag=True,
              help="Write every export and the view now (default: each on first request, then kept).")
@click.option("--timings", is_flag=True, help="Print where the build spent its time, phase by phase.")
@strict_option
def build(corpus_dir: Path, data_dir: Path, store_url: str | None, base_iri: str | None, full: bool,
          no_validate: bool, workers: int | None, cluster: str | None, quiet: bool, eager: bool, timings: bool,
          strict: bool) -> None:
    """Build the graph from the corpus into a new store, swapped in at the end.

    Unchanged documents are not rebuilt; when nothing changed, nothing is done.
    """
    from kg.pipeline.builder import build as run_build

    report = run_build(corpus_dir, data_dir, store_url=store_url, progress=not quiet, full=full,
                       validate=not no_validate, workers=workers, eager=eager, base_iri=base_iri, strict=strict,
                       cluster=cluster)
    click.echo(report.summary())
    if timings and report.phases:
        from kg.pipeline.phases import Phases

        phases = Phases()
        phases.seconds = dict(report.phases)
        click.echo(phases.table())


@main.command()
@corpus_option
@click.option("--shapes", is_flag=True, help="Also validate each document's graph with SHACL, as a build does.")
@click.option("--workers", type=click.IntRange(1, 256), default=None,
              help="Processes that read documents (default: every core when 200 or more documents, else 1).")
@strict_option
@click.option("--suggest-toml", is_flag=True,
              help="Also write a starting kg.toml aligning each type the default alignment leaves over with "
                   "its nearest kgo class, or Entity (an existing kg.toml is left as it is and the suggestion "
                   "printed).")
def check(corpus_dir: Path, shapes: bool, workers: int | None, strict: bool, suggest_toml: bool) -> None:
    """Check a corpus without building it: every error and warning, located, and how its types are
    aligned with kg's ontology; exit 2 if there is an error."""
    from kg.pipeline.check import check_corpus

    if suggest_toml:
        from kg.pipeline.suggest_toml import write_suggested_toml

        click.echo(write_suggested_toml(corpus_dir))
    click.echo(check_corpus(corpus_dir, shapes=shapes, workers=workers, strict=strict,
                            suggested=suggest_toml).summary())


@main.command()
@click.option("--format", "fmt", type=click.Choice([*rdf_syntaxes.EXPORT_EXTENSIONS, *(f.name for f in OUTPUT_FORMATS)]),
              default="ttl", show_default=True,
              help="Serialization, or " + ", or ".join(f"{f.name}: {f.writes}" for f in OUTPUT_FORMATS) + ".")
@click.option("-o", "--output", type=click.Path(path_type=Path), default=None,
              help="File to write (default: standard output); for brat and xmi, the directory to write. "
                   "Never inside the data directory or the corpus.")
@data_option
@corpus_option
@store_option
def export(fmt: str, output: Path | None, data_dir: Path, corpus_dir: Path, store_url: str | None) -> None:
    """Write the current graph as Turtle, TriG, N-Quads or JSON-LD, or back out as a brat or INCEpTION corpus."""
    from kg.publish import targets

    corpus_format = fmt in (f.name for f in OUTPUT_FORMATS)
    if corpus_format and store_url:
        raise click.UsageError(f"--format {fmt} reads a build directory: leave out --store (and KG_STORE)")
    if corpus_format and output is None:
        raise click.UsageError(f"--format {fmt} writes a directory: give it with -o DIR")
    if output is None:
        _export_rdf(data_dir, store_url, fmt, sys.stdout.buffer)
        return
    build = build_dirs.current_build(data_dir)
    protected = {"the data directory": data_dir, "the corpus directory": corpus_dir,
                 "the corpus directory of the current build": build_dirs.corpus_of(build)}
    real = targets.export_target(output, targets.DIRECTORY if corpus_format else targets.FILE, protected)
    if corpus_format:
        _export_corpus(build, output, real, output_format(fmt))
        return
    with targets.writing_file(output, real) as out:
        _export_rdf(data_dir, store_url, fmt, out)
    click.echo(f"wrote {output}", err=True)


def _export_rdf(data_dir: Path, store_url: str | None, fmt: str, out: IO[bytes]) -> None:
    """The current build's export file (written on first request, then kept), or the remote store's graphs."""
    if not store_url:
        from kg.publish.export import copy_export

        copy_export(build_dirs.current_build(data_dir), fmt, out)
        return
    from kg.publish.export import remote_export_chunks

    with open_graph(data_dir, store_url) as store:
        for chunk in remote_export_chunks(store, fmt):
            out.write(chunk)


def _export_corpus(build_dir: Path | None, output: Path, real: Path, fmt: OutputFormat) -> None:
    """The build's documents as a corpus in `fmt`, written into a new directory renamed to `real`."""
    from kg.publish.kept_configs import checked_config_dir
    from kg.publish.targets import writing_directory

    if build_dir is None:
        raise click.ClickException("nothing built yet (run kg build first)")
    iris.use_base(build_dirs.base_iri(build_dir))
    config_dir = checked_config_dir(build_dir)
    with build_dirs.build_store(build_dir) as store:
        with writing_directory(output, real) as directory:
            count, warnings = fmt.write(config_dir, store, directory)
    for warning in warnings:
        click.echo(f"warning: {warning}", err=True)
    click.echo(f"wrote {count} documents to {output}", err=True)


@main.command()
@click.argument("articles", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@corpus_option
@click.option("--merge", is_flag=True, help="Append the suggestions to each article's .ann, keeping every human line.")
@click.option("--score", is_flag=True, help="Write nothing: print precision and recall against the human annotations.")
@click.option("--corpus-names/--no-corpus-names", default=True, show_default=True,
              help="Also suggest proper names annotated in the corpus's other articles (not only the alias table).")
@click.option("--events/--no-events", default=True, show_default=True,
              help="Also suggest event triggers annotated in the other articles (matched by stem), with the arguments "
                   "their habits and the known names of the sentence give.")
@click.option("--ner", metavar="PIPELINE", default=None,
              help="Also suggest the names a spaCy pipeline (installed package or directory; none is downloaded) finds "
                   "where nothing known stands, typed as the other articles' annotators typed its labels.")
def suggest(articles: tuple[Path, ...], corpus_dir: Path, merge: bool, score: bool, corpus_names: bool,
            events: bool, ner: str | None) -> None:
    """Pre-annotate known names, dates, figures, quotes and event triggers as brat suggestions, written to
    <name>.suggested.ann beside each document's text (its .ann is untouched unless --merge).
    ARTICLES are brat texts (.txt); without them, every brat document of the corpus."""
    from kg.suggest.files import score_table, suggest_files

    outcomes = suggest_files(corpus_dir, list(articles) or None, merge=merge, write=not score,
                             corpus_names=corpus_names, events=events, ner=ner)
    if score:
        click.echo(score_table(outcomes))
        return
    for outcome in outcomes:
        click.echo(f"{outcome.written}: {len(outcome.suggestions)} suggestions")


@main.command()
@data_option
def compact(data_dir: Path) -> None:
    """Compact the current build's store into a new build, published unless a build ran meanwhile
    (`kg build` starts this by itself after compact_after incremental builds in a row)."""
    from kg.store.compaction import compact as compact_store

    click.echo(compact_store(data_dir))


@main.command()
@data_option
def validate(data_dir: Path) -> None:
    """Check the current graph against shapes.ttl and its vocabulary: kg's ontology and the classes
    and properties the build declared for the corpus's own types."""
    from kg.pipeline.validation.shacl import validate_store

    with open_graph(data_dir) as store:
        count = validate_store(store)
    click.echo(f"valid: {count} graphs conform to shapes.ttl and use only declared terms")


@main.command()
@click.argument("sparql")
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json", "ttl", "nt"]), default=None,
              help="SELECT and ASK: table (default), csv or json; CONSTRUCT and DESCRIBE: ttl (default) or nt.")
@click.option("--iris", "iri_style", type=click.Choice(["prefixed", "full"]), default="prefixed", show_default=True,
              help="IRIs in table and csv cells as prefixed names (person:juan-guaido) or whole.")
@click.option("--width", type=click.IntRange(min=0), default=60, show_default=True,
              help="Cut table cells longer than this (0: never); csv and json cells are always whole.")
@data_option
@store_option
def query(sparql: str, fmt: str | None, iri_style: str, width: int, data_dir: Path, store_url: str | None) -> None:
    """Run a SPARQL query on the current graph (the default graph is the union of all graphs).
    The prefixes of the README's table are declared; a PREFIX of the query's own wins."""
    with open_graph(data_dir, store_url) as store:
        prefixes = iris.PREFIXES  # those of the graph's base, set by open_graph
        answer = store.query(sparql, prefixes=prefixes, graph_type=rdf_syntaxes.NTRIPLES.media_type)
    if answer.kind == "graph":
        if fmt not in (None, "ttl", "nt"):
            raise click.BadParameter(f"a {answer.kind} answer is written as ttl or nt, not {fmt}", param_hint="--format")
        sys.stdout.buffer.write(answer.body if fmt == "nt" else _turtle(answer.body, prefixes))
        return
    if fmt in ("ttl", "nt"):
        raise click.BadParameter(f"{fmt} is for CONSTRUCT and DESCRIBE; SELECT and ASK give table, csv or json",
                                 param_hint="--format")
    if fmt == "json":
        sys.stdout.buffer.write(answer.body)
        return
    data = json.loads(answer.body)
    columns = data.get("head", {}).get("vars") or ["boolean"]
    rows = _cells(data, prefixes if iri_style == "prefixed" else {})
    if fmt == "csv":
        writer = csv.writer(sys.stdout)
        writer.writerow(columns)
        writer.writerows([[row.get(c, "") for c in columns] for row in rows])
    else:
        click.echo(_table(columns, rows, width))


def _cells(data: dict, prefixes: dict[str, str]) -> list[dict[str, str]]:
    """Rows of SPARQL JSON results as text, IRIs as prefixed names that paste back into a query
    (kg.publish.names: kgr:diagnostictool\\/oct, or <IRI>) when `prefixes` are given."""
    if "boolean" in data:
        return [{"boolean": str(data["boolean"]).lower()}]
    from kg.publish.names import prefixed_name

    def text(term: dict[str, str]) -> str:
        if term["type"] != "uri" or not prefixes:
            return term["value"]
        return prefixed_name(term["value"], prefixes)

    return [{k: text(v) for k, v in binding.items()} for binding in data["results"]["bindings"]]


def _turtle(ntriples: bytes, prefixes: dict[str, str]) -> bytes:
    """N-Triples as Turtle, with the project's prefixes that it uses (rdflib declares only those, and
    writes an IRI whole when its local part would need escapes, e.g. doc:<slug>/person/T1)."""
    from rdflib import Graph

    graph = Graph(bind_namespaces="none")
    for prefix, namespace in prefixes.items():
        graph.bind(prefix, namespace)
    graph.parse(data=ntriples.decode("utf-8"), format=rdf_syntaxes.NTRIPLES.rdflib)
    return graph.serialize(format=rdf_syntaxes.TURTLE.rdflib).encode("utf-8")


@main.command()
@data_option
@store_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def stats(data_dir: Path, store_url: str | None, as_json: bool) -> None:
    """Count quads, graphs, documents, entities, mentions, statements, events, figures and quotes,
    entities and events per class and statements per predicate (the same as /api/stats)."""
    from kg.publish.stats import graph_stats

    with open_graph(data_dir, store_url) as store:
        stats = graph_stats(store.select, store.graphs())
    if as_json:
        click.echo(json.dumps(stats, indent=2, ensure_ascii=False))
        return
    for section, values in stats.items():
        click.echo(f"{section}:")
        for name, n in values.items():
            click.echo(f"  {n:7d}  {name}")


def _table(columns: list[str], rows: list[dict[str, str]], width: int = 60) -> str:
    """Aligned columns, cells cut at `width` characters (0: never)."""
    cells = [[_cell(row.get(c, ""), width) for c in columns] for row in rows]
    sizes = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(columns)]
    lines = ["  ".join(c.ljust(s) for c, s in zip(columns, sizes)),
             "  ".join("-" * s for s in sizes)]
    lines += ["  ".join(v.ljust(s) for v, s in zip(r, sizes)) for r in cells]
    lines.append(f"({len(rows)} rows)")
    return "\n".join(lines)


def _cell(value: str, width: int) -> str:
    value = " ".join(value.split())
    return value if width == 0 or len(value) <= width else value[: width - 1] + "…"
