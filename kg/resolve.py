"""Resolve surface forms to canonical entities: deterministic and explainable.

A mention resolves, first rule that applies:
1. a `KG:<key>` normalization on it;
2. a Date with an `ISO8601:` value: `date/<value>`;
3. Figures, Quotes, Groups, Dates without a value and `Unnamed` mentions stay
   local to their document;
4. the alias table: its normalized text equals the normalized label, alias or
   hidden label of an entry of the same family;
5. its own normalized text: `<family>/<slug>`.
Mentions joined by `*	Equiv` share the strongest resolution of their group.
Every resolution records the rule that made it (kgo:resolvedBy). A surname
never links to a full name unless the alias table lists it.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from kg.corpus import CONTROL_CHARACTERS
from kg.errors import AnnotationError, ConfigError, InputErrors
from kg.iris import fold, local_iri, resource_iri, slugify
from kg.model import Document, TextBound
from kg.schema import Vocabulary

_KEY = re.compile(r"^[a-z]+/[a-z0-9]+(-[a-z0-9]+)*$")
_POSSESSIVE = re.compile(r"['’]s\b")
_PUNCT = re.compile(r"[^\w\s]|_")
LOCAL_FAMILIES = {"figure", "quote", "group"}
EXTRA_TYPES = {"Role": "role"}

# Rule names, strongest first; an Equiv group takes its strongest member's resolution.
RULES = ("KG normalization", "ISO 8601 value", "alias table", "unnamed", "local", "normalized form")


def normalize(text: str) -> str:
    """The form names are compared in: accents, case, possessive 's and punctuation dropped."""
    text = _POSSESSIVE.sub("", text.replace("’", "'"))
    words = _PUNCT.sub(" ", fold(text)).split()
    if len(words) > 1 and words[0] == "the":
        words = words[1:]
    return " ".join(words)


@dataclass(frozen=True)
class AliasEntry:
    key: str
    type: str
    label: str
    aliases: tuple[str, ...] = ()
    hidden: tuple[str, ...] = ()
    wikidata: str | None = None

    @property
    def family(self) -> str:
        return self.key.split("/", 1)[0]


@dataclass(frozen=True)
class AliasTable:
    entries: dict[str, AliasEntry]
    index: dict[tuple[str, str], str]

    def lookup(self, family: str, text: str) -> str | None:
        return self.index.get((family, normalize(text)))


def family_of(type_: str, vocab: Vocabulary) -> str:
    """'person', 'organization', 'place', 'date', 'figure', 'quote', 'event', 'role', or for a
    type of the corpus's own schema the letters of its top type ('gpe', 'disease')."""
    if type_ in vocab.config.events:
        return "role" if vocab.is_a(type_, "Membership") else "event"
    if type_ in EXTRA_TYPES:
        return EXTRA_TYPES[type_]
    return vocab.family(type_)


def load_aliases(path: Path, vocab: Vocabulary) -> AliasTable:
    """Read aliases.toml; an entry that is wrong or ambiguous raises ConfigError with its line."""
    path = Path(path)
    if not path.exists():
        return AliasTable({}, {})
    raw = path.read_text(encoding="utf-8")
    try:
        data = tomllib.loads(raw)
    except tomllib.TOMLDecodeError as exc:
        where = re.search(r"at line (\d+), column (\d+)", str(exc))
        line, column = (int(where.group(1)), int(where.group(2))) if where else (None, None)
        raise ConfigError(f"invalid TOML: {str(exc).split(' (at line')[0]} (expected [[entity]] tables)",
                          path, line, column) from exc
    entries: dict[str, AliasEntry] = {}
    index: dict[tuple[str, str], str] = {}
    for item in data.get("entity", []):
        entry = _entry(item, path, raw, vocab)
        if entry.key in entries:
            raise ConfigError(f"duplicate key {entry.key!r} (expected each key once)", path, _line_of(raw, entry.key))
        entries[entry.key] = entry
        for name in (entry.label, *entry.aliases, *entry.hidden):
            slot = (entry.family, normalize(name))
            if index.get(slot, entry.key) != entry.key:
                raise ConfigError(f"{name!r} names both {index[slot]} and {entry.key} (expected each spelling to name one entity)",
                                  path, _line_of(raw, entry.key))
            index[slot] = entry.key
    return AliasTable(entries, index)


def alias_keys(path: Path) -> set[str]:
    """The keys an alias table names, read leniently (to check metadata against a table that has
    other problems); empty when it cannot be parsed."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return set()
    return {item["key"] for item in data.get("entity", []) if isinstance(item, dict) and isinstance(item.get("key"), str)}


def _entry(item: dict, path: Path, raw: str, vocab: Vocabulary) -> AliasEntry:
    key = item.get("key")

    def fail(message: str) -> ConfigError:
        return ConfigError(message, path, _line_of(raw, key) if isinstance(key, str) else None)

    if not isinstance(key, str) or not _KEY.match(key):
        raise fail(f"bad key {key!r} (expected family/slug, e.g. person/juan-guaido)")
    type_ = item.get("type")
    known = set(vocab.config.entities) | set(vocab.config.events) | set(EXTRA_TYPES) | {"Event"}
    if type_ not in known:
        raise fail(f"unknown type {type_!r} for {key} (expected an annotation.conf type, Event or Role)")
    family = "event" if type_ == "Event" else family_of(type_, vocab)
    if key.split("/", 1)[0] != family:
        raise fail(f"key {key} does not match its type {type_} (expected {family}/...)")
    label = item.get("label")
    if not isinstance(label, str) or not label.strip():
        raise fail(f"{key} needs a label (expected label = \"...\")")
    wikidata = item.get("wikidata")
    if wikidata is not None and not re.fullmatch(r"Q[1-9]\d*", str(wikidata)):
        raise fail(f"bad wikidata id {wikidata!r} for {key} (expected Q followed by digits)")
    names = [item.get("aliases", []), item.get("hidden", [])]
    if not all(isinstance(n, list) and all(isinstance(x, str) for x in n) for n in names):
        raise fail(f"{key}: aliases and hidden must be lists of strings")
    if any(CONTROL_CHARACTERS.search(n) for n in [label, *names[0], *names[1]]):
        raise fail(f"{key}: control character in a label (expected text without control characters)")
    return AliasEntry(key, type_, label, tuple(names[0]), tuple(names[1]), wikidata)


def _line_of(raw: str, key: str) -> int | None:
    for number, line in enumerate(raw.splitlines(), start=1):
        if f'"{key}"' in line:
            return number
    return None


@dataclass(frozen=True)
class Resolution:
    """Where a mention points and why."""

    iri: str
    key: str | None
    rule: str

    @property
    def explanation(self) -> str:
        return f"{self.rule}: {self.key}" if self.key else self.rule


def resolve_document(doc: Document, vocab: Vocabulary, aliases: AliasTable) -> dict[str, Resolution]:
    """Resolution of every entity mention (T of an entity type) of one document."""
    ann = doc.annotations
    _check_normalization_families(doc, vocab)
    kg_links = {n.target: n.ref for n in ann.normalizations if n.db == "KG"}
    iso = {n.target: n.ref for n in ann.normalizations if n.db == "ISO8601"}
    unnamed = {a.target for a in ann.attributes if vocab.means(a.name, "unnamed")}
    own = {}
    for tid, bound in ann.textbounds.items():
        if bound.type in vocab.config.entities:
            own[tid] = _resolve_one(doc.slug, bound, vocab, aliases, kg_links, iso, unnamed)
    return _merge_equivalents(own, doc)


def _check_normalization_families(doc: Document, vocab: Vocabulary) -> None:
    """ISO8601 names dates, Number figures, and a KG key has the family of what it links (a person
    is never linked to a place key): anything else is a located error."""
    ann, errors = doc.annotations, []
    events = {e.id: e.type for e in ann.events}
    for norm in ann.normalizations:
        if norm.target in ann.textbounds:
            type_ = ann.textbounds[norm.target].type
            if type_ not in vocab.config.entities:
                continue
            family = family_of(type_, vocab)
        elif norm.target in events:
            type_, family = events[norm.target], family_of(events[norm.target], vocab)
        else:
            continue
        wanted = {"ISO8601": "date", "Number": "figure"}.get(norm.db)
        if norm.db == "KG":
            wanted = family
            if norm.ref.split("/", 1)[0] == family:
                continue
            problem = f"KG:{norm.ref} links {norm.target}, a {type_}, to a {norm.ref.split('/', 1)[0]} (expected a {family}/... key)"
        elif wanted is not None and wanted != family:
            problem = f"{norm.db}:{norm.ref} on {norm.target}, a {type_} (expected {norm.db} only on {wanted} mentions)"
        else:
            continue
        errors.append(AnnotationError(problem, doc.source or f"{doc.slug}.ann", norm.line))
    if errors:
        raise InputErrors(errors)


def _resolve_one(slug: str, bound: TextBound, vocab: Vocabulary, aliases: AliasTable,
                 kg_links: dict, iso: dict, unnamed: set) -> Resolution:
    family = family_of(bound.type, vocab)
    if bound.id in kg_links:
        key = kg_links[bound.id]
        return Resolution(resource_iri(key), key, "KG normalization")
    if family == "date" and bound.id in iso:
        key = f"date/{iso[bound.id]}"
        return Resolution(resource_iri(key), key, "ISO 8601 value")
    if family in LOCAL_FAMILIES or family == "date":
        return Resolution(local_iri(slug, family, bound.id), None, "local")
    if bound.id in unnamed:
        return Resolution(local_iri(slug, family, bound.id), None, "unnamed")
    key = aliases.lookup(family, bound.text)
    if key:
        return Resolution(resource_iri(key), key, "alias table")
    key = f"{family}/{slugify(normalize(bound.text))}"
    return Resolution(resource_iri(key), key, "normalized form")


def _merge_equivalents(own: dict[str, Resolution], doc: Document) -> dict[str, Resolution]:
    resolved = dict(own)
    for equiv in doc.annotations.equivs:
        members = [m for m in equiv.members if m in own]
        if not members:
            continue
        best = min((own[m] for m in members), key=lambda r: (RULES.index(r.rule), r.iri))
        for member in members:
            if resolved[member] != best:
                resolved[member] = Resolution(best.iri, best.key, f"{best.rule} (Equiv)")
    return resolved


def resolve_role(text: str, aliases: AliasTable) -> tuple[str, str]:
    """Canonical key of a role from its trigger words ('Lt.' -> role/lieutenant), and the rule."""
    key = aliases.lookup("role", text)
    if key:
        return key, "alias table"
    return f"role/{slugify(normalize(text))}", "normalized form"


def resolve_event(doc: Document, event_id: str, trigger_id: str) -> str | None:
    """Canonical key of an event linked with `KG:` on the event or its trigger, else None."""
    for norm in doc.annotations.normalizations:
        if norm.db == "KG" and norm.target in (event_id, trigger_id):
            return norm.ref
    return None
