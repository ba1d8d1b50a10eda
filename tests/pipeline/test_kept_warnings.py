"""The warnings a build keeps (its manifest, for the incremental builds after it) name their files
relative to the corpus, never by absolute paths, and are reported as the build that found them
reported them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from kg.store import build_dirs
from tests.helpers import run_kg

NEREL = Path(__file__).resolve().parents[1] / "data" / "public" / "nerel"


def _kept(data: Path) -> list[list]:
    manifest = json.loads((build_dirs.current_build(data) / build_dirs.MANIFEST_FILE).read_text(encoding="utf-8"))
    return [*manifest["input_warnings"], *(w for d in manifest["documents"].values() for w in d.get("warnings", ()))]


def _warnings(output: str) -> list[str]:
    return sorted(line for line in output.splitlines() if line.startswith("warning:"))


def test_kept_warnings_name_files_in_the_corpus(tmp_path: Path) -> None:
    corpus, data = tmp_path / "corpora" / "nerel", tmp_path / "data"
    shutil.copytree(NEREL, corpus)
    first = run_kg("build", "--quiet", "--corpus", str(corpus.resolve()), "--data", str(data))
    assert first.exit_code == 0, first.output
    kept = _kept(data)
    assert kept and {path for _, path, *_ in kept} == {"dev/1718154_text.ann", "dev/216586_text.ann",
                                                       "dev/229824_text.ann"}
    assert str(tmp_path) not in json.dumps(kept)
    again = run_kg("build", "--quiet", "--corpus", str(corpus.resolve()), "--data", str(data))
    assert "nothing to do: 3 documents unchanged" in again.output, again.output
    assert _warnings(again.output) == _warnings(first.output) and str(corpus) in again.output
    # one document changed: the others' warnings come from the manifest, as the first build gave them
    ann = corpus / "dev" / "216586_text.ann"
    ann.write_text(ann.read_text(encoding="utf-8") + "#9\tAnnotatorNotes T1\tchecked\n", encoding="utf-8")
    third = run_kg("build", "--quiet", "--corpus", str(corpus.resolve()), "--data", str(data))
    assert third.exit_code == 0, third.output
    assert _warnings(third.output) == _warnings(first.output)
    assert str(tmp_path) not in json.dumps(_kept(data))
