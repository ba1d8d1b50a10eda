"""Helpers of the endpoint's tests: a JSON answer's body, and validators of the OpenAPI schemas."""

from __future__ import annotations

import json

import jsonschema_rs

from kg.api.json_api import openapi


def body(response, status: int = 200):
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/json"
    return json.loads(response.data)


def validator(schema_name: str):
    """A validator for one schema of the OpenAPI document, with its references."""
    doc = openapi.document()
    schema = {"$ref": f"#/components/schemas/{schema_name}", "components": doc["components"]}
    return jsonschema_rs.validator_for(schema)
