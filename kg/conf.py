"""Read brat's annotation.conf: the declared entity, relation, event and attribute types.

Only the sections kg uses are read: [entities] (a tab-indented hierarchy),
[relations], [events] and [attributes]. Argument type lists accept a type or
any of its descendants.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from kg.errors import ConfigError

SECTIONS = ("entities", "relations", "events", "attributes")
_ROLE = re.compile(r"^([A-Za-z][A-Za-z_-]*)([?*+]?)$")


@dataclass(frozen=True)
class Role:
    name: str
    types: tuple[str, ...]
    optional: bool
    repeatable: bool


@dataclass(frozen=True)
class AnnotationConfig:
    """What annotation.conf declares."""

    parents: dict[str, str | None]
    relations: dict[str, tuple[tuple[str, ...], tuple[str, ...]]]
    events: dict[str, dict[str, Role]]
    attributes: dict[str, tuple[tuple[str, ...], tuple[str, ...] | None]]
    path: str = field(default="annotation.conf")

    @property
    def entity_types(self) -> list[str]:
        return list(self.parents)

    def ancestors(self, type_: str) -> list[str]:
        """The type itself and every ancestor, most specific first."""
        chain = []
        current: str | None = type_
        while current is not None:
            chain.append(current)
            current = self.parents.get(current)
        return chain

    def top(self, type_: str) -> str:
        return self.ancestors(type_)[-1]

    def matches(self, type_: str, allowed: tuple[str, ...]) -> bool:
        """Whether an annotation of `type_` may fill a slot that allows `allowed`."""
        if "<ANY>" in allowed:
            return True
        if "<EVENT>" in allowed and type_ in self.events:
            return True
        if "<ENTITY>" in allowed and type_ in self.parents:
            return True
        return type_ in self.parents and any(a in allowed for a in self.ancestors(type_))


def load_config(path: Path) -> AnnotationConfig:
    """Parse annotation.conf; a line that cannot be read raises ConfigError with its line."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read annotation configuration ({exc})", path) from exc
    parents: dict[str, str | None] = {}
    relations: dict = {}
    events: dict = {}
    attributes: dict = {}
    section = None
    stack: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        header = re.fullmatch(r"\[(\w+)\]", line.strip())
        if header:
            section = header.group(1)
            continue
        if section == "entities":
            _entity_line(line, parents, stack, path, number)
        elif section == "relations":
            name, args = _declaration(line, path, number)
            if name.startswith("<"):
                continue
            relations[name] = _relation_args(args, path, number)
        elif section == "events":
            name, args = _declaration(line, path, number)
            events[name] = {r.name: r for r in _roles(args, path, number)}
        elif section == "attributes":
            name, args = _declaration(line, path, number)
            attributes[name] = _attribute_args(args, path, number)
    return AnnotationConfig(parents, relations, events, attributes, str(path))


def _entity_line(line: str, parents: dict, stack: list, path: Path, number: int) -> None:
    depth = len(line) - len(line.lstrip("\t"))
    name = line.strip()
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]*", name):
        raise ConfigError(f"bad entity type {name!r} (expected a name, indented with tabs)", path, number)
    while stack and stack[-1][0] >= depth:
        stack.pop()
    parents[name] = stack[-1][1] if stack else None
    stack.append((depth, name))


def _declaration(line: str, path: Path, number: int) -> tuple[str, list[str]]:
    parts = line.strip().split(None, 1)
    if len(parts) != 2:
        raise ConfigError(f"bad declaration {line.strip()!r} (expected NAME<TAB>ARG:TYPE, ...)", path, number)
    return parts[0], [a.strip() for a in parts[1].split(",") if a.strip()]


def _split_arg(arg: str, path: Path, number: int) -> tuple[str, tuple[str, ...]]:
    if ":" not in arg:
        raise ConfigError(f"bad argument {arg!r} (expected ROLE:TYPE|TYPE)", path, number)
    role, types = arg.split(":", 1)
    return role, tuple(t.strip() for t in types.split("|"))


def _relation_args(args: list[str], path: Path, number: int):
    pairs = dict(_split_arg(a, path, number) for a in args)
    if "Arg1" not in pairs or "Arg2" not in pairs:
        raise ConfigError("relation needs Arg1 and Arg2 (expected Arg1:TYPE, Arg2:TYPE)", path, number)
    return pairs["Arg1"], pairs["Arg2"]


def _roles(args: list[str], path: Path, number: int) -> list[Role]:
    roles = []
    for arg in args:
        role, types = _split_arg(arg, path, number)
        match = _ROLE.match(role)
        if not match:
            raise ConfigError(f"bad role {role!r} (expected a name with optional ?, * or +)", path, number)
        name, mark = match.groups()
        roles.append(Role(name, types, mark in ("?", "*"), mark in ("*", "+")))
    return roles


def _attribute_args(args: list[str], path: Path, number: int):
    pairs = dict(_split_arg(a, path, number) for a in args)
    if "Arg" not in pairs:
        raise ConfigError("attribute needs Arg (expected Arg:TYPE[, Value:V1|V2])", path, number)
    return pairs["Arg"], pairs.get("Value")
