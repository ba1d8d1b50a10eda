"""The ontology and the SHACL shapes that ship with kg.

The repository keeps them at its top level (ontology.ttl, shapes.ttl); a wheel carries them
as the package data of `kg.rdf` (setup.cfg maps that package to the top-level directory).
A source checkout or an editable install has no kg/rdf/, so they are read where they stand.
"""

from __future__ import annotations

from functools import lru_cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import rdflib

ONTOLOGY_TTL = "ontology.ttl"
SHAPES_TTL = "shapes.ttl"


def rdf_file(name: str) -> Traversable:
    """ontology.ttl or shapes.ttl, from the installed package or else from the source tree."""
    package = files("kg")
    packaged = package.joinpath("rdf", name)
    return packaged if packaged.is_file() else package.joinpath("..", name)


def read_rdf(name: str) -> bytes:
    """The bytes of ontology.ttl or shapes.ttl (raises FileNotFoundError for another name)."""
    if name not in (ONTOLOGY_TTL, SHAPES_TTL):
        raise FileNotFoundError(name)
    return rdf_file(name).read_bytes()


@lru_cache(maxsize=1)
def ontology_graph() -> rdflib.Graph:
    """ontology.ttl parsed, once per process."""
    return _parsed(ONTOLOGY_TTL)


@lru_cache(maxsize=1)
def shapes_graph() -> rdflib.Graph:
    """shapes.ttl parsed, once per process."""
    return _parsed(SHAPES_TTL)


def _parsed(name: str) -> rdflib.Graph:
    import rdflib  # not on the path of a build that has nothing to do

    return rdflib.Graph().parse(data=read_rdf(name), format="turtle")
