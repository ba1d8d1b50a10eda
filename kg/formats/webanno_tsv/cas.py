"""A UIMA CAS of a WebAnno TSV 3.x document, as INCEpTION holds it: the layers the header
declares as types (string features, slots as FSArrays of role/target links, chains as a
`...Chain` with `first` and `...Link`s with `next`, relations with Governor and
Dependent), with the document's sentences and tokens. kg.formats.inception.cas_to_brat
then reads it exactly as it reads an XMI export of the same document.
"""

from __future__ import annotations

from cassis import Cas, TypeSystem

from kg.formats.inception.offsets import new_cas
from kg.formats.webanno_tsv.annotations import Annotations, Relation, Span
from kg.formats.webanno_tsv.body import Body
from kg.formats.webanno_tsv.header import Column, Layer, TsvError

DKPRO = "de.tudarmstadt.ukp.dkpro.core.api."
SENTENCE, TOKEN = DKPRO + "segmentation.type.Sentence", DKPRO + "segmentation.type.Token"
ANNOTATION, STRING, FSARRAY = "uima.tcas.Annotation", "uima.cas.String", "uima.cas.FSArray"


def build_cas(columns: list[Column], body: Body, found: Annotations) -> Cas:
    """The CAS of the document: sentences, tokens, then the annotations, slots, chains and relations."""
    layers = list({id(c.layer): c.layer for c in columns}.values())
    cas = new_cas(type_system(layers), body.text)
    ts = cas.typesystem
    for begin, end in body.sentences:
        cas.add(ts.get_type(SENTENCE)(begin=begin, end=end))
    tokens = {}
    for row in body.rows:
        if "." not in row.unit:
            tokens[row.unit] = ts.get_type(TOKEN)(begin=row.begin, end=row.end)
            cas.add(tokens[row.unit])
    made = {key: _span(ts, span) for key, span in found.spans.items()}
    for fs in made.values():
        cas.add(fs)
    index = _Index(found, made, tokens)
    for key, span in found.spans.items():
        _fill_slots(cas, made[key], span, index)
    _chain(cas, found, made)
    for relation in found.relations:
        cas.add(_relation(ts, relation, index))
    return cas


def type_system(layers: list[Layer]) -> TypeSystem:
    """The types the header declares (and those its slots and relations point to), as INCEpTION has them."""
    ts = TypeSystem()
    for name in (SENTENCE, TOKEN, *(layer.type_name for layer in layers)):
        if not ts.contains_type(name):
            ts.create_type(name, supertypeName=ANNOTATION)
    for layer in layers:
        for target in (*(s.target_type for s in layer.slots), layer.base):
            if target and not ts.contains_type(target):
                ts.create_type(target, supertypeName=ANNOTATION)
    for layer in layers:
        _declare(ts, layer)
    return ts


def _declare(ts: TypeSystem, layer: Layer) -> None:
    own = ts.get_type(layer.type_name)
    for feature in layer.features:
        ts.create_feature(own, feature, STRING)
    for slot in layer.slots:
        link = ts.get_type(slot.link_type) if ts.contains_type(slot.link_type) else \
            ts.create_type(slot.link_type, supertypeName="uima.cas.TOP")
        if link.get_feature("role") is None:
            ts.create_feature(link, "role", STRING)
            ts.create_feature(link, "target", slot.target_type)
        ts.create_feature(own, slot.feature, FSARRAY, elementType=link)
    if layer.kind == "chain":
        ts.create_feature(own, "next", own)
        chain = ts.create_type(_chain_type(layer), supertypeName="uima.cas.AnnotationBase")
        ts.create_feature(chain, "first", own)
    if layer.kind == "relation":
        ts.create_feature(own, "Governor", layer.base)
        ts.create_feature(own, "Dependent", layer.base)


def _chain_type(layer: Layer) -> str:
    name = layer.type_name
    return (name[:-4] if name.endswith("Link") else name) + "Chain"


def _span(ts: TypeSystem, span: Span):
    values = {k: v for k, v in span.features.items() if v is not None}
    return ts.get_type(span.layer.type_name)(begin=span.begin, end=span.end, **values)


class _Index:
    """The annotations at each token or sub-token, to resolve slot targets and relation ends."""

    def __init__(self, found: Annotations, made: dict, tokens: dict) -> None:
        self.at: dict[str, list[tuple[str, int, object]]] = {}
        for key, span in found.spans.items():
            number = key[1] if isinstance(key[1], int) else 0
            for unit in span.units:
                self.at.setdefault(unit, []).append((span.layer.type_name, number, made[key]))
        self.units = set(self.at) | set(tokens)
        self.tokens = tokens

    def find(self, type_name: str, unit: str, number: int, line: int):
        if unit not in self.units:
            raise TsvError(f"reference to token {unit}, which has no row or annotation (expected "
                            "<sentence>-<token> of a row of the file)", line)
        if type_name == TOKEN:
            return self.tokens.get(unit)
        here = [(n, fs) for name, n, fs in self.at.get(unit, []) if type_name in (name, ANNOTATION)]
        chosen = [fs for n, fs in here if n == number] if number else [fs for _, fs in here]
        return chosen[0] if chosen else None


def _fill_slots(cas: Cas, fs, span: Span, index: _Index) -> None:
    ts = cas.typesystem
    for slot in span.layer.slots:
        links = []
        for feature, role, unit, number, line in span.slots:
            if feature == slot.feature:
                target = index.find(slot.target_type, unit, number, line)
                links.append(ts.get_type(slot.link_type)(role=role, target=target))
        if links:
            for link in links:
                cas.add(link)
            array = ts.get_type(FSARRAY)(elements=links)
            cas.add(array)
            fs.set(slot.feature, array)


def _chain(cas: Cas, found: Annotations, made: dict) -> None:
    chains: dict[tuple[str, int], list[tuple[int, object, Layer]]] = {}
    for key, span in found.spans.items():
        if span.link is not None:
            chains.setdefault((span.layer.type_name, span.link[0]), []).append((span.link[1], made[key], span.layer))
    for links in chains.values():
        links.sort(key=lambda item: item[0])
        for (_, fs, _), (_, following, _) in zip(links, links[1:]):
            fs.set("next", following)
        cas.add(cas.typesystem.get_type(_chain_type(links[0][2]))(first=links[0][1]))


def _relation(ts: TypeSystem, relation: Relation, index: _Index):
    base = relation.layer.base
    governor = index.find(base, *relation.governor, relation.line)
    dependent = index.find(base, *relation.dependent, relation.line)
    values = {k: v for k, v in relation.features.items() if v is not None}
    where = dependent if dependent is not None else index.tokens.get(relation.dependent[0])
    begin, end = (where.begin, where.end) if where is not None else (0, 0)
    return ts.get_type(relation.layer.type_name)(begin=begin, end=end, Governor=governor, Dependent=dependent,
                                                 **values)
