"""No path from a name (issue 41). A document's id is an injective encoding of its path in the corpus,
and every file kg writes under a name from a corpus is checked, once resolved, to lie inside its target.

Before: a document named `x%2F..%2F..%2Fvictim%2Fprecious.txt` kept `%2F` in its id, and the export
back to brat or XMI decoded it into `x/../../victim/precious`, overwriting the user's files there (the
inferred annotation.conf of a build did the same); `A` and `%41`, `sub/doc` and `sub%2Fdoc` decoded
alike (an export said "wrote 12 documents" and wrote 10); a document in a subfolder had no id in
/api/documents and no route; /doc/new%0Aline was a 404; a file name that is not UTF-8 gave a traceback.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from urllib.parse import quote

import pyoxigraph as ox
import pytest

from kg.api import create_app
from kg.errors import OutsideTarget
from kg.model import document_ids, iris
from kg.store import build_dirs
from tests.hardening.procs import KG, kg_env
from tests.helpers import ROOT, TINY, run_kg, store_quads

CLIMBER = "x%2F..%2F..%2F..%2F..%2F..%2Fvictim%2Fprecious"  # one file name; decoded: five folders up
LOOKALIKES = ("A", "%41", "sub/doc", "sub%2Fdoc")
PRECIOUS = "the user's own file\n"


def _tiny_copy(corpus: Path, names: tuple[str, ...], conf: bool = True) -> Path:
    """The tiny corpus with alpha under each of `names` instead (beta kept); without `conf`, no
    annotation.conf nor the alias table and metadata that need its types."""
    shutil.copytree(TINY, corpus)
    if not conf:
        for name in ("annotation.conf", "aliases.toml", "alpha.json"):
            (corpus / name).unlink()
    for name in names:
        for suffix in (".txt", ".ann", ".json")[:3 if conf else 2]:
            target = corpus / (name + suffix)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(TINY / ("alpha" + suffix), target)
    for suffix in (".txt", ".ann", ".json"):
        (corpus / ("alpha" + suffix)).unlink(missing_ok=True)
    return corpus


def _victim(root: Path) -> Path:
    """root/victim/precious.{txt,ann,json} and annotation.conf, each holding PRECIOUS."""
    victim = root / "victim"
    victim.mkdir()
    for name in ("precious.txt", "precious.ann", "precious.json", "annotation.conf", "precious.xmi"):
        (victim / name).write_text(PRECIOUS)
    return victim


def _untouched(victim: Path) -> None:
    assert {p.name: p.read_text() for p in victim.iterdir()} == {
        name: PRECIOUS for name in ("precious.txt", "precious.ann", "precious.json", "annotation.conf", "precious.xmi")}


@pytest.mark.parametrize("path, other", [("A", "%41"), ("sub/doc", "sub%2Fdoc"), ("a b", "a%20b"), ("7%", "7%25")])
def test_ids_are_injective_and_give_their_path_back(path: str, other: str) -> None:
    ids = document_ids.document_id(path), document_ids.document_id(other)
    assert ids[0] != ids[1]
    assert [document_ids.document_path(i) for i in ids] == [path, other]


@pytest.mark.parametrize("name", ["alpha", "news/2019/a1", "A-b_c.d", "Die_französische", "a b"])
def test_ids_of_names_without_a_percent_sign_are_as_before(name: str) -> None:
    """Only names holding '%' get other ids (their escapes were kept as they were): IRIs of builds made
    before stay valid for every other name."""
    before = {"alpha": "alpha", "news/2019/a1": "news/2019/a1", "A-b_c.d": "A-b_c.d",
              "Die_französische": "Die_französische", "a b": "a%20b"}
    assert document_ids.document_id(name) == before[name]


@pytest.mark.parametrize("relative", ["../x", "a/../../x", "/etc/x", "."])
def test_a_path_outside_its_target_is_refused(tmp_path: Path, relative: str) -> None:
    with pytest.raises(OutsideTarget, match="outside"):
        document_ids.inside(tmp_path / "out", relative)


def test_a_link_inside_the_target_to_outside_is_refused(tmp_path: Path) -> None:
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "sub").symlink_to(tmp_path)
    with pytest.raises(OutsideTarget):
        document_ids.document_file(tmp_path / "out", "sub/x", ".ann")


@pytest.mark.parametrize("form", ["brat", "xmi"])
def test_export_writes_a_climbing_name_as_one_file(tmp_path: Path, form: str) -> None:
    victim = _victim(tmp_path)
    corpus = _tiny_copy(tmp_path / "corpus", (CLIMBER,))
    data = tmp_path / "data"
    assert run_kg("build", "--corpus", str(corpus), "--data", str(data), "--quiet").exit_code == 0
    out = tmp_path / "a" / "b" / "c" / "out"  # decoded, the name climbs from out/x to tmp_path
    result = run_kg("export", "--data", str(data), "--format", form, "--output", str(out))
    assert result.exit_code == 0, result.output
    _untouched(victim)
    assert (out / (CLIMBER + (".txt" if form == "brat" else ".xmi"))).is_file()


def test_the_inferred_configuration_of_a_climbing_name_stays_in_the_build(tmp_path: Path) -> None:
    victim = _victim(tmp_path)
    corpus = _tiny_copy(tmp_path / "corpus", (CLIMBER,), conf=False)  # no conf covers it: one is inferred
    result = run_kg("build", "--corpus", str(corpus), "--data", str(tmp_path / "data"), "--quiet")
    assert result.exit_code == 0, result.output
    _untouched(victim)


def test_a_name_in_the_store_that_climbs_is_refused_by_the_export(tmp_path: Path) -> None:
    """A store holding a document graph whose name decodes to a path outside (not one kg builds, but
    the export must not trust it): exit 2 naming it, nothing written outside."""
    victim = _victim(tmp_path)
    corpus = _tiny_copy(tmp_path / "corpus", ())
    data = tmp_path / "data"
    assert run_kg("build", "--corpus", str(corpus), "--data", str(data), "--quiet").exit_code == 0
    store = ox.Store(str(build_dirs.store_path(build_dirs.current_build(data))))
    climbing = ox.NamedNode(iris.GRAPH + "x%2F..%2F..%2F..%2Fvictim%2Fprecious")
    store.extend([ox.Quad(q.subject, q.predicate, q.object, climbing) for q in store.quads_for_pattern(
        None, None, None, ox.NamedNode(iris.GRAPH + "beta"))])
    store.flush()
    del store
    for form in ("brat", "xmi"):
        result = run_kg("export", "--data", str(data), "--format", form, "--output", str(tmp_path / "b" / form))
        assert result.exit_code == 2, result.output
        assert "x%2F..%2F..%2F..%2Fvictim%2Fprecious" in result.output and "outside" in result.output
        assert not (tmp_path / "b" / form).exists()
    _untouched(victim)


@pytest.fixture(scope="module")
def lookalikes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A build of documents whose names decoded alike before, and one named with a line break."""
    root = tmp_path_factory.mktemp("lookalikes")
    corpus = _tiny_copy(root / "corpus", (*LOOKALIKES, "new\nline"))
    result = run_kg("build", "--corpus", str(corpus), "--data", str(root / "data"), "--quiet")
    assert result.exit_code == 0, result.output
    return root / "data"


def test_lookalike_names_are_documents_of_their_own(lookalikes: Path, tmp_path: Path) -> None:
    sources = {q.subject.value[len(iris.DOCUMENT):]: q.object.value for q in store_quads(lookalikes)
               if q.predicate.value == iris.ONTOLOGY + "sourceFile"}
    names = (*LOOKALIKES, "new\nline", "beta")
    assert sources == {document_ids.document_id(n): n + ".txt" for n in names}
    result = run_kg("export", "--data", str(lookalikes), "--format", "brat", "--output", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert f"{len(names)} documents" in result.output
    written = sorted(p.relative_to(tmp_path / "out").as_posix()[:-4] for p in (tmp_path / "out").rglob("*.ann"))
    assert written == sorted(names)


@pytest.fixture(scope="module")
def lookalike_client(lookalikes: Path):
    app = create_app({"DATA": str(lookalikes), "WORKERS": 1, "QUERY_TIMEOUT": 20.0})
    yield app.test_client()
    app.extensions["kg"].close()


@pytest.mark.parametrize("name", [*LOOKALIKES, "new\nline"])
def test_each_document_is_served_under_its_own_iri(lookalike_client, name: str) -> None:
    doc_id = document_ids.document_id(name)
    path = quote(doc_id, safe="/%")  # the IRI's path, as a client sends it
    page = lookalike_client.get("/doc/" + path, headers={"Accept": "application/n-triples"})
    assert page.status_code == 200, page.get_data(as_text=True)
    assert f"<{iris.DOCUMENT}{doc_id}> <{iris.ONTOLOGY}sourceFile>" in page.get_data(as_text=True)
    title = lookalike_client.get("/api/documents/" + quote(doc_id, safe="/"))  # the id escaped once
    assert title.status_code == 200 and title.json["iri"] == iris.DOCUMENT + doc_id


def test_a_document_in_a_subfolder_is_listed_with_its_id_href_and_graph(lookalike_client) -> None:
    listed = {d["id"]: d for d in lookalike_client.get("/api/documents?limit=50").json["items"]}
    assert listed["sub/doc"]["graph"] == iris.GRAPH + "sub/doc"
    assert listed["sub/doc"]["href"].endswith("/api/documents/sub/doc")
    assert lookalike_client.get(listed["sub/doc"]["href"]).json["iri"] == iris.DOCUMENT + "sub/doc"
    assert listed["%2541"]["href"].endswith("/api/documents/%252541")
    assert lookalike_client.get(listed["%2541"]["href"]).json["iri"] == iris.DOCUMENT + "%2541"


def test_a_file_name_that_is_not_utf8_is_reported_by_its_bytes(tmp_path: Path) -> None:
    corpus = _tiny_copy(tmp_path / "corpus", ())
    for suffix in (b".txt", b".ann"):
        shutil.copyfile(TINY / ("beta" + suffix.decode()), os.fsencode(corpus) + b"/caf\xe9" + suffix)
    result = subprocess.run([str(KG), "build", "--corpus", str(corpus), "--data", str(tmp_path / "data"), "--quiet"],
                            capture_output=True, env=kg_env(), cwd=str(ROOT), timeout=300)
    stderr = result.stderr.decode("utf-8")
    assert result.returncode == 2, stderr
    assert "Traceback" not in stderr
    assert f"{corpus}/caf\\xe9.txt: file or folder name that is not UTF-8" in stderr
