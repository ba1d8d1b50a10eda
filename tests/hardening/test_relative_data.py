"""A build with nothing to do keeps the current build after a server answered through a switch (issue 41).

With a relative `--data` (the README's default), `kg serve` answers the first request after a rebuild
from the previous build while the new one loads, and writes the export it asks for there; the next
`kg build` had nothing to do, exited 0 and deleted the current build: its cleanup compared a relative
path with the resolved current build and ordered builds by their directory's time, which the export
had made the newest. Real `kg serve` and `kg build` processes, a relative `--data` throughout.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
import requests

from kg.store import build_dirs
from kg.testing.servers import Server
from tests.hardening.procs import KG, kg_env, run_build
from tests.helpers import ROOT


def _switch_then_idle_build(corpus: Path, data: Path, round_: int) -> tuple[Path, Path]:
    """Serve, rebuild with one more article, ask for an export at once (answered from the previous build
    as the new one loads), stop the server, build again with nothing to do: (previous, current)."""
    relative = Path(os.path.relpath(data, ROOT))  # the processes run in ROOT
    previous = build_dirs.current_build(data)
    server = Server(relative, "--workers", "1", "--threads", "4")
    try:
        (corpus / f"zz-probe-{round_}.txt").write_text(f"Probe {round_}: Ana Ruiz met Pedro Ruiz.\n", encoding="utf-8")
        built = run_build(corpus, relative, "--no-validate")
        assert built.returncode == 0, built.stderr
        current = build_dirs.current_build(data)
        assert current != previous
        answer = requests.get(server.url + "export.ttl", timeout=120)
        assert answer.status_code == 200, answer.text[:500]
    finally:
        server.stop()
    idle = run_build(corpus, relative, "--no-validate")
    assert idle.returncode == 0, idle.stderr
    return previous, current


def _check_kept(data: Path, previous: Path, current: Path) -> None:
    assert build_dirs.current_build(data) == current, "the current build was removed"
    assert (current / build_dirs.MANIFEST_FILE).is_file()
    assert sorted(p.name for p in (data / build_dirs.BUILDS_DIR).iterdir()) == sorted([previous.name, current.name])
    query = subprocess.run([str(KG), "query", "--data", os.path.relpath(data, ROOT),
                            "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }"],
                           capture_output=True, text=True, env=kg_env(), cwd=str(ROOT), timeout=120)
    assert query.returncode == 0, query.stderr


def _probe(generated_copy: tuple[Path, Path], rounds: int) -> None:
    corpus, data = generated_copy
    for n in range(rounds):
        previous, current = _switch_then_idle_build(corpus, data, n)
        _check_kept(data, previous, current)


def test_a_build_with_nothing_to_do_keeps_the_current_build(generated_copy: tuple[Path, Path]) -> None:
    corpus, data = generated_copy
    previous, current = _switch_then_idle_build(corpus, data, 0)
    assert build_dirs.export_path(previous, "ttl").is_file(), "the export was not answered from the previous build"
    _check_kept(data, previous, current)


@pytest.mark.slow
def test_twenty_probes_keep_the_current_build(generated_copy: tuple[Path, Path]) -> None:
    _probe(generated_copy, 20)
