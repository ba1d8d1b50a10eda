"""What kg makes of a corpus's entity and event types, said to its user: how each is aligned with
kgo (listed by `kg check`), and a starting kg.toml for the types left over (`kg check --suggest-toml`).

A type left unaligned still builds (a kgv: class of its own), but kg's semantics (people and
organizations in the network view, dates on the timeline) only reach the aligned ones.
"""

from __future__ import annotations

import difflib

from kg.formats.brat.conf import MAPPING_FILE
from kg.model.corpus_vocabulary import DEFAULT_KEY, Vocabulary
from kg.model.default_alignment import DOMAIN_CLASSES, ENTITY_CLASSES, EVENT_CLASSES

# The classes offered for a type, by kind (event or not): the general ones, then the others.
_GENERAL = {False: ["Person", "Group", "Organization", "Place", "Date", "Figure", "Quote"], True: ["Event", "Claim"]}


def types_by_alignment(vocab: Vocabulary) -> dict[str, list[str]]:
    """The corpus's entity and event types, sorted into: kgo (named as a kgo class), toml (aligned
    in kg.toml), default (aligned by the default table), none (entity types not aligned), events
    (event types not aligned: kgo:Event only)."""
    groups: dict[str, list[str]] = {"kgo": [], "toml": [], "default": [], "none": [], "events": []}
    for name in sorted({*vocab.config.entities, *vocab.config.events}):
        if name in vocab.alignment.terms:
            groups["toml"].append(name)
        elif name in DOMAIN_CLASSES:
            groups["kgo"].append(name)
        elif vocab.aligned(name):
            groups["default"].append(name)
        else:
            groups["events" if name in vocab.config.events else "none"].append(name)
    return groups


def alignment_listing(vocab: Vocabulary) -> str:
    """Lines saying how every entity and event type is aligned, for `kg check`."""
    groups = types_by_alignment(vocab)
    total = sum(len(names) for names in groups.values())
    lines = [f"types: {total} entity and event types; {len(groups['kgo'])} named as kgo classes"]
    lines += [f"  aligned in {MAPPING_FILE}: " + _pairs(vocab, groups["toml"])] if groups["toml"] else []
    if groups["default"]:
        lines.append("  aligned by default: " + _pairs(vocab, groups["default"]))
    if not vocab.alignment.defaults:
        lines.append(f"  default alignment off ({MAPPING_FILE}: {DEFAULT_KEY} = false)")
    if groups["none"]:
        lines.append(f"  entity types not aligned ({len(groups['none'])}): " + ", ".join(groups["none"]))
    if groups["events"]:
        lines.append(f"  event types only kgo:Event ({len(groups['events'])}): " + ", ".join(groups["events"]))
    if groups["none"] or groups["events"]:
        lines.append(f"  (kg check --suggest-toml writes a {MAPPING_FILE} to align them)")
    return "\n".join(lines)


def suggested_toml(vocab: Vocabulary) -> str:
    """A starting kg.toml: the default alignment in force, then one commented entry per type left
    over with its candidate kgo classes (a class of a close name, as Persons: Person, in the entry;
    else "?", which kg rejects until a class is chosen)."""
    groups = types_by_alignment(vocab)
    out = [f"# {MAPPING_FILE}: how this corpus's types are aligned with kg's ontology (docs/model.md).",
           "# Written by `kg check --suggest-toml`. Uncomment an entry and keep one class.", "[align]"]
    if groups["default"]:
        out.append(f"# Aligned by default (an entry here wins; {DEFAULT_KEY} = false turns the table off):")
        out += [f'#   {_key(n)} = "{vocab.aligned(n)}"' for n in groups["default"]]
    for group, kind in (("none", "Entity types"), ("events", "Event types (each a kgo:Event)")):
        if groups[group]:
            out.append(f"# {kind} left over; kgo classes for them: " + ", ".join(_candidates(group == "events")))
            out += [f'# {_key(n)} = "{_close(n, group == "events")}"' for n in groups[group]]
    return "\n".join(out) + "\n"


def _close(name: str, event: bool) -> str:
    """The candidate class of a close name (Persons: Person), else "?" (rejected until chosen)."""
    candidates = _candidates(event)
    close = difflib.get_close_matches(name.lower(), [c.lower() for c in candidates], n=1, cutoff=0.8)
    return next((c for c in candidates if [c.lower()] == close), "?")


def _candidates(event: bool) -> list[str]:
    general = _GENERAL[event]
    return general + sorted((EVENT_CLASSES if event else ENTITY_CLASSES) - set(general))


def _pairs(vocab: Vocabulary, names: list[str]) -> str:
    return ", ".join(f"{n} -> {vocab.aligned(n)}" for n in names)


def _key(name: str) -> str:
    """A TOML key for a type name: bare when it can be, else quoted."""
    bare = name.replace("-", "").replace("_", "").isalnum() and name.isascii()
    return name if bare else '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'
