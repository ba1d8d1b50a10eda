"""How the Linked Data pages show a term: its text (a label, a prefixed name, a literal) and its link,
relative to the requested page so that the pages work at any base behind a reverse proxy."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from flask import request

from kg.api.base_iri import path_of
from kg.model import iris


def root() -> str:
    """The relative path from the requested page back to the base ('../../' for /id/person/x)."""
    depth = request.path.count("/") - 1
    return "../" * depth if depth > 0 else "./"


def href(iri: str) -> str | None:
    """Where an IRI is shown: relative to this page for IRIs of this graph, else the IRI itself
    (http and https only: no other scheme becomes a link)."""
    path = path_of(iri)
    if path is not None:
        return root() + quote(path, safe="/#:@!$&'()*+,;=-._~%")
    return iri if iri.startswith(("http://", "https://")) else None


def short(iri: str) -> str:
    """A prefixed name for an IRI of a known namespace (longest namespace first), else the IRI."""
    for prefix, namespace in sorted(iris.PREFIXES.items(), key=lambda item: -len(item[1])):
        if iri.startswith(namespace) and len(iri) > len(namespace):
            return f"{prefix}:{iri[len(namespace):]}"
    return iri


def value(term: str, label: str | None, kind: str, lang: str | None = None) -> dict[str, Any]:
    """A term as the page shows it: its text (a label, a prefixed name, a literal) and its link."""
    if kind != "iri":
        return {"text": term, "lang": lang or None, "href": None, "iri": None}
    return {"text": label or short(term), "lang": None, "href": href(term), "iri": term}


def words(text: str, cls: str = "") -> dict[str, Any]:
    """Words the page adds between values (shown like a literal), with a CSS class."""
    return {"text": text, "lang": None, "href": None, "iri": None, "cls": cls}
