"""The validator set-up the reconciliation tests rely on (tests/api/services/reconciliation_schemas.py) passes
every valid example of the W3C Community Group and fails every invalid one, in both versions."""

from __future__ import annotations

import json

import pytest

from tests.api.services.reconciliation_schemas import SPECS, VERSIONS, examples, validator


def _cases():
    if not (SPECS / "0.2" / "schemas").is_dir():
        return [pytest.param(None, None, None, None, marks=pytest.mark.skip(reason=f"no schemas at {SPECS}"))]
    return [pytest.param(version, kind, path, valid, id=f"{version}/{kind}/{'valid' if valid else 'invalid'}/{path.name}")
            for version in VERSIONS for kind, path, valid in examples(version)]


@pytest.mark.parametrize(("version", "kind", "path", "valid"), _cases())
def test_an_example_is_judged_as_the_group_says(version, kind, path, valid):
    document = json.loads(path.read_text(encoding="utf-8"))
    errors = list(validator(version, kind).iter_errors(document))
    if valid:
        assert not errors, [e.message for e in errors]
    else:
        assert errors, f"{path} should fail the {kind} schema"


def test_every_kind_of_example_with_a_schema_is_covered():
    for version in VERSIONS:
        kinds = {kind for kind, _, _ in examples(version)}
        assert {"manifest", "reconciliation-query-batch", "reconciliation-result-batch", "suggest-entities-response",
                "data-extension-response", "reconciliation-candidate"} <= kinds
        assert sum(not valid for _, _, valid in examples(version)) >= 12  # the invalid ones are there too
