"""Write a build back out as a brat corpus: `kg export --format brat`.

Every document graph is read back into brat standoff: T lines from the
mentions, R lines from the statements named after relations, E lines from
the events and their role statements, A lines from attributes, N lines from
the normalizations that resolution and figures record, `*	Equiv` lines from
the mentions that Equiv joined, `#` notes from comments. Beside them go the
texts, the metadata records, the corpus's configuration files as the build
saw them, and a tools.conf declaring every normalization database used, so
that brat opens the result and its verifier accepts it, and `kg build` of
the result gives a graph isomorphic to the one exported.
"""

from __future__ import annotations

import json
import re
import shutil
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Iterator

import pyoxigraph as ox

from kg.formats.brat.ann import NOT_KNOWLEDGE_BASES
from kg.formats.brat.conf import CONFIG_FILE, AnnotationConfig, load_config
from kg.formats.brat.tools_conf import find_tools, url_patterns
from kg.formats.records import id_order
from kg.model import iris
from kg.model.document_ids import document_file, inside
from kg.model.entities.resolve import LINKED_AS
from kg.model.iris import FIXED_PREFIXES, WIKIDATA, slug_of_graph
from kg.model.schema.corpus_vocabulary import Vocabulary, load_alignment
from kg.model.schema.ontology import KGO, THING_ATTRIBUTES
from kg.store.embedded import EmbeddedStore

RDF, RDFS, OWL, NIF, DCTERMS = (FIXED_PREFIXES[p] for p in ("rdf", "rdfs", "owl", "nif", "dcterms"))
TOOLS_DATABASES = {
    "Wikidata": ("https://www.wikidata.org/", "https://www.wikidata.org/wiki/%s"),
    "ISO8601": ("https://en.wikipedia.org/wiki/ISO_8601", "https://en.wikipedia.org/wiki/ISO_8601#%s"),
    "Number": ("https://en.wikipedia.org/wiki/Number", "https://en.wikipedia.org/wiki/Number#%s"),
    "geonames": ("https://www.geonames.org/", "https://sws.geonames.org/%s/"),  # as kg.formats.inception.cas_to_brat names IRIs
    "dbpedia": ("https://dbpedia.org/", "https://dbpedia.org/%s"),
}
_STATEMENT = re.compile(r"^(E\d+)-(.+)-(\d+)$")


def _derived(name: str) -> bool:
    """Statements kg adds to an event (a membership's post, its memberOf, hasRole and holds
    shortcuts; an asserted stance's supports, opposes or recognizes; who claims a claimed event),
    which are not annotated arguments."""
    return name in ("post", "hasRole", "claimedBy") or name.startswith(
        ("memberOf-", "holds-", "supports-", "opposes-", "recognizes-"))


def save_schema(corpus_dir: Path, configs: list[Path], config_dir: Path) -> None:
    """Keep the configuration files a build read in `config_dir`, at their places in the corpus."""
    for path in configs:
        target = inside(config_dir, path.relative_to(corpus_dir))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)


def export_brat(schema: Path, store: EmbeddedStore, output: Path) -> tuple[int, list[str]]:
    """Write the corpus of a build under `output` (a new directory: `kg export` renames it into place when
    complete, kg.publish.targets), read against the configuration files
    the build kept in `schema` (kg.store.build_dirs.corpus_config_dir); returns the documents written
    and the warnings (none: brat holds everything a build read)."""
    output.mkdir(parents=True, exist_ok=True)
    if schema.is_dir():
        shutil.copytree(schema, output, dirs_exist_ok=True)
    databases: set[str] = set()
    linked: set[str] = set()
    count = 0
    for doc, _, lines in documents_as_brat(store, schema):
        databases |= {line.split("\t")[1].split(" ")[2].split(":", 1)[0] for line in lines if line[0] == "N"}
        linked |= _linked_databases(doc)
        written = {".txt": doc.text, ".ann": "".join(line + "\n" for line in lines),
                   ".json": json.dumps(doc.metadata(), indent=1, ensure_ascii=False) + "\n"}
        for suffix, content in written.items():  # under the file name the document was read from
            path = document_file(output, doc.slug, suffix)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content, encoding="utf-8")
        count += 1
    _write_tools_conf(output, databases, linked, url_patterns(find_tools(schema, schema)))
    return count, []


def _linked_databases(doc: _DocumentGraph) -> set[str]:
    """Databases whose identifiers (not IRIs) resolved mentions of the document as knowledge-base
    items: tools.conf must declare them with a URL pattern for a build of the export to do the same."""
    found = set()
    for mention in doc.typed(str(KGO.Mention)):
        for note in (doc.one(mention, str(KGO.resolvedBy)) or "").split("; ")[1:]:
            db, _, ref = note.removeprefix(LINKED_AS).partition(":")
            if note.startswith(LINKED_AS) and db.lower() not in ("http", "https") and not ref.startswith("http"):
                found.add(db)
    return found


def documents_as_brat(store: EmbeddedStore,
                      schema: Path) -> Iterator[tuple[_DocumentGraph, AnnotationConfig, list[str]]]:
    """Each document graph of the build, with its annotation configuration and its .ann lines."""
    alignment = load_alignment(schema / "kg.toml")
    for graph in store.graphs():
        slug = slug_of_graph(graph)
        if slug is not None:
            doc = _DocumentGraph(slug, store.quads_of(graph))
            config = load_config(_config_for(schema, slug))
            yield doc, config, _Writer(doc, Vocabulary(config, alignment)).lines()


def _config_for(schema: Path, slug: str) -> Path:
    directory = document_file(schema, slug, "").parent
    while not (directory / CONFIG_FILE).is_file() and directory != schema:
        directory = directory.parent
    return directory / CONFIG_FILE


def _write_tools_conf(output: Path, databases: set[str], linked: set[str], declared: dict[str, str]) -> None:
    """brat's tools.conf: the normalization databases the annotations use, with the URL pattern the
    corpus declared or kg knows; a knowledge base's the IRIs of its items (as INCEpTION's converter
    names them when nothing else does), and no pattern for a plain reference (no knowledge base)."""
    from kg.formats.inception.cas_to_brat import reference_iri  # the names INCEpTION IRIs were given

    known = {**TOOLS_DATABASES, "KG": (iris.BASE, iris.RESOURCE + "%s")}
    known.update((db, (iris.BASE, url)) for db, url in declared.items()
                 if db not in NOT_KNOWLEDGE_BASES + ("Wikidata",))
    lines = ["[normalization]"]
    for db in sorted(databases):
        home, url = known.get(db, (iris.BASE, None))
        url = url or (reference_iri(db, "%s") if db in linked else None)
        lines.append(f"{db}\tDB:none, <URL>:{home}" + (f", <URLBASE>:{url}" if url else ""))
    (output / "tools.conf").write_text("\n".join(lines) + "\n", encoding="utf-8")


@dataclass
class _DocumentGraph:
    """One document graph, indexed by subject."""

    slug: str
    quads: object
    props: dict[str, dict[str, list]] = field(default_factory=lambda: defaultdict(lambda: defaultdict(list)))

    def __post_init__(self) -> None:
        for quad in self.quads:
            self.props[_key(quad.subject)][quad.predicate.value].append(quad.object)

    def one(self, subject: str, predicate: str) -> str | None:
        values = self.props.get(subject, {}).get(predicate)
        return values[0].value if values else None

    def all(self, subject: str, predicate: str) -> list[str]:
        return [v.value for v in self.props.get(subject, {}).get(predicate, [])]

    def typed(self, class_iri: str) -> list[str]:
        return [s for s, p in self.props.items() if class_iri in [o.value for o in p.get(RDF + "type", [])]]

    @property
    def text(self) -> str:
        return self.one(iris.DOCUMENT + self.slug, NIF + "isString") or ""

    def metadata(self) -> dict:
        doc = iris.DOCUMENT + self.slug
        record = {"title": self.one(doc, DCTERMS + "title")}
        for name, predicate in (("publisher", KGO.publisher), ("author", KGO.author)):
            value = self.one(doc, str(predicate))
            if value:
                record[name] = value[len(iris.RESOURCE):]
        date = self.one(doc, DCTERMS + "date")
        if date:
            record["date"] = date
        note = self.one(doc, str(KGO.dateNote))
        if note:
            record["date_note"] = note
        return record


def _key(term) -> str:
    return term.value if isinstance(term, ox.NamedNode) else str(term)


class _Writer:
    """Rebuilds the .ann lines of one document graph."""

    def __init__(self, doc: _DocumentGraph, vocab: Vocabulary) -> None:
        self.doc, self.vocab = doc, vocab
        self.prefix = f"{iris.DOCUMENT}{doc.slug}#"
        self.mentions = {doc.one(m, str(KGO.annotationId)): m for m in doc.typed(str(KGO.Mention))}
        self.mention_ids = {iri: tid for tid, iri in self.mentions.items()}
        self.names = self._property_names()
        self.events = self._events()
        self.trigger_event = {trigger: eid for eid, (_, trigger) in self.events.items()}
        self.counters: dict[str, int] = defaultdict(int)

    def lines(self) -> list[str]:
        out = [self._textbound(tid) for tid in sorted(self.mentions, key=id_order)]
        out += self._event_lines() + self._relation_lines() + self._attribute_lines()
        out += self._normalization_lines() + self._equiv_lines() + self._note_lines()
        return out

    def _next(self, kind: str) -> str:
        self.counters[kind] += 1
        return f"{kind}{self.counters[kind]}"

    def _property_names(self) -> dict[str, str]:
        """Property IRI -> the relation type, role or attribute name it was made from."""
        return {self.vocab.property_iri(n): n for n in self.vocab.property_names()}

    # -- text-bound annotations ----------------------------------------------------

    def _textbound(self, tid: str) -> str:
        m, doc = self.mentions[tid], self.doc
        offsets = doc.one(m, str(KGO.offsets)) or f"{doc.one(m, NIF + 'beginIndex')} {doc.one(m, NIF + 'endIndex')}"
        return f"{tid}\t{doc.one(m, str(KGO.annotationType))} {offsets}\t{doc.one(m, NIF + 'anchorOf')}"

    # -- events ---------------------------------------------------------------------

    def _events(self) -> dict[str, tuple[str, str]]:
        """Event id -> (event node, trigger T id): from the role statements (whose subject mention
        is the trigger), else from a document-local IRI, else a fresh id."""
        found: dict[str, tuple[str, str]] = {}
        for statement, match in self._role_statements():
            if not _derived(match.group(2)):
                trigger = self.mention_ids[self.doc.one(statement, str(KGO.subjectMention))]
                found.setdefault(match.group(1), (self.doc.one(statement, RDF + "subject"), trigger))
        covered = {trigger for _, trigger in found.values()}
        for node in sorted(s for s, p in self.doc.props.items() if str(KGO.trigger) in p):
            for mention in self.doc.all(node, str(KGO.trigger)):
                trigger = self.mention_ids[mention]
                if trigger in covered:
                    continue
                local = re.match(rf"^{re.escape(iris.DOCUMENT + self.doc.slug)}/(?:event|membership)/(E\d+)$", node)
                eid = local.group(1) if local and local.group(1) not in found else \
                    next(f"E{n}" for n in range(1, len(found) + 2) if f"E{n}" not in found)
                found[eid] = (node, trigger)
                covered.add(trigger)
        return found

    def _role_statements(self) -> list[tuple[str, re.Match]]:
        statements = []
        for statement in self.doc.typed(str(KGO.Statement)):
            match = _STATEMENT.match(statement[len(self.prefix):])
            if match:
                statements.append((statement, match))
        return statements

    def _event_lines(self) -> list[str]:
        lines = []
        for eid in sorted(self.events, key=id_order):
            node, trigger = self.events[eid]
            type_ = self.doc.one(self.mentions[trigger], str(KGO.annotationType))
            args = []
            for role, index, target in self._role_arguments(eid):  # a repeat numbered, unless declared with digits
                args.append(f"{role}{index if index > 1 and not role[-1].isdigit() else ''}:{target}")
            lines.append(f"{eid}\t{type_}:{trigger}" + "".join(" " + a for a in args))
        return lines

    def _role_arguments(self, eid: str) -> list[tuple[str, int, str]]:
        args = []
        for statement, match in self._role_statements():
            if match.group(1) != eid or _derived(match.group(2)):
                continue  # what a Membership event adds; its arguments are Member and Organization
            target = self.mention_ids[self.doc.one(statement, str(KGO.objectMention))]
            args.append((match.group(2), int(match.group(3)), self.trigger_event.get(target, target)))
        return sorted(args, key=lambda a: (a[0], a[1]))

    # -- relations ------------------------------------------------------------------

    def _relation_lines(self) -> list[str]:
        lines = []
        for statement in self.doc.typed(str(KGO.Statement)):
            rid = statement[len(self.prefix):]
            if not re.fullmatch(r"R\d+", rid):
                continue
            predicate = self.doc.one(statement, RDF + "predicate")
            ends = [self.mention_ids[self.doc.one(statement, str(p))] for p in (KGO.subjectMention, KGO.objectMention)]
            ends = [self.trigger_event.get(e, e) for e in ends]
            labels = (self.doc.one(statement, str(KGO.argumentLabels)) or "Arg1 Arg2").split(" ")
            lines.append(f"{rid}\t{self.names[predicate]} {labels[0]}:{ends[0]} {labels[1]}:{ends[1]}")
        return sorted(lines, key=lambda line: id_order(line.split("\t")[0]))

    # -- attributes -----------------------------------------------------------------

    def _attribute_lines(self) -> list[str]:
        lines = []
        attributes = {self.vocab.property_iri(n): n for n in self.vocab.config.attributes}
        targets = [(eid, node) for eid, (node, _) in self.events.items()]
        targets += [(s[len(self.prefix):], s) for s in self.doc.typed(str(KGO.Statement))
                    if re.fullmatch(r"R\d+", s[len(self.prefix):])]
        targets += list(self.mentions.items())
        config = self.vocab.config
        for ann_id, node in sorted(targets, key=lambda t: (t[0][0], id_order(t[0]))):
            type_ = self._type_of(ann_id)
            for iri, name in sorted(attributes.items(), key=lambda a: a[1]):
                if type_ is not None and not config.matches(type_, config.attributes[name].targets):
                    continue  # a property kg writes on events too (a date's basis), not this attribute
                for value in self.doc.all(node, iri):
                    lines.append(f"{self._next('A')}\t{name} {ann_id}" + ("" if value == "true" else f" {value}"))
        lines += self._local_attributes()
        return lines

    def _type_of(self, ann_id: str) -> str | None:
        """The annotation type of an event, mention or relation id (None when unknown)."""
        if ann_id in self.events:
            return self.doc.one(self.mentions[self.events[ann_id][1]], str(KGO.annotationType))
        if ann_id in self.mentions:
            return self.doc.one(self.mentions[ann_id], str(KGO.annotationType))
        predicate = self.doc.one(self.prefix + ann_id, RDF + "predicate")
        return self.names.get(predicate) if predicate else None

    def _local_attributes(self) -> list[str]:
        """Qualifier, Unit and Unnamed live on the document-local thing; brat puts them on its mention."""
        lines = []
        for name in self.vocab.config.attributes:
            for meaning in THING_ATTRIBUTES:
                if not self.vocab.means(name, meaning):
                    continue
                for thing, props in sorted(self.doc.props.items()):
                    for value in [v.value for v in props.get(str(KGO[meaning]), [])]:
                        tid = self._own_mention(thing)
                        lines.append(f"{self._next('A')}\t{name} {tid}" + ("" if meaning == "unnamed" else f" {value}"))
        return lines

    def _own_mention(self, thing: str) -> str:
        """The mention a document-local thing was made from (its IRI ends in that mention's id)."""
        tid = thing.rsplit("/", 1)[-1]
        return tid if tid in self.mentions else self.mention_ids[self.doc.one(thing, str(KGO.mention))]

    # -- normalizations -------------------------------------------------------------

    def _normalization_lines(self) -> list[str]:
        lines = []
        for tid in sorted(self.mentions, key=id_order):
            m = self.mentions[tid]
            for ref in self._references(tid, m):
                lines.append(f"{self._next('N')}\tReference {self.trigger_event.get(tid, tid)} {ref}"
                             f"\t{self.doc.one(m, NIF + 'anchorOf')}")
        return lines

    def _references(self, tid: str, mention: str) -> list[str]:
        doc, refs = self.doc, []
        rule, *notes = (doc.one(mention, str(KGO.resolvedBy)) or "").split("; ")
        if rule.startswith("KG normalization: "):
            refs.append("KG:" + rule.split(": ", 1)[1])
        if rule.startswith("ISO 8601 value: "):
            refs.append("ISO8601:" + rule.split(": ", 1)[1].split("/", 1)[1])
        if rule.startswith("knowledge base: "):  # the link as the annotator wrote it
            refs += [note.removeprefix(LINKED_AS) for note in notes if note.startswith(LINKED_AS)]
        if rule.startswith("local"):  # an event not merged with the canonical event it is linked to
            refs += [note.removeprefix(LINKED_AS) for note in notes if note.startswith(LINKED_AS + "KG:")]
        refs += doc.all(mention, str(KGO.reference))
        denoted = doc.one(mention, str(KGO.denotes))
        if denoted and doc.one(denoted, str(KGO.value)) is not None and self._first_mention(denoted) == tid:
            refs.append("Number:" + doc.one(denoted, str(KGO.value)))
        if denoted and self._first_mention(denoted) == tid and denoted not in self._linked_by_mentions:
            refs += [f"Wikidata:{w[len(WIKIDATA):]}" if w.startswith(WIKIDATA) else w
                     for w in doc.all(denoted, OWL + "sameAs")]
        return refs

    @cached_property
    def _linked_by_mentions(self) -> set[str]:
        """Entities that mentions of this document were resolved to by their knowledge-base links
        (each mention writes its own link back, as spelled)."""
        return {self.doc.one(m, str(KGO.denotes)) for m in self.mentions.values()
                if (self.doc.one(m, str(KGO.resolvedBy)) or "").startswith("knowledge base")}

    def _first_mention(self, denoted: str) -> str | None:
        tids = [t for t, m in self.mentions.items() if self.doc.one(m, str(KGO.denotes)) == denoted]
        return min(tids, key=id_order) if tids else None

    # -- Equiv and notes ------------------------------------------------------------

    def _equiv_lines(self) -> list[str]:
        groups: dict[tuple[str, str], list[str]] = defaultdict(list)
        joined = set()
        for tid, m in self.mentions.items():
            rule = self.doc.one(m, str(KGO.resolvedBy)) or ""
            base = rule.split("; ", 1)[0].replace(" (Equiv)", "").replace(" (identity)", "")
            groups[(self.doc.one(m, str(KGO.denotes)) or "", base)].append(tid)
            if "(Equiv)" in rule:
                joined.add((self.doc.one(m, str(KGO.denotes)) or "", base))
        equiv = "Equiv" if "Equiv" in self.vocab.config.equiv_types() else next(iter(self.vocab.config.equiv_types()), "Equiv")
        return [f"*\t{equiv} " + " ".join(sorted(groups[k], key=id_order)) for k in sorted(joined)]

    def _note_lines(self) -> list[str]:
        lines = []
        for tid in sorted(self.mentions, key=id_order):
            for text in self.doc.all(self.mentions[tid], RDFS + "comment"):
                lines.append(f"{self._next('#')}\tAnnotatorNotes {self.trigger_event.get(tid, tid)}\t{text}")
        for statement in self.doc.typed(str(KGO.Statement)):
            rid = statement[len(self.prefix):]
            for text in self.doc.all(statement, RDFS + "comment"):
                lines.append(f"{self._next('#')}\tAnnotatorNotes {rid}\t{text}")
        return lines
