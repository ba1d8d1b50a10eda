"""What the documents say of each canonical entity, read from their N-Quads and summed.

An entity record (kg.model.entities.entity_records) is a function of its evidence: the forms and
annotation types of the mentions that denote it, the knowledge-base items the
documents link it to, the memberships that fill a post, and the articles that
name it as publisher or author. Each reader
reads that evidence from the N-Quads of the documents it translates, a full
build sums it, and the build directory keeps the sum (kg.store.build_dirs.EVIDENCE_FILE), so an
incremental build subtracts the evidence of the graphs it replaces, adds that
of the new ones, and rewrites only the records touched, without a query over
the whole store. `kg.pipeline.stored_records.gather_evidence` asks the store the same
questions in SPARQL; the two must always agree (tests/model/test_evidence.py).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path

from kg.model import iris
from kg.model.entities import kept_evidence
from kg.model.iris import FIXED_PREFIXES
from kg.model.schema.ontology import KGO

_DENOTES, _TYPE_OF_MENTION = f"<{KGO.denotes}>", f"<{KGO.annotationType}>"
_ANCHOR = f"<{FIXED_PREFIXES['nif']}anchorOf>"
_IS_NAME = f"<{KGO.isName}>"
_RDF_TYPE, _LABEL = f"<{FIXED_PREFIXES['rdf']}type>", f"<{FIXED_PREFIXES['rdfs']}label>"
_POST_CLASS, _POST = f"<{KGO.Post}>", f"<{KGO.post}>"
_REFERENCES = {f"<{KGO.publisher}>", f"<{KGO.author}>"}
_SAME_AS = f"<{FIXED_PREFIXES['owl']}sameAs>"
_BEGIN, _CONTEXT = f"<{FIXED_PREFIXES['nif']}beginIndex>", f"<{FIXED_PREFIXES['nif']}referenceContext>"
_SENTENCE, _DATE = f"<{KGO.sentence}>", f"<{FIXED_PREFIXES['dcterms']}date>"
_READ = (_DENOTES, _TYPE_OF_MENTION, _ANCHOR, _IS_NAME, _RDF_TYPE, _LABEL, _POST, *_REFERENCES, _SAME_AS, _BEGIN,
         _CONTEXT, _SENTENCE, _DATE)  # the predicates whose lines are evidence
UNDATED = "~"  # the date key of an undated article: after every date
MAX_SENTENCE = 300  # characters of a first sentence kept
_ESCAPE = re.compile(r"\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|(.))")
_SIMPLE_ESCAPES = {"t": "\t", "b": "\b", "n": "\n", "r": "\r", "f": "\f", '"': '"', "'": "'", "\\": "\\"}


# Where the corpus first names an entity: (the article's date, or UNDATED; the article's IRI; the
# mention's offset; the sentence it starts in, cut to MAX_SENTENCE). The least of these is the first.
First = tuple[str, str, int, str]


@dataclass
class MentionCounts:
    """What the corpus says of one canonical entity: the words of its mentions (`forms`), those of
    them that are names (`names`, kg.model.entities.names), their annotation types; `references`: how many
    times articles name it as publisher or author; `items`: how many documents link it to each
    knowledge-base item (IRI); `first`: its first mention (the earliest article's first, First), None
    when no mention has a sentence; `stale`: the article of the first was removed, so the first must be
    asked of the store (kg.pipeline.stored_records.refresh_firsts)."""

    forms: Counter = field(default_factory=Counter)
    types: Counter = field(default_factory=Counter)
    references: int = 0
    items: Counter = field(default_factory=Counter)
    names: Counter = field(default_factory=Counter)
    first: First | None = None
    stale: bool = False

    def is_empty(self) -> bool:
        return not self.forms and not self.types and not self.references and not self.items and not self.names


Evidence = dict[str, MentionCounts]  # canonical key -> what the documents say of it


def add_evidence(total: Evidence, more: Evidence, sign: int = 1) -> None:
    """Add `more` to `total` (subtract it when `sign` is -1); keys left with nothing are removed."""
    for key, counts in more.items():
        item = _entry(total, key)
        for form, n in counts.forms.items():
            item.forms[form] += sign * n
        for type_, n in counts.types.items():
            item.types[type_] += sign * n
        for linked, n in counts.items.items():
            item.items[linked] += sign * n
        for name, n in counts.names.items():
            item.names[name] += sign * n
        item.references += sign * counts.references
        _add_first(item, counts.first, sign)
        if sign < 0:  # drops what fell to zero
            item.forms, item.types, item.items, item.names = +item.forms, +item.types, +item.items, +item.names
            if item.is_empty():
                del total[key]


def _entry(evidence: Evidence, key: str) -> MentionCounts:
    """The counts of `key`, new and empty when it has none (made only then: a MentionCounts is five
    Counters)."""
    counts = evidence.get(key)
    if counts is None:
        counts = evidence[key] = MentionCounts()
    return counts


def _add_first(item: MentionCounts, first: First | None, sign: int) -> None:
    """Keep the earlier of two firsts; removing the article of the first makes it stale."""
    if first is None:
        return
    if sign < 0:
        if item.first is not None and item.first[1] == first[1]:
            item.first, item.stale = None, True
    elif not item.stale and (item.first is None or first < item.first):
        item.first = first


def document_evidence(nquads: str) -> Evidence:
    """The evidence one document graph gives, as kg.pipeline.stored_records' queries would find it in the store."""
    lines = _statements(nquads)

    def objects(predicate: str) -> dict[str, set[str]]:
        found: dict[str, set[str]] = {}
        for subject, obj in lines[predicate]:
            found.setdefault(subject, set()).add(obj)
        return found

    posts: dict[str, set[str]] = {}
    for membership, post in lines[_POST]:
        posts.setdefault(post, set()).add(membership)
    references = Counter(obj for predicate in _REFERENCES for _, obj in lines[predicate])
    post_nodes = {subject for subject, obj in lines[_RDF_TYPE] if obj == _POST_CLASS}
    denotes = objects(_DENOTES)
    evidence = _summed(denotes, objects(_ANCHOR), objects(_TYPE_OF_MENTION), objects(_LABEL), posts,
                       post_nodes, references, {subject for subject, _ in lines[_IS_NAME]})
    _add_items(evidence, lines[_SAME_AS])
    _add_firsts(evidence, lines, denotes)
    return evidence


def _add_firsts(evidence: Evidence, lines: dict[str, list[tuple[str, str]]], denotes: dict[str, set[str]]) -> None:
    """The first mention of each canonical entity in this document (its date and IRI, the offset, the sentence)."""
    prefix = "<" + iris.RESOURCE
    begins, contexts, sentences = dict(lines[_BEGIN]), dict(lines[_CONTEXT]), dict(lines[_SENTENCE])
    anchors, dates = dict(lines[_ANCHOR]), dict(lines[_DATE])
    for mention, entities in denotes.items():
        canonical = [e for e in entities if e.startswith(prefix)]
        if not canonical or mention not in sentences or mention not in begins or mention not in contexts:
            continue
        document = contexts[mention]
        date = literal_form(dates[document]) if document in dates else UNDATED
        sentence = literal_form(anchors.get(sentences[mention], '""'))[:MAX_SENTENCE]
        first = (date, document[1:-1], int(literal_form(begins[mention])), sentence)
        for entity in canonical:
            _add_first(_entry(evidence, entity[len(prefix):-1]), first, 1)


def _add_items(evidence: Evidence, same_as: Iterable[tuple[str, str]]) -> None:
    """The knowledge-base items the document links its canonical entities to, once each."""
    prefix = "<" + iris.RESOURCE
    for entity, item in same_as:
        if entity.startswith(prefix):
            _entry(evidence, entity[len(prefix):-1]).items[item[1:-1]] += 1


def _statements(nquads: str) -> dict[str, list[tuple[str, str]]]:
    """(subject, object) of each line whose predicate the evidence reads, by predicate, in line order:
    one pass over the lines. A line's predicate is its second term: the words of a literal that
    quote a predicate are not a line of it."""
    found: dict[str, list[tuple[str, str]]] = {predicate: [] for predicate in _READ}
    for line in nquads.split("\n"):
        terms = line.split(" ", 2)
        if len(terms) == 3 and terms[1] in found:
            found[terms[1]].append((terms[0], terms[2].rsplit(" ", 2)[0]))
    return found


def _summed(denotes, anchors, types, labels, posts, post_nodes, references, named) -> Evidence:
    prefix = "<" + iris.RESOURCE
    evidence: Evidence = {}

    def item(node: str) -> MentionCounts:
        return _entry(evidence, node[len(prefix):-1])

    for mention, entities in denotes.items():
        for entity in (e for e in entities if e.startswith(prefix)):
            for text in anchors.get(mention, ()):
                for type_ in types.get(mention, ()):
                    counts = item(entity)
                    counts.forms[literal_form(text)] += 1
                    counts.types[literal_form(type_)] += 1
                    if mention in named:
                        counts.names[literal_form(text)] += 1
    for post in post_nodes:
        filled = len(posts.get(post, ()))
        if post.startswith(prefix) and filled:
            for text in labels.get(post, ()):
                counts = item(post)
                counts.forms[literal_form(text)] += filled
                counts.types["Post"] += filled
    for entity, n in references.items():
        if entity.startswith(prefix):
            item(entity).references += n
    return evidence


def literal_form(term: str) -> str:
    """The lexical form of an N-Quads literal ('"a \\"b\\""@en' -> 'a "b"')."""
    body = term[1:term.rindex('"')]
    return _ESCAPE.sub(_unescape, body) if "\\" in body else body


def _unescape(match: re.Match) -> str:
    code = match.group(1) or match.group(2)
    return chr(int(code, 16)) if code else _SIMPLE_ESCAPES.get(match.group(3), match.group(0))


Kept = MutableMapping[str, tuple[dict, dict, int, dict, dict, First | None, bool]]  # the evidence as a build keeps it: plain


def kept_form(evidence: Evidence) -> Kept:
    return {key: (dict(c.forms), dict(c.types), c.references, dict(c.items), dict(c.names), c.first, c.stale)
            for key, c in evidence.items()}


def counts_of(kept: Kept, keys: Iterable[str]) -> Evidence:
    """The evidence of `keys` (those that have some) out of the kept form."""
    return {key: _counts(kept[key]) for key in keys if key in kept}


def _counts(plain: tuple[dict, dict, int, dict, dict, First | None, bool]) -> MentionCounts:
    forms, types, references, items, names, first, stale = plain
    return MentionCounts(Counter(forms), Counter(types), references, Counter(items), Counter(names), first, stale)


def patch_kept(kept: Kept, removed: Evidence, added: Evidence) -> None:
    """Subtract the evidence of the graphs removed and add that of the new ones, converting only
    the keys they name (a large corpus keeps tens of thousands)."""
    changed = counts_of(kept, removed.keys() | added.keys())
    add_evidence(changed, removed, -1)
    add_evidence(changed, added)
    for key in removed.keys() | added.keys():
        kept.pop(key, None)
    kept.update(kept_form(changed))


def save_evidence(path: Path, plain: Kept) -> None:
    """Keep the summed evidence of a build's documents (in its kept form) in the file `path`, entity
    by entity (kg.model.entities.kept_evidence)."""
    path.write_bytes(kept_evidence.dumps(plain))


def load_kept(path: Path) -> Kept | None:
    """The evidence a build kept in the file `path` (each entity's read when asked for), or None
    when it kept none (an older build) or it cannot be read."""
    try:
        return kept_evidence.loads(path.read_bytes())
    except Exception:  # noqa: BLE001 - a cache: whatever is wrong with it, the store is asked instead
        return None


def load_evidence(path: Path) -> Evidence | None:
    """The whole evidence a build kept in the file `path` (None as for load_kept)."""
    kept = load_kept(path)
    return None if kept is None else counts_of(kept, kept)
