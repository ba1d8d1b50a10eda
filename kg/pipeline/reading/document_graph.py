"""Turn one checked, resolved document into its named graph (N-Quads text).

What a document graph holds is described in docs/model.md: the article, the
sentences that carry annotations, one node per mention, the facts stated by
relations and events, and for every fact a kgo:Statement that names the
document, the mentions and the sentences behind it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from kg.formats.brat.ann import NORMALIZATION_DBS
from kg.formats.records import Document, Event, Relation, TextBound, id_order
from kg.model import iris
from kg.model.document_ids import shown_path
from kg.model.entities.aliases import AliasTable
from kg.model.entities.knowledge_bases import Item
from kg.model.entities.names import name_mentions
from kg.model.entities.resolve import Resolution, Rule, knowledge_links, resolve_document, resolve_role
from kg.model.event_links import EventLink, event_links
from kg.model.iris import FIXED_PREFIXES, document_iri, fragment_iri, graph_iri, local_iri, resource_iri, span_iri
from kg.model.nquads import QuadWriter, boolean, date_literal, decimal, integer, iri, literal
from kg.model.schema.corpus_vocabulary import Vocabulary, property_name
from kg.model.schema.ontology import KGO_IRIS, THING_ATTRIBUTES, date_precision
from kg.model.sentences import SentenceIndex

RDF, RDFS, SKOS, NIF = FIXED_PREFIXES["rdf"], FIXED_PREFIXES["rdfs"], FIXED_PREFIXES["skos"], FIXED_PREFIXES["nif"]
DCTERMS, PROV, OWL = FIXED_PREFIXES["dcterms"], FIXED_PREFIXES["prov"], FIXED_PREFIXES["owl"]
TYPE = RDF + "type"
QUOTE_LABEL_CHARS = 80
MAX_EVIDENCE_SENTENCES = 3
DATE_ATTRIBUTES = ("dateBasis", "periodBound")
PERIOD_TIMES = {"Start": KGO_IRIS.startTime, "End": KGO_IRIS.endTime}
BOUND_ROLES = {"startTime": "Start", "endTime": "End"}
STANCE_RELATIONS = ("supports", "opposes", "recognizes")
# Attributes whose meaning kg writes on the thing itself (a figure, an unnamed person), not on the mention.
@dataclass
class _Context:
    doc: Document
    vocab: Vocabulary
    aliases: AliasTable
    out: QuadWriter
    sentences: SentenceIndex
    resolved: dict[str, Resolution]
    doc_iri: str
    events: dict[str, str]  # event id -> the event's node
    links: dict[str, EventLink]  # event id -> its KG link, merged or not
    sentences_written: dict[tuple[int, int], str] = field(default_factory=dict)  # span -> node: a sentence backs many mentions and facts
    mention_iris: dict[str, str] = field(default_factory=dict)  # mention id -> node: named by every fact it is in

    @cached_property
    def named_triggers(self) -> set[str]:
        """The event and membership triggers whose words are a name (kg.model.entities.names)."""
        triggers = {e.trigger for e in self.doc.annotations.events}
        bounds = self.doc.annotations.textbounds
        return name_mentions(self.doc.text, [bounds[t] for t in triggers if t in bounds])

    @cached_property
    def claimants(self) -> dict[str, list[str]]:
        """Claimed event id -> argument ids of the claimants of the claims that state it, or that
        state a figure the event uses (a claimed head count makes the event it counts a claim)."""
        claimed: dict[str, list[str]] = {}
        for event in self.doc.annotations.events:
            if not self.vocab.is_a(event.type, "Claim"):
                continue
            who = [t for r, t in event.args if self.vocab.means(r, "claimant")]
            for role, target in event.args:
                if self.vocab.means(role, "content") and target in self.events:
                    claimed.setdefault(target, []).extend(who)
        for event_id, claims in self.claimed_through_figures.items():
            if event_id not in claimed:
                claimed[event_id] = [who for claim in claims for who in self.claim_claimants[claim]]
        return claimed

    @cached_property
    def claim_claimants(self) -> dict[str, list[str]]:
        """Claim event id -> argument ids of its claimants."""
        return {e.id: [t for r, t in e.args if self.vocab.means(r, "claimant")]
                for e in self.doc.annotations.events if self.vocab.is_a(e.type, "Claim")}

    @cached_property
    def claimed_through_figures(self) -> dict[str, list[str]]:
        """Event id -> the claims whose content is a figure the event uses as an argument, for the
        events no claim states itself: the figure's claimant travels with it into the event."""
        bounds, events = self.doc.annotations.textbounds, self.doc.annotations.events
        figure_claims: dict[str, list[str]] = {}
        stated: set[str] = set()
        for claim in (e for e in events if e.id in self.claim_claimants):
            for role, target in claim.args:
                if not self.vocab.means(role, "content"):
                    continue
                if target in self.events:
                    stated.add(target)
                elif target in bounds and self.vocab.is_a(bounds[target].type, "Figure"):
                    figure_claims.setdefault(target, []).append(claim.id)
        through: dict[str, list[str]] = {}
        for event in events:
            if event.id in self.claim_claimants or event.id in stated:
                continue
            claims = [c for _, target in event.args for c in figure_claims.get(target, [])]
            if claims:
                through[event.id] = list(dict.fromkeys(claims))
        return through

    @cached_property
    def past_states(self) -> set[str]:
        """Ids of the stances and memberships that held before, not now ("a former sergeant",
        "he initially supported"): they give no present relation, post or membership."""
        return {a.target for a in self.doc.annotations.attributes
                if self.vocab.means(a.name, "temporalQualifier") and a.value}

    @cached_property
    def date_attributes(self) -> dict[str, dict[str, str]]:
        """Date mention id -> {"dateBasis": value, "periodBound": value} from its attributes."""
        found: dict[str, dict[str, str]] = {}
        for attr in self.doc.annotations.attributes:
            for meaning in DATE_ATTRIBUTES:
                if self.vocab.means(attr.name, meaning) and attr.value is not None:
                    found.setdefault(attr.target, {})[meaning] = attr.value
        return found

    def mention(self, tid: str) -> str:
        node = self.mention_iris.get(tid)
        if node is None:
            node = self.mention_iris[tid] = fragment_iri(self.doc.slug, tid)
        return node

    def node(self, ann_id: str) -> str:
        """What an argument id stands for: an entity mention's resolution, or an event's node."""
        if ann_id in self.resolved:
            return self.resolved[ann_id].iri
        if ann_id in self.events:
            return self.events[ann_id]
        return self.events[self.event_of_trigger[ann_id]]

    @cached_property
    def trigger_of_event(self) -> dict[str, str]:
        return {e.id: e.trigger for e in self.doc.annotations.events}

    @cached_property
    def event_of_trigger(self) -> dict[str, str]:
        return {trigger: event for event, trigger in self.trigger_of_event.items()}

    def bound(self, ann_id: str) -> TextBound:
        """The span behind an argument id: the mention itself, or an event's trigger."""
        bounds = self.doc.annotations.textbounds
        return bounds[ann_id] if ann_id in bounds else bounds[self.trigger_of_event[ann_id]]


def document_nquads(doc: Document, vocab: Vocabulary, aliases: AliasTable) -> str:
    """The document's named graph as sorted N-Quads. Types, relations, roles and attributes the
    document uses that its annotation.conf does not declare (brat displays them) are read as written
    and declared in the document's graph."""
    corpus_vocab, vocab = vocab, vocab.extended(*doc.annotations.undeclared)
    out = QuadWriter(graph_iri(doc.slug))
    links = event_links(doc, vocab, aliases)
    ctx = _Context(doc, vocab, aliases, out, SentenceIndex(doc.text), resolve_document(doc, vocab, aliases),
                   document_iri(doc.slug), {e.id: _event_node(doc, vocab, e, links) for e in doc.annotations.events},
                   links)
    _article(ctx)
    for bound in doc.annotations.textbounds.values():
        _mention(ctx, bound)
    _local_things(ctx)
    for relation in doc.annotations.relations:
        _relation(ctx, relation)
    for event in doc.annotations.events:
        _event(ctx, event)
    _attributes(ctx)
    _normalizations_and_notes(ctx)
    _own_terms(ctx, corpus_vocab)
    return out.text()


def _own_terms(ctx: _Context, corpus_vocab: Vocabulary) -> None:
    """Declare the classes and properties of the names the document uses beyond its annotation.conf."""
    ann = ctx.doc.annotations
    types = [*ann.undeclared[0], *ann.undeclared[1]]
    links = {r.type for r in ann.relations} | {role for e in ann.events for role, _ in e.args}
    values = {a.name for a in ann.attributes}
    properties = (links | values) - set(corpus_vocab.property_names())
    if not types and not properties:
        return
    add, vocab = ctx.out.add, ctx.vocab
    classes = {vocab.class_iri(t): t for t in types}
    for subject, predicate, obj in vocab.minted():
        if subject in classes and predicate != RDFS + "comment":
            add(subject, predicate, obj)
    for own, name in classes.items():
        add(own, RDFS + "comment", literal(f"The annotation type {name}, used in this document, not declared in its "
                                           "annotation.conf."))
    for name in sorted(properties):
        own = vocab.property_iri(name)
        if own.startswith(iris.VOCABULARY):
            add(own, TYPE, iri(OWL + ("ObjectProperty" if name in links else "DatatypeProperty")))
            add(own, TYPE, iri(RDF + "Property"))  # as the ontology graph types its properties (load_file)
            add(own, RDFS + "label", literal(name))
            add(own, RDFS + "comment", literal(f"{name}, used in this document, not declared in its annotation.conf."))


def _article(ctx: _Context) -> None:
    meta, add, doc = ctx.doc.metadata, ctx.out.add, ctx.doc_iri
    add(doc, TYPE, iri(KGO_IRIS.NewsArticle))
    add(doc, DCTERMS + "title", literal(meta.title))
    add(doc, NIF + "isString", literal(ctx.doc.text))
    add(doc, KGO_IRIS.sourceFile, literal(f"{shown_path(ctx.doc.slug)}.txt"))
    if meta.publisher:
        add(doc, KGO_IRIS.publisher, iri(resource_iri(meta.publisher)))
    if meta.author:
        add(doc, KGO_IRIS.author, iri(resource_iri(meta.author)))
    if meta.date:
        add(doc, DCTERMS + "date", date_literal(meta.date))
    if meta.date_note:
        add(doc, KGO_IRIS.dateNote, literal(meta.date_note))


def _sentence(ctx: _Context, begin: int, end: int) -> str:
    node = ctx.sentences_written.get((begin, end))
    if node is not None:
        return node
    node = ctx.sentences_written[(begin, end)] = span_iri(ctx.doc.slug, begin, end)
    add = ctx.out.add
    add(node, TYPE, iri(KGO_IRIS.Sentence))
    add(node, NIF + "beginIndex", integer(begin))
    add(node, NIF + "endIndex", integer(end))
    add(node, NIF + "anchorOf", literal(ctx.doc.text[begin:end]))
    add(node, NIF + "referenceContext", iri(ctx.doc_iri))
    return node


def _evidence(ctx: _Context, bounds: list[TextBound]) -> list[str]:
    """Sentences that state a fact: from the first to the last of its mentions (a few at most)."""
    begin = min(b.begin for b in bounds)
    end = max(b.end for b in bounds)
    spans = ctx.sentences.covering(begin, end)
    if len(spans) > MAX_EVIDENCE_SENTENCES:
        spans = sorted({ctx.sentences.at(b.begin) for b in bounds}, key=lambda s: s.begin)
    return [_sentence(ctx, s.begin, s.end) for s in spans]


def _mention(ctx: _Context, bound: TextBound) -> None:
    node, add = ctx.mention(bound.id), ctx.out.add
    add(node, TYPE, iri(KGO_IRIS.Mention))
    add(node, NIF + "beginIndex", integer(bound.begin))
    add(node, NIF + "endIndex", integer(bound.end))
    add(node, NIF + "anchorOf", literal(bound.text))
    add(node, NIF + "referenceContext", iri(ctx.doc_iri))
    add(node, KGO_IRIS.annotationType, literal(bound.type))
    add(node, KGO_IRIS.annotationId, literal(bound.id))
    if len(bound.spans) > 1:
        add(node, KGO_IRIS.offsets, literal(";".join(f"{s.begin} {s.end}" for s in bound.spans)))
    sentence = ctx.sentences.at(bound.begin)
    add(node, KGO_IRIS.sentence, iri(_sentence(ctx, sentence.begin, sentence.end)))
    resolution = ctx.resolved.get(bound.id)
    if resolution is not None:
        add(node, KGO_IRIS.denotes, iri(resolution.iri))
        add(node, KGO_IRIS.resolvedBy, literal(resolution.explanation))
    if resolution.named if resolution is not None else bound.id in ctx.named_triggers:
        add(node, KGO_IRIS.isName, boolean(True))


def _local_things(ctx: _Context) -> None:
    """Records of things that live in this document only: figures, quotes, dates without value, unnamed."""
    ann, add, vocab = ctx.doc.annotations, ctx.out.add, ctx.vocab
    numbers = {n.target: n.ref for n in ann.normalizations if n.db == "Number"}
    qualifiers = {a.target: a.value for a in ann.attributes if vocab.means(a.name, "qualifier")}
    units = {a.target: a.value for a in ann.attributes if vocab.means(a.name, "unit")}
    done: set[str] = set()
    for tid, resolution in sorted(ctx.resolved.items(), key=lambda item: id_order(item[0])):
        if resolution.key is not None or resolution.iri in done:
            continue
        done.add(resolution.iri)
        bound = ann.textbounds[tid]
        node = resolution.iri
        for class_iri in vocab.class_iris(resolution.type or bound.type):
            add(node, TYPE, iri(class_iri))
        label = _short(bound.text)
        add(node, RDFS + "label", literal(label))
        add(node, SKOS + "prefLabel", literal(label))
        add(node, KGO_IRIS.mention, iri(ctx.mention(tid)))
        add(node, PROV + "wasDerivedFrom", iri(ctx.doc_iri))
        if vocab.is_a(bound.type, "Quote"):
            add(node, KGO_IRIS.quoteText, literal(bound.text))
        if vocab.is_a(bound.type, "Figure") and tid in numbers:
            add(node, KGO_IRIS.value, decimal(numbers[tid]))
        if tid in qualifiers:
            add(node, KGO_IRIS.qualifier, literal(qualifiers[tid]))
        if tid in units and units[tid] is not None:
            add(node, KGO_IRIS.unit, literal(units[tid]))
        if resolution.rule is Rule.UNNAMED:
            add(node, KGO_IRIS.unnamed, boolean(True))



def _short(text: str) -> str:
    return text if len(text) <= QUOTE_LABEL_CHARS else text[: QUOTE_LABEL_CHARS - 1].rstrip() + "…"


def _statement(ctx: _Context, fragment: str, subject: str, predicates: list[str], obj: str,
               subject_mention: TextBound | None, object_mention: TextBound | None) -> str:
    """The fact (under its own predicate and each kgo property it is aligned with) and its
    provenance record, whose node is returned."""
    add = ctx.out.add
    for predicate in predicates:
        add(subject, predicate, iri(obj))
    node = fragment_iri(ctx.doc.slug, fragment)
    add(node, TYPE, iri(KGO_IRIS.Statement))
    add(node, RDF + "subject", iri(subject))
    add(node, RDF + "predicate", iri(predicates[0]))
    add(node, RDF + "object", iri(obj))
    add(node, PROV + "wasDerivedFrom", iri(ctx.doc_iri))
    mentions = [m for m in (subject_mention, object_mention) if m is not None]
    for sentence in _evidence(ctx, mentions):
        add(node, KGO_IRIS.evidence, iri(sentence))
    if subject_mention is not None:
        add(node, KGO_IRIS.subjectMention, iri(ctx.mention(subject_mention.id)))
    if object_mention is not None:
        add(node, KGO_IRIS.objectMention, iri(ctx.mention(object_mention.id)))
    return node


def _predicates(ctx: _Context, name: str) -> list[str]:
    """The property of a relation type or role, then the kgo property it is aligned with."""
    own = ctx.vocab.property_iri(name)
    aligned = ctx.vocab.alignment.terms.get(name)
    return [own] + ([KGO_IRIS[aligned]] if aligned and KGO_IRIS[aligned] != own else [])


def _relation(ctx: _Context, relation: Relation) -> None:
    node = _statement(ctx, relation.id, ctx.node(relation.arg1), _predicates(ctx, relation.type),
                      ctx.node(relation.arg2), ctx.bound(relation.arg1), ctx.bound(relation.arg2))
    if (relation.arg1_role, relation.arg2_role) != ("Arg1", "Arg2"):
        ctx.out.add(node, KGO_IRIS.argumentLabels, literal(f"{relation.arg1_role} {relation.arg2_role}"))


def _event_node(doc: Document, vocab: Vocabulary, event: Event, links: dict[str, EventLink]) -> str:
    """The node of an event: a membership, a canonical event (a KG: link it is merged with) or a
    document-local one."""
    if vocab.is_a(event.type, "Membership"):
        return local_iri(doc.slug, "membership", event.id)
    link = links.get(event.id)
    return resource_iri(link.key) if link and link.merged else local_iri(doc.slug, "event", event.id)


def _event(ctx: _Context, event: Event) -> None:
    if ctx.vocab.is_a(event.type, "Membership"):
        _membership(ctx, event)
        return
    ann, add = ctx.doc.annotations, ctx.out.add
    trigger = ann.textbounds[event.trigger]
    link = ctx.links.get(event.id)
    key = link.key if link and link.merged else None
    node = ctx.events[event.id]
    add(ctx.mention(trigger.id), KGO_IRIS.denotes, iri(node))
    add(ctx.mention(trigger.id), KGO_IRIS.resolvedBy, literal(link.explanation if link else "local"))
    for class_iri in ctx.vocab.class_iris(event.type):
        add(node, TYPE, iri(class_iri))
    add(node, KGO_IRIS.trigger, iri(ctx.mention(trigger.id)))
    iso = {n.target: n.ref for n in ann.normalizations if n.db == "ISO8601"}
    times = _time_bounds(ctx, event)
    if not key:
        add(node, SKOS + "prefLabel", literal(_event_label(ctx, event, trigger, iso, times)))
        add(node, RDFS + "label", literal(_event_label(ctx, event, trigger, iso, times)))
        add(node, PROV + "wasDerivedFrom", iri(ctx.doc_iri))
    if link and not link.merged:
        _statement(ctx, f"{event.id}-linkedEvent", node, [KGO_IRIS.linkedEvent], resource_iri(link.key), None, trigger)
    seen: dict[str, int] = {}
    for role, target in event.args:
        seen[role] = seen.get(role, 0) + 1
        predicates = _predicates(ctx, role)
        bound = times.get((role, target))
        if bound in PERIOD_TIMES:  # "since 2014": the start of a period, never its point time
            predicates = [PERIOD_TIMES[bound]]
        _statement(ctx, f"{event.id}-{role}-{seen[role]}", node, predicates, ctx.node(target), trigger, ctx.bound(target))
        if (role, target) in times and target in iso:
            _event_date(ctx, node, iso[target], bound, ctx.date_attributes.get(target, {}))
    _stance(ctx, event, node)
    _claimed(ctx, event.id, node)


def _time_bounds(ctx: _Context, event: Event) -> dict[tuple[str, str], str | None]:
    """(role, date) of each time argument of an event -> the bound of a period it is ("Start",
    "End") or None for a point. The role says it (StartTime, EndTime), so that one date phrase can
    be one event's day and another's bound; a Time argument takes its date's PeriodBound."""
    times: dict[tuple[str, str], str | None] = {}
    for role, target in event.args:
        bound = next((b for name, b in BOUND_ROLES.items() if ctx.vocab.means(role, name)), None)
        if bound or ctx.vocab.means(role, "time"):
            times[(role, target)] = bound or ctx.date_attributes.get(target, {}).get("periodBound")
    return times


def _stance(ctx: _Context, event: Event, node: str) -> None:
    """An asserted stance gives the relation of its position from each agent to each target
    (kgo:opposes ...), each with its statement; a claimed or past one gives none, nor one held by a
    share of its agents ("some" of them): the relation would say all hold it."""
    if not ctx.vocab.is_a(event.type, "Stance") or event.id in ctx.claimants or event.id in ctx.past_states:
        return
    if any(ctx.vocab.means(role, "share") for role, _ in event.args):
        return
    positions = [a.value for a in ctx.doc.annotations.attributes
                 if a.target == event.id and ctx.vocab.means(a.name, "position") and a.value]
    relation = property_name(positions[0]) if positions else ""
    if relation not in STANCE_RELATIONS:
        return
    agents = [t for r, t in event.args if ctx.vocab.means(r, "agent")]
    targets = [t for r, t in event.args if ctx.vocab.means(r, "target")]
    for i, agent in enumerate(agents, start=1):
        for j, target in enumerate(targets, start=1):
            _statement(ctx, f"{event.id}-{relation}-{i}-{j}", ctx.node(agent), [KGO_IRIS[relation]],
                       ctx.node(target), ctx.bound(agent), ctx.bound(target))


def _event_date(ctx: _Context, node: str, value: str, bound: str | None, attributes: dict[str, str]) -> None:
    """An event's date from a normalized time argument: kgo:date, or kgo:startDate / kgo:endDate
    when the date bounds a period; with its precision and, when annotated, its basis."""
    add = ctx.out.add
    add(node, {"Start": KGO_IRIS.startDate, "End": KGO_IRIS.endDate}.get(bound, KGO_IRIS.date), date_literal(value))
    add(node, KGO_IRIS.datePrecision, literal(date_precision(value)))
    if "dateBasis" in attributes:
        add(node, KGO_IRIS.dateBasis, literal(attributes["dateBasis"]))


def _claimed(ctx: _Context, event_id: str, node: str) -> None:
    """Mark an event or membership that is only the content of a claim: not asserted, and by whom
    (a fact with its statement: the event's trigger and the claimant's mention)."""
    if event_id not in ctx.claimants:
        return
    ctx.out.add(node, KGO_IRIS.asserted, boolean(False))
    trigger = ctx.bound(event_id)
    for claim in ctx.claimed_through_figures.get(event_id, []):
        _statement(ctx, f"{claim}-Content-{event_id}", ctx.events[claim], [KGO_IRIS.content], node, ctx.bound(claim), trigger)
    for i, claimant in enumerate(ctx.claimants[event_id], start=1):
        _statement(ctx, f"{event_id}-claimedBy-{i}", node, [KGO_IRIS.claimedBy], ctx.node(claimant), trigger,
                   ctx.bound(claimant))


def _event_label(ctx: _Context, event: Event, trigger: TextBound, iso: dict[str, str],
                 times: dict[tuple[str, str], str | None]) -> str:
    """A readable label for a document-local event: its type, its words and its date when known,
    or its period ("2019-02-22 – 2019-02-23", "since 2014", "until 2019-03") when its dates bound one."""
    dated = [(bound, target) for (_, target), bound in times.items() if target in iso]
    bounds = {bound: iso[target] for bound, target in dated}
    type_label = "".join(" " + c.lower() if c.isupper() else c for c in event.type).strip().capitalize()
    return f"{type_label}: “{_short(trigger.text)}”{_period_text(bounds) if dated else ''}"


def _period_text(bounds: dict[str | None, str]) -> str:
    """The date part of an event's label, from its dates keyed by the bound they are (None: a point)."""
    start, end = bounds.get("Start"), bounds.get("End")
    if start and end:
        return f", {start} – {end}"
    if start or end:
        return f", since {start}" if start else f", until {end}"
    return f", {next(iter(bounds.values()))}"


def _membership(ctx: _Context, event: Event) -> None:
    """A Membership event: the n-ary membership node and the post it fills (the role in that
    organization); unless the membership is only claimed or past ("a former sergeant"), the memberOf,
    hasRole and holds shortcuts."""
    ann, add, vocab = ctx.doc.annotations, ctx.out.add, ctx.vocab
    trigger = ann.textbounds[event.trigger]
    node = ctx.events[event.id]
    role_key, rule = resolve_role(trigger.text, ctx.aliases)
    role = resource_iri(role_key)
    add(ctx.mention(trigger.id), KGO_IRIS.denotes, iri(role))
    add(ctx.mention(trigger.id), KGO_IRIS.resolvedBy, literal(f"{rule}: {role_key}"))
    for class_iri in vocab.class_iris(event.type):
        if class_iri != KGO_IRIS.Event:
            add(node, TYPE, iri(class_iri))
    add(node, KGO_IRIS.trigger, iri(ctx.mention(trigger.id)))
    add(node, PROV + "wasDerivedFrom", iri(ctx.doc_iri))
    _statement(ctx, f"{event.id}-role", node, [KGO_IRIS.role], role, None, trigger)
    present = event.id not in ctx.claimants and event.id not in ctx.past_states
    members = [t for r, t in event.args if vocab.means(r, "member")]
    organizations = [t for r, t in event.args if vocab.means(r, "organization")]
    posts = [_post(ctx, event, role_key, org, j) for j, org in enumerate(organizations, start=1)] \
        or [_post(ctx, event, role_key, None, 1)]
    for j, post in enumerate(posts, start=1):
        _statement(ctx, f"{event.id}-post-{j}", node, [KGO_IRIS.post], post, None, trigger)
    for i, member in enumerate(members, start=1):
        _statement(ctx, f"{event.id}-Member-{i}", node, [KGO_IRIS.member], ctx.node(member), trigger, ctx.bound(member))
        if not present:
            continue
        _statement(ctx, f"{event.id}-hasRole-{i}", ctx.node(member), [KGO_IRIS.hasRole], role, ctx.bound(member), trigger)
        for j, post in enumerate(posts, start=1):
            _statement(ctx, f"{event.id}-holds-{i}-{j}", ctx.node(member), [KGO_IRIS.holds], post,
                       ctx.bound(member), trigger)
        for j, org in enumerate(organizations, start=1):
            _statement(ctx, f"{event.id}-memberOf-{i}-{j}", ctx.node(member), [KGO_IRIS.memberOf],
                       ctx.node(org), ctx.bound(member), ctx.bound(org))
    for j, org in enumerate(organizations, start=1):
        _statement(ctx, f"{event.id}-Organization-{j}", node, [KGO_IRIS.organization], ctx.node(org),
                   trigger, ctx.bound(org))
    others = [(r, t) for r, t in event.args if not vocab.means(r, "member") and not vocab.means(r, "organization")]
    for k, (role, target) in enumerate(others, start=1):  # a share of its members, a measure of its length
        _statement(ctx, f"{event.id}-{role}-{k}", node, _predicates(ctx, role), ctx.node(target), trigger,
                   ctx.bound(target))
    _claimed(ctx, event.id, node)


def _post(ctx: _Context, event: Event, role_key: str, org: str | None, number: int) -> str:
    """The post a membership fills: the role in one organization, shared by every holder of that
    role there when the organization is canonical, else local to the document. A post without an
    organization has no kgo:postIn (the shapes reject it)."""
    add = ctx.out.add
    resolution = ctx.resolved.get(org) if org else None
    role_slug = role_key.split("/", 1)[1]
    if resolution is not None and resolution.key is not None:
        node = resource_iri(f"post/{role_slug}-of-{resolution.key.split('/', 1)[1]}")
    else:
        node = local_iri(ctx.doc.slug, "post", f"{event.id}-{org}" if org else event.id)
    add(node, TYPE, iri(KGO_IRIS.Post))
    trigger = ctx.bound(event.trigger)
    _statement(ctx, f"{event.id}-post-{number}-role", node, [KGO_IRIS.role], resource_iri(role_key), None, trigger)
    entry = ctx.aliases.entries.get(role_key)
    role_label = entry.label if entry else trigger.text
    if org:
        _statement(ctx, f"{event.id}-post-{number}-postIn", node, [KGO_IRIS.postIn], ctx.node(org), trigger,
                   ctx.bound(org))
        org_entry = ctx.aliases.entries.get(resolution.key) if resolution and resolution.key else None
        add(node, RDFS + "label", literal(f"{role_label}, {org_entry.label if org_entry else ctx.bound(org).text}"))
    else:
        add(node, RDFS + "label", literal(role_label))
    return node


def _attributes(ctx: _Context) -> None:
    """Attributes kg writes as given (qualifiers, units and Unnamed are written on their thing
    above): on an event, its node; on a relation, its statement; on a mention (a date's basis),
    the mention."""
    ann, add, vocab = ctx.doc.annotations, ctx.out.add, ctx.vocab
    relations = {r.id for r in ann.relations}
    for attr in ann.attributes:
        if attr.target in ctx.resolved and any(vocab.means(attr.name, m) for m in THING_ATTRIBUTES):
            continue
        if attr.target in ctx.events:
            node = ctx.events[attr.target]
        elif attr.target in relations:
            node = fragment_iri(ctx.doc.slug, attr.target)
        else:
            node = ctx.mention(attr.target)
        add(node, vocab.property_iri(attr.name), boolean(True) if attr.value is None else literal(attr.value))


def _normalizations_and_notes(ctx: _Context) -> None:
    ann, add = ctx.doc.annotations, ctx.out.add
    relations = {r.id for r in ann.relations}
    items = {norm.id: item for links in knowledge_links(ctx.doc, ctx.vocab).values() for norm, item in links}
    for norm in ann.normalizations:
        resolution, item = ctx.resolved.get(norm.target), items.get(norm.id)
        if item is not None and resolution is not None and _follows(resolution, item):
            add(resolution.iri, OWL + "sameAs", iri(item.iri))
        elif item is not None and norm.target in ctx.events:
            add(ctx.events[norm.target], OWL + "sameAs", iri(item.iri))
        elif (item is not None or norm.db not in NORMALIZATION_DBS) and norm.target in ann.textbounds:
            add(ctx.mention(norm.target), KGO_IRIS.reference, literal(f"{norm.db}:{norm.ref}"))
        elif norm.db not in NORMALIZATION_DBS and norm.target in ctx.events:  # kept on its trigger, as notes are
            add(ctx.mention(ctx.bound(norm.target).id), KGO_IRIS.reference, literal(f"{norm.db}:{norm.ref}"))
    for note in ann.notes:
        if note.target in ann.textbounds:
            add(ctx.mention(note.target), RDFS + "comment", literal(note.text))
        elif note.target in ctx.events:
            add(ctx.mention(ctx.bound(note.target).id), RDFS + "comment", literal(note.text))
        elif note.target in relations:
            add(fragment_iri(ctx.doc.slug, note.target), RDFS + "comment", literal(note.text))


def _follows(resolution: Resolution, item: Item) -> bool:
    """Whether a mention's link is its entity's item: the one its resolution followed, or any when
    the mention stays what its family makes it (a local thing, a date)."""
    return resolution.item == item or resolution.rule in (Rule.LOCAL, Rule.NOT_A_NAME, Rule.ISO8601)


def canonical_keys(nquads: str) -> set[str]:
    """Canonical keys a document graph refers to (mentions, metadata), read back from its N-Quads."""
    keys = set()
    prefix = "<" + iris.RESOURCE
    for line in nquads.split("\n"):  # line feeds only: a literal may hold U+2028
        for term in line.split(" ")[:3:2]:
            if term.startswith(prefix):
                keys.add(term[len(prefix):-1])
    return keys
