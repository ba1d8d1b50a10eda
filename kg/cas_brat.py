"""Map a loaded UIMA CAS (INCEpTION's layers) to brat standoff lines and an annotation.conf.

INCEpTION stores its layers as UIMA types: DKPro Core's NamedEntity (feature
`value` is the label, `identifier` a knowledge-base IRI), custom span layers
`webanno.custom.X`, relation layers (features Governor and Dependent), chain
layers (a `...Chain` with `first`, `...Link`s with `next`) and link features
(slots: an FSArray of `{role, target}`). docs/inception.md has the mapping
table. Offsets are the CAS's after cassis has turned UIMA's UTF-16 offsets
into code points, so they index the Python str of the sofa directly.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from cassis import Cas
from cassis.typesystem import FeatureStructure, Type

DKPRO = "de.tudarmstadt.ukp.dkpro.core.api."
NAMED_ENTITY = DKPRO + "ner.type.NamedEntity"
# Structure every INCEpTION export carries; nothing to map, nothing to report.
QUIET = {"uima.tcas.DocumentAnnotation", "uima.cas.AnnotationBase",
         DKPRO + "segmentation.type.Sentence", DKPRO + "segmentation.type.Token",
         DKPRO + "metadata.type.DocumentMetaData", DKPRO + "metadata.type.TagsetDescription",
         "de.tudarmstadt.ukp.clarin.webanno.api.type.CASMetadata"}
LABEL_FEATURES = ("value", "label")
BUILTIN_FEATURES = {"begin", "end", "sofa"}
PRIMITIVES = {"uima.cas." + n for n in ("String", "Boolean", "Integer", "Float", "Double", "Long", "Short", "Byte")}
WIKIDATA_HOSTS = {"wikidata.org", "www.wikidata.org", "m.wikidata.org"}
_WIKIDATA_PATH = re.compile(r"/(?:entity|wiki)/([QPL][1-9]\d*)")
_ATTRIBUTE_VALUE = re.compile(r"[\w.+-]+")
_BREAKS = re.compile(r"[\r\n\t\u2028\u2029\x0b\x0c\x1c-\x1e\x85]+")


@dataclass
class _Bound:
    """A T line in the making."""

    key: tuple  # (begin, end, type, xmi id): the order of the T lines
    type: str
    begin: int
    end: int
    event: bool = False
    link: bool = False  # a chain link with no entity on its span
    id: str = ""
    target: str = ""  # the id that attributes, notes and normalizations refer to (E for an event)


@dataclass
class _Brat:
    """Everything collected from one CAS before it is written out."""

    text: str
    ts: object = None
    warnings: list[str] = field(default_factory=list)
    bounds: list[_Bound] = field(default_factory=list)
    by_fs: dict[int, _Bound] = field(default_factory=dict)
    at: dict[tuple[int, int], _Bound] = field(default_factory=dict)  # the first entity span at (begin, end)
    events: dict[int, list[tuple[str, int]]] = field(default_factory=dict)  # trigger fs id -> (role, target fs id)
    relations: list[tuple[str, int, int, list[str]]] = field(default_factory=list)
    chains: list[list[int]] = field(default_factory=list)
    attributes: list[tuple[int, str, str | None]] = field(default_factory=list)  # fs id, name, value
    normalizations: list[tuple[int, str, str]] = field(default_factory=list)
    notes: list[tuple[object, str]] = field(default_factory=list)  # fs id (or R id), text
    roles: dict[tuple[str, str], set] = field(default_factory=lambda: defaultdict(set))  # (event, role) -> types


def cas_to_brat(cas: Cas) -> tuple[str, str, list[str]]:
    """The .ann text, the annotation.conf text and the warnings for one CAS."""
    brat = _Brat(cas.sofa_string or "", cas.typesystem)
    kinds = _classify(cas, brat)
    for fs in kinds["span"]:
        _add_span(brat, fs, link=False)
    for fs in kinds["link"]:
        _add_span(brat, fs, link=True)
    for fs in kinds["chain"]:
        _add_chain(brat, fs)
    _type_links(brat)
    _number(brat)
    for fs in kinds["span"] + kinds["link"]:
        _read_features(brat, fs)
    for fs in kinds["relation"]:
        _add_relation(brat, fs)
    _settle_attributes(brat)
    ann = "".join(line + "\n" for line in _ann_lines(brat))
    conf = _conf(brat)
    return ann, conf, list(dict.fromkeys(brat.warnings))


def short_name(type_name: str) -> str:
    return type_name.rsplit(".", 1)[-1]


def brat_name(name: str, brat: _Brat, what: str) -> str:
    """`name` as a brat type, role or attribute name (letters, digits, _ and -), reported when changed."""
    ascii_ = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    clean = re.sub(r"[^A-Za-z0-9_-]+", "_", ascii_).strip("_") or "X"
    if not clean[0].isalpha():
        clean = "X" + clean
    if clean != name:
        brat.warnings.append(f"{what} {name!r} written as {clean!r} (brat names are letters, digits, _ and -)")
    return clean


def _classify(cas: Cas, brat: _Brat) -> dict[str, list[FeatureStructure]]:
    """Sort the CAS's feature structures into the layer kinds kg reads; report the others."""
    ts = cas.typesystem
    kinds: dict[str, list] = {"span": [], "link": [], "relation": [], "chain": []}
    unknown: dict[str, int] = defaultdict(int)
    for fs in cas.select_all_fs():
        name = fs.type.name
        features = {f.name for f in fs.type.all_features}
        if name in QUIET or name.startswith("uima.cas."):
            continue
        annotation = ts.is_instance_of(name, "uima.tcas.Annotation")
        if not annotation and "first" in features:
            kinds["chain"].append(fs)
        elif not annotation:
            if not _is_slot(fs.type):
                unknown[name] += 1
        elif "next" in features and fs.type.get_feature("next").rangeType.name == name:
            kinds["link"].append(fs)
        elif name.startswith("webanno.custom.") and {"Governor", "Dependent"} <= features:
            kinds["relation"].append(fs)
        elif name.startswith("webanno.custom.") or _is_named_entity(ts, name):
            kinds["span"].append(fs)
        else:
            unknown[name] += 1
    for name, count in sorted(unknown.items()):
        brat.warnings.append(f"layer {name} not read ({count} annotations; kg reads NamedEntity, "
                             f"webanno.custom span, relation and chain layers)")
    return kinds


def _is_named_entity(ts, name: str) -> bool:
    return ts.contains_type(NAMED_ENTITY) and ts.is_instance_of(name, NAMED_ENTITY)


def _is_slot(type_: Type) -> bool:
    return {"role", "target"} <= {f.name for f in type_.all_features}


def _slot_features(brat: _Brat, type_: Type) -> list[str]:
    """Link features (INCEpTION's slots): FSArrays whose elements have a role and a target."""
    return [f.name for f in type_.all_features
            if f.rangeType.name == "uima.cas.FSArray" and f.elementType is not None
            # a loaded type system's elementType is a stub without features: look the type up
            and brat.ts.contains_type(f.elementType.name) and _is_slot(brat.ts.get_type(f.elementType.name))]


def _label(fs: FeatureStructure) -> str | None:
    for name in LABEL_FEATURES:
        feature = fs.type.get_feature(name)
        if feature is not None and feature.rangeType.name == "uima.cas.String" and fs.get(name):
            return fs.get(name)
    return None


def _add_span(brat: _Brat, fs: FeatureStructure, link: bool) -> None:
    begin, end = fs.begin, fs.end
    layer = short_name(fs.type.name)
    if not 0 <= begin < end <= len(brat.text) or not brat.text[begin:end].strip():
        brat.warnings.append(f"{layer} at {begin}-{end} skipped (covered text "
                             f"{brat.text[max(begin, 0):max(end, 0)]!r} is empty or whitespace-only)")
        return
    if link:
        if (begin, end) in brat.at:
            brat.by_fs[fs.xmiID] = brat.at[begin, end]
            return
        layer = layer[:-4] if layer.endswith("Link") and len(layer) > 4 else layer
        type_ = brat_name(layer, brat, "chain layer")
    else:
        label = _label(fs)
        type_ = brat_name(label, brat, f"{layer} label") if label else brat_name(layer, brat, "layer")
    bound = _Bound((begin, end, type_, fs.xmiID), type_, begin, end, event=bool(_slot_features(brat, fs.type)),
                   link=link)
    brat.bounds.append(bound)
    brat.by_fs[fs.xmiID] = bound
    if not bound.event:
        brat.at.setdefault((begin, end), bound)


def _type_links(brat: _Brat) -> None:
    """A link with no entity on its span ("he", "the café") is a mention of what its chain's
    entities name: it takes their type when they all have one, else keeps the chain layer's name."""
    for chain in brat.chains:
        bounds = [brat.by_fs[member] for member in chain]
        types = {bound.type for bound in bounds if not bound.link}
        if len(types) == 1:
            for bound in (b for b in bounds if b.link):
                bound.type = next(iter(types))
                bound.key = (bound.begin, bound.end, bound.type, bound.key[-1])


def _number(brat: _Brat) -> None:
    brat.bounds.sort(key=lambda b: b.key)
    events = 0
    for index, bound in enumerate(brat.bounds, start=1):
        bound.id = bound.target = f"T{index}"
        if bound.event:
            events += 1
            bound.target = f"E{events}"


def _read_features(brat: _Brat, fs: FeatureStructure) -> None:
    """Attributes, normalizations, notes and slots of one span or chain link."""
    if fs.xmiID not in brat.by_fs:
        return
    slots = _slot_features(brat, fs.type)
    label_used = _label(fs) is not None
    for feature in fs.type.all_features:
        name, value = feature.name, fs.get(feature.name)
        if name in BUILTIN_FEATURES or name in ("next", "Governor", "Dependent") or value is None:
            continue
        if name in LABEL_FEATURES and label_used and value == _label(fs):
            continue
        if name in slots:
            _read_slots(brat, fs, name, value)
        elif feature.rangeType.name in PRIMITIVES:
            _primitive(brat, fs.xmiID, name, value)
        elif feature.rangeType.name == "uima.cas.StringArray":
            _string_array(brat, fs.xmiID, name, [str(item) for item in value.elements or [] if item])
        else:
            brat.warnings.append(f"feature {fs.type.name}:{name} (a {feature.rangeType.name}) not read")


def _read_slots(brat: _Brat, fs: FeatureStructure, name: str, array) -> None:
    args = brat.events.setdefault(fs.xmiID, [])
    for slot in array.elements or []:
        target = slot.get("target")
        if target is None:
            brat.warnings.append(f"{short_name(fs.type.name)} slot {name!r} without a target skipped")
            continue
        args.append((slot.get("role") or name, target.xmiID))


def _primitive(brat: _Brat, key, name: str, value) -> None:
    """A primitive feature value: an IRI is a normalization, a word an attribute, other text a note."""
    if isinstance(value, bool):
        if value:
            brat.attributes.append((key, name, None))
        return
    text = str(value)
    reference = normalization(text)
    if reference is not None:
        brat.normalizations.append((key, *reference))
    elif _ATTRIBUTE_VALUE.fullmatch(text):
        brat.attributes.append((key, name, text))
    elif text.strip():
        brat.notes.append((key, f"{name}: {' '.join(text.split())}"))


def _string_array(brat: _Brat, key: int, name: str, items: list[str]) -> None:
    """A multi-valued string feature: each IRI a normalization; the other values one attribute
    value if there is one word, else one note (brat gives an annotation one value per attribute)."""
    rest = [item for item in items if normalization(item) is None]
    for item in items:
        if item not in rest:
            _primitive(brat, key, name, item)
    if len(rest) == 1:
        _primitive(brat, key, name, rest[0])
    elif rest:
        brat.notes.append((key, f"{name}: {'; '.join(' '.join(item.split()) for item in rest)}"))


def normalization(value: str) -> tuple[str, str] | None:
    """(database, id) for a knowledge-base IRI: Wikidata items as Wikidata:Q42, any other
    http(s) IRI as <second-level domain label>:<path, query and fragment>; None otherwise."""
    if not re.match(r"https?://", value) or any(c.isspace() for c in value):
        return None
    parts = urlsplit(value)
    host = (parts.hostname or "").lower()
    if not host:
        return None
    wikidata = _WIKIDATA_PATH.fullmatch(parts.path)
    if host in WIKIDATA_HOSTS and wikidata:
        return "Wikidata", wikidata.group(1)
    labels = [label for label in host.split(".") if label]
    database = labels[-2] if len(labels) >= 2 else labels[0]
    reference = parts.path.strip("/") + (f"?{parts.query}" if parts.query else "") + (
        f"#{parts.fragment}" if parts.fragment else "")
    return database, reference or host


def _add_relation(brat: _Brat, fs: FeatureStructure) -> None:
    layer = short_name(fs.type.name)
    ends = [fs.get("Governor"), fs.get("Dependent")]
    bounds = [brat.by_fs.get(end.xmiID) if end is not None else None for end in ends]
    if None in bounds:
        brat.warnings.append(f"{layer} relation at {fs.begin}-{fs.end} skipped (its Governor or Dependent "
                             f"is not an annotation kg reads)")
        return
    label = _label(fs)
    type_ = brat_name(label, brat, f"{layer} label") if label else brat_name(layer, brat, "layer")
    notes = []
    for feature in fs.type.all_features:
        value = fs.get(feature.name)
        if feature.name in BUILTIN_FEATURES | {"Governor", "Dependent"} or value is None or value is False:
            continue
        if feature.name in LABEL_FEATURES and value == label:
            continue
        if feature.rangeType.name in PRIMITIVES:
            shown = "true" if value is True else " ".join(str(value).split())
            notes.append(f"{feature.name}: {shown}")
        else:
            brat.warnings.append(f"feature {fs.type.name}:{feature.name} (a {feature.rangeType.name}) not read")
    brat.relations.append((type_, ends[0].xmiID, ends[1].xmiID, notes))


def _add_chain(brat: _Brat, fs: FeatureStructure) -> None:
    members, seen, link = [], set(), fs.get("first")
    while link is not None and link.xmiID not in seen:
        seen.add(link.xmiID)
        if link.xmiID in brat.by_fs:
            members.append(link.xmiID)
        link = link.get("next") if link.type.get_feature("next") is not None else None
    brat.chains.append(members)


def _settle_attributes(brat: _Brat) -> None:
    """Names in brat's form; a name that has values somewhere writes a Boolean `true` as the value
    `true` (brat declares an attribute either binary or with a list of values, not both)."""
    named = [(key, brat_name(name, brat, "attribute"), value) for key, name, value in brat.attributes]
    valued = {name for _, name, value in named if value is not None}
    brat.attributes = [(key, name, "true" if value is None and name in valued else value)
                       for key, name, value in named]


def _ann_lines(brat: _Brat) -> list[str]:
    lines = [f"{b.id}\t{b.type} {_offsets(brat.text, b.begin, b.end)}\t{_covered(brat.text, b.begin, b.end)}"
             for b in brat.bounds]
    lines += _event_lines(brat)
    lines += _relation_lines(brat)
    for members in sorted(brat.chains, key=lambda m: [brat.by_fs[x].key for x in m]):
        ids = list(dict.fromkeys(brat.by_fs[x].id for x in members))
        if len(ids) > 1:
            lines.append("*\tEquiv " + " ".join(ids))
    lines += _attribute_lines(brat)
    for number, (key, database, reference) in enumerate(_by_target(brat, brat.normalizations), start=1):
        bound = brat.by_fs[key]
        lines.append(f"N{number}\tReference {bound.target} {database}:{reference}\t"
                     f"{_covered(brat.text, bound.begin, bound.end)}")
    lines += [f"#{number}\tAnnotatorNotes {target}\t{text}"
              for number, (target, text) in enumerate(_note_targets(brat), start=1)]
    return lines


def _by_target(brat: _Brat, items: list) -> list:
    return sorted(items, key=lambda item: (brat.by_fs[item[0]].key, item[1:]))


def _offsets(text: str, begin: int, end: int) -> str:
    """brat offsets, split into fragments at line breaks and tabs as brat splits multi-line spans."""
    fragments, start = [], begin
    for match in _BREAKS.finditer(text, begin, end):
        if match.start() > start:
            fragments.append(f"{start} {match.start()}")
        start = match.end()
    if end > start:
        fragments.append(f"{start} {end}")
    return ";".join(fragments)


def _covered(text: str, begin: int, end: int) -> str:
    return " ".join(part for part in _BREAKS.split(text[begin:end]) if part)


def _event_lines(brat: _Brat) -> list[str]:
    lines = []
    for bound in (b for b in brat.bounds if b.event):
        args, counts = [], defaultdict(int)
        for role, target in brat.events.get(bound.key[-1], []):
            argument = brat.by_fs.get(target)
            if argument is None:
                brat.warnings.append(f"{bound.type} slot {role!r} points to an annotation kg does not read; skipped")
                continue
            role = brat_name(role, brat, "role")
            counts[role] += 1
            args.append(f"{role}{counts[role] if counts[role] > 1 else ''}:{argument.target}")
            brat.roles[bound.type, role].add(argument.type)
        lines.append(f"{bound.target}\t{bound.type}:{bound.id}" + "".join(" " + a for a in args))
    return lines


def _relation_lines(brat: _Brat) -> list[str]:
    lines = []
    ordered = sorted(brat.relations, key=lambda r: (brat.by_fs[r[1]].key, brat.by_fs[r[2]].key, r[0]))
    for number, (type_, governor, dependent, notes) in enumerate(ordered, start=1):
        lines.append(f"R{number}\t{type_} Arg1:{brat.by_fs[governor].target} Arg2:{brat.by_fs[dependent].target}")
        brat.notes += [(f"R{number}", note) for note in notes]
    return lines


def _attribute_lines(brat: _Brat) -> list[str]:
    lines = []
    for number, (key, name, value) in enumerate(_by_target(brat, brat.attributes), start=1):
        lines.append(f"A{number}\t{name} {brat.by_fs[key].target}" + (f" {value}" if value is not None else ""))
    return lines


def _note_targets(brat: _Brat) -> list[tuple[str, str]]:
    spans = [(brat.by_fs[key].target, text) for key, text in _by_target(brat, [n for n in brat.notes
                                                                               if isinstance(n[0], int)])]
    return spans + [(key, text) for key, text in brat.notes if isinstance(key, str)]


def _conf(brat: _Brat) -> str:
    """annotation.conf declaring every type, relation, role and attribute the .ann uses."""
    events = sorted({b.type for b in brat.bounds if b.event})
    entities = sorted({b.type for b in brat.bounds if not b.event})
    out = ["[entities]", *entities, "", "[relations]",
           "<OVERLAP>\tArg1:<ENTITY>, Arg2:<ENTITY>, <OVL-TYPE>:<ANY>"]
    out += _relation_declarations(brat)
    out += ["", "[events]"]
    for event in events:
        roles = sorted((role, types) for (type_, role), types in brat.roles.items() if type_ == event)
        declared = ", ".join(f"{role}*:{'|'.join(sorted(types))}" for role, types in roles)
        out.append(f"{event}\t{declared}" if declared else event)
    out += ["", "[attributes]"] + _attribute_declarations(brat)
    return "\n".join(out) + "\n"


def _relation_declarations(brat: _Brat) -> list[str]:
    args: dict[str, tuple[set, set]] = {}
    for type_, governor, dependent, _ in brat.relations:
        pair = args.setdefault(type_, (set(), set()))
        pair[0].add(brat.by_fs[governor].type)
        pair[1].add(brat.by_fs[dependent].type)
    out = [f"{type_}\tArg1:{'|'.join(sorted(a1))}, Arg2:{'|'.join(sorted(a2))}"
           for type_, (a1, a2) in sorted(args.items())]
    members = {brat.by_fs[x].type for chain in brat.chains if len({brat.by_fs[y].id for y in chain}) > 1
               for x in chain}
    if members:
        types = "|".join(sorted(members))
        out.append(f"Equiv\tArg1:{types}, Arg2:{types}, <REL-TYPE>:symmetric-transitive")
    return out


def _attribute_declarations(brat: _Brat) -> list[str]:
    targets: dict[str, set] = defaultdict(set)
    values: dict[str, set] = defaultdict(set)
    for key, name, value in brat.attributes:
        bound = brat.by_fs[key]
        targets[name].add("<EVENT>" if bound.event else bound.type)
        if value is not None:
            values[name].add(value)
    return [f"{name}\tArg:{'|'.join(sorted(targets[name]))}"
            + (f", Value:{'|'.join(sorted(values[name]))}" if values[name] else "")
            for name in sorted(targets)]
