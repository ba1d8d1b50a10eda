"""The alias table (corpus/aliases.toml): canonical keys with their type, preferred label,
aliases, hidden labels and Wikidata id, read and checked; and `normalize`, the form every
name is compared in (by the resolver, the entity records and kg suggest)."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from kg.corpus import CONTROL_CHARACTERS
from kg.errors import ConfigError
from kg.iris import fold
from kg.schema import Vocabulary

_KEY = re.compile(r"^[a-z]+/[a-z0-9]+(-[a-z0-9]+)*$")
_POSSESSIVE = re.compile(r"['’]s\b")
_PUNCT = re.compile(r"[^\w\s]|_")
EXTRA_TYPES = {"Role": "role"}


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
