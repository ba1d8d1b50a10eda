"""What INCEpTION's exports hold and kg does not read is reported as a person can act on it: each
layer not read once, with its count of annotations over every document, its location in the
warning's place (never inside the message, so that like groups with like), and `kg build` prints
what `kg check` prints."""

from __future__ import annotations

import re
import shutil

from tests.helpers import run_kg, shared_corpus

POS = "layer de.tudarmstadt.ukp.dkpro.core.api.lexmorph.type.pos.POS not read"
RENAMED = "role 'Company_CSR/Brand' written as 'Company_CSR_Brand'"


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
    corpus = shared_corpus("inception-xmi", "sentivent")
    check = run_kg("check", "--corpus", str(corpus))
    assert check.exit_code == 0, check.output
    lines = [w for w in _warnings(check.output) if RENAMED in w]
    assert len(lines) == 1 and re.match(rf"warning: 21 × {re.escape(RENAMED)} .* in 5 files, e\.g\. ", lines[0])
    assert not any(w.count(".xmi") > 3 for w in _warnings(check.output))  # no file named twice per place
    build = run_kg("build", "--corpus", str(corpus), "--data", str(tmp_path / "data"), "--quiet")
    assert build.exit_code == 0, build.output
    assert _warnings(build.output) == _warnings(check.output)


def test_the_projects_layer_and_feature_definitions_are_read_as_its_schema(tmp_path):
    """INCEpTION's LayerDefinition and FeatureDefinition name the project's layers and features: where the
    type system has them all (MiMoText, a chain layer's features on its links) nothing is said; a layer
    or feature it lacks is said at its definition's line."""
    corpus = shared_corpus("inception-xmi", "mimotext")
    check = run_kg("check", "--corpus", str(corpus))
    assert check.exit_code == 0 and not _warnings(check.output), check.output
    copy = tmp_path / "mimotext"
    shutil.copytree(corpus, copy)
    document = copy / "gotzfried_voltaire_tokenized.xmi"
    text = document.read_text(encoding="utf-8")
    edited = text.replace('name="custom.Span" uiName="Named entity 2"', 'name="custom.Gone" uiName="Named entity 2"')
    edited = edited.replace('name="propertyID" uiName="property-ID"', 'name="propertyId" uiName="property-ID"')
    assert edited.count("custom.Gone") == 1 and edited.count('name="propertyId"') == 1
    document.write_text(edited, encoding="utf-8")
    lines = edited.splitlines()
    layer = next(i for i, line in enumerate(lines, 1) if 'name="custom.Gone"' in line)
    feature = next(i for i, line in enumerate(lines, 1) if 'name="propertyId"' in line)
    expected = "is defined by the project but not in the type system (expected the TypeSystem.xml exported with " \
               "this document)"
    said = _warnings(run_kg("check", "--corpus", str(copy)).output)
    assert sorted(said) == sorted([f"warning: {document}:{layer}: layer custom.Gone (Named entity 2) {expected}",
                                   f"warning: {document}:{feature}: feature propertyId of layer "
                                   f"webanno.custom.Property {expected}"])
