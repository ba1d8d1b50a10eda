"""What kg makes of a corpus's entity and event types, said to its user: how each is aligned with
kgo (listed by `kg check`), and a starting kg.toml for the types left over (`kg check --suggest-toml`).

A type left unaligned still builds (a kgv: class of its own), but kg's semantics (people and
organizations in the network view, dates on the timeline) only reach the aligned ones.
"""

from __future__ import annotations

import difflib
import re

from kg.formats.brat.conf import MAPPING_FILE
from kg.model.schema.corpus_vocabulary import DEFAULT_KEY, Vocabulary
from kg.model.schema.default_alignment import DOMAIN_CLASSES, ENTITY_CLASSES, ENTITY_ROOT, EVENT_CLASSES, default_class

# The classes offered for a type, by kind (event or not): the general ones, then the others.
_GENERAL = {False: ["Person", "Group", "Organization", "Place", "Date", "Figure", "Quote"], True: ["Event", "Claim"]}


def types_by_alignment(vocab: Vocabulary) -> dict[str, list[str]]:
    """The corpus's entity and event types, sorted into: kgo (named as a kgo class), toml (aligned
    in kg.toml), default (aligned by the default table), parent (aligned through a parent type),
    none (entity types not aligned), events (event types not aligned: kgo:Event only)."""
    groups: dict[str, list[str]] = {"kgo": [], "toml": [], "default": [], "parent": [], "none": [], "events": []}
    for name in sorted({*vocab.config.entities, *vocab.config.events}):
        if name in vocab.alignment.terms:
            groups["toml"].append(name)
        elif name in DOMAIN_CLASSES:
            groups["kgo"].append(name)
        elif vocab.aligned(name):
            groups["default"].append(name)
        elif _inherited(vocab, name):
            groups["parent"].append(name)
        else:
            groups["events" if name in vocab.config.events else "none"].append(name)
    return groups


def _inherited(vocab: Vocabulary, name: str) -> list[str]:
    """The kgo classes a type has through its parents (beyond kgo:Event, which every event type is)."""
    return [c for c in vocab.kgo_classes(name) if c != "Event"]


def alignment_listing(vocab: Vocabulary, *, has_toml: bool = False, advise: bool = True) -> str:
    """Lines saying how every entity and event type is aligned, for `kg check`; `advise`: end with
    how to align the types left over (not after `--suggest-toml`, which has just done so)."""
    groups = types_by_alignment(vocab)
    total = sum(len(names) for names in groups.values())
    lines = [f"types: {total} entity and event types; {len(groups['kgo'])} named as kgo classes"]
    lines += [f"  aligned in {MAPPING_FILE}: " + _pairs(vocab, groups["toml"])] if groups["toml"] else []
    if groups["default"]:
        lines.append("  aligned by default: " + _pairs(vocab, groups["default"]))
    if not vocab.alignment.defaults:
        lines.append(f"  default alignment off ({MAPPING_FILE}: {DEFAULT_KEY} = false)")
    if groups["parent"]:
        lines.append("  aligned through their parent: " + ", ".join(f"{n} -> {_inherited(vocab, n)[0]}"
                                                                    for n in groups["parent"]))
    if groups["none"]:
        lines.append(f"  entity types not aligned ({len(groups['none'])}): " + ", ".join(groups["none"]))
    if groups["events"]:
        lines.append(f"  event types only kgo:Event ({len(groups['events'])}): " + ", ".join(groups["events"]))
    if (groups["none"] or groups["events"]) and advise:
        lines.append(f"  (kg check --suggest-toml {'prints' if has_toml else 'writes'} a {MAPPING_FILE} aligning "
                     "each with its nearest kgo class)")
    return "\n".join(lines)


def suggested_toml(vocab: Vocabulary) -> str:
    """A starting kg.toml: the default alignment in force (in comments), then one entry per type
    left over aligning it with its nearest kgo class (nearest_class), the reason beside it."""
    groups = types_by_alignment(vocab)
    out = [f"# {MAPPING_FILE}: how this corpus's types are aligned with kg's ontology (docs/model.md).",
           "# Written by `kg check --suggest-toml`: each type left over is aligned with its nearest kgo class;",
           "# change an entry to another class, or delete it to leave the type unaligned.", "[align]"]
    if groups["default"]:
        out.append(f"# Aligned by default (an entry here wins; {DEFAULT_KEY} = false turns the table off):")
        out += [f'#   {_key(n)} = "{vocab.aligned(n)}"' for n in groups["default"]]
    for group, kind in (("none", "Entity types"), ("events", "Event types (each a kgo:Event)")):
        if groups[group]:
            out.append(f"# {kind} left over; kgo classes for them: " + ", ".join(_candidates(group == "events")))
            out += [_entry(vocab, name) for name in groups[group]]
    return "\n".join(out) + "\n"


def _entry(vocab: Vocabulary, name: str) -> str:
    """The line of a type left over: aligned with its nearest class, or, for a subtype that has no
    closer class than its parent's, a comment saying it goes under its parent."""
    cls, why = nearest_class(vocab, name)
    parent = vocab.config.ancestors(name)[1:2]
    if parent and cls in ("Event", ENTITY_ROOT):
        return f"# {_key(name)}: under its parent {parent[0]}"
    return f'{_key(name)} = "{cls}"  # {why}'


def nearest_class(vocab: Vocabulary, name: str) -> tuple[str, str]:
    """The kgo class a type left over is nearest to, and why: the class its name or one of its words
    names as the default table reads names (Location-Nominal: Place) or spells nearly (Persons:
    Person), else Event for an event type and Entity for an entity type."""
    event = name in vocab.config.events
    for word in _words(name):
        found = default_class(word, event) or _close(word, event)
        if found:
            return found, f"by its name ({word})" if word != name else "by its name"
    return ("Event", "no closer event class") if event else (ENTITY_ROOT, "no closer entity class")


def _words(name: str) -> list[str]:
    """The name, then its words: split at -, _, ., spaces and where lower case turns upper."""
    spaced = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name)
    return list(dict.fromkeys([name, *(w for w in re.split(r"[-_.\s]+", spaced) if len(w) > 1)]))


def _close(word: str, event: bool) -> str | None:
    """The candidate class of a nearly equal spelling (Persons, Organisation), if any."""
    candidates = _candidates(event)
    close = difflib.get_close_matches(word.lower(), [c.lower() for c in candidates], n=1, cutoff=0.9)  # Religion is no Region
    return next((c for c in candidates if [c.lower()] == close), None)


def _candidates(event: bool) -> list[str]:
    general = _GENERAL[event]
    return general + sorted((EVENT_CLASSES if event else ENTITY_CLASSES | {ENTITY_ROOT}) - set(general))


def _pairs(vocab: Vocabulary, names: list[str]) -> str:
    return ", ".join(f"{n} -> {vocab.aligned(n)}" for n in names)


def _key(name: str) -> str:
    """A TOML key for a type name: bare when it can be, else quoted."""
    bare = name.replace("-", "").replace("_", "").isalnum() and name.isascii()
    return name if bare else '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'
