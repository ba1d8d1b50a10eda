"""Any file name brat or INCEpTION serves names a document: its IRI keeps letters of any script and
percent-encodes the rest (RFC 3987), the ids of plain names are those kg always minted, and such a
document is built, served, looked up and exported under its own name."""

from __future__ import annotations

import shutil
import unicodedata
from pathlib import Path
from urllib.parse import quote

import pytest

from kg.model import document_ids, iris
from tests.helpers import TINY, made_app, run_kg, shared_corpus, store_quads

INCEPTION = Path(__file__).resolve().parents[1] / "data" / "inception"

ODD = "Oil drops 7%, Ünïcode é"  # a space, '%', ',' and letters beyond ASCII
ODD_ID = "Oil%20drops%207%25%2C%20Ünïcode%20é"


@pytest.mark.parametrize("path", ["alpha", "news/2019/a1", "A-b_c.d", "x1"])
def test_plain_names_keep_their_ids(path):
    assert document_ids.document_id(path) == path


@pytest.mark.parametrize("path, expected", [
    ("Oil-drops-7%-on-Europe-vaccine-snag-US", "Oil-drops-7%25-on-Europe-vaccine-snag-US"),
    ("Caesar, De bello Gallico 1-4", "Caesar%2C%20De%20bello%20Gallico%201-4"),
    ("Die_französische_Revolution", "Die_französische_Revolution"),
    ("новости/Иван Петров", "новости/Иван%20Петров"),
    ("a#b?c", "a%23b%3Fc"),
])
def test_other_names_are_iri_paths(path, expected):
    assert document_ids.document_id(path) == expected
    assert iris.id_argument(expected) == expected  # an id sent as an argument is itself
    assert document_ids.document_path(expected) == path


@pytest.mark.parametrize("name", ["Ø¹\U000e0110", "क्षत्रिय", "a\u0301\u0302b", "%zz", "x/\x02\t y", "Ünïcode é"])
def test_every_id_kg_mints_is_taken_back_as_an_id(name):
    """What the API's id arguments accept is what iri_path makes: letters, marks (a variation
    selector, a virama) and digits of any script, and escapes (a fuzzer's id was refused with 400)."""
    assert iris.is_path_of_ids(iris.iri_path(name))
    assert not iris.is_path_of_ids("a//b") and not iris.is_path_of_ids("") and not iris.is_path_of_ids("a b") and not iris.is_path_of_ids("7%")


def test_decomposed_letters_give_the_composed_id():
    assert document_ids.document_id(unicodedata.normalize("NFD", "Die_französische")) == "Die_französische"


def _corpus(root: Path, names: dict[str, str]) -> Path:
    """tiny, its documents renamed (alpha -> names['alpha'] ...)."""
    corpus = root / "corpus"
    shutil.copytree(TINY, corpus)
    for old, new in names.items():
        for suffix in (".txt", ".ann", ".json"):
            if (corpus / (old + suffix)).exists():
                (corpus / (old + suffix)).rename(corpus / (new + suffix))
    return corpus


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("names")
    corpus = _corpus(root, {"alpha": ODD, "beta": "Beta, the second"})
    result = run_kg("build", "--corpus", str(corpus), "--data", str(root / "data"), "--quiet")
    assert result.exit_code == 0, result.output
    return root / "data"


def test_document_with_any_name_is_built(built):
    documents = {q.subject.value for q in store_quads(built) if q.predicate.value == iris.ONTOLOGY + "sourceFile"}
    assert iris.DOCUMENT + ODD_ID in documents
    source = {q.object.value for q in store_quads(built) if q.subject.value == iris.DOCUMENT + ODD_ID
              and q.predicate.value == iris.ONTOLOGY + "sourceFile"}
    assert source == {ODD + ".txt"}


def test_document_is_served_and_looked_up(built):
    with made_app({"DATA": str(built), "WORKERS": 1, "QUERY_TIMEOUT": 20.0}) as app:
        client = app.test_client()
        for path in (quote(ODD), quote(ODD_ID), ODD_ID):  # escaped by the client, once, or not at all
            answer = client.get("/api/documents/" + path)
            assert answer.status_code == 200, answer.get_data(as_text=True)
            assert answer.json["iri"] == iris.DOCUMENT + ODD_ID
        listed = client.get("/api/documents").json["items"]
        href = next(d["href"] for d in listed if d["id"] == ODD_ID)
        assert client.get(href).status_code == 200
        page = client.get("/doc/" + quote(ODD), headers={"Accept": "application/n-triples"})
        assert page.status_code == 200 and ODD_ID in page.get_data(as_text=True)


@pytest.mark.parametrize("form, suffixes", [("brat", (".txt", ".ann")), ("xmi", (".xmi", ".json"))])
def test_export_writes_the_file_names_back(built, tmp_path, form, suffixes):
    result = run_kg("export", "--data", str(built), "--format", form, "--output", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert all((tmp_path / "out" / (ODD + suffix)).is_file() for suffix in suffixes)


def test_names_that_give_one_id_are_a_located_error(tmp_path):
    composed, decomposed = "Café", unicodedata.normalize("NFD", "Café")
    corpus = _corpus(tmp_path, {"alpha": composed, "beta": decomposed})
    result = run_kg("check", "--corpus", str(corpus))
    assert result.exit_code == 2
    assert f"{corpus / decomposed}.txt: document id 'Café' is taken by {corpus / composed}.txt too" in result.output \
        or f"{corpus / composed}.txt: document id 'Café' is taken by {corpus / decomposed}.txt too" in result.output


@pytest.mark.parametrize("parts", [("inception-xmi", "caesar"), ("inception-xmi", "mimotext")])
def test_shared_corpora_with_such_names_check(parts):
    result = run_kg("check", "--corpus", str(shared_corpus(*parts)))
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("name, slug", [
    ("Иван Петров", "иван-петров"), ("Αθήνα", "αθηνα"), ("محمد", "محمد"), ("Ali محمد", "ali-محمد"),
    ("Cúcuta", "cucuta"), ("U.N. agency", "u-n-agency"),  # names that fold to ASCII keep their slugs
])
def test_entity_slugs_keep_letters_of_any_script(name, slug):
    assert iris.slugify(name) == slug


def test_entity_named_in_another_script_has_a_readable_iri(tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    shutil.copy(TINY / "annotation.conf", corpus)
    text = "Иван Петров прибыл в Москву. Ana Ruiz too."
    (corpus / "ru.txt").write_text(text, encoding="utf-8")
    (corpus / "ru.ann").write_text("T1\tPerson 0 11\tИван Петров\nT2\tPerson 29 37\tAna Ruiz\n", encoding="utf-8")
    result = run_kg("build", "--corpus", str(corpus), "--data", str(tmp_path / "data"), "--quiet")
    assert result.exit_code == 0, result.output
    subjects = {q.subject.value for q in store_quads(tmp_path / "data")}
    assert {iris.RESOURCE + "person/иван-петров", iris.RESOURCE + "person/ana-ruiz"} <= subjects
    with made_app({"DATA": str(tmp_path / "data"), "WORKERS": 1, "QUERY_TIMEOUT": 20.0}) as app:
        for path in ("person/иван-петров", "person/" + quote("иван-петров")):
            answer = app.test_client().get("/api/entities/" + path)
            assert answer.status_code == 200 and answer.json["iri"] == iris.RESOURCE + "person/иван-петров"


def test_inception_documents_in_a_folder_of_any_name_export_with_their_configuration(tmp_path):
    folder = tmp_path / "corpus" / "Neue Texte, 2024"
    folder.mkdir(parents=True)
    for name in ("lisbon.xmi", "TypeSystem.xml"):
        shutil.copy(INCEPTION / name, folder)
    data = tmp_path / "data"
    assert run_kg("build", "--corpus", str(tmp_path / "corpus"), "--data", str(data), "--quiet").exit_code == 0
    result = run_kg("export", "--data", str(data), "--format", "brat", "--output", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    out = tmp_path / "out" / "Neue Texte, 2024"
    assert (out / "lisbon.ann").is_file() and (out / "annotation.conf").is_file()
    assert run_kg("check", "--corpus", str(tmp_path / "out")).exit_code == 0
