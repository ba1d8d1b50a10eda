"""A configuration taken from the annotations, for documents that no annotation.conf covers.

brat serves such documents with its built-in default configuration and marks every annotation its
verifier dislikes; corpora are often published without their annotation.conf. kg reads them with
the configuration their own .ann files imply, and says so in a warning:

- a text-bound type is an entity type, or an event type when an E line uses it as a trigger;
- a relation type takes the types its R lines join; an equivalence (`*` line) type is symmetric
  and transitive;
- an event type takes each role with the types it was seen with, any number of times;
- an attribute takes the values it was seen with (none: a binary attribute);
- any span may overlap any other, as nothing declares otherwise.

Lines that are not well formed are left out here: the reader reports them where they stand.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from kg.formats.brat.conf import OVERLAP, AnnotationConfig, parse_config

_ROLE_NUMBER = re.compile(r"\d+$")


@dataclass
class _Seen:
    """What the annotations use, type by type."""

    spans: set[str] = field(default_factory=set)
    triggers: set[str] = field(default_factory=set)
    relations: dict[str, tuple[set[str], set[str]]] = field(default_factory=lambda: defaultdict(lambda: (set(), set())))
    equivs: set[str] = field(default_factory=set)
    roles: dict[str, dict[str, set[str]]] = field(default_factory=lambda: defaultdict(lambda: defaultdict(set)))
    attributes: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))


def infer_config(ann_texts: list[str], path: Path | str) -> AnnotationConfig:
    """The configuration the annotations of `ann_texts` imply (see the module docstring)."""
    seen = _Seen()
    for text in ann_texts:
        _read(text, seen)
    return parse_config(config_text(seen), path)


def _read(text: str, seen: _Seen) -> None:
    kinds: dict[str, str] = {}  # annotation id -> its type, for the arguments of R and E lines
    lines = [line.split("\t") for line in text.splitlines() if "\t" in line]
    for fields in lines:
        if fields[0].startswith("T") and fields[1].split(" ")[0]:
            kinds[fields[0]] = fields[1].split(" ")[0]
            seen.spans.add(kinds[fields[0]])
    for fields in lines:
        head, words = fields[0], fields[1].split(" ")
        if head.startswith("E"):
            trigger_type, _, trigger = words[0].partition(":")
            seen.triggers.add(trigger_type)
            kinds[head] = trigger_type
            for argument in words[1:]:
                role, _, target = argument.partition(":")
                if role and target in kinds:
                    seen.roles[trigger_type][_ROLE_NUMBER.sub("", role)].add(kinds[target])
        elif head.startswith("R") and len(words) == 3:
            first, second = (w.partition(":")[2] for w in words[1:])
            if first in kinds and second in kinds:
                seen.relations[words[0]][0].add(kinds[first])
                seen.relations[words[0]][1].add(kinds[second])
        elif head.startswith("*") and words[0]:
            seen.equivs.add(words[0])
        elif head[:1] in ("A", "M") and len(words) >= 2:
            seen.attributes[words[0]].update(words[2:3])


def config_text(seen: _Seen) -> str:
    """An annotation.conf in brat's language for what was seen."""
    events = sorted(seen.triggers)
    entities = sorted(seen.spans - seen.triggers)
    lines = ["[entities]", *entities, "[events]"]
    lines += [_declared(name, (f"{role}*:{_types(types)}" for role, types in sorted(seen.roles[name].items())))
              for name in events]
    lines.append("[relations]")
    lines += [_declared(name, (f"Arg1:{_types(first)}", f"Arg2:{_types(second)}"))
              for name, (first, second) in sorted(seen.relations.items())]
    kinds = "<ENTITY>" + ("|<EVENT>" if events else "")
    lines += [_declared(name, (f"Arg1:{kinds}", f"Arg2:{kinds}", "<REL-TYPE>:symmetric-transitive"))
              for name in sorted(seen.equivs)]
    lines.append(f"{OVERLAP}\tArg1:<ENTITY>, Arg2:<ENTITY>, <OVL-TYPE>:<ANY>")
    lines.append("[attributes]")
    lines += [_declared(name, ("Arg:<ANY>", *([f"Value:{'|'.join(sorted(values))}"] if values else [])))
              for name, values in sorted(seen.attributes.items())]
    return "\n".join(lines) + "\n"


def _declared(name: str, arguments) -> str:
    arguments = ", ".join(arguments)
    return f"{name}\t{arguments}" if arguments else name


def _types(types: set[str]) -> str:
    return "|".join(sorted(types)) or "<ANY>"
