"""Example queries of the query page: real questions about the corpus.

Each query reads the union default graph (a bag), hence DISTINCT. The query
page shows them with the ontology's prefixes declared; tests run every one on
the shipped corpus and check it returns rows.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from kg.iris import PREFIXES


@dataclass(frozen=True)
class Example:
    id: str
    title: str
    question: str
    body: str  # without prefix declarations

    @property
    def query(self) -> str:
        return prologue() + "\n" + self.body.strip() + "\n"


def prologue(names: list[str] | None = None) -> str:
    """PREFIX declarations for `names` (all of kg.iris.PREFIXES by default)."""
    chosen = names or list(PREFIXES)
    return "".join(f"PREFIX {p}: <{PREFIXES[p]}>\n" for p in chosen)


_LABEL = "skos:prefLabel|rdfs:label|nif:anchorOf"

EXAMPLES: tuple[Example, ...] = (
    Example(
        "membership", "Who belongs to which organization",
        "Which people and organizations are members of which organization, with the role when the text gives one?",
        f"""
SELECT DISTINCT ?memberLabel ?role ?organizationLabel ?member ?organization WHERE {{
  ?member kgo:memberOf ?organization .
  OPTIONAL {{ ?member {_LABEL} ?memberLabel }}
  OPTIONAL {{ ?organization {_LABEL} ?organizationLabel }}
  OPTIONAL {{
    ?membership a kgo:Membership ; kgo:member ?member ; kgo:organization ?organization ; kgo:role ?r .
    ?r skos:prefLabel ?role .
  }}
}}
ORDER BY ?organizationLabel ?memberLabel
""",
    ),
    Example(
        "quotes", "Who said what, and where",
        "Every quotation with its speaker and the article (and sentence) it comes from.",
        f"""
SELECT DISTINCT ?speakerLabel ?quote ?article ?document WHERE {{
  ?q a kgo:Quote ; kgo:quoteText ?quote ; kgo:saidBy ?speaker ; prov:wasDerivedFrom ?document .
  OPTIONAL {{ ?speaker {_LABEL} ?speakerLabel }}
  OPTIONAL {{ ?document dcterms:title ?article }}
}}
ORDER BY ?speakerLabel ?article
""",
    ),
    Example(
        "figures", "Which source reports which figure",
        "Every figure the articles attribute to a source, with its value, qualifier and date. "
        "Claims from different sources stay apart.",
        f"""
SELECT DISTINCT ?figure ?value ?qualifier ?sourceLabel ?asOf ?article WHERE {{
  ?f a kgo:Figure ; rdfs:label ?figure ; prov:wasDerivedFrom ?document .
  OPTIONAL {{ ?f kgo:value ?value }}
  OPTIONAL {{ ?f kgo:qualifier ?qualifier }}
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
        "Dated events in order, with their type, places and participants.",
        f"""
SELECT ?date ?type ?event
       (GROUP_CONCAT(DISTINCT ?placeLabel; separator=", ") AS ?places)
       (GROUP_CONCAT(DISTINCT ?whoLabel; separator=", ") AS ?participants)
WHERE {{
  ?e a kgo:Event ; a ?t ; kgo:date ?date .
  FILTER(?t != kgo:Event && STRSTARTS(STR(?t), STR(kgo:)))
  BIND(STRAFTER(STR(?t), STR(kgo:)) AS ?type)
  OPTIONAL {{ ?e skos:prefLabel ?event }}
  OPTIONAL {{ ?e kgo:place ?place . ?place {_LABEL} ?placeLabel }}
  OPTIONAL {{ ?e kgo:agent|kgo:participant|kgo:patient ?who . ?who {_LABEL} ?whoLabel }}
}}
GROUP BY ?date ?type ?event ?e
ORDER BY ?date ?type
""",
    ),
    Example(
        "spellings", "Every spelling of a name",
        "For each person, every way the name is written: the preferred label, listed aliases and misspellings, "
        "and every form found in the texts.",
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
        "defections", "Who defected, from where to where",
        "Defections and flights with who left, where from and where to, and the article that tells.",
        f"""
SELECT DISTINCT ?kind ?whoLabel ?originLabel ?destinationLabel ?article WHERE {{
  ?e a ?k ; prov:wasDerivedFrom|kgo:trigger/nif:referenceContext ?document .
  VALUES ?k {{ kgo:Defection kgo:Flight }}
  BIND(STRAFTER(STR(?k), STR(kgo:)) AS ?kind)
  ?e kgo:agent ?who .
  OPTIONAL {{ ?who {_LABEL} ?whoLabel }}
  OPTIONAL {{ ?e kgo:origin ?o . ?o {_LABEL} ?originLabel }}
  OPTIONAL {{ ?e kgo:destination ?d . ?d {_LABEL} ?destinationLabel }}
  OPTIONAL {{ ?document dcterms:title ?article }}
}}
ORDER BY ?kind ?whoLabel
""",
    ),
    Example(
        "documents", "The articles",
        "Every article with its publisher and date, and how many annotated mentions it holds.",
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


def as_json() -> list[dict[str, str]]:
    """The examples as the query page embeds them."""
    return [dict(asdict(e), query=e.query) for e in EXAMPLES]
