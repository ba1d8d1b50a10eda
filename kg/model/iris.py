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

import re
import unicodedata
from contextlib import contextmanager
from contextvars import ContextVar, Token
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Iterable, Iterator, Mapping
from urllib.parse import quote, unquote

from kg.errors import ConfigError
from kg.settings import setting

DEFAULT_BASE = "https://kg.example.org/"
# The paths of the namespaces under the base, the same under every base (the endpoint's routes)
RESOURCE_PATH, DOCUMENT_PATH, GRAPH_PATH = "id/", "doc/", "graph/"
VOCABULARY_PATH = "vocab"  # <base>vocab#
ONTOLOGY_PATH = "ontology"  # <base>ontology: the ontology graph, as kg's own ontology IRI is under the default base
ONTOLOGY_IRI = DEFAULT_BASE + ONTOLOGY_PATH  # fixed: kg's ontology and its terms, the same in every graph
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
    resource, document, graph, vocabulary = (base + RESOURCE_PATH, base + DOCUMENT_PATH, base + GRAPH_PATH,
                                             base + VOCABULARY_PATH + "#")
    prefixes = {"kgo": ONTOLOGY, "kgv": vocabulary, "kgr": resource, "doc": document, "kgg": graph,
                **{family: f"{resource}{family}/" for family in ENTITY_FAMILIES}}
    prefixes.update((p, iri) for p, iri in FIXED_PREFIXES.items() if p not in prefixes)
    return Namespaces(base, vocabulary, resource, document, graph, graph + "entities", graph + "ontology", prefixes)


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


def term_name(iri: str) -> str:
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
_NOT_ALNUM = re.compile(r"[\W_]")  # what str.isalnum refuses (and _): punctuation, symbols, spaces, marks
# The marks that are accents: those sitting optionally on the letters of an alphabet, dropped by
# who writes without them: the combining diacritics of Latin, Greek and Cyrillic (and their
# extensions), the Hebrew points and cantillation, the Arabic harakat. The vowel signs, viramas
# and nuktas of Brahmic scripts (Devanagari...), Thai marks, the kana voicing marks are parts of
# their letters: a word without them is another word.
_ACCENTS = re.compile("[\u0300-\u036f\u0483-\u0487\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7"
                      "\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06dc\u06df-\u06e4\u06e7\u06e8\u06ea-\u06ed"
                      "\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")


def fold(text: str) -> str:
    """Strip accents (_ACCENTS) and case, compatibility forms read as their letters: 'Guaidó' ->
    'guaido', 'ｶﾞ' -> 'ガ', while 'वस्तु' stays as written."""
    decomposed = unicodedata.normalize("NFKD", text)
    return unicodedata.normalize("NFC", _ACCENTS.sub("", decomposed)).casefold()


def is_word_char(char: str) -> bool:
    """Whether a character belongs to a word: a letter, digit or mark of any script (a vowel sign
    is inside its word, not a break in it)."""
    return char.isalnum() or unicodedata.category(char)[0] == "M"


def word_chars(text: str, other: str = " ") -> str:
    """`text` with every character that is not a word's (is_word_char) replaced by `other`."""
    return _NOT_ALNUM.sub(lambda m: m.group() if is_word_char(m.group()) else other, text)


def slugify(text: str) -> str:
    """Slug for IRIs: 'Cúcuta' -> 'cucuta', 'U.N. agency' -> 'u-n-agency', 'Иван Петров' -> 'иван-петров'.

    A name whose folded form is ASCII gets an ASCII slug (runs of other characters turned into
    '-'); a name with letters of another script keeps them and their marks, folded the same way
    (an IRI, RFC 3987, holds them as they are), so that its IRI is as readable as a Latin name's."""
    folded = fold(text)
    if any(c.isalnum() and not c.isascii() for c in folded):
        return "-".join(word_chars(folded).split())
    return _NON_SLUG.sub("-", folded).strip("-") or "x"


_PLAIN_PATH = re.compile(r"^[A-Za-z0-9._~/-]*$")


def kept_in_path(char: str) -> bool:
    """Whether an IRI path keeps this character as it is: RFC 3986's unreserved ASCII, and beyond
    ASCII the letters, marks and digits of any script that RFC 3987's ucschar holds (not the
    variation selectors and tags of plane 14 below U+E1000, nor private use: an IRI parser refuses
    them raw)."""
    if char.isascii():
        return char.isalnum() or char in "-._~"
    return _ucschar(ord(char)) and unicodedata.category(char)[0] in "LMN"


def _ucschar(code: int) -> bool:
    """RFC 3987's ucschar: U+A0-D7FF, F900-FDCF, FDF0-FFEF, and of planes 1 to 13 all but the last two
    code points of each, of plane 14 U+E1000-EFFFD."""
    if code < 0x10000:
        return 0xA0 <= code <= 0xD7FF or 0xF900 <= code <= 0xFDCF or 0xFDF0 <= code <= 0xFFEF
    return (code & 0xFFFF) < 0xFFFE and (code < 0xE0000 or 0xE1000 <= code < 0xF0000)


_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")


def iri_segment(text: str) -> str:
    """`text` as one segment of an IRI path: letters of any script kept, every other character
    that is not unreserved percent-encoded as UTF-8, '%' too ('7%' -> '7%25', '%41' -> '%2541',
    'a, b' -> 'a%2C%20b'), so that two texts never give one segment and unquoting gives the text
    back (NFC). A byte that was not UTF-8 in a file name (Python's surrogate escape) is written as
    that byte, '%E9'."""
    text = unicodedata.normalize("NFC", text)
    return "".join(c if kept_in_path(c) else quote(c.encode("utf-8", "surrogateescape"), safe="") for c in text)


_NOT_IN_IRI = re.compile(r'[\x00-\x20<>"{}|\\^`\x7f-\x9f\ud800-\udfff\ufffe\uffff]|%(?![0-9A-Fa-f]{2})')


def iri_escaped(text: str) -> str:
    """`text` (a name of a corpus's schema, a fragment, a knowledge base's identifier) as part of an
    IRI: as written, but for what an IRI cannot hold (controls, white space, <>"{}|\\^`, and a '%'
    that starts no escape), percent-encoded as UTF-8. brat shows an undeclared name or a reference
    whatever it holds; the graph must hold it too, not fail to parse."""
    if not _NOT_IN_IRI.search(text):
        return text
    return _NOT_IN_IRI.sub(lambda m: quote(m.group().encode("utf-8", "surrogatepass"), safe=""), text)


def is_path_of_ids(path: str) -> bool:
    """Whether `path` is '/'-separated non-empty segments as iri_segment writes them: characters an
    IRI path keeps as they are (kept_in_path) and %XX escapes."""
    return all(segment and _path_segment(segment) for segment in path.split("/"))


def _path_segment(segment: str) -> bool:
    rest = _ESCAPE.sub("", segment)
    return all(kept_in_path(c) for c in rest)


def iri_path(path: str) -> str:
    """A '/'-separated path as the path of an IRI: each segment by iri_segment. Paths of ASCII
    letters, digits and . _ ~ - (every id kg minted before other names were read) stay as they are;
    a request path the server decoded comes back to the IRI it was decoded from."""
    if _PLAIN_PATH.match(path):
        return path
    return "/".join(iri_segment(part) for part in path.split("/"))


def path_of_iri(path: str) -> str:
    """The '/'-separated path an IRI path was written from by iri_path (its inverse): escapes
    decoded as UTF-8, a byte that is not UTF-8 given back as Python's surrogate escape."""
    return unquote(path, errors="surrogateescape") if "%" in path else path


def id_argument(text: str) -> str:
    """An id sent as an argument (a URL path segment the server decoded, a query parameter): the id
    itself when `text` is one as kg writes them (iri_path of what it decodes to gives it back),
    else `text` read as the name it stands for and written as an id. A client may so send an
    id escaped once (as the API's hrefs do) or a name escaped once."""
    if is_path_of_ids(text) and iri_path(path_of_iri(text)) == text:
        return text
    return iri_path(text)


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
    return f"{current().document}{slug}#{iri_escaped(fragment)}"


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
