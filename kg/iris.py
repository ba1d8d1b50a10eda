"""Namespaces and stable IRIs minted from canonical keys and document slugs."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from typing import Iterable

BASE = "https://kg.example.org/"
ONTOLOGY = BASE + "ontology#"
VOCABULARY = BASE + "vocab#"  # classes and properties minted from a corpus's own annotation schema
RESOURCE = BASE + "id/"
DOCUMENT = BASE + "doc/"
GRAPH = BASE + "graph/"
ENTITIES_GRAPH = GRAPH + "entities"
ONTOLOGY_GRAPH = GRAPH + "ontology"
RESERVED_GRAPHS = ("entities", "ontology")  # graph names of the build's own: no document may take them
WIKIDATA = "http://www.wikidata.org/entity/"

PREFIXES: dict[str, str] = {
    "kgo": ONTOLOGY,
    "kgv": VOCABULARY,
    "kgr": RESOURCE,
    "doc": DOCUMENT,
    "kgg": GRAPH,
    "person": RESOURCE + "person/",
    "organization": RESOURCE + "organization/",
    "place": RESOURCE + "place/",
    "event": RESOURCE + "event/",
    "date": RESOURCE + "date/",
    "role": RESOURCE + "role/",
    "wd": WIKIDATA,
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "owl": "http://www.w3.org/2002/07/owl#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
    "skos": "http://www.w3.org/2004/02/skos/core#",
    "dcterms": "http://purl.org/dc/terms/",
    "prov": "http://www.w3.org/ns/prov#",
    "nif": "http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#",
    "org": "http://www.w3.org/ns/org#",
    "foaf": "http://xmlns.com/foaf/0.1/",
    "schema": "https://schema.org/",
    "sem": "http://semanticweb.cs.vu.nl/2009/11/sem/",
    "oa": "http://www.w3.org/ns/oa#",
}


def local_name(iri: str) -> str:
    """'Person' for kgo:Person; IRIs outside kg's ontology stay whole."""
    return iri[len(ONTOLOGY):] if iri.startswith(ONTOLOGY) else iri


def prologue(names: Iterable[str] | None = None, *, one_line: bool = False) -> str:
    """SPARQL PREFIX declarations of `names` (every prefix of PREFIXES when None), one a line,
    or all on one line (so that a query after them keeps its own line numbers, less one)."""
    declarations = [f"PREFIX {p}: <{PREFIXES[p]}>" for p in (PREFIXES if names is None else names)]
    if not declarations:
        return ""
    return (" " if one_line else "\n").join(declarations) + "\n"

_NON_SLUG = re.compile(r"[^a-z0-9]+")


def fold(text: str) -> str:
    """Strip accents and case: 'Guaidó' -> 'guaido'."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def slugify(text: str) -> str:
    """ASCII slug for IRIs: 'Cúcuta' -> 'cucuta', 'U.N. agency' -> 'u-n-agency'.

    Letters that have no ASCII form (Arabic, Hebrew, Cyrillic...) would vanish, and two
    different names could share a slug; such names get a short hash of their folded form."""
    folded = fold(text)
    slug = _NON_SLUG.sub("-", folded).strip("-")
    if any(c.isalnum() and not c.isascii() for c in folded):
        digest = hashlib.sha256(" ".join(folded.split()).encode()).hexdigest()[:10]
        slug = f"{slug}-{digest}" if slug else f"u-{digest}"
    return slug or "x"


def resource_iri(key: str) -> str:
    """IRI of a canonical thing from its key '<family>/<slug>'."""
    return RESOURCE + key


def document_iri(slug: str) -> str:
    return DOCUMENT + slug


def graph_iri(slug: str) -> str:
    """Named graph holding what one document states."""
    return GRAPH + slug


def local_iri(slug: str, kind: str, ann_id: str) -> str:
    """IRI of a thing that lives in one document only (a figure, a quote, an event...)."""
    return f"{DOCUMENT}{slug}/{kind}/{ann_id}"


def fragment_iri(slug: str, fragment: str) -> str:
    """IRI of a mention, statement or sentence inside a document: doc/<slug>#T1."""
    return f"{DOCUMENT}{slug}#{fragment}"


def span_iri(slug: str, begin: int, end: int) -> str:
    """RFC 5147-style IRI of a character span: doc/<slug>#char=100,250."""
    return fragment_iri(slug, f"char={begin},{end}")


def slug_of_graph(graph: str) -> str | None:
    """Document slug of a per-document graph IRI, None for other graphs."""
    if not graph.startswith(GRAPH):
        return None
    rest = graph[len(GRAPH):]
    return None if rest in RESERVED_GRAPHS else rest
