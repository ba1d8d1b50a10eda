"""Read INCEpTION's "UIMA CAS XMI" exports as brat standoff, in memory.

A document comes as a loose `.xmi` with `TypeSystem.xml` in the same
directory, or as a `.zip` holding both (INCEpTION's export). cassis reads
the CAS; kg.formats.inception.cas_to_brat maps its layers to brat lines and an annotation.conf, so
the rest of kg reads the result like any brat document. Input cassis cannot
read raises CorpusError `path:line: what is wrong (expected ...)` (kg.formats.inception.errors).
"""

from __future__ import annotations

import hashlib
import io
import warnings
import zipfile
import zlib
from collections import OrderedDict
from functools import lru_cache
from pathlib import Path, PurePosixPath

from cassis import Cas, TypeSystem, load_typesystem

from kg.errors import CorpusError
from kg.formats import limits
from kg.formats.inception.cas_to_brat import cas_to_brat
from kg.formats.inception.errors import (
    TS_ROOT,
    XMI_ID,
    XMI_ROOT,
    cas_error,
    check_no_dtd,
    check_offsets,
    check_root,
    check_type_depth,
    elements,
    type_system_error,
)
from kg.formats.inception.offsets import Utf16Offsets, load_cas
from kg.formats.records import BratDocument
from kg.formats.registry import TYPE_SYSTEM

__all__ = ["TYPE_SYSTEM", "BratDocument", "convert", "read_member", "read_xmi", "type_systems_read", "xmi_to_brat",
           "zip_to_brat"]


def read_xmi(path: Path, member: str | None = None) -> BratDocument:
    """The registry's reader of a loose .xmi (kg.formats.registry)."""
    return xmi_to_brat(path)


def read_member(path: Path, member: str) -> BratDocument:
    """The registry's reader of one document of an export archive; the archive is converted once
    per process (its documents are read one by one)."""
    return _archive(str(path), Path(path).stat().st_mtime_ns)[member]


@lru_cache(maxsize=4)
def _archive(path: str, mtime_ns: int) -> dict[str, BratDocument]:
    return zip_to_brat(Path(path))


def xmi_to_brat(path: Path) -> BratDocument:
    """Convert one INCEpTION document: a `.xmi` (TypeSystem.xml beside it) or a `.zip` holding one `.xmi`."""
    path = Path(path)
    if path.suffix.lower() == ".zip":
        documents = zip_to_brat(path)
        if len(documents) != 1:
            raise CorpusError(f"archive holds {len(documents)} .xmi documents (expected exactly one; "
                              f"kg.formats.inception.xmi.zip_to_brat reads them all)", path)
        return next(iter(documents.values()))
    type_system = _type_system_beside(path)
    if type_system is None:
        raise CorpusError(f"no {TYPE_SYSTEM} beside the .xmi (expected INCEpTION's type system "
                          f"in {path.parent})", path)
    return convert(limits.read_bounded(path, limits.TEXT, CorpusError),
                   limits.read_bounded(type_system, limits.TYPE_SYSTEM, CorpusError), str(path), str(type_system))


def zip_to_brat(path: Path) -> dict[str, BratDocument]:
    """Every `.xmi` of an INCEpTION export archive, by its name in the archive without `.xmi`.

    Each document uses the TypeSystem.xml of its own folder in the archive, else the one at its root."""
    path = Path(path)
    try:
        with zipfile.ZipFile(path) as archive:
            members = _members(archive, path)
    except (OSError, EOFError, zlib.error, zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError) as exc:
        raise CorpusError(f"cannot read the archive ({exc}) (expected a zip file as INCEpTION exports)", path) from exc
    names = sorted(n for n in members if n.lower().endswith(".xmi"))
    if not names:
        raise CorpusError("no .xmi document in the archive (expected INCEpTION's UIMA CAS XMI export of "
                          "documents; a project export keeps them in nested zips under annotation/)", path)
    documents = {}
    for name in names:
        folder = PurePosixPath(name).parent
        ts_name = next((n for place in (folder, PurePosixPath(".")) for n in sorted(members)
                        if PurePosixPath(n).parent == place and _is_type_system(n)), None)
        if ts_name is None:
            raise CorpusError(f"no {TYPE_SYSTEM} for {name} in the archive (expected it beside the .xmi or at "
                              f"the root)", path)
        documents[name[:-4]] = convert(members[name], members[ts_name], f"{path}!{name}", f"{path}!{ts_name}")
    return documents


def _members(archive: zipfile.ZipFile, path: Path) -> dict[str, bytes]:
    """The .xmi and .xml members of an archive, inflated: each at most limits.TEXT and all
    together at most limits.ARCHIVE, by the sizes their headers declare and by the bytes read."""
    infos = [info for info in archive.infolist()
             if info.filename.lower().endswith((".xmi", ".xml")) and not info.is_dir()]
    _check_archive_size(sum(info.file_size for info in infos), path)
    members, inflated = {}, 0
    for info in infos:
        data = limits.read_member(archive, info, limits.TEXT, f"{path}!{info.filename}", CorpusError)
        members[info.filename], inflated = data, inflated + len(data)
        _check_archive_size(inflated, path)
    return members


def _check_archive_size(size: int, path: Path) -> None:
    if size > limits.ARCHIVE.bytes:
        raise limits.too_large(size, limits.ARCHIVE, path, CorpusError, "archive whose documents inflate to")


def convert(xmi: bytes, type_system: bytes, where: str, ts_where: str) -> BratDocument:
    """Convert XMI bytes with their type system's bytes; `where` names them in errors and warnings."""
    typesystem = _type_system(type_system, ts_where)
    check_root(xmi, where, XMI_ROOT, "a UIMA CAS XMI document")
    check_no_dtd(xmi, where)
    cas, offsets = _load_cas(xmi, typesystem, where)
    check_offsets(cas, xmi, where, offsets)
    return brat_document(cas, where, xmi)


def brat_document(cas: Cas, where: str, xmi: bytes | None = None) -> BratDocument:
    """A loaded CAS (of an XMI, or made from another format) as brat; `where` names it in warnings,
    and the XMI it was loaded from, when there is one, gives the line of what a warning is about."""
    ann, conf, reported, labels = cas_to_brat(cas)
    lines = _lines(xmi) if xmi and any(xmi_id is not None for _, _, xmi_id in reported) else {}
    located = tuple((what, count, lines.get(str(xmi_id))) for what, count, xmi_id in reported)
    return BratDocument(cas.sofa_string or "", ann, conf, located, tuple(sorted(labels.items())))


def _lines(xmi: bytes) -> dict[str, int]:
    """The line of each element of the XMI, by its xmi:id."""
    return {element.get(XMI_ID): line for element, line, _ in elements(xmi) if element.get(XMI_ID)}


def _is_type_system(name: str) -> bool:
    """DKPro Core's XmiWriter names it TypeSystem.xml; other UIMA tools write typesystem.xml."""
    return PurePosixPath(name).name.lower() == TYPE_SYSTEM.lower()


def _type_system_beside(path: Path) -> Path | None:
    if (path.parent / TYPE_SYSTEM).is_file():  # the usual name: no listing of a large folder per document
        return path.parent / TYPE_SYSTEM
    try:
        return next((p for p in sorted(path.parent.iterdir()) if _is_type_system(p.name) and p.is_file()), None)
    except OSError:
        return None


_TYPE_SYSTEMS: OrderedDict[bytes, TypeSystem] = OrderedDict()  # by the SHA-256 of their bytes, the newest last
_KEPT_TYPE_SYSTEMS = 8
_type_systems_read = 0


def type_systems_read() -> int:
    """How many type systems this process has parsed: a folder of documents sharing one
    TypeSystem.xml parses it once (cassis takes about 0.1 s for INCEpTION's), not once a document."""
    return _type_systems_read


def _type_system(data: bytes, where: str) -> TypeSystem:
    """The type system of these bytes, checked and parsed on first use in this process, then kept
    (cassis never changes a type system it reads a CAS with)."""
    global _type_systems_read
    key = hashlib.sha256(data).digest()
    kept = _TYPE_SYSTEMS.get(key)
    if kept is not None:
        _TYPE_SYSTEMS.move_to_end(key)
        return kept
    if len(data) > limits.TYPE_SYSTEM.bytes:  # a loose one was refused before it was read
        raise limits.too_large(len(data), limits.TYPE_SYSTEM, where, CorpusError)
    check_root(data, where, TS_ROOT, "a UIMA type system description")
    check_type_depth(data, where)
    typesystem = _TYPE_SYSTEMS[key] = _load_type_system(data, where)
    _type_systems_read += 1
    while len(_TYPE_SYSTEMS) > _KEPT_TYPE_SYSTEMS:
        _TYPE_SYSTEMS.popitem(last=False)
    return typesystem


def _load_type_system(data: bytes, where: str) -> TypeSystem:
    try:
        return load_typesystem(io.BytesIO(data))
    except Exception as exc:  # cassis raises XMLSyntaxError, KeyError, ValueError... on odd descriptions
        raise type_system_error(exc, data, where) from exc


def _load_cas(data: bytes, typesystem: TypeSystem, where: str) -> tuple[Cas, list[Utf16Offsets]]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # offsets it cannot map: check_offsets reports them
            return load_cas(io.BytesIO(data), typesystem)
    except Exception as exc:  # cassis raises XMLSyntaxError, KeyError, TypeError... on malformed input
        raise cas_error(exc, data, where) from exc
