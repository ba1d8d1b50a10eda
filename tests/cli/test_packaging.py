"""The wheel, as a new user gets it: built from the tree, installed into a fresh virtualenv
outside it, and run there (`kg build` on a copy of a corpus, `kg serve`, a query over HTTP).

Offline: the wheel is installed with --no-deps; its dependencies come from this test run's
own environment through a view of its site-packages that leaves out this project (the
editable install's finder and metadata), so only the wheel can answer `import kg`."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import time
import zipfile
from pathlib import Path

import pytest
import requests

from kg.testing.servers import Process
from tests.helpers import ROOT, TINY

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the view of site-packages uses symlinks")

PROJECT_ENTRIES = re.compile(r"^(kg|api|viz|__editable__.*|_?_?editable.*|(kg|brat_kg)-[^-]+\.(dist|egg)-info"
                             r"|(kg|brat_kg)\.egg-link)$")
SERVE_TIMEOUT = 120.0


def _run(*argv: str | Path, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    result = subprocess.run([str(a) for a in argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, f"{argv} exited {result.returncode}:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out, source = tmp_path_factory.mktemp("wheel"), tmp_path_factory.mktemp("source") / "kg"
    # built from a copy, as from a source archive: the build writes nothing into the tree
    shutil.copytree(ROOT, source, ignore=_left_out)
    _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", out, source, cwd=out)
    (found,) = out.glob("*.whl")
    return found


def _left_out(directory: str, names: list[str]) -> set[str]:
    """What a source archive would not hold: caches, and the top level's data and build output
    (kg/build is a package)."""
    anywhere = set(shutil.ignore_patterns(".git", ".venv", "*.egg-info", "__pycache__", ".pytest_cache")(directory, names))
    return anywhere | ({"data", "build"} & set(names) if Path(directory) == ROOT else set())


def _dependency_view(target: Path) -> Path:
    """This environment's site-packages as symlinks, without this project's own entries."""
    target.mkdir()
    purelib = Path(sysconfig.get_paths()["purelib"])
    for entry in purelib.iterdir():
        if not PROJECT_ENTRIES.match(entry.name):
            (target / entry.name).symlink_to(entry)
    return target


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory) -> Path:
    """A fresh virtualenv, outside the tree, with the wheel installed: its bin directory."""
    home = tmp_path_factory.mktemp("user")
    venv = home / "venv"
    _run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=home)
    site = next((venv / "lib").glob("python3*/site-packages"))
    view = _dependency_view(home / "dependencies")
    (site / "dependencies.pth").write_text(f"{view}\n")  # a plain path: the view's own .pth files are not run
    _run(sys.executable, "-m", "pip", "--python", venv / "bin" / "python", "install", "-q", "--no-deps",
         "--no-index", wheel, cwd=home)
    return venv / "bin"


def _clean_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KG_", "PYTHON", "VIRTUAL_ENV"))}
    return dict(env, HOME=str(home), PYTHONNOUSERSITE="1")


def test_wheel_carries_the_ontology_and_no_top_level_api_or_viz_clash(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert "kg/rdf/ontology.ttl" in names and "kg/rdf/shapes.ttl" in names and "kg/publish/context.jsonld" in names
    assert (ROOT / "ontology.ttl").read_bytes() == zipfile.ZipFile(wheel).read("kg/rdf/ontology.ttl")
    assert any(n.endswith(".dist-info/LICENSE") for n in names)
    assert wheel.name.startswith("brat_kg-")
    assert not any(n.startswith(("corpus/", "tests/", "benchmarks/", "kg/rdf/kg/")) for n in names)


@pytest.mark.servers  # kg serve
def test_installed_wheel_builds_and_serves_outside_the_tree(installed: Path, tmp_path: Path) -> None:
    work = tmp_path / "project"
    shutil.copytree(TINY, work / "corpus")
    env = _clean_env(tmp_path)
    where = _run(installed / "python", "-c", "import kg, kg.model.resources as r; print(kg.__file__); "
                 "print(r.rdf_file(r.ONTOLOGY_TTL))", cwd=work, env=env).stdout.split()
    assert all(Path(p).is_relative_to(installed.parent) for p in where), where
    assert _run(installed / "kg", "--version", cwd=work, env=env).stdout.strip().endswith(_version())

    built = _run(installed / "kg", "build", "--quiet", "--eager", cwd=work, env=env)  # exports and view now
    assert "documents" in built.stdout + built.stderr
    assert (work / "data" / "current" / "kg.ttl").stat().st_size > 0
    assert (work / "data" / "current" / "graph.html").stat().st_size > 0  # the view's build hook (kg.viz)
    exported = json.loads((work / "data" / "current" / "kg.jsonld").read_text(encoding="utf-8"))
    assert exported["@context"]["memberOf"] == {"@id": "kgo:memberOf", "@type": "@id"}  # the shipped context

    server = Process([installed / "kg", "serve", "--host", "127.0.0.1", "--port", "0"], cwd=work, env=env,
                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        url = _served_url(server)
        answer = requests.get(url + "sparql", params={"query": "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }"},
                              headers={"Accept": "application/sparql-results+json"}, timeout=30)
        assert answer.status_code == 200, answer.text
        assert int(answer.json()["results"]["bindings"][0]["n"]["value"]) > 0
    finally:
        server.stop()


def _served_url(server: Process) -> str:
    deadline = time.monotonic() + SERVE_TIMEOUT
    for line in server.process.stdout:
        match = re.search(r"http://127\.0\.0\.1:\d+/", line)
        if match:
            break
        assert time.monotonic() < deadline, "kg serve printed no address in time"
    else:
        raise AssertionError(f"kg serve exited {server.process.wait()} before serving")
    while time.monotonic() < deadline:
        try:
            if requests.get(match.group() + "health", timeout=5).status_code == 200:
                return match.group()
        except requests.RequestException:
            time.sleep(0.1)
    raise AssertionError("kg serve never answered /health")


def _version() -> str:
    return re.search(r'__version__ = "([^"]+)"', (ROOT / "kg" / "__init__.py").read_text()).group(1)
