"""Read brat's annotation.conf: brat's configuration language, all of it, as brat reads it.

Sections `[entities]` (alias `[spans]`), `[relations]`, `[events]` and
`[attributes]`. In every section:

- a line's indentation (any white space) is its depth in a type hierarchy;
  a deeper line is a child of the last line one level up;
- a leading `!` marks an abstract type, which only groups others and
  cannot be annotated;
- `Name|Alias` gives a type display aliases (the first term is the one
  written in .ann files, with characters outside [A-Za-z0-9_-] replaced by
  `_`, as brat stores it);
- `<NAME>=value` defines a macro for the rest of its section;
- lines of hyphens only are separators;
- arguments follow the name: `Role:Type|Type` with brat's repetition marks
  `?` (0-1), `*` (0+), `+` (1+), `{n}` and `{n-m}`; the special arguments
  `<REL-TYPE>:symmetric-transitive`, `<OVL-TYPE>:contain|equal|cross|<ANY>`
  and `<NORM>:DB|DB`; `<INHERIT>` copies the parent's arguments;
- argument types may be the generic `<ENTITY>`, `<EVENT>`, `<RELATION>`
  (attributes) or `<ANY>`.

As in brat, an argument type names exactly that type: a subtype does not
fill a slot declared for its parent. Every problem is a ConfigError with the
file and line, all of a file's reported at once (InputErrors); what brat only
warns about (a type named in an argument list but declared nowhere, an unknown
section, an <OVERLAP> kind it does not know, a first name it stores otherwise)
is an InputWarning in the configuration's `warnings`, and the file is read past
it as brat reads it. `find_config` looks the configuration up the way brat
does: in the document's directory, then its parents up to the corpus root.
"""

from __future__ import annotations

import difflib
import re
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

from kg.errors import ConfigError, InputErrors, InputWarning
from kg.formats import limits

CONFIG_FILE = "annotation.conf"
MAPPING_FILE = "kg.toml"  # the alignment of the corpus's types with the ontology (kg.model.schema.corpus_vocabulary reads it)
SECTIONS = ("entities", "relations", "events", "attributes")
SECTION_ALIASES = {"spans": "entities"}
UNBOUNDED = sys.maxsize
OVERLAP = "<OVERLAP>"
ENTITY_NESTING = "ENTITY-NESTING"
SPECIAL_RELATIONS = (OVERLAP, ENTITY_NESTING)
OVERLAP_KINDS = ("contain", "equal", "cross", "<ANY>")
GENERIC_TYPES = ("<ANY>", "<ENTITY>", "<EVENT>", "<RELATION>")
RESERVED = ("ANY", "ENTITY", "RELATION", "EVENT", "NONE", "EMPTY", "REL-TYPE", "URL", "URLBASE", "UNICODE",
            "GLYPH-POS", "DEFAULT", "NORM", "OVERLAP", "OVL-TYPE", "INHERIT")
_SPECIAL_ARGS = {f"<{n}>" for n in ("REL-TYPE", "NORM", "OVL-TYPE", "URL", "URLBASE", "GLYPH-POS", "DEFAULT")}
_HEADER = re.compile(r"^\s*\[(.*)\]\s*$")
_SEPARATOR = re.compile(r"^\s*-+\s*$")
_MACRO = re.compile(r"^<([a-zA-Z_-]+)>=\s*(.*?)\s*$")
_LINE = re.compile(r"^(\s*)(\S+)(?:\s+(.*))?$")
_ARG = re.compile(r"^(\S*?):(\S*)$")
_REPEAT = re.compile(r"^(\S+?)(\{\S+\}|\?|\*|\+|)$")
_RANGE = re.compile(r"^\{(\d{1,6})(?:-(\d{1,6}))?\}$")


def storage_form(term: str) -> str:
    """The form brat writes a type in: characters outside [A-Za-z0-9_-] become '_'."""
    return re.sub(r"[^a-zA-Z0-9_-]", "_", term.replace(" ", "_"))


@dataclass(frozen=True)
class Role:
    """An argument slot: its name, the types that may fill it, and how many times."""

    name: str
    types: tuple[str, ...]
    minimum: int = 1
    maximum: int = 1

    @property
    def optional(self) -> bool:
        return self.minimum == 0

    @property
    def repeatable(self) -> bool:
        return self.maximum > 1

    def cardinality(self) -> str:
        """brat's notation of the count: '', '?', '*', '+', '{n}' or '{n-m}'."""
        bounds = (self.minimum, self.maximum)
        marks = {(1, 1): "", (0, 1): "?", (0, UNBOUNDED): "*", (1, UNBOUNDED): "+"}
        if bounds in marks:
            return marks[bounds]
        return f"{{{self.minimum}}}" if self.minimum == self.maximum else f"{{{self.minimum}-{self.maximum}}}"


@dataclass(frozen=True)
class TypeNode:
    """One declaration line of any section."""

    name: str
    labels: tuple[str, ...]
    parent: str | None
    abstract: bool
    roles: tuple[Role, ...]
    special: dict[str, tuple[str, ...]]
    line: int

    def role(self, name: str) -> Role | None:
        return next((r for r in self.roles if r.name == name), None)


@dataclass(frozen=True)
class RelationType:
    """A relation declaration (a type may be declared on several lines, one per argument signature)."""

    name: str
    arg1: Role
    arg2: Role
    symmetric: bool
    transitive: bool
    line: int


@dataclass(frozen=True)
class OverlapRule:
    """`<OVERLAP>	Arg1:A, Arg2:B, <OVL-TYPE>:contain|equal|cross|<ANY>`."""

    inner: tuple[str, ...]
    outer: tuple[str, ...]
    kinds: frozenset[str]
    line: int


@dataclass(frozen=True)
class AttributeType:
    """An attribute: the types it applies to and its values (None for a binary attribute)."""

    name: str
    targets: tuple[str, ...]
    values: tuple[str, ...] | None
    line: int


@dataclass(frozen=True)
class AnnotationConfig:
    """What an annotation.conf declares."""

    entities: dict[str, TypeNode]
    events: dict[str, TypeNode]
    relations: dict[str, tuple[RelationType, ...]]
    attributes: dict[str, AttributeType]
    overlaps: tuple[OverlapRule, ...] = ()
    relation_nodes: dict[str, TypeNode] = field(default_factory=dict)
    path: str = CONFIG_FILE
    warnings: tuple[InputWarning, ...] = ()  # what brat only warns about: read past, reported with the build
    undeclared: frozenset[str] = frozenset()  # types named in argument lists, declared nowhere (read as the document's own)
    comments: dict[tuple[str, str], str] = field(default_factory=dict)  # (section, name) -> the comment above it
    labels: dict[str, str] = field(default_factory=dict)  # name -> its display name (INCEpTION's uiName)

    @property
    def parents(self) -> dict[str, str | None]:
        """Entity type -> its parent in the hierarchy."""
        return {name: node.parent for name, node in self.entities.items()}

    @property
    def entity_types(self) -> list[str]:
        return list(self.entities)

    def usable(self, type_: str) -> bool:
        """Whether a text-bound annotation may have this type (declared, not abstract)."""
        node = self.entities.get(type_) or self.events.get(type_)
        return node is not None and not node.abstract

    def ancestors(self, type_: str) -> list[str]:
        """The type itself and every ancestor (entity or event hierarchy), most specific first."""
        nodes = self.events if type_ in self.events else self.entities
        chain: list[str] = []
        current: str | None = type_
        while current is not None and current not in chain:
            chain.append(current)
            current = nodes[current].parent if current in nodes else None
        return chain

    def top(self, type_: str) -> str:
        return self.ancestors(type_)[-1]

    def matches(self, type_: str, allowed: tuple[str, ...]) -> bool:
        """Whether an annotation of `type_` may fill a slot declared for `allowed` (brat's rule:
        the exact type, or a generic one)."""
        return (type_ in allowed or "<ANY>" in allowed
                or ("<EVENT>" in allowed and type_ in self.events)
                or ("<ENTITY>" in allowed and type_ in self.entities)
                or ("<RELATION>" in allowed and type_ in self.relations))

    def equiv_types(self) -> list[str]:
        """Relation types that brat treats as equivalences (symmetric and transitive)."""
        return [n for n, decls in self.relations.items() if any(d.symmetric and d.transitive for d in decls)]

    def overlap_allowed(self, inner: str, outer: str, kind: str) -> bool:
        """Whether two entity spans of these types may overlap so ('contain', 'equal', 'cross')."""
        for a, b in ((inner, outer), (outer, inner)):
            for rule in self.overlaps:
                if self.matches(a, rule.inner) and self.matches(b, rule.outer):
                    if "<ANY>" in rule.kinds or (kind in rule.kinds and (kind != "contain" or a == inner)):
                        return True
        return False


def find_config(directory: Path, root: Path) -> Path | None:
    """The annotation.conf that applies to documents of `directory`: its own, else the nearest
    parent's, not looking above the corpus root (brat's lookup)."""
    directory, root = Path(directory), Path(root)
    while True:
        candidate = directory / CONFIG_FILE
        if candidate.is_file():
            return candidate
        if directory == root or root not in directory.parents:
            return None
        directory = directory.parent


def load_config(path: Path) -> AnnotationConfig:
    """Parse annotation.conf; a line that cannot be read raises ConfigError with its line."""
    return parse_config(decode_utf8(limits.read_bounded(path, limits.CONFIG, ConfigError), path, ConfigError), path)


def decode_utf8(data: bytes, path: Path | str, error: type = ConfigError) -> str:
    """`data` as UTF-8; a byte that is not raises `error` at its line and column."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise error(f"not UTF-8: byte 0x{data[exc.start]:02x} cannot be decoded (expected UTF-8 text)",
                    path, line, column) from exc


def parse_config(text: str, path: Path | str = CONFIG_FILE) -> AnnotationConfig:
    """Parse the text of an annotation.conf (see the module docstring for the language). Every
    line that cannot be read is reported: one ConfigError, or InputErrors listing them all."""
    sections: dict[str, list[TypeNode]] = {name: [] for name in SECTIONS}
    section: str | None = None  # "": a section brat ignores
    lines: list[tuple[int, str]] = []
    warnings: list[InputWarning] = []
    errors: list[ConfigError] = []
    for number, raw in enumerate(text.split("\n"), start=1):
        header = _HEADER.match(raw)
        if header:
            if section:
                sections[section] += _read_hierarchy(lines, path, errors, warnings)
            section, lines = _section_name(header.group(1), path, number, warnings), []
        elif section is not None:
            lines.append((number, raw.rstrip("\r")))
        elif raw.strip() and not raw.lstrip().startswith("#"):
            errors.append(ConfigError(f"declaration {raw.strip()!r} before any section (expected [entities], "
                                      "[relations], [events] or [attributes] first)", path, number))
    if section:
        sections[section] += _read_hierarchy(lines, path, errors, warnings)
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise InputErrors(errors, warnings)
    return replace(_assemble(sections, str(path), warnings), comments=_comments(text.split("\n"), sections))


def _comments(lines: list[str], sections: dict[str, list[TypeNode]]) -> dict[tuple[str, str], str]:
    """The comment of each declaration: the `#` lines right above its (first) line, joined, as kg's
    own annotation.conf documents its types. A blank line between leaves a declaration without one."""
    comments: dict[tuple[str, str], str] = {}
    for section, nodes in sections.items():
        for node in nodes:
            above: list[str] = []
            number = node.line - 1
            while number >= 1 and lines[number - 1].lstrip().startswith("#"):
                above.insert(0, lines[number - 1].strip().lstrip("#").strip())
                number -= 1
            text = " ".join(line for line in above if line)
            if text:
                comments.setdefault((section, node.name), text)
    return comments


def _section_name(name: str, path: Path | str, number: int, warnings: list[InputWarning]) -> str:
    """The section a header opens; "" for one brat does not know (it warns and ignores its lines)."""
    name = SECTION_ALIASES.get(name.strip(), name.strip())
    if name not in SECTIONS:
        warnings.append(InputWarning(f"unknown section [{name}], its lines not read (expected "
                                     f"{', '.join('[' + s + ']' for s in SECTIONS)}; [spans] is read as "
                                     "[entities])", path, number))
        return ""
    return name


def _read_hierarchy(lines: list[tuple[int, str]], path: Path | str, errors: list[ConfigError],
                    warnings: list[InputWarning]) -> list[TypeNode]:
    """The declarations of one section, with macros expanded and parents resolved; a line that
    cannot be read goes to `errors` and the others are read on (its children under its name)."""
    nodes: list[TypeNode] = []
    last_at_depth: dict[int, tuple[str, list[str]]] = {}
    macros: dict[str, str] = {}
    for number, line in lines:
        if not line.strip() or line.lstrip().startswith("#") or _SEPARATOR.match(line):
            continue
        try:
            _read_declaration(line, number, nodes, last_at_depth, macros, path)
            _check_storage_form(nodes, line, number, path, warnings)
        except ConfigError as exc:
            errors.append(exc)
    return nodes


def _check_storage_form(nodes: list[TypeNode], line: str, number: int, path: Path | str,
                        warnings: list[InputWarning]) -> None:
    """brat's note on a type whose first name it cannot store (it writes the .ann with another)."""
    if not nodes or nodes[-1].line != number:
        return  # a macro
    first = _LINE.match(line).group(2).split("|")[0].lstrip("!")
    if nodes[-1].name not in (first, *SPECIAL_RELATIONS) and "<" not in first:
        warnings.append(InputWarning(f"type {first!r} is stored as {nodes[-1].name!r} in .ann files (expected a first "
                                     f"name of letters, digits, _ and -: brat stores no other)", path, number))


def _read_declaration(line: str, number: int, nodes: list[TypeNode], last_at_depth: dict, macros: dict[str, str],
                      path: Path | str) -> None:
    """Read one line of a section: a macro, or a declaration added to `nodes`."""
    macro = _MACRO.match(line)
    if macro:
        _define_macro(macros, macro.group(1), macro.group(2), path, number)
        return
    indent, terms, rest = _LINE.match(line).groups()
    depth = len(indent)
    for deeper in [d for d in last_at_depth if d > depth]:
        del last_at_depth[deeper]
    last_at_depth[depth] = (terms, [])  # until read: its children are not reported for its own fault
    line = _expand(line, macros, path, number)
    indent, terms, rest = _LINE.match(line).groups()
    if depth and depth - 1 not in last_at_depth:
        raise ConfigError(f"{terms!r} is indented {depth} but no type above it is indented {depth - 1} "
                          "(expected each child one level deeper than its parent)", path, number)
    args = _inherit(_split_args(rest), depth, last_at_depth, path, number)
    parent = last_at_depth[depth - 1][0] if depth else None
    node = _node(terms, args, parent, path, number)
    nodes.append(node)
    last_at_depth[depth] = (node.name, args)


def _define_macro(macros: dict[str, str], name: str, value: str, path: Path | str, number: int) -> None:
    if name in RESERVED:
        raise ConfigError(f"<{name}> is reserved (expected a macro name other than "
                          f"{', '.join('<' + r + '>' for r in RESERVED)})", path, number)
    macros[f"<{name}>"] = value


def _expand(line: str, macros: dict[str, str], path: Path | str, number: int) -> str:
    for name, value in macros.items():
        line = line.replace(name, value)
    for found in re.findall(r"<[^<>]*>", line):
        if found.strip("<>") not in RESERVED:
            known = ", ".join(macros) or "none"
            raise ConfigError(f"undefined macro {found} (expected one defined earlier in this section: {known})",
                              path, number)
    return line


def _split_args(rest: str | None) -> list[str]:
    return [a.strip() for a in (rest or "").split(",") if a.strip()]


def _inherit(args: list[str], depth: int, last_at_depth: dict, path: Path | str, number: int) -> list[str]:
    if "<INHERIT>" not in args:
        return args
    if not depth:
        raise ConfigError("<INHERIT> on a top-level type (expected it only under a parent)", path, number)
    expanded: list[str] = []
    for arg in args:
        expanded += last_at_depth[depth - 1][1] if arg == "<INHERIT>" else [arg]
    return expanded


def _node(terms: str, args: list[str], parent: str | None, path: Path | str, number: int) -> TypeNode:
    names = [t.strip() for t in terms.split("|") if t.strip()]
    if not names:
        raise ConfigError(f"empty type name in {terms!r} (expected NAME or NAME|ALIAS)", path, number)
    abstract = any(n.startswith("!") for n in names)
    names = [n.lstrip("!") for n in names]
    name = names[0] if names[0] in SPECIAL_RELATIONS else storage_form(names[0])
    if not name:
        raise ConfigError(f"empty type name in {terms!r} (expected NAME or NAME|ALIAS)", path, number)
    roles: list[Role] = []
    special: dict[str, tuple[str, ...]] = {}
    for arg in args:
        _read_arg(arg, roles, special, path, number)
    return TypeNode(name, tuple(names[1:]), parent, abstract, tuple(roles), special, number)


def _read_arg(arg: str, roles: list[Role], special: dict, path: Path | str, number: int) -> None:
    match = _ARG.match(arg)
    if not match:
        raise ConfigError(f"bad argument {arg!r} (expected ROLE:TYPE|TYPE, e.g. Theme+:Protein)", path, number)
    key, types = match.groups()
    if key in _SPECIAL_ARGS:
        if key in special:
            raise ConfigError(f"{key} given twice (expected it once per line)", path, number)
        special[key] = tuple(types.split("-") if key == "<REL-TYPE>" else types.split("|"))
        return
    if key.startswith("<"):
        raise ConfigError(f"unknown special argument {key} (expected one of {', '.join(sorted(_SPECIAL_ARGS))})",
                          path, number)
    repeat = _REPEAT.match(key)
    if not repeat:
        raise ConfigError(f"bad argument name {key!r} (expected a name with ?, *, +, {{n}} or {{n-m}})", path, number)
    name, mark = repeat.groups()
    minimum, maximum = _counts(mark, arg, path, number)
    if maximum > 1 and name[-1].isdigit():
        raise ConfigError(f"argument {name!r} ends with a digit and cannot repeat (expected a name such as "
                          "Theme: brat numbers repeats Theme2, Theme3)", path, number)
    if any(r.name == name for r in roles):
        raise ConfigError(f"argument {name!r} declared twice (expected each argument once)", path, number)
    allowed = tuple(t.strip() for t in types.split("|"))
    if not all(allowed):
        raise ConfigError(f"empty type in argument {arg!r} (expected ROLE:TYPE|TYPE)", path, number)
    roles.append(Role(name, allowed, minimum, maximum))


def _counts(mark: str, arg: str, path: Path | str, number: int) -> tuple[int, int]:
    simple = {"": (1, 1), "?": (0, 1), "*": (0, UNBOUNDED), "+": (1, UNBOUNDED)}
    if mark in simple:
        return simple[mark]
    match = _RANGE.match(mark)
    if not match:
        raise ConfigError(f"bad repetition {mark!r} in {arg!r} (expected {{n}} or {{n-m}})", path, number)
    low = int(match.group(1))
    high = int(match.group(2)) if match.group(2) is not None else low
    if high == 0 or low > high:
        raise ConfigError(f"impossible repetition {mark!r} in {arg!r} (expected 1 <= n, n <= m)", path, number)
    return low, high


def _assemble(sections: dict[str, list[TypeNode]], path: str, warnings: list[InputWarning]) -> AnnotationConfig:
    entities = _unique(sections["entities"], path, warnings)
    events = _unique(sections["events"], path, warnings)
    clash = sorted(set(entities) & set(events))
    if clash:
        raise ConfigError(f"{clash[0]!r} is both an entity and an event type (expected one of them)", path,
                          events[clash[0]].line)
    relations: dict[str, tuple[RelationType, ...]] = {}
    relation_nodes: dict[str, TypeNode] = {}
    overlaps: list[OverlapRule] = []
    for node in sections["relations"]:
        _relation(node, relations, relation_nodes, overlaps, path, warnings)
    attributes = _attributes(sections["attributes"], path, warnings)
    config = AnnotationConfig(entities, events, relations, attributes, tuple(overlaps), relation_nodes, path)
    undeclared = _undeclared_types(config, sections, path)
    warnings += [warning for _, warning in undeclared]
    if not warnings:
        return config
    return replace(config, warnings=tuple(warnings), undeclared=frozenset(type_ for type_, _ in undeclared))


def _unique(nodes: list[TypeNode], path: str, warnings: list[InputWarning]) -> dict[str, TypeNode]:
    """One declaration per type: brat reads a type declared twice, uses the last and warns; so does kg."""
    result: dict[str, TypeNode] = {}
    for node in nodes:
        if node.name in result:
            warnings.append(InputWarning(f"type {node.name!r} declared twice, the last declaration used (expected "
                                         f"once; first on line {result[node.name].line})", path, node.line))
        result[node.name] = node
    return result


def _attributes(nodes: list[TypeNode], path: str, warnings: list[InputWarning]) -> dict[str, AttributeType]:
    """The attributes, an attribute declared twice being both declarations at once (brat offers an
    attribute wherever one of its declarations applies), with a warning."""
    result: dict[str, AttributeType] = {}
    for node in nodes:
        attribute = _attribute(node, path)
        first = result.get(node.name)
        if first is not None:
            warnings.append(InputWarning(f"attribute {node.name!r} declared twice, both declarations used (expected "
                                         f"once; first on line {first.line})", path, node.line))
            attribute = _merged(first, attribute)
        result[node.name] = attribute
    return result


def _merged(first: AttributeType, second: AttributeType) -> AttributeType:
    targets = tuple(dict.fromkeys(first.targets + second.targets))
    if first.values is None or second.values is None:
        values = first.values or second.values
    else:
        values = tuple(dict.fromkeys(first.values + second.values))
    return AttributeType(first.name, targets, values, first.line)


def _relation(node: TypeNode, relations: dict, relation_nodes: dict, overlaps: list, path: str,
              warnings: list[InputWarning]) -> None:
    if node.name in SPECIAL_RELATIONS:
        overlaps += [rule for rule in (_overlap(node, path, warnings),) if rule]
        return
    relation_nodes.setdefault(node.name, node)
    if node.abstract and not node.roles:
        relations.setdefault(node.name, ())
        return
    if len(node.roles) != 2:
        raise ConfigError(f"relation {node.name} has {len(node.roles)} arguments (expected two, e.g. "
                          "Arg1:TYPE, Arg2:TYPE)", path, node.line)
    kinds = node.special.get("<REL-TYPE>", ("symmetric", "transitive") if node.name == "Equiv" else ())
    unknown = set(kinds) - {"symmetric", "transitive"}
    if unknown:
        raise ConfigError(f"unknown <REL-TYPE> {'-'.join(sorted(unknown))} (expected symmetric, transitive or "
                          "symmetric-transitive)", path, node.line)
    arg1, arg2 = node.roles
    declared = RelationType(node.name, arg1, arg2, "symmetric" in kinds, "transitive" in kinds, node.line)
    relations[node.name] = relations.get(node.name, ()) + (declared,)


def _overlap(node: TypeNode, path: str, warnings: list[InputWarning]) -> OverlapRule | None:
    """The rule of an <OVERLAP> (or ENTITY-NESTING) line; None for one without a kind brat knows
    (brat warns and ignores it, as it ignores kinds it does not know)."""
    if node.name == ENTITY_NESTING:
        kinds = frozenset({"contain"})
    else:
        given = node.special.get("<OVL-TYPE>", ())
        kinds = frozenset(given) & set(OVERLAP_KINDS)
        unknown = sorted(set(given) - kinds)
        if unknown or not kinds:
            what = f"unknown <OVL-TYPE> {'|'.join(unknown)}" if unknown else "<OVERLAP> without <OVL-TYPE>"
            warnings.append(InputWarning(f"{what}, {'not read' if kinds else 'rule not read'} (expected "
                                         f"<OVL-TYPE>:{'|'.join(OVERLAP_KINDS)}, one or more)", path, node.line))
        if not kinds:
            return None
    names = [r.name for r in node.roles]
    if names != ["Arg1", "Arg2"]:
        raise ConfigError(f"{node.name} needs Arg1 and Arg2 (expected Arg1:TYPE, Arg2:TYPE)", path, node.line)
    return OverlapRule(node.roles[0].types, node.roles[1].types, kinds, node.line)


def _attribute(node: TypeNode, path: str) -> AttributeType:
    target = node.role("Arg")
    if target is None:
        raise ConfigError(f"attribute {node.name} needs Arg (expected Arg:TYPE[, Value:V1|V2])", path, node.line)
    value = node.role("Value")
    return AttributeType(node.name, target.types, value.types if value else None, node.line)


def _undeclared_types(config: AnnotationConfig, sections: dict[str, list[TypeNode]],
                      path: str) -> list[tuple[str, InputWarning]]:
    """Each type an argument names that no section declares, with its warning. brat reads such a
    configuration and serves the corpus: no annotation of that type can be made or fill the slot."""
    known = set(config.entities) | set(config.events) | set(config.relations) | set(GENERIC_TYPES)
    found = []
    for section in ("relations", "events", "attributes"):
        for node in sections[section]:
            for role in node.roles:
                if section == "attributes" and role.name == "Value":
                    continue
                found += [(type_, InputWarning(f"{node.name} {role.name}: undeclared type {type_!r} (expected a type "
                                               f"of [entities] or [events], or <ENTITY>, <EVENT>, <ANY>: "
                                               f"{_nearest(type_, known)})", path, node.line))
                          for type_ in role.types if type_ not in known]
    return found


def _nearest(type_: str, known: set[str]) -> str:
    """The declared type a misspelt one most likely means, to name in a warning."""
    close = difflib.get_close_matches(type_, sorted(known - set(GENERIC_TYPES)), n=1)
    return f"did you mean {close[0]!r}?" if close else "no declared type is close"
