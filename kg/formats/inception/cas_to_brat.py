"""Collect brat standoff from a loaded UIMA CAS (INCEpTION's layers); kg.formats.brat.render writes it out.

INCEpTION stores its layers as UIMA types: DKPro Core's NamedEntity (feature
`value` is the label, `identifier` a knowledge-base IRI), custom span layers
`webanno.custom.X` (newer INCEpTION: `custom.X`), relation layers (features Governor and Dependent), chain
layers (a `...Chain` with `first`, `...Link`s with `next`) and link features
(slots: an FSArray of `{role, target}`). docs/inception.md has the mapping
table. Offsets are the CAS's after cassis has turned UIMA's UTF-16 offsets
into code points, so they index the Python str of the sofa directly.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from urllib.parse import urlsplit

from cassis import Cas
from cassis.typesystem import FeatureStructure, Type

from kg.formats.brat.render import Bound, Standoff, ann_lines, brat_name, clean_name, conf_text, settle_attributes
from kg.model import iris
from kg.model.entities.chain_types import chain_type
from kg.model.iris import WIKIDATA

DKPRO = "de.tudarmstadt.ukp.dkpro.core.api."
NAMED_ENTITY = DKPRO + "ner.type.NamedEntity"
SEM_PRED = DKPRO + "semantics.type.SemPred"  # a predicate (an event): `category` its frame, `arguments` its slots
SEM_ARG = DKPRO + "semantics.type.SemArg"  # an argument a SemPred's (or a custom layer's) slot points to
# Structure every INCEpTION export carries; nothing to map, nothing to report.
QUIET = {"uima.tcas.DocumentAnnotation", "uima.cas.AnnotationBase",
         DKPRO + "segmentation.type.Sentence", DKPRO + "segmentation.type.Token",
         DKPRO + "metadata.type.DocumentMetaData", DKPRO + "metadata.type.TagsetDescription",
         "de.tudarmstadt.ukp.clarin.webanno.api.type.CASMetadata"}
# INCEpTION's project schema, carried in its exports: each layer (its type name and display name) and each of
# its features; read as a check of the type system, which holds the same layers and features.
DEFINITIONS = "de.tudarmstadt.ukp.clarin.webanno.api.type."
LAYER_DEFINITION, FEATURE_DEFINITION = DEFINITIONS + "LayerDefinition", DEFINITIONS + "FeatureDefinition"
CUSTOM = ("webanno.custom.", "custom.")  # the prefixes of custom layers: WebAnno's and older INCEpTION's, newer INCEpTION's
LABEL_FEATURES = ("value", "label")
LABEL_BY_TYPE = {SEM_PRED: "category"}  # the feature that types a DKPro layer, where it is not `value`
BUILTIN_FEATURES = {"begin", "end", "sofa"}
PRIMITIVES = {"uima.cas." + n for n in ("String", "Boolean", "Integer", "Float", "Double", "Long", "Short", "Byte")}
WIKIDATA_HOSTS = {"wikidata.org", "www.wikidata.org", "m.wikidata.org"}
_WIKIDATA_PATH = re.compile(r"/(?:entity|wiki)/([QPL][1-9]\d*)")
_ATTRIBUTE_VALUE = re.compile(r"[\w.+-]+")
# Normalization databases whose ids kg writes as these IRIs (kg export --format xmi) and reads back.
REFERENCE_IRIS = {"ISO8601": "https://en.wikipedia.org/wiki/ISO_8601#",
                  "Number": "https://en.wikipedia.org/wiki/Number#"}
KNOWN_HOSTS = {"geonames": "https://sws.geonames.org/{}/", "dbpedia": "https://dbpedia.org/{}"}
# An entity IRI as kg mints them, <base>id/<family>/<slug> (kg.model.iris.resource_iri), under any base.
_KG_ENTITY_IRI = re.compile(r"(https?://\S*?/)id/[^/\s?#]+/[^/\s?#]+")



def reference_iris() -> dict[str, str]:
    """IRI prefix of each normalization database whose ids kg writes as IRIs, under the current base."""
    return {"KG": iris.RESOURCE, **REFERENCE_IRIS}


def other_references() -> str:
    """IRI prefix of any other database's ids: <prefix><database>/<id>."""
    return iris.BASE + "reference/"


def cas_to_brat(cas: Cas) -> tuple[str, str, list[tuple[str, int, int | None]], dict[str, str]]:
    """The .ann text, the annotation.conf text, the warnings for one CAS: (what, how many times
    it was found (a layer not read: its annotations), the xmi:id of the feature structure it is about
    or None), and the display names of the conf's names (_display_names)."""
    brat = Standoff(cas.sofa_string or "", cas.typesystem)
    kinds = _classify(cas, brat)
    for fs in kinds["span"]:
        _add_span(brat, fs, link=False)
    for fs in kinds["link"]:
        _add_span(brat, fs, link=True)
    for fs in kinds["argument"]:
        _add_argument(brat, fs)
    for fs in kinds["chain"]:
        _add_chain(brat, fs)
    _type_links(brat)
    _number(brat)
    for fs in kinds["span"] + kinds["link"] + kinds["argument"]:
        _read_features(brat, fs)
    for fs in kinds["relation"]:
        _add_relation(brat, fs)
    settle_attributes(brat)
    ann = "".join(line + "\n" for line in ann_lines(brat))
    conf = conf_text(brat)
    warnings = [(what, count, None) for what, count in Counter(brat.warnings).items()] + \
        [(what, 1, xmi_id) for what, xmi_id in brat.located]
    return ann, conf, warnings, brat.labels


def short_name(type_name: str) -> str:
    return type_name.rsplit(".", 1)[-1]


def _classify(cas: Cas, brat: Standoff) -> dict[str, list[FeatureStructure]]:
    """Sort the CAS's feature structures into the layer kinds kg reads; report the others."""
    ts = cas.typesystem
    kinds: dict[str, list] = {"span": [], "link": [], "relation": [], "chain": [], "argument": []}
    unknown: dict[str, int] = defaultdict(int)
    definitions: list[FeatureStructure] = []
    for fs in cas.select_all_fs():
        name = fs.type.name
        features = {f.name for f in fs.type.all_features}
        if name in QUIET or name.startswith("uima.cas."):
            continue
        if name in (LAYER_DEFINITION, FEATURE_DEFINITION):
            definitions.append(fs)
            continue
        annotation = ts.is_instance_of(name, "uima.tcas.Annotation")
        if not annotation and "first" in features:
            kinds["chain"].append(fs)
        elif not annotation:
            if not _is_slot(fs.type):
                unknown[name] += 1
        elif "next" in features and fs.type.get_feature("next").rangeType.name == name:
            kinds["link"].append(fs)
        elif name.startswith(CUSTOM) and {"Governor", "Dependent"} <= features:
            kinds["relation"].append(fs)
        elif _is_a(ts, name, SEM_ARG):
            kinds["argument"].append(fs)
        elif name.startswith(CUSTOM) or _is_a(ts, name, NAMED_ENTITY) or _is_a(ts, name, SEM_PRED):
            kinds["span"].append(fs)
        else:
            unknown[name] += 1
    _check_definitions(brat, definitions)
    brat.labels = _display_names(definitions)
    for name, count in sorted(unknown.items()):
        brat.warnings += [f"layer {name} not read (expected a NamedEntity, SemPred, SemArg or custom span, "
                          f"relation or chain layer: kg reads those, not {_what_layer(name)})"] * count
    return kinds


def _check_definitions(brat: Standoff, definitions: list[FeatureStructure]) -> None:
    """INCEpTION's definitions of the project's layers and features, read as the schema they are: every
    layer defined has its type in the type system and every feature defined is a feature of its layer's
    type, else the annotations of that layer or feature cannot be what the project meant (warned, located).
    The display names (uiName) are the project's own labels of the same layers; kg names types as the
    type system does."""
    layers = {fs.xmiID: fs.get("name") for fs in definitions if fs.type.name == LAYER_DEFINITION}
    for fs in definitions:
        name = fs.get("name")
        if fs.type.name == LAYER_DEFINITION:
            if name and _layer_type(brat, name) is None:
                brat.located.append((f"layer {name} ({fs.get('uiName')}) is defined by the project but not in the "
                                     f"type system (expected the TypeSystem.xml exported with this document)", fs.xmiID))
            continue
        layer = fs.get("layer")
        type_ = _layer_type(brat, layers.get(layer.xmiID, "")) if layer is not None else None
        if name and type_ is not None and type_.get_feature(name) is None:
            brat.located.append((f"feature {name} of layer {layers[layer.xmiID]} is defined by the project but not "
                                 f"in the type system (expected the TypeSystem.xml exported with this document)",
                                 fs.xmiID))


def _display_names(definitions: list[FeatureStructure]) -> dict[str, str]:
    """The project's display names (uiName) of the names its layers and features take in brat: a
    layer's short name (the type of its annotations without a label, a relation layer's relation
    type, a chain layer's links) and a feature's name (an attribute); the first where two share one."""
    names: dict[str, str] = {}
    for fs in sorted(definitions, key=lambda fs: fs.type.name != LAYER_DEFINITION):  # layers first
        name, shown = fs.get("name"), fs.get("uiName")
        if not name or not shown:
            continue
        brat = clean_name(short_name(name) if fs.type.name == LAYER_DEFINITION else name)
        if shown.strip() and shown != brat:
            names.setdefault(brat, " ".join(shown.split()))
    return names


def _layer_type(brat: Standoff, layer: str) -> Type | None:
    """The type of a layer INCEpTION defines: the layer's own, or a chain layer's links (`<layer>Link`)."""
    for name in (layer, layer + "Link"):
        if name and brat.ts.contains_type(name):
            return brat.ts.get_type(name)
    return None


def _what_layer(name: str) -> str:
    """What a layer kg does not read holds, in a word: DKPro Core's package says it."""
    for package, what in (("lexmorph.type.pos", "parts of speech"), ("lexmorph.type.morph", "morphology"),
                          ("segmentation.type.Lemma", "lemmas"), ("syntax.type", "syntax"),
                          ("clarin.webanno.api.type", "INCEpTION's own project metadata")):
        if package in name:
            return what
    return "this layer's kind"


def _is_a(ts, name: str, layer: str) -> bool:
    """Whether `name` is the DKPro Core `layer` or one of its subtypes."""
    return ts.contains_type(layer) and ts.is_instance_of(name, layer)


def _is_slot(type_: Type) -> bool:
    return {"role", "target"} <= {f.name for f in type_.all_features}


def _slot_features(brat: Standoff, type_: Type) -> list[str]:
    """Link features (INCEpTION's slots): FSArrays whose elements have a role and a target."""
    return [f.name for f in type_.all_features
            if f.rangeType.name == "uima.cas.FSArray" and f.elementType is not None
            # a loaded type system's elementType is a stub without features: look the type up
            and brat.ts.contains_type(f.elementType.name) and _is_slot(brat.ts.get_type(f.elementType.name))]


def _label(fs: FeatureStructure) -> str | None:
    name = _label_feature(fs)
    return fs.get(name) if name else None


def _label_feature(fs: FeatureStructure) -> str | None:
    """The string feature whose value types the annotation, when it has one."""
    for name in (*LABEL_FEATURES, *(LABEL_BY_TYPE[t.name] for t in _lineage(fs.type) if t.name in LABEL_BY_TYPE)):
        feature = fs.type.get_feature(name)
        if feature is not None and feature.rangeType.name == "uima.cas.String" and fs.get(name):
            return name
    return None


def _lineage(type_: Type):
    """`type_` and its supertypes up to Annotation."""
    while type_ is not None and type_.name != "uima.tcas.Annotation":
        yield type_
        type_ = type_.supertype


def _add_argument(brat: Standoff, fs: FeatureStructure) -> None:
    """A SemArg is the annotation on its exact span when there is one (the NamedEntity a slot points
    to through it), else a mention of its own, typed SemArg."""
    if (fs.begin, fs.end) in brat.at:
        brat.by_fs[fs.xmiID] = brat.at[fs.begin, fs.end]
    else:
        _add_span(brat, fs, link=False)


def _add_span(brat: Standoff, fs: FeatureStructure, link: bool) -> None:
    begin, end = fs.begin, fs.end
    layer = short_name(fs.type.name)
    if not 0 <= begin < end <= len(brat.text) or not brat.text[begin:end].strip():
        links = _links_of(fs)
        lost = f"; its link{'s' if len(links) > 1 else ''} {', '.join(links)} not read with it" if links else ""
        brat.located.append((f"{layer} skipped: the text it covers is empty or white space{lost} (expected a span "
                             f"over some text)", fs.xmiID))
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
    bound = Bound((begin, end, type_, fs.xmiID), type_, begin, end, event=bool(_slot_features(brat, fs.type)),
                   link=link)
    brat.bounds.append(bound)
    brat.by_fs[fs.xmiID] = bound
    if not bound.event:
        brat.at.setdefault((begin, end), bound)
        brat.all_at[begin, end].append(bound)


def _links_of(fs: FeatureStructure) -> list[str]:
    """The knowledge-base links a span's features hold, as `db:id`, said when the span cannot be read."""
    values = (fs.get(f.name) for f in fs.type.all_features
              if f.name not in BUILTIN_FEATURES and f.rangeType.name == "uima.cas.String")
    return [":".join(reference) for value in values if value and (reference := normalization(str(value)))]


def _type_links(brat: Standoff) -> None:
    """A link with no entity on its span ("he", "the café") is a mention of what its chain's
    entities name: it takes the type the chain takes (kg.model.entities.chain_types: the most frequent among
    them, the first on a tie), and keeps the chain layer's name in a chain of links only."""
    for chain in brat.chains:
        bounds = [brat.by_fs[member] for member in chain]
        type_ = chain_type(bound.type for bound in bounds if not bound.link)
        if type_ is not None:
            for bound in (b for b in bounds if b.link):
                bound.type = type_
                bound.key = (bound.begin, bound.end, bound.type, bound.key[-1])


def _number(brat: Standoff) -> None:
    brat.bounds.sort(key=lambda b: b.key)
    events = 0
    for index, bound in enumerate(brat.bounds, start=1):
        bound.id = bound.target = f"T{index}"
        if bound.event:
            events += 1
            bound.target = f"E{events}"


def _read_features(brat: Standoff, fs: FeatureStructure) -> None:
    """Attributes, normalizations, notes and slots of one span or chain link."""
    if fs.xmiID not in brat.by_fs:
        return
    slots = _slot_features(brat, fs.type)
    label_feature = _label_feature(fs)
    for feature in fs.type.all_features:
        name, value = feature.name, fs.get(feature.name)
        if name in BUILTIN_FEATURES or name in ("next", "Governor", "Dependent") or value is None:
            continue
        if name == label_feature:
            continue
        if name in slots:
            _read_slots(brat, fs, name, value)
        elif feature.rangeType.name in PRIMITIVES:
            _primitive(brat, fs.xmiID, name, value)
        elif feature.rangeType.name == "uima.cas.StringArray":
            _string_array(brat, fs.xmiID, name, [str(item) for item in value.elements or [] if item])
        else:
            brat.warnings.append(f"feature {fs.type.name}:{name} (a {feature.rangeType.name}) not read")


def _read_slots(brat: Standoff, fs: FeatureStructure, name: str, array) -> None:
    args = brat.events.setdefault(fs.xmiID, [])
    for slot in array.elements or []:
        target = slot.get("target")
        if target is None:
            brat.located.append((f"{short_name(fs.type.name)} slot {name!r} without a target skipped (expected a "
                                 f"target annotation in each slot)", fs.xmiID))
            continue
        args.append((slot.get("role") or name, target.xmiID))


def _primitive(brat: Standoff, key, name: str, value) -> None:
    """A primitive feature value: an IRI is a normalization, a word an attribute, other text a note."""
    if isinstance(value, bool):
        if value:
            brat.attributes.append((key, name, None))
        return
    text = str(value)
    reference = normalization(text)
    _check_base(brat, key, text, reference)
    if reference is not None:
        brat.normalizations.append((key, *reference))
    elif _ATTRIBUTE_VALUE.fullmatch(text):
        brat.attributes.append((key, name, text))
    elif text.strip():
        brat.notes.append((key, f"{name}: {' '.join(text.split())}"))


def _check_base(brat: Standoff, key, text: str, reference: tuple[str, str] | None) -> None:
    """An entity IRI of another kg build (another base) is kept as a link to that IRI, with a warning:
    only this build's own IRIs (KG:<key>) make a mention that entity."""
    foreign = _KG_ENTITY_IRI.fullmatch(text)
    if foreign and (reference is None or reference[0] != "KG"):
        brat.located.append((f"identifier under another kg build's base {foreign[1]} kept as a link to that IRI, "
                             f"not to an entity of this build (expected {iris.RESOURCE}<family>/<name> to make "
                             f"a mention one of this build's entities)", key))


def _string_array(brat: Standoff, key: int, name: str, items: list[str]) -> None:
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
    for database, base in reference_iris().items():
        if value.startswith(base) and len(value) > len(base):
            return database, value[len(base):]
    other = other_references()
    if value.startswith(other) and "/" in value[len(other):].strip("/"):
        return tuple(value[len(other):].split("/", 1))
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


def reference_iri(database: str, reference: str) -> str:
    """The IRI `normalization` reads back as (database, reference): a Wikidata item's IRI, kg's
    resource IRI for KG, else an IRI under kg's base naming the database."""
    if database == "Wikidata":
        return WIKIDATA + reference
    if database in reference_iris():
        return reference_iris()[database] + reference
    if database in KNOWN_HOSTS:
        return KNOWN_HOSTS[database].format(reference)
    return f"{other_references()}{database}/{reference}"


def _add_relation(brat: Standoff, fs: FeatureStructure) -> None:
    layer = short_name(fs.type.name)
    ends = [fs.get("Governor"), fs.get("Dependent")]
    bounds = [brat.by_fs.get(end.xmiID) if end is not None else None for end in ends]
    if None in bounds:
        brat.located.append((f"{layer} relation skipped (expected its Governor and Dependent annotations kg "
                             f"reads)", fs.xmiID))
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


def _add_chain(brat: Standoff, fs: FeatureStructure) -> None:
    """The chain's links in order; a link on the span of annotations of other layers (a NamedEntity
    and a Sentiment on the same words) is each of them: one mention annotated on several layers."""
    members, seen, link = [], set(), fs.get("first")
    while link is not None and link.xmiID not in seen:
        seen.add(link.xmiID)
        if link.xmiID in brat.by_fs:
            members.append(link.xmiID)
            bound = brat.by_fs[link.xmiID]
            members += [other.key[-1] for other in brat.all_at.get((bound.begin, bound.end), ())
                        if other is not bound and other.key[-1] in brat.by_fs]
        link = link.get("next") if link.type.get_feature("next") is not None else None
    brat.chains.append(members)
