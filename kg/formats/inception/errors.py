"""Turn what cassis refuses in a UIMA CAS XMI or type system into located CorpusErrors.

cassis raises plain Python exceptions (KeyError, TypeError, ...) without a line.
The functions here name the problem in the project's terms and find its line
by reading the file again with lxml: `path:line: what is wrong (expected ...)`.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator

from cassis import Cas
from cassis.typesystem import TypeNotFoundError
from lxml import etree

from kg.errors import CorpusError
from kg.formats.inception.offsets import Utf16Offsets
from kg.formats.limits import MAX_TYPE_DEPTH

XMI_ID = "{http://www.omg.org/XMI}id"
XMI_ROOT = "{http://www.omg.org/XMI}XMI"
_TS = "{http://uima.apache.org/resourceSpecifier}"
TS_ROOT = _TS + "typeSystemDescription"
_CAS = "{http:///uima/cas.ecore}"
_UNKNOWN_FEATURE = re.compile(r"(\w+)\.__init__\(\) got an unexpected keyword argument '([^']+)'")
_NOT_A_NUMBER = re.compile(r"invalid literal for int\(\) with base 10: '([^']*)'")
_TS_REFERENCES = {"rangeTypeName", "supertypeName", "elementType"}


def elements(data: bytes) -> Iterator[tuple[etree._Element, int, int]]:
    """(element, line, depth) of every element (the root has depth 0); stops where the XML breaks.
    An element is only good while the loop is at it: each child of the root is freed once read
    past (the whole tree of a 16 MiB XMI took 280 MiB)."""
    depth = -1
    try:
        for event, element in etree.iterparse(io.BytesIO(data), events=("start", "end"), huge_tree=True,
                                              resolve_entities=False, no_network=True):
            if event == "end":
                if depth == 1:
                    _free(element)
                depth -= 1
                continue
            depth += 1
            yield element, element.sourceline, depth
    except etree.XMLSyntaxError:
        return


def _free(element: etree._Element) -> None:
    """Drop a child of the root, and those before it, from the tree iterparse builds."""
    element.clear()
    parent = element.getparent()
    while parent is not None and element.getprevious() is not None:
        del parent[0]


def check_root(data: bytes, where: str, tag: str, expected: str) -> None:
    """A file of the wrong kind (a type system given as a document, an HTML page) is named as such."""
    root = next(elements(data), None)
    if root is not None and root[0].tag != tag:
        namespace, _, local = tag[1:].partition("}")
        found = str(root[0].tag)
        shown = found.rpartition("}")[2] if found.rpartition("}")[2] != local else found
        raise CorpusError(f"root element <{shown}> (expected <{local}> in namespace {namespace}: {expected})",
                          where, root[1])


def check_no_dtd(data: bytes, where: str) -> None:
    """A document type declaration is refused before cassis reads the XMI: cassis reads it with
    lxml's huge_tree (a text past libxml2's 10,000,000 bytes in one attribute), which must not meet
    entities defined to expand (INCEpTION writes no DTD; the file is at most limits.TEXT)."""
    try:
        for _, element in etree.iterparse(io.BytesIO(data), events=("start",), resolve_entities=False,
                                          no_network=True, load_dtd=False):
            if element.getroottree().docinfo.doctype:
                raise CorpusError("document type declaration (<!DOCTYPE ...>) (expected UIMA CAS XMI without "
                                  "one, as INCEpTION exports it)", where, 1)
            return
    except etree.XMLSyntaxError:
        return  # cassis's own error, located by cas_error, says what is wrong


def check_type_depth(data: bytes, where: str) -> None:
    """A type hierarchy deeper than MAX_TYPE_DEPTH, or going round a loop, is refused before cassis
    reads it (cassis's loader takes time quadratic in the depth: 20,000 types deep ran past a minute)."""
    parents, lines = _supertypes(data)
    depths: dict[str, int] = {}
    for name in parents:
        chain, seen, node = [], set(), name
        while node in parents and node not in depths:
            if node in seen:
                raise CorpusError(f"type {node} is its own supertype through {len(chain) - chain.index(node)} "
                                  "supertypeName links (expected a hierarchy without loops)", where, lines[node])
            chain.append(node)
            seen.add(node)
            node = parents[node]
        for step, child in enumerate(reversed(chain), start=depths.get(node, 0) + 1):
            depths[child] = step
        if depths[name] > MAX_TYPE_DEPTH:
            raise CorpusError(f"type {name} is {depths[name]:,} supertypes deep (expected a hierarchy at most "
                              f"{MAX_TYPE_DEPTH} deep; INCEpTION's exports are 3 deep)", where, lines[name])


def _supertypes(data: bytes) -> tuple[dict[str, str], dict[str, int]]:
    """The supertype of each type a type system describes, and the line of its description."""
    parents: dict[str, str] = {}
    lines: dict[str, int] = {}
    try:
        for _, element in etree.iterparse(io.BytesIO(data), tag=_TS + "typeDescription", resolve_entities=False,
                                          no_network=True):
            name = (element.findtext(_TS + "name") or "").strip()
            parents.setdefault(name, (element.findtext(_TS + "supertypeName") or "").strip())
            lines.setdefault(name, element.sourceline)
            element.clear()
    except etree.XMLSyntaxError:
        pass  # cassis's own error, located by type_system_error, says what is wrong
    return parents, lines


def check_offsets(cas: Cas, data: bytes, where: str, offsets: list[Utf16Offsets]) -> None:
    """An offset cassis could not map is bad input: outside the text, or between the two UTF-16
    units of a surrogate pair (cassis keeps it with a warning, and the span moves: a flag loses
    half). `offsets` are the load's offset maps, which remember such offsets."""
    unmapped = {idx: o for o in offsets for idx in o.unmapped}
    if not unmapped:
        return
    annotations = {str(fs.xmiID): fs for fs in cas.select_all_annotations()}
    for element, line, depth in elements(data):
        fs = annotations.get(element.get(XMI_ID) or "") if depth == 1 else None
        bad = next((name for name in ("begin", "end") if fs is not None and _number(element.get(name)) in unmapped),
                   None)
        if bad:
            name, idx = fs.type.name.rsplit(".", 1)[-1], int(element.get(bad))
            offset_map = unmapped[idx]
            pair = offset_map.inside_pair(idx)
            if pair:
                raise CorpusError(f"{name} xmi:id {fs.xmiID} has {bad} {idx}, between the two UTF-16 units of "
                                  f"{pair!r} (U+{ord(pair):04X}) (expected an offset between characters: half "
                                  f"a character is no text)", where, line)
            raise CorpusError(f"{name} xmi:id {fs.xmiID} has offsets {element.get('begin')}-{element.get('end')} "
                              f"(expected 0 <= begin <= end <= {offset_map.units}, the text's length in UTF-16 "
                              "units)", where, line)


def _number(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def type_system_error(exc: Exception, data: bytes, where: str) -> CorpusError:
    """What cassis could not read in a type system description."""
    if isinstance(exc, etree.XMLSyntaxError):
        return CorpusError(f"not well-formed XML: {exc.msg} (expected a UIMA type system description)",
                           where, max(exc.lineno, 1))
    if isinstance(exc, KeyError) and exc.args:
        name = str(exc.args[0])
        line = next((line for element, line, _ in elements(data)
                     if etree.QName(element).localname in _TS_REFERENCES and (element.text or "").strip() == name),
                    None)
        return CorpusError(f"type {name} is used but not declared (expected a <typeDescription> for it)",
                           where, line)
    return CorpusError(f"cannot read the type system ({_reason(exc)}) (expected a UIMA type system "
                       f"description as INCEpTION exports it)", where)


def cas_error(exc: Exception, data: bytes, where: str) -> CorpusError:
    """What cassis could not read in a CAS XMI document."""
    if isinstance(exc, etree.XMLSyntaxError):
        return CorpusError(f"not well-formed XML: {exc.msg} (expected UIMA CAS XMI)", where, max(exc.lineno, 1))
    if isinstance(exc, TypeNotFoundError):
        return _unknown_type(str(exc), data, where)
    if isinstance(exc, KeyError) and exc.args and exc.args[0] is not None:
        return _missing(exc.args[0], data, where)
    unknown_feature = _UNKNOWN_FEATURE.search(str(exc)) if isinstance(exc, TypeError) else None
    if unknown_feature:
        type_key, feature = unknown_feature.groups()
        line = next((line for element, line, depth in elements(data) if depth == 1 and feature in element.attrib
                     and _type_of(element.tag).replace(".", "_") == type_key), None)
        return CorpusError(f"attribute {feature!r} is not a feature of its element's type (expected the "
                           f"features the type system declares)", where, line)
    not_a_number = _NOT_A_NUMBER.search(str(exc)) if isinstance(exc, ValueError) else None
    if not_a_number:
        value = not_a_number.group(1)
        line = next((line for element, line, _ in elements(data)
                     if any(value in (v, *v.split()) for v in element.attrib.values())), None)
        return CorpusError(f"value {value!r} is not a number (expected an integer: an offset, an xmi:id or a "
                           f"number feature)", where, line)
    if isinstance(exc, RuntimeError) and "state transition" in str(exc):
        line = next((line for _, line, depth in elements(data) if depth >= 3), None)
        return CorpusError("element nested too deep (expected feature structures as children of <xmi:XMI>, "
                           "array values one level below them)", where, line)
    return CorpusError(f"cannot read the CAS ({_reason(exc)}) (expected UIMA CAS XMI as INCEpTION exports it)",
                       where)


def _unknown_type(message: str, data: bytes, where: str) -> CorpusError:
    match = re.search(r"\[([^\]]*)\]", message)
    type_name = match.group(1) if match else ""
    line = next((line for element, line, depth in elements(data)
                 if depth == 1 and _type_of(element.tag) == type_name), None)
    if not type_name:
        return CorpusError("an element names no UIMA type (expected a namespaced element such as "
                           "<custom:Span>)", where, line)
    return CorpusError(f"type {type_name} is not in the type system (expected the TypeSystem.xml exported "
                       f"with this document)", where, line)


def _missing(key, data: bytes, where: str) -> CorpusError:
    """cassis's KeyError is a reference to an id no element has, or an attribute an element lacks."""
    if isinstance(key, int):
        target = str(key)
        line = next((line for element, line, _ in elements(data)
                     if any(name not in (XMI_ID, "begin", "end") and target in value.split()
                            for name, value in element.attrib.items())), None)
        return CorpusError(f"a feature points to xmi:id {target}, which no element has (expected a reference "
                           f"to an element of this file)", where, line)
    name = str(key).replace("{http://www.omg.org/XMI}", "xmi:")
    # sofaNum, sofaID... belong to the Sofa element, members to the View; the View has no xmi:id
    only = _CAS + "Sofa" if name.startswith("sofa") and name != "sofa" else _CAS + "View" if name == "members" else None
    line = next((line for element, line, depth in elements(data)
                 if depth == 1 and str(key) not in element.attrib
                 and (element.tag == only if only else element.tag != _CAS + "View")), None)
    return CorpusError(f"an element lacks its {name} attribute (expected it on every feature structure)",
                       where, line)


def _type_of(tag) -> str:
    """The type name cassis reads from an element tag `{http:///a/b/c.ecore}Name` (same arithmetic)."""
    name = str(tag)[9:].replace("/", ".").replace("ecore}", "").strip()
    return name[len("uima.noNamespace."):] if name.startswith("uima.noNamespace.") else name


def _reason(exc: Exception) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
