"""Write an AnnotationConfig back as an annotation.conf in brat's configuration language.

The inverse of kg.formats.brat.conf.parse_config: every section in brat's layout (a TAB
per hierarchy level, `!` for abstract types, `Name|Alias`, arguments
`Role<cardinality>:Type|Type`, `<REL-TYPE>` on symmetric or transitive
relations, one `<OVERLAP>` line per overlap rule, attributes with
`Arg:` and `Value:`), so that `parse_config(render_config(c))` declares what
`c` declares and brat's own projectconfig reads it. Macros are not written
back: the parsed configuration holds them expanded.

`union_configs` joins the configurations of several documents (INCEpTION
documents each bring their own) into one that accepts every document's
annotations: a type declared in several keeps the union of its roles'
types, of its attribute targets and values.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path, PurePosixPath

from kg.formats.brat.conf import (
    CONFIG_FILE,
    OVERLAP,
    OVERLAP_KINDS,
    AnnotationConfig,
    AttributeType,
    OverlapRule,
    RelationType,
    Role,
    TypeNode,
    find_config,
    load_config,
)
from kg.model.document_ids import document_path, inside

INDENT = "\t"


def render_config(config: AnnotationConfig) -> str:
    """The text of an annotation.conf declaring exactly what `config` declares."""
    out = ["[entities]", *_hierarchy(config.entities, _commented(config, "entities", _node_line)), "",
           "[relations]", *_relation_lines(config), "",
           "[events]", *_hierarchy(config.events, _commented(config, "events", _node_line)), "",
           "[attributes]", *(line for attribute in config.attributes.values()
                             for line in _comment_lines(config, "attributes", attribute.name) + [_attribute_line(attribute)])]
    return "\n".join(out) + "\n"


def _comment_lines(config: AnnotationConfig, section: str, name: str) -> list[str]:
    """The comment parse_config kept above a declaration, as the line to write above it again."""
    comment = config.comments.get((section, name))
    return [f"# {comment}"] if comment else []


def _commented(config: AnnotationConfig, section: str, render):
    """`render` with the declaration's comment written on the line above it."""
    def lines(node) -> list[str]:
        return _comment_lines(config, section, node.name) + render(node)
    return lines


def _hierarchy(nodes: dict[str, TypeNode], render) -> list[str]:
    """Declarations in tree order: each node followed by its children, one level deeper."""
    children: dict[str | None, list[str]] = {}
    for name, node in nodes.items():
        parent = node.parent if node.parent in nodes else None
        children.setdefault(parent, []).append(name)
    lines: list[str] = []
    stack = [(name, 0) for name in reversed(children.get(None, []))]
    while stack:
        name, depth = stack.pop()
        lines += [INDENT * depth + line for line in render(nodes[name])]
        stack += [(child, depth + 1) for child in reversed(children.get(name, []))]
    return lines


def _terms(node: TypeNode) -> str:
    return ("!" if node.abstract else "") + "|".join((node.name, *node.labels))


def _role(role: Role) -> str:
    return f"{role.name}{role.cardinality()}:{'|'.join(role.types)}"


def _special(key: str, values: tuple[str, ...]) -> str:
    return f"{key}:{('-' if key == '<REL-TYPE>' else '|').join(values)}"


def _node_line(node: TypeNode) -> list[str]:
    args = [_role(r) for r in node.roles] + [_special(k, v) for k, v in node.special.items()]
    return [_terms(node) + (INDENT + ", ".join(args) if args else "")]


def _relation_lines(config: AnnotationConfig) -> list[str]:
    def render(node: TypeNode) -> list[str]:
        later = [_relation_declaration(node.name, d) for d in config.relations.get(node.name, ())[1:]]
        return _node_line(node) + later

    lines = _hierarchy(config.relation_nodes, _commented(config, "relations", render))
    overlap_lines = [_overlap_line(rule) for rule in config.overlaps]
    return lines + (_comment_lines(config, "relations", OVERLAP) if overlap_lines else []) + overlap_lines


def _relation_declaration(name: str, declared: RelationType) -> str:
    """A further argument signature of a relation already declared on an earlier line."""
    kinds = tuple(k for k, on in (("symmetric", declared.symmetric), ("transitive", declared.transitive)) if on)
    default = ("symmetric", "transitive") if name == "Equiv" else ()
    args = [_role(declared.arg1), _role(declared.arg2)]
    if kinds != default:
        args.append(_special("<REL-TYPE>", kinds))
    return f"{name}{INDENT}{', '.join(args)}"


def _overlap_line(rule: OverlapRule) -> str:
    kinds = [k for k in OVERLAP_KINDS if k in rule.kinds]
    return f"{OVERLAP}{INDENT}Arg1:{'|'.join(rule.inner)}, Arg2:{'|'.join(rule.outer)}, <OVL-TYPE>:{'|'.join(kinds)}"


def _attribute_line(attribute: AttributeType) -> str:
    args = [f"Arg:{'|'.join(attribute.targets)}"]
    if attribute.values:
        args.append(f"Value:{'|'.join(attribute.values)}")
    return f"{attribute.name}{INDENT}{', '.join(args)}"


def union_configs(configs: list[AnnotationConfig]) -> AnnotationConfig:
    """One configuration under which every document of every configuration verifies: types,
    relations and attributes of all, a name declared in several with the union of what each allows
    (roles' types, a relation's argument types, attribute targets and values)."""
    first, *rest = configs
    entities, events = dict(first.entities), dict(first.events)
    relations, relation_nodes = dict(first.relations), dict(first.relation_nodes)
    attributes, overlaps = dict(first.attributes), list(first.overlaps)
    comments, labels = dict(first.comments), dict(first.labels)
    for config in rest:
        comments.update({key: text for key, text in config.comments.items() if key not in comments})
        labels.update({name: shown for name, shown in config.labels.items() if name not in labels})
        _join(entities, config.entities, _join_nodes)
        _join(events, config.events, _join_nodes)
        _join(relation_nodes, config.relation_nodes, _join_nodes)
        _join(relations, config.relations, _join_relations)
        _join(attributes, config.attributes, _join_attributes)
        seen = {(r.inner, r.outer, r.kinds) for r in overlaps}
        overlaps += [r for r in config.overlaps if (r.inner, r.outer, r.kinds) not in seen]
    for name, declared in relations.items():  # a relation's first line declares its first signature
        if declared and name in relation_nodes:
            relation_nodes[name] = replace(relation_nodes[name], roles=(declared[0].arg1, declared[0].arg2))
    return AnnotationConfig(entities, events, relations, attributes, tuple(overlaps), relation_nodes, first.path,
                            comments=comments, labels=labels)


def _join(table: dict, other: dict, join) -> None:
    for name, value in other.items():
        table[name] = join(table[name], value) if name in table else value


def _union(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(a + b))


def _join_roles(a: tuple[Role, ...], b: tuple[Role, ...]) -> tuple[Role, ...]:
    """The roles of one type declared twice: a document valid under either declaration is valid
    under the join, so a role that only one of them names becomes optional."""
    in_a, in_b = {r.name for r in a}, {r.name for r in b}
    roles = {r.name: r if r.name in in_b else replace(r, minimum=0) for r in a}
    for role in b:
        old = roles.get(role.name)
        roles[role.name] = replace(role, minimum=0) if role.name not in in_a else Role(
            role.name, _union(old.types, role.types), min(old.minimum, role.minimum), max(old.maximum, role.maximum))
    return tuple(roles.values())


def _join_nodes(a: TypeNode, b: TypeNode) -> TypeNode:
    return replace(a, labels=_union(a.labels, b.labels), roles=_join_roles(a.roles, b.roles))


def _join_relations(a: tuple[RelationType, ...], b: tuple[RelationType, ...]) -> tuple[RelationType, ...]:
    if not a or not b:
        return a or b
    head, other = a[0], b[0]
    joined = replace(head, arg1=_join_roles((head.arg1,), (other.arg1,))[0],
                     arg2=_join_roles((head.arg2,), (other.arg2,))[0])
    return (joined, *a[1:], *(d for d in b[1:] if d not in a))


def _join_attributes(a: AttributeType, b: AttributeType) -> AttributeType:
    values = None if a.values is None and b.values is None else _union(a.values or (), b.values or ())
    return replace(a, targets=_union(a.targets, b.targets), values=values)


def save_document_configs(corpus_dir: Path, schema_dir: Path, configs: dict[str, AnnotationConfig]) -> None:
    """Save, for each directory holding documents that bring their own configuration (INCEpTION's
    layers), one annotation.conf accepting all of them and the brat documents there: the union of
    their configurations and of the annotation.conf that applies to the directory, as brat looks it up."""
    by_directory: dict[str, list[AnnotationConfig]] = {}
    for slug, config in sorted(configs.items()):
        by_directory.setdefault(PurePosixPath(document_path(slug)).parent.as_posix(), []).append(config)
    for directory, parts in by_directory.items():
        applies = find_config(corpus_dir / directory, corpus_dir)
        if applies is not None:
            parts = [load_config(applies), *parts]
        target = inside(schema_dir, PurePosixPath(directory, CONFIG_FILE), directory)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(render_config(union_configs(parts)), encoding="utf-8")
