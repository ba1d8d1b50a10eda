"""Knowledge-base items: which normalizations name one, and the one IRI of each item.

A normalization to a knowledge base says who or what a mention is, so mentions linked to the
same item are one entity. Every database a normalization names is a knowledge base but kg's own
KG, ISO8601 and Number (keys and values): Wikidata, a database tools.conf declares with a URL
pattern (its items have their real IRIs), any other (a corpus published without tools.conf:
`UMLS:C0012586`; its items get IRIs under kg's base, <base>reference/UMLS/C0012586), and any
normalization whose identifier is an http(s) IRI. An item has many spellings;
all give the same `Item`: `Q76`, `Wikidata:Q76`, `http://www.wikidata.org/entity/Q76`,
`https://www.wikidata.org/wiki/Q76`, and for a declared database its identifier or its URL.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Mapping
from urllib.parse import urlsplit

from kg.formats.brat.ann import NOT_KNOWLEDGE_BASES
from kg.model import iris
from kg.model.iris import WIKIDATA, slugify

WIKIDATA_NAME = "Wikidata"
_WIKIDATA_ID = re.compile(r"Q[1-9]\d*")
_WIKIDATA_IRI = re.compile(r"(?:m\.|www\.)?wikidata\.org/(?:entity|wiki)/(Q[1-9]\d*)")
_IRI = re.compile(r"https?://\S+")


@dataclass(frozen=True)
class Item:
    """One item of one knowledge base: its database (for an IRI no database spells, its host), its
    identifier there, its IRI."""

    base: str
    id: str
    iri: str
    declared: bool = True  # Wikidata's or a declared database's, not any IRI

    def key(self) -> str:
        """The canonical key of the item's entity, whatever the types of its mentions: wikidata/q76,
        gnd/118540238, iri/<host and path> for an IRI of no declared database."""
        if not self.declared:
            return f"iri/{slugify(f'{self.base} {self.id}')}"
        return f"{re.sub(r'[^a-z]', '', slugify(self.base)) or 'kb'}/{slugify(self.id)}"

    def __str__(self) -> str:
        return f"{self.base}:{self.id}"


class BadItem(ValueError):
    """A knowledge base's identifier that names none of its items; the message says what was expected."""


@dataclass(frozen=True)
class KnowledgeBases:
    """The knowledge bases of a corpus: Wikidata, and the URL pattern of each one tools.conf declares.
    `converted`: the document was converted from INCEpTION, whose identifiers are IRIs: every
    database is one (kg.formats.inception.cas_to_brat names it after the IRI's host)."""

    patterns: Mapping[str, str] = field(default_factory=dict)
    converted: bool = False

    @classmethod
    def declared(cls, patterns: Mapping[str, str], converted: bool = False) -> KnowledgeBases:
        kept = {name: p for name, p in patterns.items()
                if name not in NOT_KNOWLEDGE_BASES + (WIKIDATA_NAME,) and name.lower() not in ("http", "https")}
        return cls(kept, converted)

    def pattern(self, db: str) -> str | None:
        """The URL pattern of a knowledge base's items (with %s), None when `db` is none."""
        if db in self.patterns or db in NOT_KNOWLEDGE_BASES + (WIKIDATA_NAME,):
            return self.patterns.get(db)
        if not self.converted:  # a database no tools.conf declares: its items under kg's base
            return f"{iris.BASE}reference/{iris.iri_escaped(db)}/%s"
        from kg.formats.inception.cas_to_brat import reference_iri  # cassis is loaded for INCEpTION only

        return reference_iri(db, "%s")

    def item(self, db: str, reference: str) -> Item | None:
        """The item `db:reference` names; None when it names no knowledge base's item (a value or a
        reference kg keeps as written). Raises BadItem for a knowledge base's identifier that is wrong."""
        whole = f"{db}:{reference}" if db.lower() in ("http", "https") else reference.strip()
        if _IRI.fullmatch(whole):
            return self._of_iri(db, whole)
        if db == WIKIDATA_NAME:
            return _wikidata(_unprefixed(whole, (db, "wd")), f"{db}:{reference}")
        pattern = self.pattern(db)
        if pattern is None:
            return None
        identifier = _unprefixed(whole, (db,))
        if not identifier:
            raise BadItem(f"bad {db} identifier {reference!r} (expected an identifier of {db}, as in {pattern})")
        return Item(db, identifier, pattern.replace("%s", iris.iri_escaped(identifier)))

    def _of_iri(self, db: str, iri: str) -> Item:
        """The item an IRI names: a Wikidata item, a declared database's (by its pattern), else itself."""
        bare = iri.split("://", 1)[1]
        wikidata = _WIKIDATA_IRI.fullmatch(bare)
        if wikidata:
            return Item(WIKIDATA_NAME, wikidata.group(1), WIKIDATA + wikidata.group(1))
        for name, pattern in self.patterns.items():
            head, _, tail = pattern.split("://", 1)[-1].partition("%s")
            if bare.startswith(head) and bare.endswith(tail) and len(bare) > len(head) + len(tail):
                return Item(name, bare[len(head):len(bare) - len(tail)], iri)
        if db in self.patterns or db == WIKIDATA_NAME:
            expected = WIKIDATA + "Q76" if db == WIKIDATA_NAME else self.patterns[db]
            raise BadItem(f"{iri} is not a {db} item (expected an IRI like {expected})")
        parts = urlsplit(iri)
        return Item(parts.hostname or db, iri.split(parts.netloc, 1)[1].strip("/") or iri, iri, declared=False)


def _unprefixed(identifier: str, prefixes: tuple[str, ...]) -> str:
    """`Wikidata:Q76` or `wd:Q76` written as the identifier itself: the part after the prefix."""
    head, colon, rest = identifier.partition(":")
    return rest.strip() if colon and head.lower() in {p.lower() for p in prefixes} else identifier


def _wikidata(identifier: str, written: str) -> Item:
    if not _WIKIDATA_ID.fullmatch(identifier):
        raise BadItem(f"bad Wikidata identifier {written.split(':', 1)[1]!r} (expected an item such as Q76, "
                      f"or its IRI {WIKIDATA}Q76)")
    return Item(WIKIDATA_NAME, identifier, WIKIDATA + identifier)
