"""INCEpTION input bounded before it is expanded, and offsets checked where UIMA checks them,
through `kg build`: a zip member that inflates past the limit (by its header, or lying in it),
an archive whose documents inflate past it together, a .xmi, .tsv or TypeSystem.xml over its
size, a type hierarchy too deep or looping, and an annotation that begins or ends between the
two UTF-16 units of an emoji. Each is a located error, exit 2, with the limit named."""

from __future__ import annotations

import random
import shutil
import struct
import warnings
import zipfile
from pathlib import Path

import pytest
from cassis.cas import Utf16CodepointOffsetConverter

from kg.formats.inception.offsets import Utf16Offsets
from tests.helpers import run_kg

DATA = Path(__file__).resolve().parents[1] / "data" / "inception"
MIB = 2**20


def _padded_xmi(extra: int) -> bytes:
    """bogota.xmi with `extra` bytes of white space before its end tag: a valid XMI that deflates
    to a few KB whatever its size."""
    xmi = (DATA / "bogota.xmi").read_bytes()
    end = xmi.rindex(b"</xmi:XMI>")
    return xmi[:end] + b" " * extra + xmi[end:]


def _zip(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("TypeSystem.xml", (DATA / "TypeSystem.xml").read_bytes())
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def _declare_size(path: Path, member: str, size: int) -> None:
    """Rewrite the uncompressed size the local and central headers give `member` (a lying zip)."""
    data = bytearray(path.read_bytes())
    name = member.encode()
    for signature, field in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        start = 0
        while (start := data.find(signature, start)) >= 0:
            name_at = start + (30 if field == 22 else 46)
            if data[name_at:name_at + len(name)] == name:
                struct.pack_into("<I", data, start + field, size)
            start += 4
    path.write_bytes(bytes(data))


def _build(corpus: Path, tmp_path: Path):
    result = run_kg("build", "--corpus", str(corpus), "--data", str(tmp_path / "data"), "--quiet")
    assert "Traceback" not in result.stderr
    return result


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    folder.mkdir()
    return folder


@pytest.fixture
def loose(corpus: Path) -> Path:
    for name in ("TypeSystem.xml", "bogota.xmi", "lisbon.xmi"):
        shutil.copy(DATA / name, corpus / name)
    return corpus


def test_a_member_declared_larger_than_the_limit_is_refused_before_it_is_inflated(corpus: Path,
                                                                                  tmp_path: Path) -> None:
    archive = _zip(corpus / "bomb.zip", {"bomb.xmi": _padded_xmi(17 * MIB)})
    assert archive.stat().st_size < 100_000  # 17 MiB inflated from a few KB
    result = _build(corpus, tmp_path)
    assert result.exit_code == 2, result.output
    assert f"{archive}!bomb.xmi: member inflating to 17,829," in result.stderr
    assert "bytes (expected at most 16,777,216: kg reads news articles" in result.stderr


def test_a_member_whose_header_lies_about_its_size_is_refused(corpus: Path, tmp_path: Path) -> None:
    archive = _zip(corpus / "liar.zip", {"liar.xmi": _padded_xmi(17 * MIB)})
    _declare_size(archive, "liar.xmi", 4000)
    with zipfile.ZipFile(archive) as opened:
        assert opened.getinfo("liar.xmi").file_size == 4000
    result = _build(corpus, tmp_path)
    assert result.exit_code == 2, result.output
    assert f"{archive}: cannot read the archive (Bad CRC-32 for file 'liar.xmi')" in result.stderr


def test_an_archive_whose_documents_inflate_past_the_limit_together_is_refused(corpus: Path,
                                                                               tmp_path: Path) -> None:
    archive = _zip(corpus / "many.zip", {f"d{i}.xmi": _padded_xmi(15 * MIB) for i in range(5)})
    result = _build(corpus, tmp_path)
    assert result.exit_code == 2, result.output
    assert f"{archive}: archive whose documents inflate to " in result.stderr
    assert "bytes (expected at most 67,108,864: an INCEpTION export of a few news articles" in result.stderr


def test_an_archive_larger_than_the_limit_is_refused_before_its_directory_is_read(corpus: Path,
                                                                                 tmp_path: Path) -> None:
    with open(corpus / "huge.zip", "wb") as archive:
        archive.truncate(64 * MIB + 1)  # sparse: no zip at all, and never opened as one
    result = _build(corpus, tmp_path)
    assert result.exit_code == 2, result.output
    assert f"{corpus / 'huge.zip'}: archive of 67,108,865 bytes (expected at most 67,108,864" in result.stderr


@pytest.mark.parametrize("name, data, limit", [
    ("bogota.xmi", _padded_xmi(17 * MIB), "16,777,216"),
    ("TypeSystem.xml", (DATA / "TypeSystem.xml").read_bytes().replace(b"<types>", b"<types>" + b" " * 3 * MIB),
     "2,097,152: INCEpTION's type systems are about 150 KB"),
    ("big.tsv", b"#FORMAT=WebAnno TSV 3.3\n" + b"#" * 17 * MIB, "16,777,216"),
])
def test_a_loose_file_over_its_limit_is_refused(loose: Path, tmp_path: Path, name: str, data: bytes,
                                                limit: str) -> None:
    (loose / name).write_bytes(data)
    result = _build(loose, tmp_path)
    assert result.exit_code == 2, result.output
    assert f"{loose / name}: file of {len(data):,} bytes (expected at most {limit}" in result.stderr


def _type_system(depth: int, loop: bool = False) -> str:
    types = "".join(f"<typeDescription><name>x.T{i}</name><supertypeName>"
                    f"{f'x.T{(i - 1) % depth}' if i or loop else 'uima.tcas.Annotation'}</supertypeName>"
                    "</typeDescription>\n" for i in range(depth))
    original = (DATA / "TypeSystem.xml").read_text(encoding="utf-8")
    return original.replace("<types>", "<types>\n" + types, 1)


@pytest.mark.parametrize("depth, loop, message", [
    (20_000, False, "type x.T100 is 101 supertypes deep (expected a hierarchy at most 100 deep"),
    (3, True, "type x.T0 is its own supertype through 3 supertypeName links (expected a hierarchy without loops)"),
])
def test_a_type_hierarchy_too_deep_or_looping_is_refused_at_its_line(loose: Path, tmp_path: Path, depth: int,
                                                                     loop: bool, message: str) -> None:
    text = _type_system(depth, loop)
    (loose / "TypeSystem.xml").write_text(text, encoding="utf-8")
    name = message.split()[1]
    line = next(n for n, row in enumerate(text.splitlines(), 1) if f"<name>{name}</name>" in row)
    result = _build(loose, tmp_path)
    assert result.exit_code == 2, result.output
    assert f"{loose / 'TypeSystem.xml'}:{line}: {message}" in result.stderr


def test_a_real_hierarchy_within_the_limit_is_read(loose: Path, tmp_path: Path) -> None:
    (loose / "TypeSystem.xml").write_text(_type_system(100), encoding="utf-8")
    assert _build(loose, tmp_path).exit_code == 0


# lisbon.xmi's text begins "Em Lisboa 🇵🇹,": the flag is two astral characters, UTF-16 units 10-11 and 12-13
@pytest.mark.parametrize("offsets, bad, character", [
    ('begin="3" end="13"', "end 13", "🇹"),  # the flag loses half of its second character
    ('begin="11" end="14"', "begin 11", "🇵"),
])
def test_an_offset_inside_a_surrogate_pair_is_located(loose: Path, tmp_path: Path, offsets: str, bad: str,
                                                      character: str) -> None:
    xmi = loose / "lisbon.xmi"
    old = 'xmi:id="29" sofa="1" begin="3" end="9" value="LOC"'
    text = xmi.read_text(encoding="utf-8")
    line = text[:text.index(old)].count("\n") + 1
    xmi.write_text(text.replace(old, f'xmi:id="29" sofa="1" {offsets} value="LOC"'), encoding="utf-8")
    result = _build(loose, tmp_path)
    assert result.exit_code == 2, result.output
    assert (f"{xmi}:{line}: NamedEntity xmi:id 29 has {bad}, between the two UTF-16 units of {character!r} "
            f"(U+{ord(character):04X}) (expected an offset between characters") in result.stderr


def test_offsets_after_an_emoji_are_mapped_as_cassis_maps_them(loose: Path, tmp_path: Path) -> None:
    """The offset map kg gives cassis answers as cassis's own (the spans after the flag keep their text)."""
    xmi = loose / "lisbon.xmi"
    xmi.write_text(xmi.read_text(encoding="utf-8").replace(
        'begin="3" end="9" value="LOC"', 'begin="10" end="14" value="LOC"'), encoding="utf-8")
    assert _build(loose, tmp_path).exit_code == 0
    exported = run_kg("export", "--data", str(tmp_path / "data"), "--format", "brat", "-o", str(tmp_path / "out"))
    assert exported.exit_code == 0, exported.output
    ann = (tmp_path / "out" / "lisbon.ann").read_text(encoding="utf-8")
    assert "\tLOC 10 12\t🇵🇹\n" in ann and "\tPER 14 28\tJoão Gonçalves\n" in ann  # code points: the flag is 2


def test_the_offset_map_answers_as_cassis_does() -> None:
    """kg.formats.inception.offsets gives every offset of a text the answer cassis's own map gives,
    and finds unmappable exactly the offsets cassis cannot map (it warns about them)."""
    rnd = random.Random(3)
    for _ in range(300):
        text = "".join(rnd.choice(["a", "é", "\n", "😀", "🇻", "🇪", "中"]) for _ in range(rnd.randint(0, 30)))
        cassis, ours = Utf16CodepointOffsetConverter(), Utf16Offsets(text)
        cassis.create_offset_mapping(text)
        units = len(text.encode("utf-16-le")) // 2
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for unit in range(-2, units + 3):
                assert ours.external_to_python(unit) == cassis.external_to_python(unit), (text, unit)
                assert (unit in ours.unmapped) == (unit not in cassis._external_to_python), (text, unit)
            for point in range(-2, len(text) + 3):
                assert ours.python_to_external(point) == cassis.python_to_external(point), (text, point)


def _long_text_xmi(characters: int) -> bytes:
    """bogota.xmi with its text followed by `characters` more (words and line breaks): its annotations
    keep their offsets."""
    xmi = (DATA / "bogota.xmi").read_bytes()
    end = xmi.index(b'"/>', xmi.index(b"sofaString="))
    tail = (" more words" * (characters // 11 + 1))[:characters]
    tail = "&#10;".join(tail[i:i + 990] for i in range(0, len(tail), 990))
    return xmi[:end] + tail.encode() + xmi[end:]


def test_an_xmi_text_over_ten_megabytes_is_read(loose: Path) -> None:
    """libxml2 reads at most 10,000,000 bytes in one attribute unless told otherwise: a text past
    it ended in "AttValue length too long"; such a text is read (the file stays under limits.TEXT)."""
    from kg.formats.inception.xmi import xmi_to_brat

    small = xmi_to_brat(loose / "bogota.xmi")
    (loose / "bogota.xmi").write_bytes(_long_text_xmi(12_000_000))
    large = xmi_to_brat(loose / "bogota.xmi")
    assert len(large.text) > 12_000_000 and large.text.startswith(small.text)
    assert large.ann == small.ann


def test_an_xmi_with_a_document_type_declaration_is_refused(loose: Path, tmp_path: Path) -> None:
    """Read with lxml's huge-text option, an XMI must define no entities: INCEpTION writes no DTD."""
    xmi = loose / "bogota.xmi"
    data = xmi.read_bytes()
    root = data.index(b"<xmi:XMI")
    xmi.write_bytes(data[:root] + b'<!DOCTYPE xmi:XMI [<!ENTITY a "aaaaaaaaaa">]>\n' + data[root:])
    result = _build(loose, tmp_path)
    assert result.exit_code == 2, result.output
    assert f"{xmi}:1: document type declaration" in result.stderr


def test_a_type_system_is_parsed_once_for_the_documents_that_share_it(corpus: Path, tmp_path: Path) -> None:
    """A folder of loose .xmi and an archive of several, each sharing one TypeSystem.xml, read in a
    real build: one parse each (it was one a document)."""
    from kg.formats.inception.xmi import type_systems_read

    unique = f"<!-- {tmp_path.name} -->\n".encode()  # bytes no other test parsed in this process
    type_system = (DATA / "TypeSystem.xml").read_bytes() + unique
    (corpus / "loose").mkdir()
    (corpus / "loose" / "TypeSystem.xml").write_bytes(type_system)
    for n in range(6):
        shutil.copy(DATA / ("bogota.xmi" if n % 2 else "lisbon.xmi"), corpus / "loose" / f"doc{n}.xmi")
    with zipfile.ZipFile(corpus / "export.zip", "w") as archive:
        archive.writestr("TypeSystem.xml", type_system + b"<!-- the archive's -->\n")
        for n in range(4):
            archive.writestr(f"a{n}.xmi", (DATA / "bogota.xmi").read_bytes())
    before = type_systems_read()
    from kg.pipeline.builder import build

    build(corpus, tmp_path / "data", validate=False, workers=1)
    assert type_systems_read() - before == 2
