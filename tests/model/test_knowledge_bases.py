"""Identity from knowledge bases: mentions linked to one item (Wikidata, a database tools.conf
declares, an IRI) are one entity across documents, whatever the spelling of the link; "no link"
values are counted warnings; conflicts follow the order of docs/model.md and are explained."""

from __future__ import annotations

import shutil
from pathlib import Path

from kg.model import iris
from kg.model.iris import WIKIDATA
from kg.pipeline.builder import build
from tests.helpers import CORPUS, assert_same_quads, build_corpus, made_app, run_kg, shared_corpus, store_quads

GND = "GND\tDB:none, <URL>:https://d-nb.info/, <URLBASE>:https://d-nb.info/gnd/%s\n"


def _corpus(root: Path, documents: dict[str, tuple[str, list[tuple[str, str, list[str]]]]],
            aliases: str = "", tools: str = "") -> Path:
    """A corpus of `documents`: slug -> (text, [(type, words, [DB:ID ...])]), spans found in the text."""
    root.mkdir()
    shutil.copy(CORPUS / "annotation.conf", root)
    (root / "aliases.toml").write_text(aliases, encoding="utf-8")
    if tools:
        (root / "tools.conf").write_text("[normalization]\n" + tools, encoding="utf-8")
    for slug, (text, spans) in documents.items():
        lines, norms, at = [], [], 0
        for number, (type_, words, links) in enumerate(spans, start=1):
            begin = text.index(words, at)
            at = begin + len(words)
            lines.append(f"T{number}\t{type_} {begin} {at}\t{words}")
            norms += [f"Reference T{number} {link}\t{words}" for link in links]
        lines += [f"N{n}\t{norm}" for n, norm in enumerate(norms, start=1)]
        (root / f"{slug}.txt").write_text(text, encoding="utf-8")
        (root / f"{slug}.ann").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root



def _rows(data: Path, query: str) -> list[str]:
    return run_kg("query", query, "--data", str(data), "--format", "csv", "--iris", "full").stdout.splitlines()[1:]


def _denoted(data: Path) -> dict[str, set[str]]:
    """Mention words -> the entities they denote."""
    found: dict[str, set[str]] = {}
    for row in _rows(data, "SELECT ?t ?e WHERE { ?m nif:anchorOf ?t ; kgo:denotes ?e }"):
        words, entity = row.rsplit(",", 1)
        found.setdefault(words.strip('"'), set()).add(entity)
    return found


def _explained(data: Path) -> dict[str, str]:
    return {row.split(",", 1)[0]: row.split(",", 1)[1].strip('"')
            for row in _rows(data, "SELECT ?t ?why WHERE { ?m nif:anchorOf ?t ; kgo:resolvedBy ?why }")}


def test_every_spelling_of_an_item_is_one_entity_across_documents(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path / "corpus", {
        "a": ("Barack Obama met Obama in Chicago.", [("Person", "Barack Obama", ["Wikidata:Q76"]),
                                                    ("Person", "Obama", ["Wikidata:https://www.wikidata.org/wiki/Q76"])]),
        "b": ("The 44th president spoke. Mr Hussein listened.",
              [("Person", "The 44th president", ["http://www.wikidata.org/entity/Q76"]),
               ("Person", "Mr Hussein", ["Wikidata:Wikidata:Q76"])]),
    })
    data = tmp_path / "data"
    build_corpus(corpus, data)
    denoted = _denoted(data)
    entities = set().union(*denoted.values())
    assert len(entities) == 1 and len(denoted) == 4
    entity = entities.pop()
    assert _rows(data, f"SELECT ?i WHERE {{ GRAPH kgg:entities {{ <{entity}> owl:sameAs ?i }} }}") == [WIKIDATA + "Q76"]
    explained = _explained(data)  # the spelling the annotator used is kept
    assert explained["Obama"].endswith("; linked as Wikidata:https://www.wikidata.org/wiki/Q76")
    assert explained["The 44th president"].endswith("; linked as http://www.wikidata.org/entity/Q76")
    with made_app({"DATA": str(data), "WORKERS": 1}) as app:
        answer = app.test_client().get("/api/entities/" + entity.split("/id/", 1)[1])
    assert answer.status_code == 200 and answer.get_json()["sameAs"] == [WIKIDATA + "Q76"]


def test_no_link_values_are_counted_warnings_and_the_mention_stays_unlinked(tmp_path: Path) -> None:
    values = ["NULL", "nil", "", "-", "Null"]
    corpus = _corpus(tmp_path / "corpus", {
        f"d{i}": (f"Ana Ruiz{i} left.", [("Person", f"Ana Ruiz{i}", [f"Wikidata:{value}"])])
        for i, value in enumerate(values)})
    checked = run_kg("check", "--corpus", str(corpus))
    assert checked.exit_code == 0, checked.output
    warnings = [line for line in checked.stdout.splitlines() if line.startswith("warning: ")]
    null = [line for line in warnings if "'NULL'" in line]
    assert len(warnings) == len(values) and len(null) == 1
    assert null[0].startswith(f"warning: {corpus / 'd0.ann'}:2: Wikidata identifier 'NULL' names no item")
    assert "(expected an item such as Q76, or no N line)" in null[0]
    data = tmp_path / "data"
    build_corpus(corpus, data)
    assert _rows(data, "SELECT ?i WHERE { ?e owl:sameAs ?i }") == []
    assert all(why.startswith("normalized form: ") for why in _explained(data).values())
    assert run_kg("check", "--strict", "--corpus", str(corpus)).exit_code == 2


def test_a_file_with_errors_still_reports_its_no_link_warnings(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path / "corpus", {"d": ("Ana Ruiz left.", [("Person", "Ana Ruiz", ["Wikidata:NULL"])])})
    with (corpus / "d.ann").open("a", encoding="utf-8") as ann:
        ann.write("T2\tPerson 0 3\tAnn\n")  # not the text's words: an error
    checked = run_kg("check", "--corpus", str(corpus))
    assert checked.exit_code == 2
    assert f"{corpus / 'd.ann'}:3: span text 'Ann'" in checked.stderr
    assert f"warning: {corpus / 'd.ann'}:2: Wikidata identifier 'NULL' names no item" in checked.stderr


def test_a_database_tools_conf_declares_is_a_knowledge_base(tmp_path: Path) -> None:
    documents = {
        "a": ("Goethe wrote.", [("Person", "Goethe", ["GND:118540238"])]),
        "b": ("J. W. von Goethe read.", [("Person", "J. W. von Goethe", ["GND:https://d-nb.info/gnd/118540238"])]),
    }
    declared, plain = tmp_path / "declared", tmp_path / "plain"
    build_corpus(_corpus(tmp_path / "with", documents, tools=GND), declared)  # built with the shapes checked
    assert len(set().union(*_denoted(declared).values())) == 1
    assert _rows(declared, "SELECT DISTINCT ?i WHERE { GRAPH kgg:entities { ?e owl:sameAs ?i } }") == [
        "https://d-nb.info/gnd/118540238"]
    validated = run_kg("validate", "--data", str(declared))  # the shapes take any item's IRI, Wikidata's as wd:
    assert validated.exit_code == 0, validated.output
    documents["b"] = (documents["b"][0], [("Person", "J. W. von Goethe", ["GND:118540238"])])
    build_corpus(_corpus(tmp_path / "without", documents), plain)  # undeclared: an item under kg's base
    assert len(set().union(*_denoted(plain).values())) == 1
    assert _rows(plain, "SELECT DISTINCT ?i WHERE { GRAPH kgg:entities { ?e owl:sameAs ?i } }") == [
        iris.BASE + "reference/GND/118540238"]


def test_declaring_a_knowledge_base_rebuilds_with_its_identity(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path / "corpus", {
        "a": ("Goethe wrote.", [("Person", "Goethe", ["GND:118540238"])]),
        "b": ("J. W. von Goethe read.", [("Person", "J. W. von Goethe", ["GND:118540238"])]),
    })
    data = tmp_path / "data"
    build(corpus, data)
    item = "SELECT DISTINCT ?i WHERE { GRAPH kgg:entities { ?e owl:sameAs ?i } }"
    assert len(set().union(*_denoted(data).values())) == 1 and _rows(data, item) == [
        iris.BASE + "reference/GND/118540238"]
    (corpus / "tools.conf").write_text("[normalization]\n" + GND, encoding="utf-8")
    assert build(corpus, data).mode == "full"
    assert len(set().union(*_denoted(data).values())) == 1 and _rows(data, item) == ["https://d-nb.info/gnd/118540238"]


def test_conflicts_follow_the_documented_order_and_are_explained(tmp_path: Path) -> None:
    aliases = ('[[entity]]\nkey = "person/juan-guaido"\ntype = "Person"\nlabel = "Juan Guaidó"\naliases = ["Guaidó"]\n\n'
               '[[entity]]\nkey = "place/venezuela"\ntype = "Place"\nlabel = "Venezuela"\nwikidata = "Q717"\n')
    corpus = _corpus(tmp_path / "corpus", {
        "a": ("Guaidó met Kohl in the Bolivarian Republic. Alpha and Beta agreed in Caracas, Venezuela.",
              [("Person", "Guaidó", ["Wikidata:Q56276951"]),
               ("Person", "Kohl", ["GND:118564943", "Wikidata:Q2518"]),
               ("Place", "Bolivarian Republic", ["Wikidata:Q717"]),
               ("Person", "Alpha", ["Wikidata:Q2"]), ("Person", "Beta", ["Wikidata:Q1"]),
               ("Place", "Caracas", ["KG:place/venezuela", "Wikidata:Q1533"]),
               ("Place", "Venezuela", ["KG:place/venezuela", "Wikidata:Q717"])]),
    }, aliases=aliases, tools=GND)
    with (corpus / "a.ann").open("a", encoding="utf-8") as ann:
        ann.write("*\tEquiv T4 T5\n")
    data = tmp_path / "data"
    build_corpus(corpus, data)
    why, denoted = _explained(data), _denoted(data)
    # the link wins over the alias table's spelling, which names no item
    assert why["Guaidó"] == ("knowledge base: wikidata/q56276951; linked as Wikidata:Q56276951; "
                             "not followed: alias table person/juan-guaido (no item)")
    # two items on one mention: Wikidata's is followed, the other kept as a reference
    assert why["Kohl"] == "knowledge base: wikidata/q2518; linked as Wikidata:Q2518; not followed: GND:118564943 (one mention, one entity)"
    assert _rows(data, "SELECT ?r WHERE { ?m nif:anchorOf 'Kohl' ; kgo:reference ?r }") == ["GND:118564943"]
    # the alias table's entry that gives the item is the item's entity
    assert denoted["Bolivarian Republic"] == {next(iter(denoted["Bolivarian Republic"]))}
    assert next(iter(denoted["Bolivarian Republic"])).endswith("/id/place/venezuela")
    # an Equiv set of two items follows the one whose IRI sorts first
    assert denoted["Alpha"] == denoted["Beta"] and next(iter(denoted["Beta"])).endswith("/id/wikidata/q1")
    assert why["Alpha"] == ("knowledge base (Equiv): wikidata/q1; linked as Wikidata:Q1; "
                            "not followed: Wikidata:Q2 (Equiv with Wikidata:Q1)")
    assert _rows(data, "SELECT ?r WHERE { ?m nif:anchorOf 'Alpha' ; kgo:reference ?r }") == ["Wikidata:Q2"]
    # a KG key wins over a link the alias table contradicts, which stays a reference; an agreeing one is sameAs
    assert why["Caracas"] == ("KG normalization: place/venezuela; "
                              "not followed: Wikidata:Q1533 (the alias table says place/venezuela is another item)")
    assert why["Venezuela"] == "KG normalization: place/venezuela"
    assert _rows(data, "SELECT ?r WHERE { ?m nif:anchorOf 'Caracas' ; kgo:reference ?r }") == ["Wikidata:Q1533"]
    assert _rows(data, "SELECT ?i WHERE { GRAPH kgg:entities { place:venezuela owl:sameAs ?i } }") == [
        WIKIDATA + "Q717"]


def test_inception_identifiers_are_identity(tmp_path: Path) -> None:
    shared = shared_corpus("inception-xmi", "mimotext")  # NamedEntity identifiers: Wikidata and MiMoText IRIs
    corpus = tmp_path / "mimotext"
    corpus.mkdir()
    for path in shared.iterdir():
        if path.name.isascii():  # a document id is ASCII
            shutil.copy(path, corpus)
    data = tmp_path / "data"
    build_corpus(corpus, data)
    counts = _rows(data, "SELECT (COUNT(DISTINCT ?e) AS ?entities) (COUNT(DISTINCT ?i) AS ?items) "
                         "WHERE { GRAPH kgg:entities { ?e owl:sameAs ?i } }")
    entities, items = (int(n) for n in counts[0].split(","))
    assert entities == items > 10
    linked = _rows(data, "SELECT DISTINCT ?i WHERE { GRAPH ?g { ?e owl:sameAs ?i } FILTER(?g != kgg:entities) }")
    assert len(linked) == items and any(i.startswith(WIKIDATA) for i in linked)


def test_an_incremental_build_links_records_as_a_full_build_does(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path / "corpus", {
        "a": ("Ana Ruiz spoke.", [("Person", "Ana Ruiz", ["Wikidata:Q1"])]),
        "b": ("Ms Ruiz agreed.", [("Person", "Ms Ruiz", ["Wikidata:Q1"])]),
    })
    data = tmp_path / "data"
    build(corpus, data)
    (corpus / "b.ann").write_text("T1\tPerson 0 7\tMs Ruiz\nN1\tReference T1 Wikidata:Q2\tMs Ruiz\n")
    (corpus / "a.ann").unlink()
    (corpus / "a.txt").unlink()
    assert build(corpus, data).mode == "incremental"
    build(corpus, tmp_path / "full", full=True)
    assert_same_quads(store_quads(data), store_quads(tmp_path / "full"), "incremental after links moved")
    assert _rows(data, "SELECT ?e ?i WHERE { GRAPH kgg:entities { ?e owl:sameAs ?i } }") == [
        f"{iris.RESOURCE}wikidata/q2,{WIKIDATA}Q2"]


def test_an_event_keeps_its_links(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path / "corpus", {"a": ("Ana Ruiz fled.", [("Person", "Ana Ruiz", []), ("Flight", "fled", [])])})
    with (corpus / "a.ann").open("a", encoding="utf-8") as ann:
        ann.write("E1\tFlight:T2 Agent:T1\nN1\tReference E1 Wikidata:Q1\tfled\nN2\tReference E1 ACE:e-17\tfled\n")
    data = tmp_path / "data"
    build_corpus(corpus, data)
    event = _rows(data, "SELECT ?e WHERE { ?e kgo:trigger ?m }")
    assert len(event) == 1
    assert sorted(_rows(data, f"SELECT ?i WHERE {{ <{event[0]}> owl:sameAs ?i }}")) == sorted(
        [WIKIDATA + "Q1", iris.BASE + "reference/ACE/e-17"])  # ACE, declared nowhere: an item under kg's base
    exported, again = tmp_path / "exported", tmp_path / "again"
    assert run_kg("export", "--data", str(data), "--format", "brat", "-o", str(exported)).exit_code == 0
    build_corpus(exported, again)
    assert_same_quads(store_quads(again), store_quads(data), "graph rebuilt from the brat export")


def test_an_unnamed_person_linked_to_an_item_is_its_entity_and_a_figure_stays_local(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path / "corpus", {"a": ("His mother met Ana Ruiz; 40 people came.",
                                                 [("Person", "His mother", ["Wikidata:Q7"]),
                                                  ("Person", "Ana Ruiz", ["Wikidata:Q7"]),
                                                  ("Figure", "40", ["Wikidata:Q7"])])})
    with (corpus / "a.ann").open("a", encoding="utf-8") as ann:
        ann.write("A1\tUnnamed T1\n")
    data = tmp_path / "data"
    build_corpus(corpus, data)
    denoted = _denoted(data)
    assert denoted["His mother"] == denoted["Ana Ruiz"] and next(iter(denoted["Ana Ruiz"])).endswith("/id/wikidata/q7")
    assert "/doc/a/figure/T3" in next(iter(denoted["40"]))
