"""Helpers of the endpoint's tests: a JSON answer's body, validators of the OpenAPI schemas, and a
request to a real server's /sparql."""

from __future__ import annotations

import json

import jsonschema_rs
import requests

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


HTTP_TIMEOUT = 60  # seconds a request to a test server may take on a loaded machine


def sparql(server, **kwargs) -> requests.Response:
    """A request to `server`'s /sparql (GET unless `method` says otherwise; the rest as for requests)."""
    return requests.request(kwargs.pop("method", "GET"), server.url + "sparql", timeout=HTTP_TIMEOUT, **kwargs)
