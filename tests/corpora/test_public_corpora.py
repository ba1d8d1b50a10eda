"""Corpora nobody here wrote, checked and built as published (tests/data/public/README.md, and the real
corpora beside the project, ../shared/corpora/README.md): what a user of each needs is that `kg check`
and `kg build` succeed on the folder untouched, with every document, with entities, with the warnings
that brat or INCEpTION would also give and no others, and with one entity per knowledge-base item.

Every expected figure is counted here from the corpus files by the small readers below, never by kg:

- documents: each `.txt` (brat), each loose `.xmi`, each `.xmi` inside a `.zip` (INCEpTION, WebAnno);
- knowledge-base items: the distinct `DB:id` of brat `N` lines (`Wikidata:NULL`, "no item", is no
  link) and the distinct `identifier`s of INCEpTION NamedEntity annotations (a Wikidata item the same
  whatever the form of its IRI);
- warnings, by kind: a chain of mentions stated to be one thing (equivalences, identity relations)
  whose mentions have several types (one entity all the same), an annotation line whose type its
  annotation.conf does not declare (documents no
  annotation.conf covers are read with the types their annotations use: one warning for them all), a
  normalization to "no item" (`NULL`, `NIL`, `-`, nothing), an argument of the
  annotation.conf naming a type it does not declare; an `N` line brat cannot parse (brat keeps it
  unparsed and shows the rest); the roles whose name brat cannot spell (counted), the
  annotations of an INCEpTION layer kg does not read (counted); and the files that are neither a
  document nor a configuration (one line, with their count). What brat's verifier marks on an
  annotation it displays (read as written) is compared with brat itself in test_brat_rules.py;

and, in the graph: no entity shared across documents whose words are only pronouns, determiners or
honorifics (spaCy's stop words for English, Russian and Chinese, with a list of honorifics), and every
mention joined by an identity relation (by default Alias, Coref, Abbreviation...) or an equivalence
denoting the same entity as the mentions it is joined to.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
import zipfile
from collections import Counter
from pathlib import Path
from typing import Callable, Iterator

import pytest

import kg
from kg.model import iris
from kg.model.document_ids import document_id
from scripts.corpus_table import ENTITIES, LINKS, warning_counts
from tests.corpora.support import CORPORA
from tests.helpers import run_kg, spacys_stop_words, tree_digest

# How a warning's reason names its kind, first match first; a reason matching none is its own kind ("other: ...").
KINDS = {
    "no annotation.conf": re.compile(r"no annotation\.conf"),
    "undeclared type": re.compile(r"undeclared (type|relation|event type|attribute) |is named in an argument list "
                                  r"|not declared in|undefined (entity|relation|event|attribute|type)"),
    "marked by brat's verifier": re.compile(r"; read as written$"),
    "role renamed": re.compile(r"role '.*' written as"),
    "layer not read": re.compile(r"layer \S+ not read"),
    "malformed line": re.compile(r"malformed"),
    "no link": re.compile(r"names no item"),
    "chain of several types": re.compile(r"joins mentions of several types"),
    "declared twice": re.compile(r"declared twice"),
}
MARKED = "marked by brat's verifier"  # compared with brat's own verifier in test_brat_rules.py
IDENTITY = {"alias", "coref", "coreference", "sameas", "same_as", "synonym", "abbreviation", "acronym", "equiv"}
STOP_WORDS = frozenset().union(*(spacys_stop_words(lang) for lang in ("en", "ru", "uk", "zh", "ja")))
HONORIFICS = {"mr", "mrs", "ms", "miss", "sir", "madam", "lady", "lord", "dr"}
NO_ITEM = {"NULL", "NIL", "-", ""}  # what annotators write for "no item" in a normalization
CONFIGURATION_FILES = {"annotation.conf", "visual.conf", "tools.conf", "kb_shortcuts.conf", "TypeSystem.xml",
                       "aliases.toml", "kg.toml"}
DOCUMENT_SUFFIXES = {".txt", ".ann", ".json", ".xmi", ".zip"}
BRAT_NORMALIZATION = re.compile(r"(\S+) (\S+) (\S+?):(\S+)")  # brat's annotation.py
BRAT_NAME = re.compile(r"^[A-Za-z0-9_-]+$")
WIKIDATA_IRI = re.compile(r"^https?://www\.wikidata\.org/(?:entity|wiki)/([QPL][1-9]\d*)$")
# INCEpTION types kg reads (named entities, DKPro Core's semantic predicates and arguments, custom layers:
# webanno.custom or without a package), and those that carry no annotation of the user's (text structure, metadata)
XMI_READ = re.compile(r"NamedEntity$|\.semantics\.type\.Sem(Pred|Arg|ArgLink)$|^webanno\.custom\.|^[^.]+$")
XMI_SILENT = {"Sentence", "Token", "DocumentMetaData", "DocumentAnnotation", "TagsetDescription", "Sofa", "View",
              "NULL", "XMI",
              "LayerDefinition", "FeatureDefinition"}  # the project's schema: a check of the type system, silent when it agrees


# -- what the corpus says, read without kg

def documents(corpus: Path) -> int:
    """Documents of the corpus: brat texts, loose XMI files, XMI files inside export zips."""
    loose = sum(1 for p in corpus.rglob("*") if p.suffix in (".txt", ".xmi"))
    return loose + sum(len(_xmi_members(z)) for z in corpus.rglob("*.zip"))


def kb_items(corpus: Path) -> set[str]:
    """Distinct knowledge-base items the annotations link to."""
    items = {ref for ann in corpus.rglob("*.ann") for ref in _references(ann)
             if ref.split(":", 1)[1].upper() not in NO_ITEM}
    for root in _xmi_roots(corpus):
        for element in root.iter():
            identifier = element.get("identifier")
            if _name(element.tag).rpartition(".")[2] == "NamedEntity" and identifier:
                wikidata = WIKIDATA_IRI.match(identifier)
                items.add("Wikidata:" + wikidata.group(1) if wikidata else identifier)
    return items


def expected_warnings(corpus: Path) -> Counter:
    """The warnings brat or INCEpTION would give on the corpus, by kind."""
    expected = _brat_warnings(corpus) + _xmi_warnings(corpus)
    expected["files not read"] = sum(1 for p in corpus.rglob("*") if p.is_file() and p.suffix not in DOCUMENT_SUFFIXES
                                     and p.name not in CONFIGURATION_FILES)
    return +expected


def _brat_warnings(corpus: Path) -> Counter:
    """Types used but not declared: on .ann lines, and in the argument lists of each annotation.conf."""
    expected = Counter()
    for conf in corpus.rglob("annotation.conf"):
        expected["undeclared type"] += _undeclared_arguments(conf)
        expected["declared twice"] += _declared_twice(conf)
    for ann in corpus.rglob("*.ann"):
        conf = _nearest_conf(ann, corpus)
        if conf is None:
            expected["no annotation.conf"] = 1
        else:
            expected["undeclared type"] += sum(1 for t in _line_types(ann) if t not in _declared(conf))
        expected["malformed line"] += _malformed_normalizations(ann)
        expected["chain of several types"] += sum(1 for chain in _chains(ann) if len(set(chain.values())) > 1)
        expected["no link"] += sum(1 for ref in _references(ann) if ref.split(":", 1)[1].upper() in NO_ITEM)
    return expected


def _xmi_warnings(corpus: Path) -> Counter:
    """The roles brat cannot spell and the annotations of layers kg does not read, each counted."""
    expected = Counter()
    for root in _xmi_roots(corpus):
        roles = Counter(e.get("role") for e in root.iter() if e.get("role"))
        expected["role renamed"] += sum(n for role, n in roles.items() if not BRAT_NAME.match(role))
        layers = Counter(_name(e.tag) for e in root.iter())
        expected["layer not read"] += sum(count for name, count in layers.items() if not XMI_READ.search(name)
                                          and name.rpartition(".")[2] not in XMI_SILENT)
    return expected


def _nearest_conf(ann: Path, corpus: Path) -> Path | None:
    for directory in [ann.parent, *ann.parent.parents]:
        if (directory / "annotation.conf").is_file():
            return directory / "annotation.conf"
        if directory == corpus:
            return None
    return None


def _conf_lines(conf: Path) -> Iterator[tuple[str, str, str]]:
    """(section, head, arguments) of every declaration of an annotation.conf."""
    section = ""
    for line in conf.read_text(encoding="utf-8").splitlines():
        if line.strip().startswith("["):
            section = line.strip().strip("[]")
        elif line.strip() and not line.strip().startswith("#"):
            head, _, arguments = line.strip().replace("\t", " ").partition(" ")
            yield section, head, arguments


def _declared(conf: Path) -> set[str]:
    """Type names an annotation.conf declares (with their aliases), in any section."""
    return {part.lstrip("!-") for _, head, _ in _conf_lines(conf) if not head.startswith("<")
            for part in head.split("|")}


def _declared_twice(conf: Path) -> int:
    """Declarations of a type or attribute already declared in its section (brat uses the last, or
    for an attribute both)."""
    seen, count = set(), 0
    for section, head, _ in _conf_lines(conf):
        name = head.split("|")[0].lstrip("!")
        if section in ("entities", "events", "attributes") and not name.startswith("<"):
            count += (section, name) in seen
            seen.add((section, name))
    return count


def _undeclared_arguments(conf: Path) -> int:
    """Types named by the arguments of relations, events and attributes that no section declares,
    once per declaration, argument and type."""
    declared, count = _declared(conf), 0
    for section, _, arguments in _conf_lines(conf):
        if section not in ("relations", "events", "attributes"):
            continue
        for argument in filter(None, (a.strip() for a in arguments.split(","))):
            role, _, types = argument.partition(":")
            if role.startswith("<") or role == "Value":
                continue
            count += sum(1 for t in types.split("|") if t and not t.startswith("<") and t not in declared)
    return count


def _line_types(ann: Path) -> Iterator[str]:
    """The type of every entity, event, relation, equivalence and attribute line of a .ann file."""
    for line in ann.read_text(encoding="utf-8").splitlines():
        fields = line.split("\t")
        if line[:1] in "TERAM*" and len(fields) > 1 and fields[1]:
            yield fields[1].split()[0].split(":")[0]


def _references(ann: Path) -> Iterator[str]:
    """The `DB:id` of every well-formed N line."""
    for line in ann.read_text(encoding="utf-8").splitlines():
        fields = line.split("\t")
        if line.startswith("N") and len(fields) > 1 and BRAT_NORMALIZATION.match(fields[1]):
            yield fields[1].split()[2]


def _chains(ann: Path) -> list[dict[str, str]]:
    """The mentions each equivalence or identity relation of a .ann file joins, joined with one another:
    {mention id: its type} per chain (event triggers left out)."""
    lines = [line.split("\t") for line in ann.read_text(encoding="utf-8").splitlines()]
    types = {f[0]: f[1].split()[0] for f in lines if f[0].startswith("T") and len(f) > 1 and f[1]}
    triggers = {f[1].split()[0].split(":")[1] for f in lines if f[0].startswith("E") and len(f) > 1}
    links = [f[1].split()[1:] for f in lines if f[0] == "*" and len(f) > 1]
    links += [[a.split(":")[1] for a in f[1].split()[1:]] for f in lines
              if f[0].startswith("R") and len(f) > 1 and f[1].split()[0].casefold() in IDENTITY]
    chains: list[set[str]] = []
    for link in links:
        members = {m for m in link if m in types and m not in triggers}
        joined = [c for c in chains if c & members]
        chains = [c for c in chains if not c & members] + [members.union(*joined)]
    return [{m: types[m] for m in chain} for chain in chains if len(chain) > 1]


def _malformed_normalizations(ann: Path) -> int:
    """N lines brat cannot parse (it keeps them unparsed and shows the rest): brat's own pattern."""
    lines = [line.split("\t") for line in ann.read_text(encoding="utf-8").splitlines() if line.startswith("N")]
    return sum(1 for fields in lines if len(fields) < 2 or not BRAT_NORMALIZATION.match(fields[1]))


def _xmi_members(path: Path) -> list[str]:
    with zipfile.ZipFile(path) as archive:
        return [name for name in archive.namelist() if name.endswith(".xmi")]


def _xmi_roots(corpus: Path) -> Iterator[ET.Element]:
    for path in corpus.rglob("*.xmi"):
        yield ET.parse(path).getroot()
    for path in corpus.rglob("*.zip"):
        with zipfile.ZipFile(path) as archive:
            for name in _xmi_members(path):
                yield ET.fromstring(archive.read(name))


def _name(tag: str) -> str:
    """A UIMA type name from an XMI element tag: `{http:///webanno/custom.ecore}Span` -> `webanno.custom.Span`."""
    namespace, _, local = tag.rpartition("}")
    package = namespace.strip("{").removeprefix("http:///").removesuffix(".ecore").split("/")
    return ".".join([*package, local]) if namespace else local


# -- what kg says

def kind(warning: str) -> str:
    """The kind (KINDS) of a printed warning."""
    return next((name for name, pattern in KINDS.items() if pattern.search(warning)), f"other: {warning}")


def _unmarked(counts: Counter) -> Counter:
    return Counter({k: n for k, n in counts.items() if k != MARKED})


def entities_per_item(data: Path) -> dict[str, int]:
    """Knowledge-base item -> entities linked to it, asked of the build (corpus_table.LINKS: the
    owl:sameAs of the entity records)."""
    with kg.open(data) as graph:
        return {str(row["item"]): int(row["n"]) for row in graph.query(LINKS)}


def entity_count(data: Path) -> int:
    with kg.open(data) as graph:
        return int(graph.query(ENTITIES)[0]["n"])


# -- the tests

@pytest.fixture(params=sorted(CORPORA), scope="module")
def corpus(request) -> Path:
    return CORPORA[request.param]()


def test_check_accepts_it_as_published(corpus: Path):
    before = tree_digest(corpus)
    result = run_kg("check", "--corpus", str(corpus))
    assert result.exit_code == 0, result.output
    assert f"{documents(corpus)} documents checked" in result.output
    assert _unmarked(warning_counts(result.output, kind)) == expected_warnings(corpus), result.output
    assert tree_digest(corpus) == before


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Callable[[str], tuple[Path, str]]:
    """A build of each corpus, made once for the tests of this module: (data directory, kg's output)."""
    done: dict[str, tuple[Path, str]] = {}

    def build(name: str) -> tuple[Path, str]:
        if name not in done:
            data, before = tmp_path_factory.mktemp(name) / "data", tree_digest(CORPORA[name]())
            result = run_kg("build", "--quiet", "--corpus", str(CORPORA[name]()), "--data", str(data))
            assert result.exit_code == 0, result.output
            assert tree_digest(CORPORA[name]()) == before  # the corpus untouched
            done[name] = (data, result.output)
        return done[name]
    return build


@pytest.mark.parametrize("name", sorted(CORPORA))
def test_build_gives_every_document_its_entities_and_the_warnings_brat_would(name: str, built):
    corpus = CORPORA[name]()
    data, output = built(name)
    assert f"full build: {documents(corpus)} documents;" in output
    assert _unmarked(warning_counts(output, kind)) == expected_warnings(corpus), output
    assert entity_count(data) > 0
    validated = run_kg("validate", "--data", str(data))  # its own vocabulary declared
    assert validated.exit_code == 0, validated.output
    items = kb_items(corpus)
    if items:
        linked = entities_per_item(data)
        assert len(linked) == len(items), f"{len(linked)} items linked in the graph, {len(items)} in the corpus"
        assert sum(linked.values()) / len(linked) == 1.0, {i: n for i, n in linked.items() if n > 1}


def _only_function_words(text: str) -> bool:
    """Whether every word of a mention is a stop word (spaCy's English, Russian, Ukrainian, Chinese and
    Japanese lists) or an honorific, an acronym ("US") and a number being neither: a mention that names
    nothing by itself."""
    words = [w for w in re.findall(r"[^\W_]+", text) if not (len(w) > 1 and w.isupper())]
    return bool(words) and len(words) == len(re.findall(r"[^\W_]+", text)) \
        and all(w.casefold() in STOP_WORDS or w.casefold() in HONORIFICS for w in words)


@pytest.mark.parametrize("name", sorted(CORPORA))
def test_no_pronoun_determiner_or_honorific_is_shared_across_documents(name: str, built) -> None:
    data, _ = built(name)
    with kg.open(data) as graph:
        rows = graph.query("""SELECT ?text ?e (COUNT(DISTINCT ?g) AS ?documents) WHERE {
            GRAPH ?g { ?m kgo:denotes ?e ; nif:anchorOf ?text ; kgo:resolvedBy ?how }
            FILTER(STRSTARTS(STR(?e), STR(kgr:)) && STRSTARTS(?how, "normalized form:")) } GROUP BY ?text ?e""")
    shared = [(str(r["text"]), str(r["e"])) for r in rows if _only_function_words(str(r["text"]))]
    assert shared == []


@pytest.mark.parametrize("name", sorted(CORPORA))
def test_mentions_stated_to_be_one_thing_are_one_entity(name: str, built) -> None:
    corpus = CORPORA[name]()
    data, _ = built(name)
    anns = {ann: _chains(ann) for ann in corpus.rglob("*.ann")}
    if not any(anns.values()):
        pytest.skip(f"{name} states no identity (no equivalence, no identity relation)")
    with kg.open(data) as graph:
        rows = graph.query("SELECT ?g ?id ?e WHERE { GRAPH ?g { ?m kgo:annotationId ?id ; kgo:denotes ?e } }")
    denoted = {(str(r["g"]), str(r["id"])): str(r["e"]) for r in rows}
    for ann, chains in anns.items():
        graph_iri = iris.graph_iri(document_id(ann.relative_to(corpus).with_suffix("").as_posix()))
        for chain in chains:
            assert len({denoted[(graph_iri, m)] for m in chain}) == 1, (ann, chain)
