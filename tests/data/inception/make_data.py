"""Write the INCEpTION test documents of this directory with cassis.

TypeSystem.xml declares the types an INCEpTION project exports in its
"UIMA CAS XMI" format: DKPro Core's Sentence, Token, NamedEntity (value,
identifier), POS and coreference chain, and custom layers as INCEpTION
generates them (`webanno.custom.*`): a span layer with primitive features and
a link feature (slots), two relation layers (Governor/Dependent, one with a
`label` feature) and a span layer with a `value` feature. bogota.xmi and
lisbon.xmi are two documents annotated on these layers; inception.zip holds
both with the type system, as INCEpTION's export does.

Run `python tests/data/inception/make_data.py [DIR]` to rewrite them (DIR
defaults to this directory); tests/formats/test_inception.py checks that the files
here are what this script writes.
"""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path

from cassis import Cas, TypeSystem
from lxml import etree

DKPRO = "de.tudarmstadt.ukp.dkpro.core.api."
SENTENCE = DKPRO + "segmentation.type.Sentence"
TOKEN = DKPRO + "segmentation.type.Token"
NAMED_ENTITY = DKPRO + "ner.type.NamedEntity"
POS = DKPRO + "lexmorph.type.pos.POS"
CHAIN = DKPRO + "coref.type.CoreferenceChain"
LINK = DKPRO + "coref.type.CoreferenceLink"
DEPENDENCY = DKPRO + "syntax.type.dependency.Dependency"
VENUE_CHAIN = "webanno.custom.VenueChain"
VENUE_LINK = "webanno.custom.VenueLink"
CLAIM = "webanno.custom.Claim"
CLAIM_LINK = "webanno.custom.ClaimSpeakersLink"
TOPIC = "webanno.custom.Topic"
EMPLOYMENT = "webanno.custom.Employment"
RELATION = "webanno.custom.Relation"
STRING, BOOLEAN, INTEGER = "uima.cas.String", "uima.cas.Boolean", "uima.cas.Integer"


def type_system() -> TypeSystem:
    """The types of an INCEpTION project with the layers above."""
    ts = TypeSystem()
    ts.create_type(SENTENCE)
    ts.create_type(TOKEN)
    ne = ts.create_type(NAMED_ENTITY)
    ts.create_feature(ne, "value", STRING)
    ts.create_feature(ne, "identifier", STRING)
    pos = ts.create_type(POS)
    ts.create_feature(pos, "PosValue", STRING)
    _chain_layer(ts, CHAIN, LINK)
    dependency = ts.create_type(DEPENDENCY)
    ts.create_feature(dependency, "Governor", TOKEN)
    ts.create_feature(dependency, "Dependent", TOKEN)
    ts.create_feature(dependency, "DependencyType", STRING)
    _chain_layer(ts, VENUE_CHAIN, VENUE_LINK)
    slot = ts.create_type(CLAIM_LINK, "uima.cas.TOP")
    ts.create_feature(slot, "role", STRING)
    ts.create_feature(slot, "target", "uima.tcas.Annotation")
    claim = ts.create_type(CLAIM)
    ts.create_feature(claim, "certain", BOOLEAN)
    ts.create_feature(claim, "stance", STRING)
    ts.create_feature(claim, "comment", STRING)
    ts.create_feature(claim, "speakers", "uima.cas.FSArray", elementType=CLAIM_LINK,
                      multipleReferencesAllowed=False)
    topic = ts.create_type(TOPIC)
    ts.create_feature(topic, "value", STRING)
    ts.create_feature(topic, "weight", INTEGER)
    ts.create_feature(topic, "tags", "uima.cas.StringArray")
    employment = ts.create_type(EMPLOYMENT)
    ts.create_feature(employment, "Governor", NAMED_ENTITY)
    ts.create_feature(employment, "Dependent", NAMED_ENTITY)
    ts.create_feature(employment, "since", STRING)
    relation = ts.create_type(RELATION)
    ts.create_feature(relation, "Governor", "uima.tcas.Annotation")
    ts.create_feature(relation, "Dependent", "uima.tcas.Annotation")
    ts.create_feature(relation, "label", STRING)
    return ts


def _chain_layer(ts: TypeSystem, chain_name: str, link_name: str) -> None:
    """A chain layer as INCEpTION declares it: a chain pointing to its first link, links to the next."""
    link = ts.create_type(link_name)
    ts.create_feature(link, "next", link_name)
    ts.create_feature(link, "referenceType", STRING)
    ts.create_feature(link, "referenceRelation", STRING)
    chain = ts.create_type(chain_name, "uima.cas.AnnotationBase")
    ts.create_feature(chain, "first", link_name)


class Doc:
    """A CAS under construction, with spans found by their text."""

    def __init__(self, ts: TypeSystem, text: str) -> None:
        self.ts, self.cas = ts, Cas(typesystem=ts)
        self.cas.sofa_string = text
        self.text = text
        for sentence in _sentences(text):
            self.add(SENTENCE, *sentence)
        self.tokens = [self.add(TOKEN, begin, end) for begin, end in _tokens(text)]

    def where(self, needle: str, nth: int = 0) -> tuple[int, int]:
        begin = -1
        for _ in range(nth + 1):
            begin = self.text.index(needle, begin + 1)
        return begin, begin + len(needle)

    def add(self, type_name: str, begin: int, end: int, **features):
        fs = self.ts.get_type(type_name)(begin=begin, end=end, **features)
        self.cas.add(fs)
        return fs

    def span(self, type_name: str, needle: str, nth: int = 0, **features):
        return self.add(type_name, *self.where(needle, nth), **features)

    def relation(self, type_name: str, governor, dependent, **features):
        return self.add(type_name, dependent.begin, dependent.end, Governor=governor,
                        Dependent=dependent, **features)

    def chain(self, links: list, chain_type: str = CHAIN) -> None:
        for link, following in zip(links, links[1:]):
            link.next = following
        self.cas.add(self.ts.get_type(chain_type)(first=links[0]))

    def claim(self, needle: str, speakers: list, **features):
        slot = self.ts.get_type(CLAIM_LINK)
        array = self.ts.get_type("uima.cas.FSArray")(
            elements=[slot(role=role, target=target) for role, target in speakers])
        return self.span(CLAIM, needle, speakers=array, **features)


def _sentences(text: str) -> list[tuple[int, int]]:
    spans, begin = [], 0
    for index, char in enumerate(text):
        if char in ".!?" and (index + 1 == len(text) or text[index + 1] == " "):
            spans.append((begin, index + 1))
            begin = index + 2
    return spans


def _tokens(text: str) -> list[tuple[int, int]]:
    spans, begin = [], None
    for index, char in enumerate(text + " "):
        if char.isspace() and begin is not None:
            spans.append((begin, index))
            begin = None
        elif not char.isspace() and begin is None:
            begin = index
    return spans


BOGOTA = ("Marta Peña 👩‍⚕️ works for Médicos Sin Fronteras in Bogotá. "
          "She told Radio Caracol: “we will stay until the clinic reopens.” "
          "Peña has led the team since 2019.")

LISBON = ("Em Lisboa 🇵🇹, João Gonçalves opened the Café Ñandú. "
          "He said the café in Lisboa is “a home for migrants”.  "
          "Gonçalves thanked ONU Migração.")


def bogota(ts: TypeSystem) -> Cas:
    doc = Doc(ts, BOGOTA)
    marta = doc.span(NAMED_ENTITY, "Marta Peña", value="PER",
                     identifier="http://www.wikidata.org/entity/Q5")
    msf = doc.span(NAMED_ENTITY, "Médicos Sin Fronteras", value="ORG",
                   identifier="https://www.wikidata.org/wiki/Q152133")
    doc.span(NAMED_ENTITY, "Bogotá", value="LOC", identifier="http://www.wikidata.org/entity/Q2841")
    radio = doc.span(NAMED_ENTITY, "Radio Caracol", value="ORG")
    pena = doc.span(NAMED_ENTITY, "Peña", 1, value="PER")
    doc.relation(EMPLOYMENT, marta, msf, since="2019")
    doc.relation(EMPLOYMENT, pena, msf)
    doc.claim("we will stay until the clinic reopens", [("Speaker", marta), ("Medium", radio)],
              certain=True, stance="hopeful", comment="said on air, in Spanish")
    doc.chain([doc.span(LINK, "Marta Peña"), doc.span(LINK, "Peña", 1)])
    return doc.cas


def lisbon(ts: TypeSystem) -> Cas:
    doc = Doc(ts, LISBON)
    lisboa = doc.span(NAMED_ENTITY, "Lisboa", value="LOC",
                      identifier="https://sws.geonames.org/2267057/")
    joao = doc.span(NAMED_ENTITY, "João Gonçalves", value="PER")
    cafe = doc.span(NAMED_ENTITY, "Café Ñandú", identifier="urn:example:cafe")
    doc.span(NAMED_ENTITY, "Lisboa", 1, value="LOC")
    doc.span(NAMED_ENTITY, "ONU Migração", value="ORG",
             identifier="http://dbpedia.org/resource/International_Organization_for_Migration")
    doc.add(NAMED_ENTITY, doc.text.index(".  ") + 1, doc.text.index(".  ") + 3, value="PER")
    doc.relation(RELATION, cafe, lisboa, label="LocatedIn")
    doc.relation(RELATION, joao, cafe, label="owner of")
    tags = ts.get_type("uima.cas.StringArray")(elements=["housing", "labour market",
                                                           "http://www.wikidata.org/entity/Q177626"])
    doc.span(TOPIC, "a home for migrants", value="migration policy", weight=3, tags=tags)
    doc.claim("a home for migrants", [("", joao)], certain=False)
    doc.span(POS, "opened", PosValue="VERB")
    opened, joao_token = (next(t for t in doc.tokens if (t.begin, t.end) == doc.where(word))
                          for word in ("opened", "Gonçalves"))
    doc.add(DEPENDENCY, joao_token.begin, joao_token.end, Governor=opened, Dependent=joao_token,
            DependencyType="nsubj")
    doc.chain([doc.span(VENUE_LINK, "Café Ñandú"), doc.span(VENUE_LINK, "the café")], VENUE_CHAIN)
    doc.chain([doc.span(LINK, "João Gonçalves", referenceType="name"),
               doc.span(LINK, "He", referenceType="pronoun", referenceRelation="anaphoric"),
               doc.span(LINK, "Gonçalves", 1, referenceType="name")])
    return doc.cas


def write(directory: Path) -> list[Path]:
    """Write TypeSystem.xml, bogota.xmi, lisbon.xmi and inception.zip into `directory`."""
    directory.mkdir(parents=True, exist_ok=True)
    ts = type_system()
    pretty = etree.tostring(etree.fromstring(ts.to_xml().encode("utf-8")), pretty_print=True,
                            xml_declaration=True, encoding="UTF-8").decode("utf-8")
    files = {"TypeSystem.xml": pretty, "bogota.xmi": bogota(ts).to_xmi(pretty_print=True),
             "lisbon.xmi": lisbon(ts).to_xmi(pretty_print=True)}
    for name, content in files.items():
        (directory / name).write_text(content, encoding="utf-8")
    archive = directory / "inception.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, content in files.items():
            info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
            zf.writestr(info, content, zipfile.ZIP_DEFLATED)
    return [directory / name for name in files] + [archive]


if __name__ == "__main__":
    write(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent)
