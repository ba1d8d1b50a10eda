"""One exception tree (kg/errors.py): every class carries an exit code and an HTTP status, the
commands end with the exit code of the error's class, the endpoint answers with its status.
One test per exit code, each through the real command."""

from __future__ import annotations

import fcntl
import shutil
from pathlib import Path

import pytest

import kg.errors as errors
from kg.errors import KgError
from tests.helpers import TINY, run_kg, tree_digest


def _tree(cls: type = KgError) -> list[type]:
    return [cls] + [c for sub in cls.__subclasses__() for c in _tree(sub)]


def _corpus(tmp_path: Path) -> Path:
    corpus = tmp_path / "corpus"
    shutil.copytree(TINY, corpus)
    return corpus


def test_the_drawing_in_the_docstring_names_every_class_of_the_tree():
    import kg.api.backend.embedded  # noqa: F401  (its NoGraph is in the tree)
    import kg.publish.search  # noqa: F401
    import kg.store.remote  # noqa: F401
    import kg.store.sparql_lexer  # noqa: F401

    drawn = errors.__doc__
    for cls in _tree():
        assert cls.__name__ in drawn, f"{cls.__module__}.{cls.__name__} is not in kg/errors.py's drawing"
        assert cls.exit_code in (1, 2, 3, 4, 5) and 400 <= cls.http_status <= 599, cls


def test_exit_0_when_the_build_succeeds(tmp_path):
    result = run_kg("build", "--corpus", str(_corpus(tmp_path)), "--data", str(tmp_path / "data"), "--quiet")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("full build: 2 documents; ")


def test_exit_1_when_there_is_no_store_to_read(tmp_path):
    result = run_kg("stats", "--data", str(tmp_path / "nothing"))
    assert result.exit_code == 1
    assert result.stderr == f"error: no build in {tmp_path / 'nothing'} (expected `kg build` to have run)\n"


def test_exit_2_on_bad_input_located_on_its_line(tmp_path):
    corpus, data = _corpus(tmp_path), tmp_path / "data"
    assert run_kg("build", "--corpus", str(corpus), "--data", str(data), "--quiet").exit_code == 0
    before = tree_digest(data / "builds")
    ann = corpus / "beta.ann"
    ann.write_text(ann.read_text(encoding="utf-8") + "T99\tPerson 0 3\tXyz\n", encoding="utf-8")
    line = len(ann.read_text(encoding="utf-8").splitlines())
    result = run_kg("build", "--corpus", str(corpus), "--data", str(data), "--quiet")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {ann}:{line}: span text 'Xyz' differs from the text at 0 3")
    assert tree_digest(data / "builds") == before


def test_exit_2_on_a_query_the_engine_rejects(tmp_path):
    assert run_kg("build", "--corpus", str(_corpus(tmp_path)), "--data", str(tmp_path / "d"), "--quiet").exit_code == 0
    result = run_kg("query", "SELECT ?x WHERE { ?x }", "--data", str(tmp_path / "d"))
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ") and "1:" in result.stderr


def test_exit_3_when_the_graph_breaks_the_shapes_and_no_text_file_is_blamed(tmp_path):
    """Valid input whose graph breaks a shape: kg.toml aligns the SaidBy relation with
    kgo:quoteText, whose values must be strings (shapes.ttl, kgsh:Quote)."""
    corpus, data = _corpus(tmp_path), tmp_path / "data"
    assert run_kg("build", "--corpus", str(corpus), "--data", str(data), "--quiet").exit_code == 0
    before = tree_digest(data / "builds")
    (corpus / "kg.toml").write_text('[align]\nSaidBy = "quoteText"\n', encoding="utf-8")
    result = run_kg("build", "--corpus", str(corpus), "--data", str(data), "--quiet")
    assert result.exit_code == 3
    assert result.stderr.startswith("error: the graph of document alpha: the graph does not conform to shapes.ttl")
    assert "Value is not Literal with datatype xsd:string" in result.stderr
    assert ".txt" not in result.stderr
    assert tree_digest(data / "builds") == before


def test_exit_4_while_another_build_holds_the_lock(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    with open(data / "build.lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        result = run_kg("build", "--corpus", str(_corpus(tmp_path)), "--data", str(data), "--quiet")
    assert result.exit_code == 4
    assert result.stderr == f"error: another build is running on {data}\n"


def test_serve_exits_with_the_code_of_the_build_that_failed(tmp_path):
    """`kg serve` builds first when nothing is built: bad input there is exit 2, not 1."""
    corpus = _corpus(tmp_path)
    (corpus / "alpha.ann").write_text("T1\tPerson 0 3\tXyz\n", encoding="utf-8")
    result = run_kg("serve", "--corpus", str(corpus), "--data", str(tmp_path / "data"), "--port", "0")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == (
        f"error: cannot build the graph: {corpus / 'alpha.ann'}:1: span text 'Xyz' differs from the text at 0 3: "
        "'Lt.' (expected the exact slice of the .txt)")


@pytest.mark.parametrize("error, status, retry", [
    (errors.InputError("x"), 400, None), (errors.QueryError("x"), 400, None),
    (errors.ValidationError("x"), 500, None), (errors.AnswerTooLarge(10), 422, None),
    (errors.QueryTimeout(), 503, "1"), (errors.PoolBusy("x"), 503, "1"),
    (errors.WorkerCrashed("x"), 500, None), (errors.WorkerOutOfMemory("x"), 503, "1"),
    (errors.StoreError("x"), 503, None), (errors.BuildLockedError("x"), 409, None),
    (errors.ApiError(404, "x"), 404, None), (ValueError("x"), 500, None),
])
def test_the_endpoint_answers_with_the_status_of_the_class(error, status, retry):
    from kg.api.errors import to_api_error

    answer = to_api_error(error)
    assert (answer.status, answer.headers.get("Retry-After")) == (status, retry)
    if not isinstance(error, KgError):
        assert answer.detail == "internal server error"  # nothing of an unexpected error leaks out
