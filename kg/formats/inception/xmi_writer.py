"""Write a build as INCEpTION documents: `kg export --format xmi`, UIMA CAS XMI with dkpro-cassis.

The inverse of kg.formats.inception.cas_to_brat. Each document graph is read back into brat
standoff (kg.formats.brat.corpus_writer's writer) and laid out on INCEpTION's layers:

- entity mentions: DKPro Core `NamedEntity`, `value` = the brat type,
  `identifier` = the first normalization as an IRI (Wikidata item, kg
  resource...), further ones in `identifiers`;
- events: the span layer `webanno.custom.Event` (`value` = event type) with
  the link feature `arguments` (slots `{role, target}`);
- relations: the relation layer `webanno.custom.Relation` (Governor,
  Dependent, `label` = relation type);
- Equiv: the chain layer `webanno.custom.EquivChain`/`EquivLink`;
- attributes: features of the annotated layer (Boolean for binary ones,
  String for valued ones); notes `name: text` a String feature `name`,
  other notes the feature `note`;
- DKPro Core `Sentence` (kg.model.sentences) and `Token` annotations, so
  INCEpTION shows the text split.

One TypeSystem.xml (every feature any document needs) goes into each
directory holding documents, with each document's metadata record and the
corpus's configuration files, so `kg build` of the result reads the same
annotations. What XMI cannot hold is listed as warnings.
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from cassis import Cas, TypeSystem

from kg.formats.brat.ann import parse_ann
from kg.formats.brat.corpus_writer import documents_as_brat
from kg.formats.inception.cas_to_brat import DKPRO, NAMED_ENTITY, reference_iri
from kg.formats.inception.xmi import TYPE_SYSTEM
from kg.formats.records import Annotations, Event, id_order
from kg.model.document_ids import document_file, document_path
from kg.model.sentences import split_sentences
from kg.store.embedded import EmbeddedStore

SENTENCE = DKPRO + "segmentation.type.Sentence"
TOKEN = DKPRO + "segmentation.type.Token"
EVENT = "webanno.custom.Event"
EVENT_SLOT = "webanno.custom.EventArgumentsLink"
RELATION = "webanno.custom.Relation"
CHAIN, LINK = "webanno.custom.EquivChain", "webanno.custom.EquivLink"
STRING, BOOLEAN = "uima.cas.String", "uima.cas.Boolean"
RESERVED = {"begin", "end", "sofa", "value", "identifier", "identifiers", "arguments", "label", "Governor",
            "Dependent", "next", "role", "target", "first", "referenceType", "referenceRelation"}
_FEATURE = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
_NOTE = re.compile(r"^([A-Za-z][A-Za-z0-9_]*): (.+)$", re.S)
_TOKEN = re.compile(r"\w+|[^\w\s]")


@dataclass
class _Features:
    """The extra features each layer needs: name -> UIMA range type."""

    layers: dict[str, dict[str, str]] = field(default_factory=lambda: {NAMED_ENTITY: {}, EVENT: {}, RELATION: {}})
    warnings: list[str] = field(default_factory=list)

    def need(self, layer: str, name: str, range_: str, where: str) -> bool:
        if not _FEATURE.match(name) or (name in RESERVED and name not in ("referenceType", "referenceRelation")):
            self.warnings.append(f"{where}: {name!r} cannot be a feature of {layer} (a UIMA feature name is a "
                                 f"letter, then letters, digits and _, other than {', '.join(sorted(RESERVED))}); "
                                 "not written")
            return False
        known = self.layers[layer].get(name)
        if known is not None and known != range_:
            self.warnings.append(f"{where}: {name!r} is both binary and valued on {layer}; written as text")
            self.layers[layer][name] = STRING
            return True
        self.layers[layer][name] = range_
        return True


def export_xmi(schema: Path, store: EmbeddedStore, output: Path) -> tuple[int, list[str]]:
    """Write every document of a build under `output` (a new directory: `kg export` renames it into place
    when complete, kg.publish.targets) as .xmi, read against the configuration files
    the build kept in `schema` (kg.store.build_dirs.corpus_config_dir); returns the count and the warnings."""
    documents, features = [], _Features()
    for doc, config, lines in documents_as_brat(store, schema):
        annotations = parse_ann(Path(f"{document_path(doc.slug)}.ann"), "".join(line + "\n" for line in lines), doc.text, config)
        documents.append((doc, annotations))
        _collect_features(annotations, features, doc.slug)
    output.mkdir(parents=True, exist_ok=True)
    if schema.is_dir():
        shutil.copytree(schema, output, dirs_exist_ok=True,
                        ignore=lambda _, names: [n for n in names if n.lower() == TYPE_SYSTEM.lower()])
    typesystem = type_system(features)
    type_system_xml = typesystem.to_xml()
    for doc, annotations in documents:
        cas = _CasWriter(typesystem, doc.text, annotations).write()
        target = document_file(output, doc.slug, ".xmi")
        target.parent.mkdir(parents=True, exist_ok=True)
        cas.to_xmi(target)
        if not (target.parent / TYPE_SYSTEM).exists():
            (target.parent / TYPE_SYSTEM).write_text(type_system_xml, encoding="utf-8")
        document_file(output, doc.slug, ".json").write_text(json.dumps(doc.metadata(), indent=1, ensure_ascii=False) + "\n",
                                               encoding="utf-8")
    return len(documents), list(dict.fromkeys(features.warnings))


def _collect_features(ann: Annotations, features: _Features, slug: str) -> None:
    """The features this document's attributes and notes need, on the layer of what they annotate."""
    layers = _layer_of_ids(ann)
    for target, name, value in assignments(ann):
        if name not in ("identifier", "identifiers"):
            features.need(layers[target], name, BOOLEAN if value is True else STRING, slug)


def assignments(ann: Annotations) -> list[tuple[str, str, object]]:
    """(brat id, feature, value) for every normalization, attribute and note: normalizations as IRIs
    in `identifier` (further ones in `identifiers`), a note `identifier: x` (kg.formats.inception.cas_to_brat's form of an
    identifier that is no IRI) back in `identifier` when no normalization took it."""
    out: list[tuple[str, str, object]] = []
    references: dict[str, list[str]] = {}
    for norm in ann.normalizations:
        references.setdefault(norm.target, []).append(reference_iri(norm.db, norm.ref))
    for target, iris in references.items():
        out.append((target, "identifier", iris[0]))
        if len(iris) > 1:
            out.append((target, "identifiers", iris[1:]))
    out += [(attr.target, attr.name, True if attr.value is None else attr.value) for attr in ann.attributes]
    layers = _layer_of_ids(ann)
    for note in ann.notes:
        name, text = _note_feature(note.text)
        if name == "identifier" and (note.target in references or layers[note.target] == RELATION):
            name, text = "note", note.text
        if name == "identifier":
            references[note.target] = [text]  # a second such note is a plain note
        out.append((note.target, name, text))
    return out


def _layer_of_ids(ann: Annotations) -> dict[str, str]:
    layers = {tid: NAMED_ENTITY for tid in ann.textbounds}
    layers.update({event.id: EVENT for event in ann.events})
    layers.update({event.trigger: EVENT for event in ann.events})
    layers.update({rel.id: RELATION for rel in ann.relations})
    return layers


def _note_feature(text: str) -> tuple[str, str]:
    """A note `name: text` (as kg.formats.inception.cas_to_brat writes a feature) goes back to feature `name`; others to `note`."""
    match = _NOTE.match(text)
    if match and (match.group(1) not in RESERVED or match.group(1) == "identifier"):
        return match.group(1), match.group(2)
    return "note", text


def type_system(features: _Features) -> TypeSystem:
    """DKPro Core's Sentence, Token and NamedEntity, kg's event, relation and Equiv layers, with the
    features the documents need."""
    ts = TypeSystem()
    ts.create_type(SENTENCE)
    ts.create_type(TOKEN)
    entity = ts.create_type(NAMED_ENTITY)
    event = ts.create_type(EVENT)
    for layer in (entity, event):
        ts.create_feature(layer, "value", STRING)
        ts.create_feature(layer, "identifier", STRING)
        ts.create_feature(layer, "identifiers", "uima.cas.StringArray")
    slot = ts.create_type(EVENT_SLOT, "uima.cas.TOP")
    ts.create_feature(slot, "role", STRING)
    ts.create_feature(slot, "target", "uima.tcas.Annotation")
    ts.create_feature(event, "arguments", "uima.cas.FSArray", elementType=EVENT_SLOT, multipleReferencesAllowed=False)
    relation = ts.create_type(RELATION)
    ts.create_feature(relation, "Governor", "uima.tcas.Annotation")
    ts.create_feature(relation, "Dependent", "uima.tcas.Annotation")
    ts.create_feature(relation, "label", STRING)
    link = ts.create_type(LINK)
    ts.create_feature(link, "next", LINK)
    ts.create_feature(link, "referenceType", STRING)
    ts.create_feature(link, "referenceRelation", STRING)
    ts.create_feature(ts.create_type(CHAIN, "uima.cas.AnnotationBase"), "first", LINK)
    for layer, extra in features.layers.items():
        for name, range_ in sorted(extra.items()):
            ts.create_feature(ts.get_type(layer), name, range_)
    return ts


class _CasWriter:
    """One document's annotations on INCEpTION's layers."""

    def __init__(self, ts: TypeSystem, text: str, ann: Annotations) -> None:
        self.ts, self.ann = ts, ann
        self.cas = Cas(typesystem=ts)
        self.cas.sofa_string = text
        self.fs: dict[str, object] = {}  # brat id (T, E, R) -> feature structure

    def write(self) -> Cas:
        text = self.cas.sofa_string
        for span in split_sentences(text):
            self._add(SENTENCE, span.begin, span.end)
        for token in _TOKEN.finditer(text):
            self._add(TOKEN, token.start(), token.end())
        triggers: dict[str, list[Event]] = {}
        for event in self.ann.events:
            triggers.setdefault(event.trigger, []).append(event)
        for tid, bound in sorted(self.ann.textbounds.items(), key=lambda item: id_order(item[0])):
            if tid in triggers:  # brat lets events share a trigger; INCEpTION's span is the event
                for event in triggers[tid]:
                    self.fs[event.id] = self._add(EVENT, bound.begin, bound.end, value=event.type)
                self.fs[tid] = self.fs[triggers[tid][0].id]
            else:
                self.fs[tid] = self._add(NAMED_ENTITY, bound.begin, bound.end, value=bound.type)
        for event in self.ann.events:
            self._slots(event)
        for relation in sorted(self.ann.relations, key=lambda r: id_order(r.id)):
            governor, dependent = self.fs[relation.arg1], self.fs[relation.arg2]
            self.fs[relation.id] = self._add(RELATION, dependent.begin, dependent.end, Governor=governor,
                                             Dependent=dependent, label=relation.type)
        for equiv in self.ann.equivs:
            self._chain(equiv.members)
        self._features()
        return self.cas

    def _add(self, type_name: str, begin: int, end: int, **features):
        fs = self.ts.get_type(type_name)(begin=begin, end=end, **features)
        self.cas.add(fs)
        return fs

    def _slots(self, event: Event) -> None:
        slot = self.ts.get_type(EVENT_SLOT)
        elements = [slot(role=role, target=self.fs[target]) for role, target in event.args]
        self.fs[event.id].arguments = self.ts.get_type("uima.cas.FSArray")(elements=elements)

    def _chain(self, members: tuple[str, ...]) -> None:
        links = [self._add(LINK, self.fs[m].begin, self.fs[m].end) for m in members]
        for link, following in zip(links, links[1:]):
            link.next = following
        self.cas.add(self.ts.get_type(CHAIN)(first=links[0]))

    def _features(self) -> None:
        for target, name, value in assignments(self.ann):
            fs = self.fs[target]
            feature = fs.type.get_feature(name)
            if feature is None:
                continue  # reported when the type system was made
            if name == "identifiers":
                value = self.ts.get_type("uima.cas.StringArray")(elements=value)
            elif feature.rangeType.name == STRING and not isinstance(value, str):
                value = "true"
            setattr(fs, name, value)

