"""Each graph's part of the network view, read from its N-Quads as the readers write them.

The view (kg.viz.network) shows the entities and events of the graph, the triples about them, the
sentences that state its edges and mention its nodes, and the articles those sentences come from.
All of it is a union over the named graphs: a document graph says what its article states, the
entity records what the corpus says of each canonical entity. So the build reads each graph's part
once, from the text it writes anyway (the readers for documents, kg.model.entities.entity_records for the
records), keeps the parts in the build directory (kg.publish.view_data) and an incremental build
replaces the parts of the graphs it replaces. The view merges the parts instead of querying the
whole store; kg.viz.network's SPARQL path reads the same rows from a store that kept no parts, and
the two must agree (tests/viz/test_kept_view.py).

A part holds rows shaped as those queries' answers, with objects as N-Quads terms so that the
merge keeps each distinct triple once, as SELECT DISTINCT does.
"""

from __future__ import annotations

import pickle
import re
from sys import intern
from typing import Iterable, NamedTuple

from kg.model import iris
from kg.model.entities.evidence import literal_form
from kg.model.iris import FIXED_PREFIXES
from kg.model.schema.ontology import KGO

RDF, NIF, DCTERMS = FIXED_PREFIXES["rdf"], FIXED_PREFIXES["nif"], FIXED_PREFIXES["dcterms"]
_TYPE = RDF + "type"
_SENTENCE, _ARTICLE = str(KGO.Sentence), str(KGO.NewsArticle)
_SUBJECT, _PREDICATE, _OBJECT = RDF + "subject", RDF + "predicate", RDF + "object"
_EVIDENCE, _DENOTES, _IN_SENTENCE = str(KGO.evidence), str(KGO.denotes), str(KGO.sentence)
_ANCHOR, _CONTEXT = NIF + "anchorOf", NIF + "referenceContext"
_TITLE, _DATE, _PUBLISHER = DCTERMS + "title", DCTERMS + "date", str(KGO.publisher)
_PROVENANCE = (_SUBJECT, _PREDICATE, _OBJECT, _EVIDENCE, _DENOTES, _IN_SENTENCE, _ANCHOR, _CONTEXT, _TITLE, _DATE,
               _PUBLISHER)
_SKIPPED = {_TYPE, FIXED_PREFIXES["prov"] + "wasDerivedFrom"}  # as edges; as literals they are facts
# one quad a line: subject IRI, predicate IRI, object term, graph (a blank subject is no node's)
_LINE = re.compile(r"^<([^>]*)> <([^>]*)> (.*) <[^>]*> \.$", re.MULTILINE)


class ViewPart(NamedTuple):
    """One graph's rows of the view: `types` (node, class) of its view classes; `triples` (subject,
    predicate, object as an N-Quads term) about its nodes and the canonical entities it names;
    `statements` (subject, predicate, object, sentence) of its reified statements with an IRI
    object; `mentions` (entity, sentence); `sentences` (sentence, text, document); `docs`
    (document, title, date, publisher IRI), '' where absent."""

    types: list[tuple[str, str]]
    triples: list[tuple[str, str, str]]
    statements: list[tuple[str, str, str, str]]
    mentions: list[tuple[str, str]]
    sentences: list[tuple[str, str, str]]
    docs: list[tuple[str, str, str, str]]


def view_part(nquads: str, classes: Iterable[str]) -> ViewPart:
    """The part of the graph in `nquads` (one quad a line, as kg.model.nquads writes it): the
    nodes are the IRIs it types with one of `classes` (the view's classes).

    Only what can reach the view is kept: a node of the view is typed in the graph that describes
    it (a document's events, quotes, figures...) or is a canonical entity (typed by its record),
    so rows naming an IRI this graph types otherwise (a mention, a statement, a sentence) are
    left out, and so are the triples the view skips (rdf:type, prov:wasDerivedFrom as edges).
    Strings are interned: the kept file stores each once."""
    rows = _LINE.findall(nquads)
    typed = [(s, o[1:-1]) for s, p, o in rows if p == _TYPE and o[0] == "<"]
    wanted = set(classes)
    types = sorted({(intern(s), intern(c)) for s, c in typed if c in wanted})
    shown = {s for s, _ in types}
    other = {s for s, _ in typed}.difference(shown)  # typed here, and not as a node
    resource = iris.RESOURCE

    def maybe(x: str) -> bool:
        return x not in other or x.startswith(resource)

    triples = [(intern(s), intern(p), intern(o) if o[0] == "<" else o) for s, p, o in rows
               if maybe(s) and (o[0] == '"' or o[0] == "<" and p not in _SKIPPED and maybe(o[1:-1]))]
    by_predicate: dict[str, dict[str, list[str]]] = {p: {} for p in _PROVENANCE}
    for s, p, o in rows:
        if p in by_predicate:
            by_predicate[p].setdefault(s, []).append(o)
    classes_of: dict[str, set[str]] = {}
    for s, c in typed:
        if c in (_SENTENCE, _ARTICLE):
            classes_of.setdefault(c, set()).add(s)
    statements = [tuple(map(intern, row)) for row in _statements(by_predicate) if maybe(row[0]) and maybe(row[2])]
    mentions = [tuple(map(intern, row)) for row in _mentions(by_predicate) if maybe(row[0])]
    return ViewPart(types, triples, statements, mentions,  # sets sorted: the same part in any process
                    _sentences(by_predicate, sorted(classes_of.get(_SENTENCE, ()))),
                    _documents(by_predicate, sorted(classes_of.get(_ARTICLE, ()))))


def _iris(terms: Iterable[str]) -> list[str]:
    return [t[1:-1] for t in terms if t[0] == "<"]


def _literals(terms: Iterable[str]) -> list[str]:
    return [lexical(t) for t in terms if t[0] == '"']


def _statements(found: dict[str, dict[str, list[str]]]) -> list[tuple[str, str, str, str]]:
    """(subject, predicate, object, sentence) of every reified statement with an IRI object."""
    subjects, predicates, objects = found[_SUBJECT], found[_PREDICATE], found[_OBJECT]
    return [(s, p, o, e) for st, sentences in found[_EVIDENCE].items()
            for s in _iris(subjects.get(st, ())) for p in _iris(predicates.get(st, ()))
            for o in _iris(objects.get(st, ())) for e in _iris(sentences)]


def _mentions(found: dict[str, dict[str, list[str]]]) -> list[tuple[str, str]]:
    sentences = found[_IN_SENTENCE]
    return [(x, e) for m, entities in found[_DENOTES].items() for x in _iris(entities)
            for e in _iris(sentences.get(m, ()))]


def _sentences(found: dict[str, dict[str, list[str]]], sentences: Iterable[str]) -> list[tuple[str, str, str]]:
    anchors, contexts = found[_ANCHOR], found[_CONTEXT]
    return [(s, text, doc) for s in sentences for text in _literals(anchors.get(s, ()))
            for doc in _iris(contexts.get(s, ()))]


def _documents(found: dict[str, dict[str, list[str]]], docs: Iterable[str]) -> list[tuple[str, str, str, str]]:
    def first(predicate: str, doc: str, pick) -> str:
        return min(pick(found[predicate].get(doc, ())), default="")

    return [(doc, first(_TITLE, doc, _literals), first(_DATE, doc, _literals), first(_PUBLISHER, doc, _iris))
            for doc in docs]


def merged(parts: Iterable[ViewPart]) -> ViewPart:
    """The parts of several graphs as one, each distinct row once (as the store's union of its
    graphs answers SELECT DISTINCT); rows in no particular order."""
    sets: list[set] = [set(), set(), set(), set(), set(), set()]
    for part in parts:
        for rows, found in zip(sets, part):
            rows.update(found)
    return ViewPart(*(list(rows) for rows in sets))


def split_by_subject(part: ViewPart, key_of) -> dict[str, ViewPart]:
    """`part` (of the entity records) cut into one part per record: `key_of(subject)` names the
    record a row's subject belongs to (None: no record's)."""
    out: dict[str, ViewPart] = {}
    for field, rows in enumerate(part):
        for row in rows:
            key = key_of(row[0])
            if key is not None:
                out.setdefault(key, ViewPart([], [], [], [], [], []))[field].append(row)
    return out


def lexical(term: str) -> str:
    """What a SPARQL answer gives for an N-Quads object: an IRI's text, a literal's lexical form."""
    return term[1:-1] if term[0] == "<" else literal_form(term)


def is_literal(term: str) -> bool:
    return term[0] == '"'


def pack(part: ViewPart) -> bytes:
    """A part as the build holds and keeps it: bytes, about a third of the memory of its rows (a
    full build holds every part until it writes them: 100 MiB packed at 10,000 articles, 339 MiB
    as rows even with every string shared)."""
    return pickle.dumps(part, pickle.HIGHEST_PROTOCOL)


def unpack(packed: bytes) -> ViewPart:
    return pickle.loads(packed)
