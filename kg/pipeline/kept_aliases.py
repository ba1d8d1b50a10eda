"""The alias table as a build keeps it with its parsed inputs (kg.pipeline.inputs), for the next build.

A large corpus's alias table holds hundreds of thousands of entries, and an edit of one article
asks for a few of them (the entities its mentions name, the records it writes). Pickled as
objects, every entry was made again when an edit read the inputs: an edit's cost grew with the
table. So the entries are kept as plain tuples, and each is made an AliasEntry when first asked
for; the index of names (what the resolver looks up) and the table's Wikidata items are kept as
they are.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import fields
from operator import attrgetter

from kg.model.entities.aliases import AliasEntry, AliasTable

_FIELDS = attrgetter(*(f.name for f in fields(AliasEntry)))  # an entry's tuple, in AliasEntry's order


class Entries(Mapping):
    """key -> AliasEntry, made from its kept tuple (AliasEntry's fields in order) when first asked for."""

    def __init__(self, rows: dict[str, tuple]) -> None:
        self._rows = rows
        self._made: dict[str, AliasEntry] = {}

    def __getitem__(self, key: str) -> AliasEntry:
        made = self._made.get(key)
        if made is None:
            made = self._made[key] = AliasEntry(*self._rows[key])
        return made

    def __contains__(self, key: object) -> bool:
        return key in self._rows

    def __iter__(self) -> Iterator[str]:
        return iter(self._rows)

    def __len__(self) -> int:
        return len(self._rows)

    def __reduce__(self) -> tuple:
        """Pickled as its tuples (as the readers' processes receive it)."""
        return Entries, (self._rows,)

    @property
    def rows(self) -> dict[str, tuple]:
        return self._rows


def kept_form(table: AliasTable) -> tuple:
    """What the parsed inputs keep of `table`: its entries' tuples, its index, its Wikidata items."""
    entries = table.entries
    rows = entries.rows if isinstance(entries, Entries) else {key: _FIELDS(entry) for key, entry in entries.items()}
    return rows, table.index, table._items  # what with_item reads, made once, by the build that parsed the table


def table_of(kept: tuple) -> AliasTable:
    """The alias table `kept_form` kept, its entries made as they are asked for."""
    rows, index, items = kept
    table = AliasTable(Entries(rows), index)
    table.__dict__["_items"] = items  # the cached property, found without making every entry
    return table
