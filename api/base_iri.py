"""Where the graph is published: its base IRI, the paths of its IRIs on this server, and the IRIs
of the descriptions of the dataset (VoID).

Every IRI kg mints starts with the base IRI; its path on this server is the rest
of it, so a reverse proxy that maps the base to this server (e.g.
https://data.example.org/kg/ -> http://127.0.0.1:5000/) makes every IRI resolve.
"""

from __future__ import annotations

from kg.model import iris


def base_iri() -> str:
    """The base IRI every minted IRI starts with: the one place the endpoint reads it."""
    return iris.current().base  # the served build's, set before each request


def iri_of_path(path: str) -> str:
    """The IRI a request path stands for (the path is relative to the base)."""
    return base_iri() + path.lstrip("/")


def path_of(iri: str) -> str | None:
    """The path, relative to the base, at which an IRI of this graph dereferences; None for others."""
    base = base_iri()
    return iri[len(base):] if iri.startswith(base) else None


VOID_PATH = ".well-known/void"  # the VoID description's well-known path (https://www.w3.org/TR/void/, 7.2)


def void_iri() -> str:
    """The IRI of the VoID document (api/linked_data/void.py); its dataset is `#dataset`."""
    return base_iri() + VOID_PATH


def dataset_iri() -> str:
    """The IRI of the dataset the VoID describes, and the default dataset of the SPARQL service."""
    return void_iri() + "#dataset"
