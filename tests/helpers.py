"""Helpers shared by the tests: run the CLI, read a build's quads, compare graphs."""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping

import pyoxigraph as ox
import pytest
import rdflib
from click.testing import CliRunner, Result
from rdflib.compare import to_canonical_graph

from kg.cli import main
from kg.store import build_dirs, checksums
from kg.store.terms import from_oxigraph

ROOT = Path(__file__).resolve().parent.parent
# The corpus the corpus-dependent tests read: the shipped one, or another (TEST_CORPUS), which is how
# tests/corpora/test_fifth_article.py shows that they hold with an article added. Tests that pin the shipped
# corpus's counts build from the fixed copy CORPUS_2019 instead.
CORPUS = Path(os.environ.get("TEST_CORPUS") or ROOT / "corpus")
CORPUS_2019 = Path(__file__).resolve().parent / "data" / "corpus-2019"
FIFTH_ARTICLE = Path(__file__).resolve().parent / "data" / "fifth-article"
TINY = Path(__file__).resolve().parent / "data" / "tiny"
# Real corpora from public repositories, laid beside the project as ../shared/corpora (its README says what and
# whence). Never copied into the project: a test that needs one asks shared_corpus(), which skips where it is absent.
SHARED_CORPORA = ROOT.parent / "shared" / "corpora"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
BROWSER_TIMEOUT_MS = 20_000

# The statistics of tests/data/tiny (kg stats, /api/stats), counted by hand from tests/data/tiny: alpha.ann has 11 text spans, beta.ann 6 (17 mentions);
# alpha states R1-R3, the Membership E1 (memberOf, hasRole, member, role, organization) and the
# Flight E2 (agent, destination, time), beta R1-R2 (13 statements); the unnamed "Officials" get no
# record, Cúcuta and Cucuta are one place, alpha.json names the publisher (9 entity records).
TINY_STATS = {  # the membership of alpha.ann fills the post "Lt. of the National Guard": one entity
    # record more (Post) and four statements (post, postIn, holds, and the post's role)
    "counts": {"graphs": 4, "documents": 2, "entities": 10, "mentions": 17, "statements": 17, "events": 1,
               "figures": 2, "quotes": 1},
    "entityTypes": {"Organization": 3, "Person": 2, "Place": 2, "City": 1, "Country": 1, "Date": 1,
                    "IntergovernmentalOrganization": 1, "MediaOrganization": 1, "MilitaryUnit": 1, "Post": 1,
                    "Role": 1},
    "eventTypes": {"Flight": 1},
    "relations": {"memberOf": 2, "reportedBy": 2, "role": 2, "agent": 1, "asOf": 1, "destination": 1, "hasRole": 1,
                  "holds": 1, "member": 1, "organization": 1, "post": 1, "postIn": 1, "saidBy": 1, "time": 1},
}


def generated_build(root: Path, docs: int, seed: int) -> Path:
    """The data directory of a build (unvalidated) of `docs` articles generated with `seed`
    (benchmarks/corpus/generate.py) under `root`."""
    from kg.pipeline.builder import build

    corpus = root / "corpus"
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "corpus" / "generate.py"), "--docs", str(docs), "--seed",
                    str(seed), "--out", str(corpus)], check=True, capture_output=True, timeout=120)
    build(corpus, root / "data", validate=False)
    return root / "data"


def run_kg(*args: str) -> Result:
    """Run `kg ARGS` in-process; the result has exit_code, stdout and stderr."""
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def build_corpus(corpus: Path, data: Path, *args: str) -> Result:
    """`kg build --corpus CORPUS --data DATA --quiet ARGS`, in-process, which must succeed."""
    built = run_kg("build", "--corpus", str(corpus), "--data", str(data), "--quiet", *args)
    assert built.exit_code == 0, built.output
    return built


def store_quads(data_dir: Path, *, skip_ontology: bool = False) -> set[ox.Quad]:
    """Every quad of the current build's store."""
    build = build_dirs.current_build(data_dir)
    store = ox.Store.read_only(str(build_dirs.store_path(build)))
    quads = set(store)
    if skip_ontology:
        quads = {q for q in quads if not str(q.graph_name.value).endswith("/graph/ontology")}
    return quads


def assert_same_quads(actual: Iterable, expected: Iterable, what: str = "graphs") -> None:
    """Graph equality, shown as a difference on failure. Quads or triples, of Oxigraph's or rdflib's
    terms (either side may be either). Isomorphism (rdflib.compare, graph by graph) when a blank node
    occurs; without one, isomorphism is set equality, which is then used (much faster)."""
    actual, expected = _normal(actual), _normal(expected)
    if _has_blank_node(actual) or _has_blank_node(expected):
        actual, expected = _canonical(actual), _canonical(expected)
    missing, extra = expected - actual, actual - expected
    if missing or extra:
        lines = [f"{what} differ: {len(missing)} missing, {len(extra)} unexpected"]
        lines += [f"- {q}" for q in sorted(map(str, missing))[:15]]
        lines += [f"+ {q}" for q in sorted(map(str, extra))[:15]]
        raise AssertionError("\n".join(lines))


def _normal(quads: Iterable) -> set[tuple]:
    """(s, p, o, graph) of rdflib terms; graph None for a triple or the default graph."""
    return {tuple(_term(t) for t in quad) + ((None,) if len(quad) == 3 else ()) for quad in map(tuple, quads)}


def _term(term):
    if isinstance(term, (ox.NamedNode, ox.BlankNode, ox.Literal, ox.DefaultGraph)):
        return from_oxigraph(term)
    if isinstance(term, rdflib.Graph):
        term = term.identifier
    if isinstance(term, str) and not isinstance(term, rdflib.term.Identifier):
        return rdflib.URIRef(term)  # a graph name given as text
    return None if term == rdflib.graph.DATASET_DEFAULT_GRAPH_ID else term


def _has_blank_node(quads: set) -> bool:
    return any(isinstance(term, rdflib.BNode) for quad in quads for term in quad)


def _canonical(quads: set[tuple]) -> set[tuple]:
    """The quads with blank nodes given canonical labels within their graph (rdflib.compare), so
    that two isomorphic datasets give the same set."""
    graphs: dict = {}
    for s, p, o, g in quads:
        graphs.setdefault(g, rdflib.Graph()).add((s, p, o))
    return {(*triple, name) for name, graph in graphs.items() for triple in to_canonical_graph(graph)}


def tree_digest(directory: Path) -> dict[str, str]:
    """SHA-256 of every file under a directory, to prove a build left it untouched. A checksum
    sidecar counts by its sum alone: the status it notes beside the sum is what any reader may note
    again once it has hashed a copied file (kg.store.checksums), which changes no byte it vouches for."""
    return {str(p.relative_to(directory)): hashlib.sha256(_vouched_bytes(p)).hexdigest()
            for p in sorted(directory.rglob("*")) if p.is_file()}


def _vouched_bytes(path: Path) -> bytes:
    data = path.read_bytes()
    if path.name.endswith(checksums.SUFFIX):
        return b"".join(line for line in data.splitlines(keepends=True) if not line.startswith(b"# status "))
    return data


MARK = b"DAMAGED!"  # what damage() writes into a kept file


def damage(path: Path, at: float = 0.5) -> None:
    """Overwrite a few bytes of `path` (at that share of its length) with MARK, in place."""
    with open(path, "r+b") as file:
        size = file.seek(0, 2)
        file.seek(int(size * at))
        file.write(MARK)


def flip_a_letter_of(path: Path, needle: bytes) -> None:
    """Change one letter of the first occurrence of `needle` in `path` (its last letter but one):
    a row SQLite reads, or a string pickle reads, without complaint, with another value."""
    data = bytearray(path.read_bytes())
    at = data.index(needle) + len(needle) - 2
    data[at] ^= 0x02
    with open(path, "r+b") as file:  # in place: the same inode, as a disk's fault leaves it
        file.write(bytes(data))


def export_file(data_dir: Path, fmt: str) -> Path:
    """The current build's export in `fmt`, written now if no one asked for it before (kg.publish.export)."""
    from kg.publish.export import ensure_export

    return ensure_export(build_dirs.current_build(data_dir), fmt)


def view_file(build_dir: Path) -> Path:
    """A build's graph.html, drawn now if no one asked for it before (viz)."""
    from kg.viz import ensure_view

    return ensure_view(build_dir)


# -- corpus changes (incremental builds, remote pushes) and corpora made of the test data

NPR = "npr-venezuelan-armed-forces-fled"
INCEPTION = Path(__file__).resolve().parent / "data" / "inception"


def edit_npr(corpus: Path) -> None:
    """Drop R1 from the NPR article and reword its metadata."""
    ann = corpus / f"{NPR}.ann"
    lines = [line for line in ann.read_text(encoding="utf-8").splitlines() if not line.startswith("R1\t")]
    ann.write_text("\n".join(lines) + "\n", encoding="utf-8")
    meta = corpus / f"{NPR}.json"
    meta.write_text(meta.read_text(encoding="utf-8").replace('"1,000 Venezuelan', '"One thousand Venezuelan'),
                    encoding="utf-8")


def add_article(corpus: Path) -> None:
    """Add a one-sentence article naming two people of the alias table."""
    (corpus / "zz-new.txt").write_text("Harry Solano met Tamara Taraciuk in Bogota.\n", encoding="utf-8")
    (corpus / "zz-new.ann").write_text(
        "T1\tPerson 0 12\tHarry Solano\nT2\tPerson 17 32\tTamara Taraciuk\nT3\tCity 36 42\tBogota\n", encoding="utf-8")


def add_numbered_article(corpus: Path, n: int) -> None:
    """Add article number `n`, one sentence with no annotation file (a rebuild's smallest change)."""
    (corpus / f"zz-added-{n}.txt").write_text(f"Added article {n}: Ana Ruiz met Pedro Ruiz in Cucuta.\n",
                                              encoding="utf-8")


def remove_npr(corpus: Path) -> None:
    """Remove the NPR article."""
    for suffix in (".txt", ".ann", ".json"):
        (corpus / f"{NPR}{suffix}").unlink()


def inception_corpus(root: Path, with_brat: bool = False) -> Path:
    """Loose .xmi documents with their type system in a sub-directory, the export zip at the root."""
    (root / "loose").mkdir(parents=True)
    for path in [*INCEPTION.glob("*.xmi"), INCEPTION / "TypeSystem.xml"]:
        shutil.copy(path, root / "loose")
    shutil.copy(INCEPTION / "inception.zip", root)
    if with_brat:
        for path in CORPUS.glob("npr-*"):
            shutil.copy(path, root)
        shutil.copy(CORPUS / "annotation.conf", root)
        shutil.copy(CORPUS / "aliases.toml", root)
    return root


def shared_corpus(*parts: str) -> Path:
    """The folder ../shared/corpora/<parts>, or a skip (with the reason) where it is not beside the project."""
    path = SHARED_CORPORA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is absent: the real corpora are laid beside the project as ../shared/corpora")
    return path


@contextmanager
def made_app(settings: Mapping[str, Any]) -> Iterator[Any]:
    """The Flask app `kg serve` makes with these settings (DATA, WORKERS...), its query workers
    stopped when the block ends."""
    from kg.api import create_app
    from kg.api.app_state import app_state

    app = create_app(settings)
    try:
        yield app
    finally:
        app_state(app).close()


def settle(corpus: Path) -> None:
    """Wait until the last change to a corpus is older than two ticks of its file system's clock:
    before that, no corpus stamp vouches for it (kg.formats.corpus_stamp), and a build scans."""
    from kg.formats.file_systems import clock_tick_ns

    time.sleep(2 * clock_tick_ns(corpus) / 1e9 + 0.01)


def spacys_stop_words(language: str) -> set[str]:
    """spaCy's stop words for a language, read from their module alone: importing spacy.lang.<lang>
    imports spaCy whole (thinc and the machinery of its models: seconds, in every test process)."""
    path = Path(importlib.util.find_spec("spacy").origin).parent / "lang" / language / "stop_words.py"
    spec = importlib.util.spec_from_file_location(f"spacy_stop_words_{language}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.STOP_WORDS
