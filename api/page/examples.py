"""Example queries of the query page: the questions a reader of these articles asks.

The endpoint predefines the prefixes of kg.model.iris.PREFIXES, so each query is
shown as it is written, without declarations; `portable` adds the PREFIX
lines it needs, for any other SPARQL endpoint. Each query reads the union
default graph (a bag), hence DISTINCT. tests/api/page/test_examples.py checks each
one's answer against what the articles say.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Iterable

from kg.model import iris
from kg.model.iris import prologue
from kg.store import sparql_lexer as lexer


@dataclass(frozen=True)
class Example:
    id: str
    title: str
    question: str
    body: str  # without prefix declarations
    group: str = "kg"  # "corpus" for those made from the served corpus's schema (api/page/corpus_examples.py)

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
# rows before DISTINCT (26 s). And Oxigraph joins a plain group of patterns by looking up each row's
# next property in its indexes, one lookup per row: on 10,000 articles (a 4 GB store) that is
# hundreds of thousands of lookups, up to minutes an example. So the examples read their facts in
# sub-selects of one or two patterns each: a sub-select is evaluated on its own, and the engine
# joins the sets it returns in memory (hash joins), distinct facts first where a fact repeats; the
# labels of the things found are looked up once per thing (defections and connections, quick as they
# are, stay plain). tests/api/page/test_examples.py checks each rewritten one answers exactly as its plain
# form (PLAIN there) on the shipped corpus and a generated one.
_WHY = "# Each { SELECT ... } is read whole and the engine joins what they return in memory: on a\n" \
       "  # large store, far faster than looking up each row's next property one row at a time."


def _labels(thing: str, label: str, found: str, path: str = _LABEL, optional: bool = True) -> str:
    """A sub-select: the labels of the distinct things `found` binds to ?`thing`, each looked up once
    (a thing without one: ?`label` unbound, or the thing left out when not `optional`)."""
    lookup = f"?{thing} {path} ?{label}"
    return (f"{{ SELECT DISTINCT ?{thing} ?{label} WHERE {{ {{ SELECT DISTINCT ?{thing} WHERE {{ {found} }} }}\n"
            f"      {f'OPTIONAL {{ {lookup} }}' if optional else lookup} }} }}")


# What an event is to the article: a fact it asserts, a claim it reports (kgo:asserted false), a plan
# or hypothesis (kgo:speculated), or something that did not happen (kgo:negated).
_STATUS = """OPTIONAL { ?e kgo:asserted ?asserted } OPTIONAL { ?e kgo:speculated ?speculated }
  OPTIONAL { ?e kgo:negated ?negated }
  BIND(IF(COALESCE(?negated, false), "did not happen", IF(!COALESCE(?asserted, true), "claimed",
       IF(COALESCE(?speculated, false), "planned or hypothetical", "asserted"))) AS ?status)"""


EXAMPLES: tuple[Example, ...] = (
    Example(
        "offices", "Who holds which office, where",
        "Who holds which office or rank, in which organization or state? Only what the articles "
        "assert: an office a source merely claims for someone is left out (see claims).",
        f"""
SELECT DISTINCT ?holderLabel ?role ?inLabel ?holder ?post WHERE {{
  # A post's role and place are stated by every article naming it: distinct facts first, then labels
  {{ SELECT DISTINCT ?holder ?post WHERE {{ ?holder kgo:holds ?post }} }}
  {{ SELECT DISTINCT ?post ?r WHERE {{ ?post kgo:role ?r }} }}
  {{ SELECT DISTINCT ?post ?in WHERE {{ ?post kgo:postIn ?in }} }}
  {_labels("r", "role", "[] kgo:role ?r", "skos:prefLabel", optional=False)}
  {_labels("holder", "holderLabel", "?holder kgo:holds []")}
  {_labels("in", "inLabel", "[] kgo:postIn ?in", "skos:prefLabel")}
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
  {_WHY}
  {{ SELECT ?c WHERE {{ ?c a kgo:Claim }} }}
  {{ SELECT ?c ?who WHERE {{ ?c kgo:claimant ?who }} }}
  {{ SELECT ?c ?t WHERE {{ ?c kgo:trigger ?t }} }}
  {{ SELECT ?c ?document WHERE {{ ?c prov:wasDerivedFrom ?document }} }}
  {{ SELECT ?t ?s WHERE {{ ?t kgo:sentence ?s }} }}
  {{ SELECT ?s ?sentence WHERE {{ ?s nif:anchorOf ?sentence }} }}
  {_labels("who", "claimantLabel", "[] kgo:claimant ?who")}
  OPTIONAL {{ SELECT DISTINCT ?c ?what WHERE {{ ?c kgo:content ?x . ?x kgo:quoteText|skos:prefLabel|rdfs:label ?what }} }}
  OPTIONAL {{ SELECT DISTINCT ?c ?topicLabel WHERE {{ ?c kgo:topic ?tp . ?tp skos:prefLabel|rdfs:label ?topicLabel }} }}
  OPTIONAL {{ SELECT ?document ?article WHERE {{ ?document dcterms:title ?article }} }}
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
  {_WHY}
  {{ SELECT ?q WHERE {{ ?q a kgo:Quote }} }}
  {{ SELECT ?q ?quote WHERE {{ ?q kgo:quoteText ?quote }} }}
  {{ SELECT ?q ?speaker WHERE {{ ?q kgo:saidBy ?speaker }} }}
  {{ SELECT ?q ?document WHERE {{ ?q prov:wasDerivedFrom ?document }} }}
  {_labels("speaker", "speakerLabel", "[] kgo:saidBy ?speaker")}
  OPTIONAL {{ {{ SELECT ?q ?m WHERE {{ ?q kgo:mention ?m }} }} {{ SELECT ?m ?s WHERE {{ ?m kgo:sentence ?s }} }}
             {{ SELECT ?s ?sentence WHERE {{ ?s nif:anchorOf ?sentence }} }} }}
  OPTIONAL {{ SELECT ?document ?article WHERE {{ ?document dcterms:title ?article }} }}
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
  {_WHY}
  {{ SELECT ?f WHERE {{ ?f a kgo:Figure }} }}
  {{ SELECT ?f ?figure WHERE {{ ?f rdfs:label ?figure }} }}
  {{ SELECT ?f ?source WHERE {{ ?f kgo:reportedBy ?source }} }}
  {{ SELECT ?f ?document WHERE {{ ?f prov:wasDerivedFrom ?document }} }}
  OPTIONAL {{ SELECT ?f ?value WHERE {{ ?f kgo:value ?value }} }}
  OPTIONAL {{ SELECT ?f ?qualifier WHERE {{ ?f kgo:qualifier ?qualifier }} }}
  OPTIONAL {{ SELECT ?f ?unit WHERE {{ ?f kgo:unit ?unit }} }}
  OPTIONAL {{ SELECT ?f ?countsLabel WHERE {{ ?f kgo:counts ?counts . ?counts skos:prefLabel ?countsLabel }} }}
  {_labels("source", "sourceLabel", "[] kgo:reportedBy ?source")}
  OPTIONAL {{ SELECT ?f ?asOf WHERE {{ ?f kgo:asOf ?date . OPTIONAL {{ ?date kgo:dateValue ?asOf }} }} }}
  OPTIONAL {{ SELECT ?document ?article WHERE {{ ?document dcterms:title ?article }} }}
}}
ORDER BY ?sourceLabel DESC(?value)
""",
    ),
    Example(
        "timeline", "Events in date order",
        "What happened when, where, and who took part? A period shows its start and end (\"since 2014\": "
        "a start alone); the precision of each date, whether the text states it or it was worked out "
        "from the article's date, and whether the event is asserted or only claimed, and by whom.",
        f"""
SELECT ?date ?end ?precision ?basis ?type ?event ?status ?claimedBy ?places ?participants WHERE {{
  {_WHY}
  {{ SELECT DISTINCT ?e ?t ?date WHERE {{
      {{ SELECT ?e ?date WHERE {{ ?e kgo:date|kgo:startDate ?date }} }}
      ?e a kgo:Event ; a ?t . FILTER(?t != kgo:Event && STRSTARTS(STR(?t), STR(kgo:))) }} }}
  OPTIONAL {{ SELECT ?e ?end WHERE {{ ?e kgo:endDate ?end }} }}
  OPTIONAL {{ SELECT ?e ?precision WHERE {{ ?e kgo:datePrecision ?precision }} }}
  OPTIONAL {{ SELECT ?e ?basis WHERE {{ ?e kgo:dateBasis ?basis }} }}
  BIND(STRAFTER(STR(?t), STR(kgo:)) AS ?type)
  OPTIONAL {{ SELECT ?e ?event WHERE {{ ?e skos:prefLabel ?event }} }}
  {_STATUS}
  OPTIONAL {{ SELECT ?e (GROUP_CONCAT(DISTINCT ?byLabel; separator=", ") AS ?claimedBy)
             WHERE {{ ?e kgo:claimedBy ?by . {_labels("by", "byLabel", "[] kgo:claimedBy ?by", optional=False)} }} GROUP BY ?e }}
  OPTIONAL {{ SELECT ?e (GROUP_CONCAT(DISTINCT ?placeLabel; separator=", ") AS ?places)
             WHERE {{ ?e kgo:place ?place . {_labels("place", "placeLabel", "[] kgo:place ?place", optional=False)} }} GROUP BY ?e }}
  OPTIONAL {{ SELECT ?e (GROUP_CONCAT(DISTINCT ?whoLabel; separator=", ") AS ?participants)
             WHERE {{ ?e kgo:agent|kgo:participant|kgo:patient ?who .
                     {_labels("who", "whoLabel", "[] kgo:agent|kgo:participant|kgo:patient ?who", optional=False)} }} GROUP BY ?e }}
}}
GROUP BY ?date ?end ?precision ?basis ?type ?event ?status ?claimedBy ?e ?places ?participants
ORDER BY ?date ?type
""",
    ),
    Example(
        "defections", "Who defected, from where to where",
        "Who defected or fled, from where to where, when (a period: its start and end), and which "
        "article tells? Whether the article asserts it or only reports someone's claim, and whose.",
        f"""
SELECT DISTINCT ?kind ?whoLabel ?originLabel ?destinationLabel ?date ?end ?status ?claimedByLabel ?article WHERE {{
  ?e a ?k ; prov:wasDerivedFrom ?document .
  VALUES ?k {{ kgo:Defection kgo:Flight }}
  BIND(STRAFTER(STR(?k), STR(kgo:)) AS ?kind)
  ?e kgo:agent ?who .
  OPTIONAL {{ ?who {_LABEL} ?whoLabel }}
  OPTIONAL {{ ?e kgo:origin ?o . ?o {_LABEL} ?originLabel }}
  OPTIONAL {{ ?e kgo:destination ?d . ?d {_LABEL} ?destinationLabel }}
  OPTIONAL {{ ?e kgo:date|kgo:startDate ?date }}
  OPTIONAL {{ ?e kgo:endDate ?end }}
  {_STATUS}
  OPTIONAL {{ ?e kgo:claimedBy ?by . ?by {_LABEL} ?claimedByLabel }}
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
        f"""
SELECT ?person ?label
       (GROUP_CONCAT(DISTINCT ?spelling; separator=" | ") AS ?spellings)
       (COUNT(DISTINCT ?spelling) AS ?count)
WHERE {{
  {_WHY}
  {{ SELECT DISTINCT ?e ?label WHERE {{ ?e a kgo:Person ; skos:prefLabel ?label }} }}
  BIND(STRAFTER(STR(?e), STR(kgr:)) AS ?person)
  {{ SELECT ?e ?spelling WHERE {{ ?e skos:prefLabel|skos:altLabel|skos:hiddenLabel ?spelling }} }}
  UNION
  {{ {{ SELECT ?m ?e WHERE {{ ?m kgo:denotes ?e }} }} {{ SELECT ?m ?spelling WHERE {{ ?m nif:anchorOf ?spelling }} }} }}
}}
GROUP BY ?person ?label
ORDER BY DESC(?count) ?label
""",
    ),
    Example(
        "documents", "The articles",
        "Which articles are there, who published them and when, and how many annotated mentions does each hold?",
        f"""
SELECT ?article ?publisher ?date (COUNT(DISTINCT ?m) AS ?mentions) WHERE {{
  {_WHY}
  ?document a kgo:NewsArticle ; dcterms:title ?article .
  OPTIONAL {{ SELECT ?document ?publisher WHERE {{ ?document kgo:publisher/skos:prefLabel ?publisher }} }}
  OPTIONAL {{ SELECT ?document ?date WHERE {{ ?document dcterms:date ?date }} }}
  OPTIONAL {{ {{ SELECT ?m WHERE {{ ?m a kgo:Mention }} }} {{ SELECT ?m ?document WHERE {{ ?m nif:referenceContext ?document }} }} }}
}}
GROUP BY ?article ?publisher ?date
ORDER BY ?date
""",
    ),
)


def as_json(chosen: Iterable[Example] = EXAMPLES) -> list[dict[str, str]]:
    """The examples as the query page embeds them (kg's own, unless others are given)."""
    return [dict(asdict(e), query=e.query, portable=e.portable) for e in chosen]
