"""Read INCEpTION's "UIMA CAS XMI" exports as brat standoff, in memory.

A document comes as a loose `.xmi` with `TypeSystem.xml` in the same
directory, or as a `.zip` holding both (INCEpTION's export). cassis reads
the CAS; kg.cas_brat maps its layers to brat lines and an annotation.conf, so
the rest of kg reads the result like any brat document. Input cassis cannot
read raises CorpusError `path:line: what is wrong (expected ...)`.
"""

from __future__ import annotations

import io
import re
import warnings
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from cassis import Cas, TypeSystem, load_cas_from_xmi, load_typesystem
from cassis.typesystem import TypeNotFoundError
from lxml import etree

from kg.cas_brat import cas_to_brat
from kg.errors import CorpusError

TYPE_SYSTEM = "TypeSystem.xml"
_XMI_ID = "{http://www.omg.org/XMI}id"
_XMI_ROOT = "{http://www.omg.org/XMI}XMI"
_TS_ROOT = "{http://uima.apache.org/resourceSpecifier}typeSystemDescription"


@dataclass(frozen=True)
class BratDocument:
    """One document as brat has it: the text, the .ann lines and an annotation.conf for them.

    `warnings` lists what was not carried over (layers and features kg does not
    read, spans with no text), one sentence each, prefixed with the source path."""

    text: str
    ann: str
    conf: str
    warnings: tuple[str, ...] = ()


def xmi_to_brat(path: Path) -> BratDocument:
    """Convert one INCEpTION document: a `.xmi` (TypeSystem.xml beside it) or a `.zip` holding one `.xmi`."""
    path = Path(path)
    if path.suffix.lower() == ".zip":
        documents = zip_to_brat(path)
        if len(documents) != 1:
            raise CorpusError(f"archive holds {len(documents)} .xmi documents (expected exactly one; "
                              f"kg.inception.zip_to_brat reads them all)", path)
        return next(iter(documents.values()))
    type_system = _type_system_beside(path)
    if type_system is None:
        raise CorpusError(f"no {TYPE_SYSTEM} beside the .xmi (expected INCEpTION's type system "
                          f"in {path.parent})", path)
    return convert(_read(path), _read(type_system), str(path), str(type_system))


def zip_to_brat(path: Path) -> dict[str, BratDocument]:
    """Every `.xmi` of an INCEpTION export archive, by its name in the archive without `.xmi`.

    Each document uses the TypeSystem.xml of its own folder in the archive, else the one at its root."""
    path = Path(path)
    try:
        with zipfile.ZipFile(path) as archive:
            members = {name: archive.read(name) for name in archive.namelist()
                       if name.lower().endswith((".xmi", ".xml")) and not name.endswith("/")}
    except (OSError, zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError) as exc:
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


def convert(xmi: bytes, type_system: bytes, where: str, ts_where: str) -> BratDocument:
    """Convert XMI bytes with their type system's bytes; `where` names them in errors and warnings."""
    _check_root(type_system, ts_where, _TS_ROOT, "a UIMA type system description")
    typesystem = _load_type_system(type_system, ts_where)
    _check_root(xmi, where, _XMI_ROOT, "a UIMA CAS XMI document")
    cas = _load_cas(xmi, typesystem, where)
    _check_offsets(cas, xmi, where)
    ann, conf, reported = cas_to_brat(cas)
    return BratDocument(cas.sofa_string or "", ann, conf, tuple(f"{where}: {w}" for w in reported))


def _is_type_system(name: str) -> bool:
    """DKPro Core's XmiWriter names it TypeSystem.xml; other UIMA tools write typesystem.xml."""
    return PurePosixPath(name).name.lower() == TYPE_SYSTEM.lower()


def _type_system_beside(path: Path) -> Path | None:
    try:
        return next((p for p in sorted(path.parent.iterdir()) if _is_type_system(p.name) and p.is_file()), None)
    except OSError:
        return None


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise CorpusError(f"cannot read ({exc.strerror or exc}) (expected a readable file)", path) from exc


def _check_root(data: bytes, where: str, tag: str, expected: str) -> None:
    """A file of the wrong kind (a type system given as a document, an HTML page) is named as such."""
    root = next(_elements(data), None)
    if root is not None and root[0].tag != tag:
        name = etree.QName(root[0])
        shown = name.localname if name.localname != etree.QName(tag).localname else name.text
        raise CorpusError(f"root element <{shown}> (expected <{etree.QName(tag).localname}> in namespace "
                          f"{etree.QName(tag).namespace}: {expected})", where, root[1])


def _check_offsets(cas: Cas, data: bytes, where: str) -> None:
    """cassis leaves offsets outside the text as they are (with a warning): they are bad input."""
    size = len(cas.sofa_string or "")
    for fs in cas.select_all_annotations():
        if not 0 <= fs.begin <= fs.end <= size:
            line, attrib = next(((line, element.attrib) for element, line in _elements(data)
                                 if element.get(_XMI_ID) == str(fs.xmiID)), (None, {}))
            units = len((cas.sofa_string or "").encode("utf-16-le")) // 2
            raise CorpusError(f"{fs.type.name.rsplit('.', 1)[-1]} xmi:id {fs.xmiID} has offsets "
                              f"{attrib.get('begin', fs.begin)}-{attrib.get('end', fs.end)} (expected "
                              f"0 <= begin <= end <= {units}, the text's length in UTF-16 units)", where, line)


def _load_type_system(data: bytes, where: str) -> TypeSystem:
    try:
        return load_typesystem(io.BytesIO(data))
    except etree.XMLSyntaxError as exc:
        raise CorpusError(f"not well-formed XML: {exc.msg} (expected a UIMA type system description)",
                          where, max(exc.lineno, 1)) from exc
    except Exception as exc:  # cassis raises ValueError, KeyError, AttributeError... on odd descriptions
        raise CorpusError(f"cannot read the type system ({_reason(exc)}) (expected a UIMA type system "
                          f"description as INCEpTION exports it)", where) from exc


def _load_cas(data: bytes, typesystem: TypeSystem, where: str) -> Cas:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # offsets it cannot map: _check_offsets reports them
            return load_cas_from_xmi(io.BytesIO(data), typesystem=typesystem)
    except etree.XMLSyntaxError as exc:
        raise CorpusError(f"not well-formed XML: {exc.msg} (expected UIMA CAS XMI)", where,
                          max(exc.lineno, 1)) from exc
    except TypeNotFoundError as exc:
        type_name = _quoted(str(exc))
        raise CorpusError(f"type {type_name} is not in the type system (expected the {TYPE_SYSTEM} exported "
                          f"with this document)", where, _line_of_type(data, type_name)) from exc
    except KeyError as exc:
        target = exc.args[0] if exc.args else "?"
        raise CorpusError(f"a feature points to xmi:id {target}, which no element has (expected a reference "
                          f"to an element of this file)", where, _line_of_reference(data, str(target))) from exc
    except Exception as exc:  # cassis reports other malformed values with ValueError, TypeError, ...
        raise CorpusError(f"cannot read the CAS ({_reason(exc)}) (expected UIMA CAS XMI as INCEpTION "
                          f"exports it)", where) from exc


def _reason(exc: Exception) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def _quoted(message: str) -> str:
    match = re.search(r"\[([^\]]+)\]", message)
    return match.group(1) if match else message


def _elements(data: bytes):
    """(element, line) pairs of an XMI, for locating what cassis refused; [] if it cannot be parsed."""
    try:
        for _, element in etree.iterparse(io.BytesIO(data), events=("start",), resolve_entities=False,
                                          no_network=True):
            yield element, element.sourceline
    except etree.XMLSyntaxError:
        return


def _type_of(tag: str) -> str:
    """The UIMA type name of an XMI element tag `{http:///a/b/c.ecore}Name`."""
    namespace, _, local = tag[1:].partition("}")
    package = namespace.removeprefix("http:///").removesuffix(".ecore").replace("/", ".")
    return f"{package}.{local}" if package else local


def _line_of_type(data: bytes, type_name: str) -> int | None:
    return next((line for element, line in _elements(data)
                 if isinstance(element.tag, str) and _type_of(element.tag) == type_name), None)


def _line_of_reference(data: bytes, target: str) -> int | None:
    for element, line in _elements(data):
        for name, value in element.attrib.items():
            if name not in (_XMI_ID, "begin", "end") and target in value.split():
                return line
    return None
