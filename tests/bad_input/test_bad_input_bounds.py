"""Input that used to end in a traceback or slip into the graph is a located error, exit 2,
and the previous build stays as it was: invalid dates, numbers too long to convert, metadata
nested deeper than Python recurses, oversized files, contradictory annotations, bad TOML."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import run_kg, tree_digest


def _month_13(corpus: Path) -> None:
    meta = corpus / "alpha.json"
    meta.write_text(meta.read_text().replace('"2019-02-24"', '"2019-13"'))


def _long_offset(corpus: Path) -> None:
    ann = corpus / "alpha.ann"
    ann.write_text(ann.read_text().replace("T2\tPerson 4 12", "T2\tPerson " + "9" * 5000 + " 12"))


def _nested_json(corpus: Path) -> None:
    (corpus / "alpha.json").write_text('{"title": "x", "extra": ' + "[" * 10_000 + "]" * 10_000 + "}")


def _long_number_in_json(corpus: Path) -> None:
    (corpus / "alpha.json").write_text('{"title": "x", "extra": ' + "7" * 5000 + "}")


def _huge_text(corpus: Path) -> None:
    with open(corpus / "beta.txt", "ab") as out:
        out.write(b"x" * (17 * 2**20))


def _two_qualifiers(corpus: Path) -> None:
    ann = corpus / "alpha.ann"
    ann.write_text(ann.read_text() + "A9\tQualifier T11 Nearly\n")


def _link_to_another_family(corpus: Path) -> None:
    ann = corpus / "alpha.ann"  # T2 is Ana Ruiz, a Person; organization/unhcr is in the alias table
    ann.write_text(ann.read_text() + "N9\tReference T2 KG:organization/unhcr\tUNHCR\n")


def _two_numbers(corpus: Path) -> None:
    ann = corpus / "alpha.ann"
    ann.write_text(ann.read_text() + "N9\tReference T11 Number:1500\tmore than 1,500\n")


def _two_links(corpus: Path) -> None:
    ann = corpus / "alpha.ann"
    ann.write_text(ann.read_text() + "N9\tReference T2 KG:person/ana-ruiz\tx\nN10\tReference T2 KG:person/other\ty\n")


def _bad_toml(corpus: Path) -> None:
    table = corpus / "aliases.toml"
    table.write_text(table.read_text() + "\n[[entity]\nkey = 1\n")


def _huge_kg_toml(corpus: Path) -> None:
    (corpus / "kg.toml").write_text("[align]\n# " + "x" * (17 * 2**20) + "\n")


def _kg_toml_not_utf8(corpus: Path) -> None:
    (corpus / "kg.toml").write_bytes('[align]\nPerson = "Person" # Pérson\n'.encode("latin-1"))


def _kg_toml_internal_class(corpus: Path) -> None:
    (corpus / "kg.toml").write_text('[align]\nPerson = "Statement"\n')


def _kg_toml_event_class(corpus: Path) -> None:  # a Membership needs a trigger and roles: it failed SHACL, exit 3
    (corpus / "kg.toml").write_text('[align]\nPlace = "Place"\nPerson = "Membership"\n')


def _kg_toml_entity_class(corpus: Path) -> None:
    (corpus / "kg.toml").write_text('[align]\nFlight = "Organization"\n')


def _kg_toml_20000_entries(corpus: Path) -> None:  # each key's line was found by reading every line: 98 s
    entries = "".join(f'Name{i} = "Person"\n' for i in range(20_000))
    (corpus / "kg.toml").write_text("[align]\n" + entries)


CASES = [
    (_month_13, "alpha.json:", "bad date '2019-13' (expected YYYY-MM-DD, YYYY-MM or YYYY)"),
    (_long_offset, "alpha.ann:2: ", "bad offsets"),
    (_nested_json, "alpha.json:1: ", "unreadable JSON"),
    (_long_number_in_json, "alpha.json:1: ", "unreadable JSON"),
    (_huge_text, "beta.txt: ", "bytes (expected at most 16,777,216"),
    (_two_qualifiers, "alpha.ann:", "a second Qualifier attribute on T11 (expected one; the first is on line"),
    (_link_to_another_family, "alpha.ann:22: ",
     "KG:organization/unhcr links T2, a Person, to a key of the organization family (expected a person/... key)"),
    (_two_numbers, "alpha.ann:22: ", "a second Number normalization on T11 (expected one; the first is on line 19)"),
    (_two_links, "alpha.ann:23: ", "a second KG normalization on T2 (expected one; the first is on line 22)"),
    (_bad_toml, "aliases.toml:", "invalid TOML"),
    (_huge_kg_toml, "kg.toml: ", "file of 17,825,803 bytes (expected at most 1,048,576: a configuration"),
    (_kg_toml_not_utf8, "kg.toml:2:22: ", "not UTF-8: byte 0xe9 cannot be decoded (expected UTF-8 text)"),
    (_kg_toml_internal_class, "kg.toml:2: ", "Person = 'Statement': not a term of kg's ontology"),
    (_kg_toml_event_class, "kg.toml:3: ", "Person is an entity type but 'Membership' is an event class (expected an "
                                          "entity class such as Person"),
    (_kg_toml_entity_class, "kg.toml:2: ", "Flight is an event type but 'Organization' is an entity class"),
    (_kg_toml_20000_entries, "kg.toml:2: ", "Name0 is not declared in annotation.conf"),
]


@pytest.mark.parametrize("damage, where, message", CASES, ids=[c[0].__name__.strip("_") for c in CASES])
def test_bad_input_is_located_and_changes_nothing(tiny_copy: Path, tmp_path: Path, damage, where: str,
                                                  message: str) -> None:
    data = tmp_path / "data"
    assert run_kg("build", "--corpus", str(tiny_copy), "--data", str(data), "--quiet").exit_code == 0
    before = tree_digest(data)
    damage(tiny_copy)
    result = run_kg("build", "--corpus", str(tiny_copy), "--data", str(data), "--quiet")
    assert result.exit_code == 2, result.output
    assert where in result.stderr and message in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
    assert tree_digest(data) == before
