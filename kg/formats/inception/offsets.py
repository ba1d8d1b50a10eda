"""Read a UIMA CAS XMI with an offset map that costs memory per astral character, not per character.

UIMA counts offsets in UTF-16 units, Python in code points; they differ only after a character
outside the Basic Multilingual Plane (an emoji, a flag), which takes two units. cassis maps them
with two dicts holding every offset of the text: about 200 bytes per character, so a 4 MB text
took 870 MiB. `Utf16Offsets` keeps only the UTF-16 offsets of the astral characters (8 bytes
each) and finds the rest by bisection. It also remembers the offsets it could not map: those
past the text, and those that fall between the two units of a surrogate pair, which cassis maps
to a shifted span with only a warning (kg.formats.inception.errors.check_offsets reports them).
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left, bisect_right

from cassis import Cas, TypeSystem
from cassis.cas import Sofa, Utf16CodepointOffsetConverter
from cassis.xmi import CasXmiDeserializer

_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


class Utf16Offsets(Utf16CodepointOffsetConverter):
    """cassis's offset converter with the same answers, in memory proportional to the astral
    characters of the text."""

    def __init__(self, text: str | None = None) -> None:
        super().__init__()
        self.text: str | None = None  # a Sofa without a string (a URI, an array): offsets pass unchanged, as in cassis
        self.starts = array("q")  # UTF-16 offset of each astral character, ascending
        self.unmapped: set[int] = set()  # UTF-16 offsets asked for that are no character boundary
        self.create_offset_mapping(text)

    def create_offset_mapping(self, sofa_string: str | None) -> None:
        if sofa_string is None:
            return
        self.text = sofa_string
        self.starts = array("q", (match.start() + k for k, match in enumerate(_ASTRAL.finditer(sofa_string))))

    @property
    def units(self) -> int:
        """The text's length in UTF-16 units."""
        return len(self.text or "") + len(self.starts)

    def external_to_python(self, idx: int | None) -> int | None:
        """The code point offset of a UTF-16 offset; one that is no boundary is returned as it
        is (as cassis does) and remembered in `unmapped`."""
        if idx is None or self.text is None:
            return idx
        before = bisect_right(self.starts, idx - 2)  # astral characters wholly before idx
        if not 0 <= idx <= self.units or (before < len(self.starts) and self.starts[before] == idx - 1):
            self.unmapped.add(idx)
            return idx
        return idx - before

    def python_to_external(self, idx: int | None) -> int | None:
        """The UTF-16 offset of a code point offset (one outside the text is returned as it is)."""
        if idx is None or self.text is None or not 0 <= idx <= len(self.text):
            return idx
        # the k-th astral character is at code point starts[k] - k, an ascending sequence
        return idx + bisect_left(range(len(self.starts)), idx, key=lambda k: self.starts[k] - k)

    def inside_pair(self, idx: int) -> str | None:
        """The astral character whose two UTF-16 units `idx` falls between, if any."""
        k = bisect_left(self.starts, idx - 1)
        if k < len(self.starts) and self.starts[k] == idx - 1:
            return self.text[idx - 1 - k]
        return None


class _Deserializer(CasXmiDeserializer):
    """cassis's XMI reader, giving each Sofa a Utf16Offsets instead of cassis's per-character map."""

    def __init__(self) -> None:
        super().__init__()
        self.offsets: list[Utf16Offsets] = []

    def _parse_sofa(self, typesystem: TypeSystem, elem) -> Sofa:
        text = elem.attrib.get("sofaString")
        if text is not None:
            del elem.attrib["sofaString"]  # Sofa(sofaString=...) would build cassis's map
        sofa = super()._parse_sofa(typesystem, elem)
        sofa._sofaString = text
        sofa._offset_converter = Utf16Offsets(text)
        self.offsets.append(sofa._offset_converter)
        return sofa


def new_cas(typesystem: TypeSystem, text: str) -> Cas:
    """An empty CAS of `text` with a Utf16Offsets map (Cas(sofa_string=...) builds cassis's)."""
    cas = Cas(typesystem=typesystem)
    cas.get_sofa()._offset_converter = Utf16Offsets()
    cas.sofa_string = text
    return cas


def load_cas(source, typesystem: TypeSystem) -> tuple[Cas, list[Utf16Offsets]]:
    """The CAS of an XMI file object, and the offset map of each of its texts. `trusted` is cassis's
    name for lxml's huge_tree: a text of more than 10,000,000 bytes is one attribute longer than
    libxml2 reads without it ("AttValue length too long"). The caller bounds the file (limits.TEXT)
    and refuses a DTD (kg.formats.inception.errors.check_no_dtd) before."""
    reader = _Deserializer()
    cas = reader.deserialize(source, typesystem=typesystem, lenient=False, trusted=True)
    return cas, reader.offsets
