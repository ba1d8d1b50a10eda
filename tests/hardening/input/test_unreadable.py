"""Files and folders of the corpus that the build's user may not read: a located error, exit 2, and
the previous build untouched. Permissions do not bind root, so under root `kg build` runs without the
capabilities that override them (util-linux's setpriv); under any other user it runs as that user."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kg.store import build_dirs
from tests.helpers import TINY

KG = str(Path(sys.executable).with_name("kg"))
OVERRIDES = "-dac_override,-dac_read_search"
BOUND_BY_PERMISSIONS = (["setpriv", f"--bounding-set={OVERRIDES}", f"--inh-caps={OVERRIDES}"]
                        if os.geteuid() == 0 else [])


@pytest.fixture
def corpus_and_data(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the tiny corpus and a data directory."""
    corpus, data = tmp_path / "corpus", tmp_path / "data"
    shutil.copytree(TINY, corpus)
    data.mkdir()
    return corpus, data


def kg_build(corpus: Path, data: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*BOUND_BY_PERMISSIONS, KG, "build", "--corpus", str(corpus), "--data", str(data), "--quiet"],
                          capture_output=True, text=True, timeout=300)


def snapshot(data: Path) -> tuple[Path | None, dict[str, bytes]]:
    current = build_dirs.current_build(data)
    return current, {p.name: p.read_bytes() for p in sorted(current.iterdir()) if p.is_file()} if current else {}


@pytest.mark.parametrize("unreadable, where", [("alpha.ann", "alpha.ann"), ("alpha.txt", "alpha.txt"),
                                               ("alpha.json", "alpha.json"), ("more", "more")])
def test_an_unreadable_file_or_folder_is_a_located_error(corpus_and_data, unreadable: str, where: str):
    corpus, data = corpus_and_data
    first = kg_build(corpus, data)
    assert first.returncode == 0, first.stderr
    before = snapshot(data)
    if unreadable == "more":  # a folder of documents the build's user cannot list
        (corpus / "more").mkdir()
        shutil.copy(corpus / "beta.txt", corpus / "more" / "gamma.txt")
        shutil.copy(corpus / "beta.ann", corpus / "more" / "gamma.ann")
    else:
        (corpus / unreadable).write_bytes((corpus / unreadable).read_bytes() + b"\n")  # changed: must be read
    (corpus / unreadable).chmod(0o000)
    try:
        second = kg_build(corpus, data)
    finally:
        (corpus / unreadable).chmod(0o755)
    assert second.returncode == 2, (second.returncode, second.stdout, second.stderr)
    assert "Traceback" not in second.stderr
    located = [line for line in second.stderr.splitlines() if f"{where}:" in line or line.startswith(str(corpus / where))]
    assert located and "permission denied" in second.stderr.lower(), second.stderr
    assert snapshot(data) == before  # the previous build stays current, byte for byte
