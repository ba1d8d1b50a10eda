"""Example queries of the query page: the questions a reader of these articles asks.

The endpoint predefines the prefixes of kg.model.iris.PREFIXES, so each query is
shown as it is written, without declarations; `portable` adds the PREFIX
lines it needs, for any other SPARQL endpoint. Each query reads the union
default graph (a bag), hence DISTINCT. tests/api/test_examples.py checks each
one's answer against what the articles say.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Iterable

from kg.api import lexer
from kg.model import iris
from kg.model.iris import prologue


@dataclass(frozen=True)
class Example:
    id: str
    title: str
    question: str
    body: str  # without prefix declarations
    group: str = "kg"  # "corpus" for those made from the served corpus's schema (api/corpus_examples.py)

    @property
    def query(self) -> str:
        """The query as the page shows and runs it (the endpoint predefines the prefixes)."""
        return self.body.strip() + "\n"

    @property
    def portable(self) -> str:
        """The query with the PREFIX lines it uses, for endpoints that predefine nothing."""
        return prologue(used_prefixes(self.body)) + "\n" + self.query


def used_prefixes(query: str) -> list[str]:
    """The predefined prefixes a query uses, in table order."""
    used = {t.text.partition(":")[0] for t in lexer.tokens(query) if t.kind == "pname"}
    return [p for p in iris.PREFIXES if p in used]


_LABEL = "skos:prefLabel|rdfs:label|nif:anchorOf"
# The default graph is the union of the named graphs, and a fact stated by many articles is a
# triple in each of their graphs: joined as they stand, the offices of 1,000 articles made 441,775
# rows before DISTINCT (26 s) and the timeline's label look-ups ran past 10 minutes. Each example
# takes the distinct facts in a sub-select first, then looks up their labels
# (tests/api/test_examples.py: the same answers as the plain form).

EXAMPLES: tuple[Example, ...] = (
    Example(
        "offices", "Who holds which office, where",
        "Who holds which office or rank, in which organization or state? Only what the articles "
        "assert: an office a source merely claims for someone is left out (see claims).",
        f"""
SELECT DISTINCT ?holderLabel ?role ?inLabel ?holder ?post WHERE {{
  {{ SELECT DISTINCT ?holder ?post ?r ?in WHERE {{ ?holder kgo:holds ?post . ?post kgo:role ?r ; kgo:postIn ?in }} }}
  ?r skos:prefLabel ?role .
  OPTIONAL {{ ?holder {_LABEL} ?holderLabel }}
  OPTIONAL {{ ?in skos:prefLabel ?inLabel }}
}}
ORDER BY ?inLabel ?role ?holderLabel
""",
    ),
    Example(
        "claims", "Who claims what, about whom",
        "What does each source claim (quoted opinions, accusations, recognitions, estimates), about "
        "whom, in which sentence? Claimed events are not asserted as facts.",
        f"""
SELECT ?claimantLabel ?sentence
       (GROUP_CONCAT(DISTINCT ?what; separator=" | ") AS ?claims)
       (GROUP_CONCAT(DISTINCT ?topicLabel; separator=", ") AS ?about)
       ?article
WHERE {{
  ?c a kgo:Claim ; kgo:claimant ?who ; kgo:trigger ?t ; prov:wasDerivedFrom ?document .
  ?t kgo:sentence ?s . ?s nif:anchorOf ?sentence .
  OPTIONAL {{ ?who {_LABEL} ?claimantLabel }}
  OPTIONAL {{ ?c kgo:content ?x . ?x kgo:quoteText|skos:prefLabel|rdfs:label ?what }}
  OPTIONAL {{ ?c kgo:topic ?tp . ?tp skos:prefLabel|rdfs:label ?topicLabel }}
  OPTIONAL {{ ?document dcterms:title ?article }}
}}
GROUP BY ?claimantLabel ?sentence ?article ?c
ORDER BY ?article ?claimantLabel
""",
    ),
    Example(
        "quotes", "Who said what, and where",
        "Who said what, in which sentence of which article?",
        f"""
SELECT DISTINCT ?speakerLabel ?quote ?sentence ?article ?speaker WHERE {{
  ?q a kgo:Quote ; kgo:quoteText ?quote ; kgo:saidBy ?speaker ; prov:wasDerivedFrom ?document .
  OPTIONAL {{ ?speaker {_LABEL} ?speakerLabel }}
  OPTIONAL {{ ?q kgo:mention ?m . ?m kgo:sentence ?s . ?s nif:anchorOf ?sentence }}
  OPTIONAL {{ ?document dcterms:title ?article }}
}}
ORDER BY ?article ?speakerLabel
""",
    ),
    Example(
        "figures", "Which source reports which figure",
        "Which source reports which figure, with its value (none when the text gives none: "
        "\"hundreds\"), qualifier, unit, what it counts and date? Claims from different sources stay apart.",
        f"""
SELECT DISTINCT ?figure ?value ?qualifier ?unit ?countsLabel ?sourceLabel ?asOf ?article ?source WHERE {{
  ?f a kgo:Figure ; rdfs:label ?figure ; prov:wasDerivedFrom ?document .
  OPTIONAL {{ ?f kgo:value ?value }}
  OPTIONAL {{ ?f kgo:qualifier ?qualifier }}
  OPTIONAL {{ ?f kgo:unit ?unit }}
  OPTIONAL {{ ?f kgo:counts ?counts . ?counts skos:prefLabel ?countsLabel }}
  ?f kgo:reportedBy ?source .
  OPTIONAL {{ ?source {_LABEL} ?sourceLabel }}
  OPTIONAL {{ ?f kgo:asOf ?date . OPTIONAL {{ ?date kgo:dateValue ?asOf }} }}
  OPTIONAL {{ ?document dcterms:title ?article }}
}}
ORDER BY ?sourceLabel DESC(?value)
""",
    ),
    Example(
        "timeline", "Events in date order",
        "What happened when, where, and who took part? The precision of each date, and whether the "
        "text states it or it was worked out from the article's date.",
        f"""
SELECT ?date ?precision ?basis ?type ?event ?places ?participants WHERE {{
  {{ SELECT DISTINCT ?e ?t ?date WHERE {{
      ?e a kgo:Event ; a ?t ; kgo:date ?date . FILTER(?t != kgo:Event && STRSTARTS(STR(?t), STR(kgo:))) }} }}
  OPTIONAL {{ ?e kgo:datePrecision ?precision }}
  OPTIONAL {{ ?e kgo:dateBasis ?basis }}
  BIND(STRAFTER(STR(?t), STR(kgo:)) AS ?type)
  OPTIONAL {{ ?e skos:prefLabel ?event }}
  OPTIONAL {{ SELECT ?e (GROUP_CONCAT(DISTINCT ?placeLabel; separator=", ") AS ?places)
             WHERE {{ ?e kgo:place ?place . ?place {_LABEL} ?placeLabel }} GROUP BY ?e }}
  OPTIONAL {{ SELECT ?e (GROUP_CONCAT(DISTINCT ?whoLabel; separator=", ") AS ?participants)
             WHERE {{ ?e kgo:agent|kgo:participant|kgo:patient ?who . ?who {_LABEL} ?whoLabel }} GROUP BY ?e }}
}}
GROUP BY ?date ?precision ?basis ?type ?event ?e ?places ?participants
ORDER BY ?date ?type
""",
    ),
    Example(
        "defections", "Who defected, from where to where",
        "Who defected or fled, from where to where, when, and which article tells?",
        f"""
SELECT DISTINCT ?kind ?whoLabel ?originLabel ?destinationLabel ?date ?article WHERE {{
  ?e a ?k ; prov:wasDerivedFrom ?document .
  VALUES ?k {{ kgo:Defection kgo:Flight }}
  BIND(STRAFTER(STR(?k), STR(kgo:)) AS ?kind)
  ?e kgo:agent ?who .
  OPTIONAL {{ ?who {_LABEL} ?whoLabel }}
  OPTIONAL {{ ?e kgo:origin ?o . ?o {_LABEL} ?originLabel }}
  OPTIONAL {{ ?e kgo:destination ?d . ?d {_LABEL} ?destinationLabel }}
  OPTIONAL {{ ?e kgo:date ?date }}
  OPTIONAL {{ ?document dcterms:title ?article }}
}}
ORDER BY ?kind ?date ?whoLabel
""",
    ),
    Example(
        "connections", "What an organization is connected to",
        "What is Human Rights Watch connected to, and how? Facts only: no provenance records, no mentions.",
        """
SELECT DISTINCT ?how ?direction ?label ?kind ?thing WHERE {
  { organization:human-rights-watch ?p ?thing . BIND("out" AS ?direction) }
  UNION
  { ?thing ?p organization:human-rights-watch . BIND("in" AS ?direction) }
  FILTER(isIRI(?thing) && STRSTARTS(STR(?p), STR(kgo:)) && ?p NOT IN (kgo:denotes, kgo:mentionCount))
  BIND(STRAFTER(STR(?p), STR(kgo:)) AS ?how)
  OPTIONAL { ?thing skos:prefLabel|dcterms:title ?label }
  OPTIONAL { ?thing a ?t . FILTER(STRSTARTS(STR(?t), STR(kgo:)) && ?t != kgo:Event) }
  BIND(STRAFTER(STR(?t), STR(kgo:)) AS ?kind)
}
ORDER BY ?how ?label
""",
    ),
    Example(
        "spellings", "Every spelling of a name",
        "How is each person's name written: the preferred label, listed aliases and misspellings, "
        "and every form found in the texts?",
        """
SELECT ?person ?label
       (GROUP_CONCAT(DISTINCT ?spelling; separator=" | ") AS ?spellings)
       (COUNT(DISTINCT ?spelling) AS ?count)
WHERE {
  ?e a kgo:Person ; skos:prefLabel ?label .
  BIND(STRAFTER(STR(?e), STR(kgr:)) AS ?person)
  { ?e skos:prefLabel|skos:altLabel|skos:hiddenLabel ?spelling }
  UNION
  { ?m kgo:denotes ?e ; nif:anchorOf ?spelling }
}
GROUP BY ?person ?label
ORDER BY DESC(?count) ?label
""",
    ),
    Example(
        "documents", "The articles",
        "Which articles are there, who published them and when, and how many annotated mentions does each hold?",
        """
SELECT ?article ?publisher ?date (COUNT(DISTINCT ?m) AS ?mentions) WHERE {
  ?document a kgo:NewsArticle ; dcterms:title ?article .
  OPTIONAL { ?document kgo:publisher/skos:prefLabel ?publisher }
  OPTIONAL { ?document dcterms:date ?date }
  OPTIONAL { ?m a kgo:Mention ; nif:referenceContext ?document }
}
GROUP BY ?article ?publisher ?date
ORDER BY ?date
""",
    ),
)


def as_json(chosen: Iterable[Example] = EXAMPLES) -> list[dict[str, str]]:
    """The examples as the query page embeds them (kg's own, unless others are given)."""
    return [dict(asdict(e), query=e.query, portable=e.portable) for e in chosen]
