"""What the JSON API's routes read from the store, under the request's deadline and from the
build it is pinned to (api/request_life.py): rows of SELECTs, ids and their IRIs, document titles."""

from __future__ import annotations

from typing import Iterable

from flask import g

from kg.api.json_api import queries
from kg.api.linked_data import ids
from kg.api.request_life import pinned_backend
from kg.model import iris
from kg.publish.names import prefixed_name


def select(sparql: str, deadline: float | None = None) -> list[dict[str, str]]:
    """The rows of a SELECT, under the request's deadline unless given another."""
    return pinned_backend().select(sparql, deadline or g.deadline)


def select_many(sparqls: list[str]) -> list[list[dict[str, str]]]:
    """The rows of each query, from one trip to a query worker (none when there is no query)."""
    return pinned_backend().select_many(sparqls, g.deadline) if sparqls else []


def resolve(key: str) -> str | None:
    """The IRI of the thing with this id in the graph served, None when there is none."""
    key = iris.id_argument(key)
    return ids.resolve(key, select) if iris.is_path_of_ids(key) else None


def documents_of(rows: list[dict[str, str]]) -> list[str]:
    """The documents the rows name in 'doc', each once, sorted (what queries.titles asks about)."""
    return sorted({r["doc"] for r in rows if "doc" in r})


def add_titles(rows: list[dict[str, str]], found: list[dict[str, str]] | None = None) -> None:
    """Set each row's 'title' from its 'doc': from `found` (rows of queries.titles for their
    documents), or asking the store once for all of them."""
    if found is None:
        docs = documents_of(rows)
        found = select(queries.titles(docs)) if docs else []
    titles: dict[str, str] = {}
    for row in found:
        titles.setdefault(row["doc"], row["title"])
    for row in rows:
        if row.get("doc") in titles:
            row["title"] = titles[row["doc"]]


def doc_id(iri: str) -> str | None:
    """The id of a document from its IRI (`doc/news/a1`: `news/a1`, a document in a subfolder)."""
    rest = iri[len(iris.DOCUMENT):] if iri.startswith(iris.DOCUMENT) else ""
    return rest if rest and "#" not in rest else None


def type_names(types: Iterable[str]) -> list[str]:
    """Class IRIs as the JSON API shows types: prefixed names (kgo:Person, kgv:PER), sorted, each once."""
    return sorted({prefixed_name(t) for t in types})
