"""Namespaces and stable IRIs minted from canonical keys and document slugs.

Every IRI kg mints lies under a base IRI, the user's namespace (the `base_iri` setting:
`kg build --base-iri`, KG_BASE_IRI; https://kg.example.org/ by default): entities under
<base>id/, documents under <base>doc/, named graphs under <base>graph/, the terms minted
from a corpus's own annotation schema under <base>vocab#. The ontology's own terms keep
one fixed namespace (ONTOLOGY) whatever the base: they are kg's vocabulary, shared by
every graph kg builds, so that queries, shapes and tools work on any of them.

The base in force is `current()`: the one a build or a request set with `using_base` /
`use_base`, else the setting's. Module attributes such as `iris.RESOURCE` or
`iris.PREFIXES` read `current()` when accessed; code must access them so (or call
`current()`), never bind them at import time.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from contextlib import contextmanager
from contextvars import ContextVar, Token
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Iterable, Iterator, Mapping

from kg.settings import setting
from kg.errors import ConfigError

DEFAULT_BASE = "https://kg.example.org/"
ONTOLOGY_IRI = DEFAULT_BASE + "ontology"  # fixed: kg's ontology and its terms, the same in every graph
ONTOLOGY = ONTOLOGY_IRI + "#"
RESERVED_GRAPHS = ("entities", "ontology")  # graph names of the build's own: no document may take them
WIKIDATA = "http://www.wikidata.org/entity/"

FIXED_PREFIXES: Mapping[str, str] = MappingProxyType({
    "kgo": ONTOLOGY,
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
})
RDF_TYPE = FIXED_PREFIXES["rdf"] + "type"
ENTITY_FAMILIES = ("person", "organization", "place", "event", "date", "role")
_BAD_IRI_CHARS = re.compile(r'[\s<>"{}|\\^`]')


@dataclass(frozen=True)
class Namespaces:
    """The namespaces minted under one base IRI."""

    base: str
    vocabulary: str
    resource: str
    document: str
    graph: str
    entities_graph: str
    ontology_graph: str
    prefixes: dict[str, str]  # the prefixes predefined everywhere (queries, exports, pages); read only


@lru_cache(maxsize=32)
def namespaces(base: str) -> Namespaces:
    """The namespaces under `base` (checked: see check_base)."""
    base = check_base(base)
    resource, graph = base + "id/", base + "graph/"
    prefixes = {"kgo": ONTOLOGY, "kgv": base + "vocab#", "kgr": resource, "doc": base + "doc/", "kgg": graph,
                **{family: f"{resource}{family}/" for family in ENTITY_FAMILIES}}
    prefixes.update((p, iri) for p, iri in FIXED_PREFIXES.items() if p not in prefixes)
    return Namespaces(base, base + "vocab#", resource, base + "doc/", graph, graph + "entities",
                      graph + "ontology", prefixes)


def check_base(base: str) -> str:
    """`base` if it can prefix kg's IRIs: an absolute http(s) IRI ending in '/' (ConfigError if not)."""
    if not re.match(r"^https?://[^/?#]+/", base or "") or not base.endswith("/") or _BAD_IRI_CHARS.search(base) \
            or "#" in base or "?" in base:
        raise ConfigError(f"base IRI {base!r} cannot prefix kg's IRIs "
                          "(expected an absolute http or https IRI ending in '/', e.g. https://example.org/kg/)")
    return base


_CURRENT: ContextVar[Namespaces | None] = ContextVar("kg_base_iri", default=None)


def current() -> Namespaces:
    """The namespaces in force: those set by using_base/use_base, else the base_iri setting's."""
    return _CURRENT.get() or namespaces(setting("base_iri"))


@contextmanager
def using_base(base: str | None) -> Iterator[Namespaces]:
    """Mint under `base` (None: the setting's) for the duration of the block."""
    token = _CURRENT.set(namespaces(base) if base else None)
    try:
        yield current()
    finally:
        _CURRENT.reset(token)


def use_base(base: str | None) -> Token:
    """Mint under `base` from now on in this thread's context (a request handler's); the token
    given back ends it (reset_base)."""
    return _CURRENT.set(namespaces(base) if base else None)


def reset_base(token: Token | None) -> None:
    """Back to the base in force before use_base gave `token` (None: nothing to undo)."""
    if token is not None:
        _CURRENT.reset(token)


def local_name(iri: str) -> str:
    """'Person' for kgo:Person; IRIs outside kg's ontology stay whole."""
    return iri[len(ONTOLOGY):] if iri.startswith(ONTOLOGY) else iri


def prologue(names: Iterable[str] | None = None, *, one_line: bool = False) -> str:
    """SPARQL PREFIX declarations of the current prefixes (every one when `names` is None), one a line,
    or all on one line (so that a query after them keeps its own line numbers, less one)."""
    prefixes = current().prefixes
    declarations = [f"PREFIX {p}: <{prefixes[p]}>" for p in (prefixes if names is None else names)]
    if not declarations:
        return ""
    return (" " if one_line else "\n").join(declarations) + "\n"


def turtle_prologue() -> str:
    """@prefix declarations of the current prefixes, one a line."""
    return "".join(f"@prefix {p}: <{iri}> .\n" for p, iri in current().prefixes.items())


_DYNAMIC = {"BASE": "base", "VOCABULARY": "vocabulary", "RESOURCE": "resource", "DOCUMENT": "document",
            "GRAPH": "graph", "ENTITIES_GRAPH": "entities_graph", "ONTOLOGY_GRAPH": "ontology_graph",
            "PREFIXES": "prefixes"}


def __getattr__(name: str):
    """iris.RESOURCE, iris.PREFIXES...: the namespaces under the current base."""
    if name in _DYNAMIC:
        return getattr(current(), _DYNAMIC[name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
    return current().resource + key


def document_iri(slug: str) -> str:
    return current().document + slug


def graph_iri(slug: str) -> str:
    """Named graph holding what one document states."""
    return current().graph + slug


def local_iri(slug: str, kind: str, ann_id: str) -> str:
    """IRI of a thing that lives in one document only (a figure, a quote, an event...)."""
    return f"{current().document}{slug}/{kind}/{ann_id}"


def fragment_iri(slug: str, fragment: str) -> str:
    """IRI of a mention, statement or sentence inside a document: doc/<slug>#T1."""
    return f"{current().document}{slug}#{fragment}"


def span_iri(slug: str, begin: int, end: int) -> str:
    """RFC 5147-style IRI of a character span: doc/<slug>#char=100,250."""
    return fragment_iri(slug, f"char={begin},{end}")


def slug_of_graph(graph: str) -> str | None:
    """Document slug of a per-document graph IRI, None for other graphs."""
    prefix = current().graph
    if not graph.startswith(prefix):
        return None
    rest = graph[len(prefix):]
    return None if rest in RESERVED_GRAPHS else rest
