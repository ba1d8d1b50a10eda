"""Validators of the W3C reconciliation API's JSON schemas, read offline from
../shared/reconciliation-api/<version>/schemas (the Community Group's repository, commit 8d66bdb).

Each version has a registry of its own (0.2's property-proposal schema carries the draft's $id):
every schema is registered by its $id and by its file name, the Swagger 2.0 schema
(openapi.json, which the manifests' `authentication` refers to) by its $id without the '#'. Draft 7
validators, as the schemas are written for. Examples of kinds that have no file of their own are
checked against the part of a schema that defines them (EMBEDDED); `security-scheme` (OpenAPI 3 objects,
which no schema of the folder defines) and `flyout-response` (none either) are not checked.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest
from jsonschema import Draft7Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT7

from tests.helpers import ROOT

SPECS = ROOT.parent / "shared" / "reconciliation-api"
VERSIONS = ("0.2", "1.0-draft")
# example folders without a schema file of their own: the schema and the JSON pointer that defines them
EMBEDDED = {
    "reconciliation-candidate": ("reconciliation-result-batch.json", {
        "0.2": "/patternProperties/^.*$/properties/result/items",
        "1.0-draft": "/properties/results/items/properties/candidates/items"}),
    "preview-metadata": ("manifest.json", "/properties/preview"),
    "suggest-metadata": ("manifest.json", "/properties/suggest"),
    "data-extension-metadata": ("manifest.json", "/properties/extend"),
}


def need_specs() -> Path:
    if not (SPECS / "0.2" / "schemas").is_dir():
        pytest.skip(f"the reconciliation API's schemas are not at {SPECS} (see its README)")
    return SPECS


@cache
def registry(version: str) -> Registry:
    resources = []
    for path in sorted((need_specs() / version / "schemas").glob("*.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        resource = Resource.from_contents(schema, default_specification=DRAFT7)
        resources += [(schema["$id"].rstrip("#"), resource), (path.name, resource)]
    return Registry().with_resources(resources)


@cache
def validator(version: str, kind: str) -> Draft7Validator:
    """The validator of one kind of document (`manifest`, `reconciliation-result-batch`, ...)."""
    if kind in EMBEDDED:
        name, pointer = EMBEDDED[kind]
        pointer = pointer[version] if isinstance(pointer, dict) else pointer
        base = registry(version).get_or_retrieve(name).value.contents
        schema = {"$ref": base["$id"].rstrip("#") + "#" + pointer}
    else:
        schema = registry(version).get_or_retrieve(f"{kind}.json").value.contents
    return Draft7Validator(schema, registry=registry(version))


def examples(version: str) -> list[tuple[str, Path, bool]]:
    """(kind, file, valid) of every JSON example of a version whose kind has a validator."""
    found = []
    for folder in sorted((need_specs() / version / "examples").iterdir()):
        kind = folder.name
        if not ((SPECS / version / "schemas" / f"{kind}.json").is_file() or kind in EMBEDDED):
            continue
        for verdict in ("valid", "invalid"):
            found += [(kind, path, verdict == "valid") for path in sorted((folder / verdict).glob("*.json"))]
    return found


def assert_valid(version: str, kind: str, document) -> None:
    """Fail with every error the schema finds in `document`."""
    errors = sorted(validator(version, kind).iter_errors(document), key=lambda e: list(e.path))
    assert not errors, f"{kind} ({version}) invalid:\n" + "\n".join(
        f"- at {list(e.path)}: {e.message}" for e in errors[:10])
