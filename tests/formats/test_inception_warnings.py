"""What INCEpTION's exports hold and kg does not read is reported as a person can act on it: each
layer not read once, with its count of annotations over every document, its location in the
warning's place (never inside the message, so that like groups with like), and `kg build` prints
what `kg check` prints."""

from __future__ import annotations

import re

from tests.helpers import run_kg, shared_corpus

POS = "layer de.tudarmstadt.ukp.dkpro.core.api.lexmorph.type.pos.POS not read"
DEFINITIONS = "layer de.tudarmstadt.ukp.clarin.webanno.api.type.FeatureDefinition not read"


def _warnings(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith("warning: ")]


def test_a_layer_not_read_is_one_line_with_its_count(tmp_path):
    corpus = shared_corpus("inception-xmi", "caesar")
    check = run_kg("check", "--corpus", str(corpus))
    assert check.exit_code == 0, check.output
    lines = [w for w in _warnings(check.output) if POS in w]
    assert len(lines) == 1 and lines[0].startswith(f"warning: 499 × {POS} (expected ")
    assert "parts of speech" in lines[0]


def test_like_groups_with_like_across_documents_in_check_and_build(tmp_path):
    corpus = shared_corpus("inception-xmi", "mimotext")
    check = run_kg("check", "--corpus", str(corpus))
    assert check.exit_code == 0, check.output
    lines = [w for w in _warnings(check.output) if DEFINITIONS in w]
    assert len(lines) == 1 and re.match(rf"warning: \d+ × {re.escape(DEFINITIONS)} .* in 3 files, e\.g\. ", lines[0])
    assert not any(w.count(".xmi") > 3 for w in _warnings(check.output))  # no file named twice per place
    build = run_kg("build", "--corpus", str(corpus), "--data", str(tmp_path / "data"), "--quiet")
    assert build.exit_code == 0, build.output
    assert _warnings(build.output) == _warnings(check.output)
