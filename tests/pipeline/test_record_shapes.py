"""The records' SHACL check a full build runs on the records it wrote, before its store has loaded
them, checks what the check of the stored records does: the classes a document declares for a type
beyond its annotation.conf are read off the N-Quads as the store lists them, a record typed with
such a class passes only with them, and a record that breaks the check fails both ways."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from kg.errors import ValidationError
from kg.model import iris
from kg.pipeline.validation.record_shapes import (
    DeclaredClasses,
    declared_in_store,
    records_of,
    validate_stored_records,
    validate_written_records,
)
from kg.pipeline.validation.shacl import declared_in
from kg.store import build_dirs
from kg.store.embedded import EmbeddedStore
from tests.helpers import TINY, build_corpus

RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"


@pytest.fixture(scope="module")
def wizard_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A validated full build of the tiny corpus where Ana Ruiz is annotated with a type its
    annotation.conf lacks (brat shows it and marks it; kg reads it as the document's own class)."""
    root = tmp_path_factory.mktemp("wizard")
    corpus = root / "corpus"
    shutil.copytree(TINY, corpus)
    ann = corpus / "alpha.ann"
    ann.write_text(ann.read_text().replace("T2\tPerson 4 12\tAna Ruiz", "T2\tWizard 4 12\tAna Ruiz"))
    build_corpus(corpus, root / "data")
    return build_dirs.current_build(root / "data")


def _sections(build: Path) -> dict[str, str]:
    """The text of each graph's section of the build's kg.nq, by graph IRI."""
    data = (build / "kg.nq").read_bytes()
    index = json.loads((build / "kg.nq.sections.json").read_text())
    return {graph: data[start:end].decode() for graph, (start, end) in index.items()}


def _keys(records: str) -> set[str]:
    start = len("<" + iris.RESOURCE)
    return {line.split(" ", 1)[0][start:-1] for line in records.splitlines()}


def test_the_classes_documents_declare_are_read_off_their_nquads_as_the_store_lists_them(wizard_build: Path) -> None:
    declared = DeclaredClasses()
    for text in _sections(wizard_build).values():  # one graph at a time, as the build hands them to the loader
        declared.add(text)
    with EmbeddedStore(build_dirs.store_path(wizard_build), read_only=True) as store:
        assert declared.found == declared_in_store(store)
    assert iris.VOCABULARY + "Wizard" in declared.found


def test_a_record_typed_with_a_documents_class_passes_only_with_that_class_declared(wizard_build: Path) -> None:
    sections = _sections(wizard_build)
    records, vocabulary = sections[iris.ENTITIES_GRAPH], declared_in(sections[iris.ONTOLOGY_GRAPH].encode())
    assert f"<{RDF_TYPE}> <{iris.VOCABULARY}Wizard>" in records
    declared = DeclaredClasses()
    declared.add(sections[iris.graph_iri("alpha")])
    validate_written_records(records, _keys(records), vocabulary | declared.found)
    with pytest.raises(ValidationError, match="vocab#Wizard"):
        validate_written_records(records, _keys(records), vocabulary)


def test_a_record_that_breaks_the_check_fails_written_and_stored_alike(wizard_build: Path) -> None:
    sections = _sections(wizard_build)
    records = sections[iris.ENTITIES_GRAPH]
    key = sorted(_keys(records))[0]
    broken = (f"<{iris.resource_iri(key)}> <{RDF_TYPE}> <{iris.VOCABULARY}Unicorn> <{iris.ENTITIES_GRAPH}> .\n"
              + records)
    declared = DeclaredClasses()
    for text in sections.values():
        declared.add(text)
    vocabulary = declared_in(sections[iris.ONTOLOGY_GRAPH].encode())
    with pytest.raises(ValidationError, match="vocab#Unicorn") as written:
        validate_written_records(broken, {key}, vocabulary | declared.found)
    with EmbeddedStore() as store:
        store.load_nquads("".join(sections.values()).encode() + broken.encode())
        with pytest.raises(ValidationError, match="vocab#Unicorn") as stored:
            validate_stored_records(store, {key}, vocabulary)
    assert str(written.value) == str(stored.value)
    validate_written_records(broken, _keys(records) - {key}, vocabulary | declared.found)  # only the keys asked



def test_a_records_line_is_kept_whole_whatever_line_breaks_its_literals_hold():
    """N-Quads end a line at a line feed alone: a label holding U+2028, U+0085 or U+001C stays on its
    record's line (str.splitlines cut it there, and the check was handed half a quad)."""
    ana, pedro = iris.resource_iri("ana"), iris.resource_iri("pedro")
    graph = f"<{iris.ENTITIES_GRAPH}>"
    label = "<http://www.w3.org/2000/01/rdf-schema#label>"
    records = "".join(f'<{s}> {label} "{text}" {graph} .\n'
                      for s, text in ((ana, "Ana\u2028Ruiz\x85 \x1c"), (pedro, "Pedro"), (ana, "A. Ruiz")))
    assert records_of(records, ["ana"]) == "".join(records.split("\n")[i] + "\n" for i in (0, 2))
    assert records_of(records, ["pedro"]) == records.split("\n")[1] + "\n"
