"""Every rule of every input file names the right file and line: one broken case per rule,
fed to `kg check` on a copy of the tiny corpus, each pinned to `path:line[:col]: what
(expected ...)`. The line is the one the mutation touched (found in the file, not counted by
hand), so the table stays right when the fixture grows."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest

from tests.helpers import run_kg

TINY = Path(__file__).parents[1] / "data" / "tiny"


@dataclass(frozen=True)
class Case:
    file: str  # the file the error must name
    mutate: Callable[[Path], int]  # breaks the copy; returns the line the error must name
    what: str  # the start of the message after path:line[:col]:
    column: int | None = None
    marked: bool = False  # what brat displays and only marks: a located warning, the build goes on


def replace(file: str, old: str, new: str, broken: int = -1) -> Callable[[Path], int]:
    """Replace the first line equal to `old` by `new` (which may hold several lines); the
    broken line is line `broken` of `new` (the last by default)."""
    def mutate(corpus: Path) -> int:
        lines = (corpus / file).read_text(encoding="utf-8").splitlines()
        number = lines.index(old)
        lines[number:number + 1] = new.split("\n")
        (corpus / file).write_text("\n".join(lines) + "\n", encoding="utf-8")
        return number + 1 + range(len(new.split("\n")))[broken]
    return mutate


def append(file: str, text: str, line_of: str) -> Callable[[Path], int]:
    """Append `text`; the broken line is the last line of the file starting with `line_of`."""
    def mutate(corpus: Path) -> int:
        path = corpus / file
        path.write_text(path.read_text(encoding="utf-8").rstrip("\n") + "\n" + text, encoding="utf-8")
        lines = path.read_text(encoding="utf-8").splitlines()
        return max(n for n, line in enumerate(lines, start=1) if line.startswith(line_of))
    return mutate


def write(file: str, text: str, line: int) -> Callable[[Path], int]:
    def mutate(corpus: Path) -> int:
        (corpus / file).write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
        return line
    return mutate


ENTITY = '\n[[entity]]\nkey = "person/x"\ntype = "Person"\nlabel = "X Y"\n'
SAID_BY = "SaidBy\tArg1:Quote, Arg2:<ACTOR>"
AS_OF = "AsOf\tArg1:Figure, Arg2:Date"

CASES = {
    # annotation.conf
    "conf: declaration before any section": Case("annotation.conf", replace(
        "annotation.conf", "[entities]", "Person\n[entities]", broken=0), "declaration 'Person' before any section"),
    "conf: indented too deep": Case("annotation.conf", replace("annotation.conf", "Organization", "\t\tOrganization"),
                                    "'Organization' is indented 2"),
    "conf: undefined macro": Case("annotation.conf", replace(
        "annotation.conf", SAID_BY, "SaidBy\tArg1:Quote, Arg2:<NOPE>"), "undefined macro <NOPE>"),
    "conf: argument without a colon": Case("annotation.conf", replace(
        "annotation.conf", SAID_BY, "SaidBy\tArg1 Quote, Arg2:<ACTOR>"), "bad argument 'Arg1 Quote'"),
    "conf: relation of three arguments": Case("annotation.conf", replace(
        "annotation.conf", AS_OF, AS_OF + ", Arg3:Date"), "relation AsOf has 3 arguments"),
    "conf: attribute without Arg": Case("annotation.conf", replace(
        "annotation.conf", "Negated\tArg:<EVENT>", "Negated\tValue:A|B"), "attribute Negated needs Arg"),
    "conf: impossible repetition": Case("annotation.conf", replace(
        "annotation.conf", "Inauguration\tAgent*:Person, Place?:<PLACE>, Time?:Date",
        "Inauguration\tAgent{3-1}:Person, Place?:<PLACE>, Time?:Date"), "impossible repetition '{3-1}'"),
    "conf: not UTF-8": Case("annotation.conf", lambda c: _bad_byte(c / "annotation.conf", "Quote"),
                            "not UTF-8: byte 0xff", column=5),
    # aliases.toml
    "aliases: TOML syntax": Case("aliases.toml", append("aliases.toml", "\n[[entity]\nkey = 1\n", "[[entity]"),
                                 "invalid TOML", column=9),
    "aliases: entity without a key": Case("aliases.toml", append(
        "aliases.toml", '\n[[entity]]\ntype = "Person"\nlabel = "X Y"\n', "[[entity]]"), "entity without a key"),
    "aliases: unknown type": Case("aliases.toml", append(
        "aliases.toml", ENTITY.replace('"Person"', '"Wizard"'), "type"), "unknown type 'Wizard'"),
    "aliases: key of another family": Case("aliases.toml", append(
        "aliases.toml", ENTITY.replace("person/x", "place/x"), "key"), "key place/x does not match its type"),
    "aliases: label not a string": Case("aliases.toml", append("aliases.toml", ENTITY.replace('"X Y"', "5"), "label"),
                                        "person/x has label 5"),
    "aliases: key twice": Case("aliases.toml", append(
        "aliases.toml", ENTITY.replace("person/x", "person/ana-ruiz"), "key"), "duplicate key 'person/ana-ruiz'"),
    "aliases: bad wikidata id": Case("aliases.toml", append("aliases.toml", ENTITY + 'wikidata = "Z12"\n', "wikidata"),
                                     "bad wikidata id 'Z12'"),
    "aliases: unknown field": Case("aliases.toml", append("aliases.toml", ENTITY + 'labell = "x"\n', "labell"),
                                   "unknown field 'labell'"),
    "aliases: one spelling, two entities": Case("aliases.toml", append(
        "aliases.toml", ENTITY + 'aliases = ["Ruiz"]\n', "aliases"), "'Ruiz' names both"),
    "aliases: aliases not a list": Case("aliases.toml", append("aliases.toml", ENTITY + 'aliases = "X"\n', "aliases"),
                                        "person/x: aliases is not a list"),
    "aliases: not UTF-8": Case("aliases.toml", lambda c: _bad_byte(c / "aliases.toml", 'label = "UNHCR"'),
                               "not UTF-8: byte 0xff", column=5),
    # .json metadata
    "json: syntax": Case("alpha.json", write("alpha.json", '{"title": "x",\n "date": }', 2), "invalid JSON", column=10),
    "json: not a date": Case("alpha.json", write("alpha.json", '{"title": "x",\n "date": "yesterday"}', 2),
                             "bad date 'yesterday'"),
    "json: month 13": Case("alpha.json", write("alpha.json", '{"title": "x",\n\n "date": "2019-13"}', 3),
                           "bad date '2019-13'"),
    "json: not an object": Case("alpha.json", write("alpha.json", '["x"]', 1), "metadata is an array"),
    "json: title not a string": Case("alpha.json", write("alpha.json", '{\n"title": 5}', 2),
                                     'metadata needs a non-empty "title"'),
    "json: publisher not in the alias table": Case("alpha.json", write(
        "alpha.json", '{"title": "x",\n "publisher": "organization/nope"}', 2), "publisher 'organization/nope' is not"),
    "json: field twice": Case("alpha.json", write("alpha.json", '{"title": "x",\n "title": "y"}', 2),
                              "field 'title' given twice"),
    "json: author not a string": Case("alpha.json", write("alpha.json", '{"title": "x",\n\n "author": 3}', 3),
                                      "metadata field 'author' is a number"),
    # .ann
    "ann: malformed text-bound": Case("alpha.ann", replace("alpha.ann", "T2\tPerson 4 12\tAna Ruiz", "T2\tPerson 4 12"),
                                      "malformed text-bound line"),
    "ann: unknown line": Case("alpha.ann", append("alpha.ann", "X9\tPerson 4 12\tAna Ruiz\n", "X9"),
                              "unknown annotation line"),
    "ann: id twice": Case("alpha.ann", append("alpha.ann", "T2\tPerson 4 12\tAna Ruiz\n", "T2"), "duplicate id T2"),
    "ann: note on an undefined id": Case("alpha.ann", append("alpha.ann", "#9\tAnnotatorNotes T99\tnote\n", "#9"),
                                         "note refers to undefined id T99"),
    "ann: attribute value not declared": Case("alpha.ann", append("alpha.ann", "A9\tQualifier T2 Lots\n", "A9"),
                                              "value 'Lots' of attribute Qualifier is not declared", marked=True),
    "ann: offset of 5,000 digits": Case("alpha.ann", replace(
        "alpha.ann", "T2\tPerson 4 12\tAna Ruiz", "T2\tPerson 4 " + "9" * 5000 + "\tAna Ruiz"), "bad offsets"),
    "ann: undeclared type": Case("alpha.ann", replace(
        "alpha.ann", "T2\tPerson 4 12\tAna Ruiz", "T2\tWizard 4 12\tAna Ruiz"), "undeclared type 'Wizard'",
        marked=True),
    # .txt
    "txt: not UTF-8": Case("beta.txt", lambda c: _bad_byte(c / "beta.txt", "Pedro"), "not UTF-8: byte 0xff",
                           column=5),
    "txt: control character": Case("beta.txt", lambda c: _control(c / "beta.txt"), "control character U+0007",
                                   column=6),
}


def _bad_byte(path: Path, line_start: str) -> int:
    """Put a 0xff byte as the 5th byte of the first line starting with `line_start`."""
    lines = path.read_bytes().split(b"\n")
    number = next(n for n, line in enumerate(lines) if line.startswith(line_start.encode()))
    lines[number] = lines[number][:4] + b"\xff" + lines[number][5:]
    path.write_bytes(b"\n".join(lines))
    return number + 1


def _control(path: Path) -> int:
    lines = path.read_text(encoding="utf-8").split("\n")
    lines[1] = lines[1][:5] + "\x07" + lines[1][6:]
    path.write_text("\n".join(lines), encoding="utf-8")
    return 2


@pytest.mark.parametrize("name", list(CASES))
def test_each_error_names_its_file_and_line(tiny_copy: Path, name: str) -> None:
    case = CASES[name]
    line = case.mutate(tiny_copy)
    result = run_kg("check", "--corpus", str(tiny_copy))
    assert result.exit_code == (0 if case.marked else 2), result.output
    place = re.escape(f"{tiny_copy / case.file}:{line}") + (f":{case.column}" if case.column else "")
    pattern = rf"^({'warning' if case.marked else 'error'}: )?{place}: {re.escape(case.what)}.*\(expected .+\)"
    located = [m for m in (re.search(pattern, row) for row in result.output.splitlines()) if m]
    assert located, f"expected {tiny_copy / case.file}:{line}: {case.what}... in\n{result.output}"
    assert "Traceback" not in result.output
