"""The SPARQL INCEpTION sends to a remote knowledge base, as test data: its query shapes, written out for the
settings of kg's profile (api/services/knowledge_base.py: label rdfs:label, additional matching property
skos:altLabel, class owl:Class, description rdfs:comment, no default language, result limit 1000).

Copied as shapes (not code) from inception-project/inception (Apache-2.0), commit
55ba8ba6adf808116b518a227194694850b65259, module inception/inception-kb, src/main/java/de/tudarmstadt/ukp/inception/kb/:
- querybuilder/SPARQLQueryBuilder.java: selectQuery (SELECT DISTINCT, the primary patterns and restrictions in one
  group, then the OPTIONAL lookups, LIMIT twice the result limit), limitToInstances, limitToClasses (the
  PromotableExistsFilter, promoted when there is no primary pattern), Mode.rootsPattern / childrenPattern,
  withIdentifier, retrieveLabel / retrieveDescription / retrieveDeprecation (constant predicates, as pre-resolved
  label properties make them), startsWithPattern / containsPattern / equalsFilters (REGEX with "i"),
  resolvePrefLabelProperties / resolveSubProperties (label-property discovery), applyDataset;
- querybuilder/FtsAdapterNoFts.java (no full-text search: VALUES of the match term for an exact label, a FILTER
  otherwise) and FtsAdapterFuseki.java with FusekiFtsQuery.java (`( ?subj ?sc ?m ) text:query ( ?pMatch "..." 2000 )`,
  the string sanitized and lower-cased, `*` after a prefix);
- KnowledgeBaseServiceImpl.java: listDatasets (the graph list), listRootConcepts, listChildConcepts,
  listLabelProperties, listProperties (with SPARQLQueryBuilder.forProperties / isPropertyPattern /
  retrieveDomainAndRange); reification/NoReification.java: listStatements (an item's statements);
and inception/inception-concept-linking/.../ConceptLinkingServiceImpl.java: generateCandidates (exact IRI match, exact
labels of query and mention, starting with, containing).
"""

from __future__ import annotations

import re

RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
OWL = "http://www.w3.org/2002/07/owl#"
SKOS = "http://www.w3.org/2004/02/skos/core#"
TYPE, SUBCLASS, SUBPROPERTY = f"<{RDF}type>", f"<{RDFS}subClassOf>", f"<{RDFS}subPropertyOf>"
CLASS, LABEL, DESCRIPTION = f"<{OWL}Class>", f"<{RDFS}label>", f"<{RDFS}comment>"
ALT_LABEL, DEPRECATED = f"<{SKOS}altLabel>", f"<{OWL}deprecated>"
MAX_RESULTS = 1000
LIMIT = f"LIMIT {2 * MAX_RESULTS}"
INTERSECTION = f"<{OWL}intersectionOf> / <{RDF}rest> * / <{RDF}first>"
FUSEKI_PREFIX = "PREFIX text: <http://jena.apache.org/text#>\n"

# the restrictions of forInstances() and forClasses()
INSTANCE_RESTRICTIONS = (f"FILTER NOT EXISTS {{ ?subj {TYPE} {CLASS} . }} "
                         f"FILTER NOT EXISTS {{ [] {SUBCLASS} ?subj . }} FILTER NOT EXISTS {{ ?subj {SUBCLASS} [] . }}")
IS_INSTANCE = f"?subj {TYPE} [] ."
IS_CLASS = (f"{{ ?subj {TYPE} {CLASS} . }} UNION {{ [] {SUBCLASS} ?subj . }} UNION {{ ?subj {SUBCLASS} [] . }} "
            f"UNION {{ ?subj {INTERSECTION} [] . }}")
# retrieveLabel() with pre-resolved label properties, then retrieveDescription() and retrieveDeprecation()
PREF_LABEL = f"OPTIONAL {{ {{ ?subj {LABEL} ?l . }} }}"
MATCH_TERM = f"OPTIONAL {{ {{ ?subj {LABEL} ?m . }} UNION {{ ?subj {ALT_LABEL} ?m . }} }}"
LOOKUPS = f"OPTIONAL {{ {{ ?subj {DESCRIPTION} ?dc . }} }} OPTIONAL {{ {{ ?subj {DEPRECATED} ?dp . }} }}"
MATCH_PROPERTIES = f"VALUES ( ?pMatch ) {{ ({LABEL}) ({ALT_LABEL}) }}"


def restriction(kind: str, promoted: bool) -> str:
    """limitToInstances / limitToClasses: the first restriction is a FILTER EXISTS, or the primary pattern
    itself when there is no other (PromotableExistsFilter)."""
    first = IS_INSTANCE if kind == "instances" else IS_CLASS
    head = first if promoted else f"FILTER EXISTS {{ {first} }}"
    return f"{head} {INSTANCE_RESTRICTIONS}" if kind == "instances" else head


def label_properties(root: str = LABEL) -> str:
    """resolvePrefLabelProperties / resolveAdditionalMatchingProperties: the property and its sub-properties."""
    return f"SELECT DISTINCT ?property\nWHERE {{ ?property {SUBPROPERTY} * {root} . }}"


def list_label_properties() -> str:
    """KnowledgeBaseServiceImpl.listLabelProperties (classes and instances, and properties)."""
    return f"SELECT DISTINCT ?p\nWHERE {{ {{ ?p {SUBPROPERTY} * {LABEL} . }} UNION {{ ?p {LABEL} * {LABEL} . }} }}"


def graph_list() -> str:
    """KnowledgeBaseServiceImpl.listDatasets: the datasets a user may pick."""
    return "SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }"


def _regex(value: str, anchor: str) -> str:
    """asRegexp: metacharacter runs to '.', whitespace runs to \\s+; anchored as the shape asks."""
    body = re.sub(r"[{}()\[\].+*?^$\\|]+", ".", value)
    body = re.sub(r"\s+", r"\\\\s+", body)
    pattern = {"exact": f"^{body}$", "prefix": f"^{body}.*", "contains": body}[anchor]
    return f'REGEX( STR( ?m ), "{pattern}", "i" )'


def _fts_string(value: str) -> str:
    """sanitizeQueryString_FTS: punctuation and spaces to one space, trimmed, lower-cased."""
    return " ".join(re.sub(r"[\W_]+", " ", value).split()).lower()


def exact_label(kind: str, value: str, fts: bool = False) -> str:
    """withLabelMatchingExactlyAnyOf(value) with retrieveLabel/Description/Deprecation."""
    if fts:
        primary = (f"{MATCH_PROPERTIES} {{ ( ?subj ?sc ?m ) text:query ( ?pMatch \"{_fts_string(value)}\" "
                   f"{2 * MAX_RESULTS} ) . FILTER ( {_regex(value, 'exact')} ) }}")
        head = FUSEKI_PREFIX + "SELECT DISTINCT ?sc ?m ?l ?dc ?dp ?subj"
    else:
        primary = f'{MATCH_PROPERTIES} VALUES ( ?m ) {{ ("{value}") }} ?subj ?pMatch ?m .'
        head = "SELECT DISTINCT ?m ?l ?dc ?dp ?subj"
    return f"{head}\nWHERE {{ {{ {primary} {restriction(kind, False)} }}\n{PREF_LABEL}\n{LOOKUPS} }}\n{LIMIT}"


def starting_with(kind: str, value: str, fts: bool = False) -> str:
    """withLabelStartingWith(value): through the full-text index, or a low-priority FILTER after the restrictions."""
    if fts:
        primary = (f"{MATCH_PROPERTIES} ( ?subj ?sc ?m ) text:query ( ?pMatch \"{_fts_string(value)}*\" "
                   f"{2 * MAX_RESULTS} ) . FILTER ( {_regex(value, 'prefix')} )")
        return (f"{FUSEKI_PREFIX}SELECT DISTINCT ?sc ?m ?l ?dc ?dp ?subj\nWHERE {{ {{ {primary} "
                f"{restriction(kind, False)} }}\n{PREF_LABEL}\n{LOOKUPS} }}\n{LIMIT}")
    secondary = f"{MATCH_PROPERTIES} ?subj ?pMatch ?m . FILTER ( ( {_regex(value, 'prefix')} ) )"
    return (f"SELECT DISTINCT ?m ?l ?dc ?dp ?subj\nWHERE {{ {{ {restriction(kind, True)} }}\n{{ {secondary} }}\n"
            f"{PREF_LABEL}\n{LOOKUPS} }}\n{LIMIT}")


def containing(kind: str, value: str, fts: bool = False) -> str:
    """withLabelContainingAnyOf(value): every word of it, anywhere in a label."""
    words = " && ".join(_regex(word, "contains") for word in value.split())
    if fts:
        primary = (f"{MATCH_PROPERTIES} {{ ( ?subj ?sc ?m ) text:query ( ?pMatch \"{_fts_string(value)}\" "
                   f"{2 * MAX_RESULTS} ) . FILTER ( ( {words} ) ) }}")
        return (f"{FUSEKI_PREFIX}SELECT DISTINCT ?sc ?m ?l ?dc ?dp ?subj\nWHERE {{ {{ {primary} "
                f"{restriction(kind, False)} }}\n{PREF_LABEL}\n{LOOKUPS} }}\n{LIMIT}")
    secondary = f"{MATCH_PROPERTIES} {{ ?subj ?pMatch ?m . FILTER ( ( {words} ) ) }}"
    return (f"SELECT DISTINCT ?m ?l ?dc ?dp ?subj\nWHERE {{ {{ {restriction(kind, True)} }}\n{{ {secondary} }}\n"
            f"{PREF_LABEL}\n{LOOKUPS} }}\n{LIMIT}")


def iri_match(kind: str, iri: str) -> str:
    """withIdentifier(iri) (the full-text search is never used for it): labels retrieved, not matched."""
    return (f"SELECT DISTINCT ?l ?m ?dc ?dp ?subj\nWHERE {{ {{ VALUES ( ?subj ) {{ (<{iri}>) }} "
            f"{restriction(kind, False)} }}\n{PREF_LABEL}\n{MATCH_TERM}\n{LOOKUPS} }}\n{LIMIT}")


def roots() -> str:
    """listRootConcepts without root concepts configured: classes with no superclass but themselves."""
    root = (f"{{ {{ ?subj {TYPE} {CLASS} . }} UNION {{ [] {SUBCLASS} ?subj . }} FILTER NOT EXISTS {{ "
            f"{{ ?subj {SUBCLASS} ?otherSubclass . FILTER ( ?subj != ?otherSubclass ) }} UNION "
            f"{{ ?subj <{OWL}intersectionOf> [] . }} }} }}")
    return (f"SELECT DISTINCT ?l ?m ?dc ?dp ?subj\nWHERE {{ {{ {root} {restriction('classes', False)} }}\n"
            f"{PREF_LABEL}\n{MATCH_TERM}\n{LOOKUPS} }}\n{LIMIT}")


def configured_roots(classes: list[str]) -> str:
    """listRootConcepts with the profile's root concepts: a VALUES of them."""
    values = " ".join(f"(<{c}>)" for c in classes)
    return (f"SELECT DISTINCT ?l ?m ?dc ?dp ?subj\nWHERE {{ {{ VALUES ( ?subj ) {{ {values} }} "
            f"{restriction('classes', False)} }}\n{PREF_LABEL}\n{MATCH_TERM}\n{LOOKUPS} }}\n{LIMIT}")


def children(parent: str) -> str:
    """listChildConcepts(parent): its direct subclasses (and owl:intersectionOf members)."""
    child = f"{{ ?subj {SUBCLASS} <{parent}> . }} UNION {{ ?subj {INTERSECTION} <{parent}> . }}"
    return (f"SELECT DISTINCT ?l ?m ?dc ?dp ?subj\nWHERE {{ {{ {child} {restriction('classes', False)} }}\n"
            f"{PREF_LABEL}\n{MATCH_TERM}\n{LOOKUPS} }}\n{LIMIT}")


def instances_of(parent: str) -> str:
    """listInstances(parent): its direct instances."""
    return (f"SELECT DISTINCT ?l ?m ?dc ?dp ?subj\nWHERE {{ {{ ?subj {TYPE} <{parent}> . "
            f"{restriction('instances', False)} }}\n{PREF_LABEL}\n{MATCH_TERM}\n{LOOKUPS} }}\n{LIMIT}")


def properties() -> str:
    """listProperties: forProperties (limitToProperties, its PromotableExistsFilter promoted to the primary
    pattern: typed with the profile's property type, rdf:Property, or placed in a sub-property tree), then
    retrieveLabel (in property mode no additional matching property: the label is the match term),
    retrieveDescription, retrieveDeprecation and retrieveDomainAndRange."""
    prop = f"<{RDF}Property>"
    is_property = (f"{{ ?subj {TYPE} {prop} . }} UNION {{ ?subj {SUBCLASS}+ {prop} . }} UNION "
                   f"{{ [] {SUBPROPERTY} ?subj . }} UNION {{ ?subj {SUBPROPERTY} [] . }}")
    return (f"SELECT DISTINCT ?m ?dc ?dp ?range ?domain ?subj\nWHERE {{ {{ {is_property} }}\n"
            f"OPTIONAL {{ {{ ?subj {LABEL} ?m . }} }}\n{LOOKUPS}\n"
            f"OPTIONAL {{ ?subj <{RDFS}range> ?range . }} OPTIONAL {{ ?subj <{RDFS}domain> ?domain . }} }}\n{LIMIT}")


def statements(iri: str) -> str:
    """NoReification.listStatements: every statement of an item."""
    return f"SELECT ?subj ?pred ?obj\nWHERE {{ VALUES ( ?subj ) {{ (<{iri}>) }} ?subj ?pred ?obj . }}\nLIMIT {MAX_RESULTS}"
