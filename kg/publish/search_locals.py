"""The search index's rows of the things local to one document, read off that document's N-Quads.

A full build hands every document's N-Quads to the loader; the rows that LOCALS and LOCAL_SUMMARIES
(kg.publish.search_index) find in a document's graph are read from the same text on the way, as the
evidence is (kg.model.entities.evidence), instead of asking the engine once the store is loaded: its
answer over every graph took 31 s of CPU at 10,000 articles, joining each mention's subject with the
provenance of every statement. An incremental build still asks the store, one changed document's
graph at a time. The two must agree (tests/publish/test_search_locals.py).

A document's N-Quads are sorted (kg.model.nquads.QuadWriter), so the statements of one subject are
one run of lines.
"""

from __future__ import annotations

from typing import Iterator

from kg.model.entities.evidence import literal_form
from kg.model.iris import FIXED_PREFIXES, RDF_TYPE
from kg.model.schema.ontology import KGO

Rows = list[dict[str, str]]

_MENTION = f"<{KGO.mention}>"
_DERIVED_FROM = f"<{FIXED_PREFIXES['prov']}wasDerivedFrom>"
_TYPE = f"<{RDF_TYPE}>"
_KINDS = {f"<{FIXED_PREFIXES['skos']}prefLabel>": "pref", f"<{FIXED_PREFIXES['skos']}altLabel>": "alt",
          f"<{FIXED_PREFIXES['rdfs']}label>": "label"}
_CONTENT = {str(KGO.Quote), str(KGO.Figure)}  # statements' content, not things to look up


class LocalRows:
    """The LOCALS and LOCAL_SUMMARIES rows of the documents added, as the store would answer them."""

    def __init__(self) -> None:
        self.labels: Rows = []
        self.summaries: Rows = []

    def add(self, nquads: str) -> None:
        """The rows of the things local to the document graph `nquads` (one graph's sorted N-Quads)."""
        for subject, statements in _subjects_of(nquads, _MENTION):
            self._add_thing(subject[1:-1], statements)

    def _add_thing(self, thing: str, statements: list[tuple[str, str]]) -> None:
        documents, types, labels, mentions = [], [], [], set()
        for predicate, obj in statements:
            if predicate == _DERIVED_FROM and obj.startswith("<"):
                documents.append(obj[1:-1])
            elif predicate == _TYPE and obj.startswith("<"):
                types.append(obj[1:-1])
            elif predicate in _KINDS and obj.startswith('"'):
                labels.append((literal_form(obj), _KINDS[predicate]))
            elif predicate == _MENTION:
                mentions.add(obj)
        if _CONTENT.intersection(types):
            return
        labels = list(dict.fromkeys(labels))
        named = [label for label, kind in labels if kind == "pref"] or [label for label, kind in labels if kind == "label"]
        for document in dict.fromkeys(documents):
            self.labels += [{"e": thing, "label": label, "kind": kind, "doc": document} for label, kind in labels]
            if types and named:
                self.summaries.append({"e": thing, "doc": document, "label": named[0], "mentions": str(len(mentions)),
                                       "types": " ".join(dict.fromkeys(types))})


def _subjects_of(nquads: str, predicate: str) -> Iterator[tuple[str, list[tuple[str, str]]]]:
    """Each subject of a line of `predicate`, once, with the (predicate, object) of all its lines: the
    run of lines around that line, the lines being sorted. A match inside a literal has a subject
    with spaces: it is not a line of `predicate`."""
    needle = f" {predicate} "
    at = nquads.find(needle)
    while at >= 0:
        start = nquads.rfind("\n", 0, at) + 1
        subject = nquads[start:at]
        if " " in subject:
            at = nquads.find(needle, at + 1)
            continue
        prefix = subject + " "
        while start > 0:  # back to the first line of the run
            previous = nquads.rfind("\n", 0, start - 1) + 1
            if not nquads.startswith(prefix, previous):
                break
            start = previous
        statements = []
        while nquads.startswith(prefix, start):
            end = nquads.find("\n", start)
            end = len(nquads) if end < 0 else end
            line_predicate, rest = nquads[start + len(prefix):end].split(" ", 1)
            statements.append((line_predicate, rest.rsplit(" ", 2)[0]))
            start = end + 1
        yield subject, statements
        at = nquads.find(needle, start)
