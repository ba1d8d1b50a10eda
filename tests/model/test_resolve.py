"""Resolution rules and sentence splitting, on small inputs."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg.errors import ConfigError
from kg.formats.brat.conf import load_config
from kg.model.entities.aliases import load_aliases, normalize
from kg.model.schema.corpus_vocabulary import Vocabulary
from kg.model.sentences import split_sentences
from tests.helpers import CORPUS, TINY, run_kg

CONF = load_config(CORPUS / "annotation.conf")


@pytest.mark.parametrize("text,expected", [
    ("Guaidó", "guaido"), ("Guaido's", "guaido"), ("Guaidó’s", "guaido"), ("the U.N. refugee agency", "u n refugee agency"),
    ("  Juan   GUAIDÓ ", "juan guaido"), ("The", "the"),
])
def test_normalize(text: str, expected: str) -> None:
    assert normalize(text) == expected


def test_alias_table_resolves_every_spelling_within_its_family() -> None:
    table = load_aliases(CORPUS / "aliases.toml", Vocabulary(CONF))
    for spelling in ("Guaidó", "Guaido", "Guiado", "juan guaido"):
        assert table.lookup("person", spelling) == "person/juan-guaido"
    assert table.lookup("organization", "U.N. refugee agency") == "organization/unhcr"
    assert table.lookup("organization", "Guaido") is None


def test_alias_table_rejects_a_key_of_the_wrong_family(tmp_path: Path) -> None:
    bad = tmp_path / "aliases.toml"
    bad.write_text('\n[[entity]]\nkey = "place/juan"\ntype = "Person"\nlabel = "Juan"\n', encoding="utf-8")
    with pytest.raises(ConfigError) as error:
        load_aliases(bad, Vocabulary(CONF))
    assert str(error.value) == f"{bad}:3: key place/juan does not match its type Person (expected person/...)"


def test_sentences_respect_abbreviations_and_quotes() -> None:
    text = 'Lt. Juan Carlos Mora fled on Feb. 23. "He is now my boss." U.S. officials agreed.\nNew line'
    sentences = [text[s.begin:s.end] for s in split_sentences(text)]
    assert sentences == ["Lt. Juan Carlos Mora fled on Feb. 23.", '"He is now my boss."', "U.S. officials agreed.",
                         "New line"]


def test_every_command_has_help() -> None:
    listing = run_kg("--help").stdout
    for command in ("build", "export", "validate", "query", "stats"):
        assert command in listing
        assert run_kg(command, "--help").exit_code == 0


def test_resolution_is_explained_on_each_mention(tmp_path: Path) -> None:
    data = tmp_path / "data"
    run_kg("build", "--corpus", str(TINY), "--data", str(data), "--quiet")
    rows = run_kg("query", 'SELECT ?t ?why WHERE { ?m nif:anchorOf ?t ; kgo:resolvedBy ?why } ORDER BY ?t ?why',
                  "--data", str(data), "--format", "csv").stdout.splitlines()
    assert "Cucuta,normalized form: place/cucuta" in rows
    assert "Ruiz,alias table: person/ana-ruiz" in rows
    assert "Officials,unnamed" in rows
    assert '"Feb. 23, 2019",ISO 8601 value: date/2019-02-23' in rows


def test_names_without_ascii_letters_keep_distinct_slugs() -> None:
    from kg.model.iris import slugify

    names = ["محمد", "משה", "Москва", "Ali محمد", "Ali"]
    slugs = [slugify(n) for n in names]
    assert len(set(slugs)) == len(names)
    assert slugify("Cúcuta") == "cucuta" and slugify(" Москва ") == slugify("Москва")


def test_a_swap_link_left_by_a_killed_build_is_removed(tmp_path: Path) -> None:
    import os

    data = tmp_path / "data"
    run_kg("build", "--corpus", str(TINY), "--data", str(data), "--quiet")
    os.symlink("builds/nowhere", data / ".current-999999999")
    from kg.store import build_dirs

    build_dirs.prune(data)
    assert not (data / ".current-999999999").is_symlink()
