"""The alias table (corpus/aliases.toml): canonical keys with their type, preferred label,
aliases, hidden labels and Wikidata id, read and checked; and `normalize`, the form every
name is compared in (by the resolver, the entity records and kg suggest)."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from kg.errors import ConfigError
from kg.formats import limits
from kg.formats.brat.conf import decode_utf8
from kg.formats.corpus import CONTROL_CHARACTERS
from kg.formats.positions import toml_error, toml_key_line
from kg.model.iris import fold, word_chars
from kg.model.schema.corpus_vocabulary import Vocabulary

if TYPE_CHECKING:
    from kg.model.entities.knowledge_bases import Item

_KEY = re.compile(r"^[a-z]+/[a-z0-9]+(-[a-z0-9]+)*$")
_POSSESSIVE = re.compile(r"['’]s\b")
EXTRA_TYPES = {"Role": "role"}


@lru_cache(maxsize=1 << 16)  # asked of every mention: a corpus names its things again and again
def normalize(text: str) -> str:
    """The form names are compared in: accents, case, possessive 's and punctuation dropped."""
    text = _POSSESSIVE.sub("", text.replace("’", "'"))
    words = word_chars(fold(text)).split()
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
    line: int | None = field(default=None, compare=False)  # of its [[entity]] header in aliases.toml

    @property
    def family(self) -> str:
        return self.key.split("/", 1)[0]


@dataclass(frozen=True)
class AliasTable:
    entries: dict[str, AliasEntry]
    index: dict[tuple[str, str], str]

    def lookup(self, family: str, text: str) -> str | None:
        return self.index.get((family, normalize(text)))

    def with_item(self, item: Item) -> str | None:
        """The key of the entry that gives this Wikidata item, if any (the first by key)."""
        return self._items.get((item.base, item.id))

    @cached_property
    def _items(self) -> dict[tuple[str, str], str]:
        found: dict[tuple[str, str], str] = {}
        for entry in sorted(self.entries.values(), key=lambda e: e.key):
            if entry.wikidata:
                found.setdefault(("Wikidata", entry.wikidata), entry.key)
        return found


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
    raw = decode_utf8(limits.read_bounded(path, limits.ALIASES, ConfigError), path)
    try:
        data = tomllib.loads(raw)
    except tomllib.TOMLDecodeError as exc:
        raise toml_error(exc, path, "[[entity]] tables") from exc
    unknown = sorted(set(data) - {"entity"})
    if unknown:
        raise ConfigError(f"unknown table or key {unknown[0]!r} (expected [[entity]] tables only)", path,
                          toml_key_line(raw, unknown[0]))
    entries: dict[str, AliasEntry] = {}
    index: dict[tuple[str, str], str] = {}
    lines = raw.splitlines()
    starts = _entry_lines(lines)
    for number, item in enumerate(data.get("entity", [])):
        table = _Table(path, lines, starts[number] if number < len(starts) else None)
        entry = _entry(item, table, vocab)
        if entry.key in entries:
            raise table.error(f"duplicate key {entry.key!r} (expected each key once; first on line "
                              f"{entries[entry.key].line})", "key")
        entries[entry.key] = entry
        for name in (entry.label, *entry.aliases, *entry.hidden):
            slot = (entry.family, normalize(name))
            if index.get(slot, entry.key) != entry.key:
                where = next(f for f in ("label", "aliases", "hidden") if name in _names(item, f))
                raise table.error(f"{name!r} names both {index[slot]} and {entry.key} "
                                  "(expected each spelling to name one entity)", where)
            index[slot] = entry.key
    return AliasTable(entries, index)


def alias_keys(path: Path) -> set[str] | None:
    """The keys an alias table names, read leniently (to check metadata against a table that has
    other problems); None when it cannot be parsed (its own error says why)."""
    try:
        data = tomllib.loads(limits.read_bounded(path, limits.ALIASES, ConfigError).decode("utf-8"))
    except (ConfigError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    return {item["key"] for item in data.get("entity", []) if isinstance(item, dict) and isinstance(item.get("key"), str)}


ENTRY_FIELDS = ("key", "type", "label", "aliases", "hidden", "wikidata")


class _Table:
    """One [[entity]] table of aliases.toml: where its lines are, for located errors."""

    def __init__(self, path: Path, lines: list[str], start: int | None) -> None:
        self.path, self.lines, self.start = path, lines, start

    def fields(self) -> dict[str, int]:
        """The line of each field of this table (found only for an error: a table of thousands of
        entries is read in one pass)."""
        lines, start = self.lines, self.start
        end = next((n for n in range(start or 0, len(lines)) if _TABLE_HEADER.match(lines[n])), len(lines))
        return {m.group(1): n + 1 for n in range((start or 1) - 1, end)
                for m in [re.match(r"\s*([A-Za-z0-9_-]+)\s*=", lines[n])] if m}

    def error(self, message: str, field: str | None = None) -> ConfigError:
        """The error at the line of `field` in this table (its header when the field is absent)."""
        return ConfigError(message, self.path, self.fields().get(field or "", self.start))


_TABLE_HEADER = re.compile(r"\s*\[")


def _entry_lines(lines: list[str]) -> list[int]:
    """The line of each [[entity]] header, in order."""
    header = re.compile(r"\s*\[\[\s*entity\s*\]\]")
    return [n for n, line in enumerate(lines, start=1) if header.match(line)]


def _names(item: dict, field: str) -> list[str]:
    value = item.get(field)
    return [value] if isinstance(value, str) else list(value) if isinstance(value, list) else []


def _entry(item: dict, table: _Table, vocab: Vocabulary) -> AliasEntry:
    unknown = [name for name in item if name not in ENTRY_FIELDS]
    if unknown:
        raise table.error(f"unknown field {unknown[0]!r} (expected {', '.join(ENTRY_FIELDS)})", unknown[0])
    key = item.get("key")
    if key is None:
        raise table.error("entity without a key (expected key = \"family/slug\", e.g. person/juan-guaido)")
    if not isinstance(key, str) or not _KEY.match(key):
        raise table.error(f"bad key {key!r} (expected family/slug, e.g. person/juan-guaido)", "key")
    type_ = item.get("type")
    known = set(vocab.config.entities) | set(vocab.config.events) | set(EXTRA_TYPES) | {"Event"}
    if type_ not in known:
        raise table.error(f"unknown type {type_!r} for {key} (expected an annotation.conf type, Event or Role)", "type")
    family = "event" if type_ == "Event" else family_of(type_, vocab)
    if key.split("/", 1)[0] != family:
        raise table.error(f"key {key} does not match its type {type_} (expected {family}/...)", "key")
    label = item.get("label")
    if not isinstance(label, str) or not label.strip():
        what = "no label" if label is None else f"label {label!r}"
        raise table.error(f"{key} has {what} (expected label = \"...\", not blank)", "label")
    wikidata = item.get("wikidata")
    if wikidata is not None and not re.fullmatch(r"Q[1-9]\d*", str(wikidata)):
        raise table.error(f"bad wikidata id {wikidata!r} for {key} (expected Q followed by digits)", "wikidata")
    for where in ("aliases", "hidden"):
        names = item.get(where, [])
        if not isinstance(names, list) or not all(isinstance(x, str) for x in names):
            raise table.error(f"{key}: {where} is not a list of strings (expected {where} = [\"...\", ...])", where)
    for where in ("label", "aliases", "hidden"):
        if any(CONTROL_CHARACTERS.search(n) for n in _names(item, where)):
            raise table.error(f"{key}: control character in {where} (expected text without control characters)",
                              where)
    return AliasEntry(key, type_, label, tuple(item.get("aliases", [])), tuple(item.get("hidden", [])), wikidata,
                      table.start)
