"""The statements of a Linked Data page as a reader says them, grouped by the sentences that state them.

A page lists every statement about a thing (or stated by an article). Said one by one, the sentence
that states eight facts was quoted, and cited, eight times, and a membership showed as its node's
IRI ("doc:npr-…/membership/E6 member Juan Carlos Mora"). Here the statements of one source (an
article's sentence, or the sentences of one quote) form one group: its facts, the sentences once,
one citation naming every statement. A membership reads "member of the National Guard, as
lieutenant" (with the member's name on other pages), and the shortcut facts it implies (memberOf,
hasRole, holds, the post's postIn and role) are not said again; their fragments still land on
the group.
"""

from __future__ import annotations

from typing import Any, Iterable

from kg.api.linked_data import describe
from kg.api.linked_data.page_values import href, value, words
from kg.model import iris
from kg.store.protocol import Select

MEMBERSHIP_PREDICATES = {iris.ONTOLOGY + p for p in ("member", "organization", "role", "post")}
MEMBERSHIP_SHORTCUTS = (("memberIri", "memberOf", "orgIri"), ("memberIri", "hasRole", "roleIri"),
                        ("memberIri", "holds", "postIri"), ("postIri", "postIn", "orgIri"),
                        ("postIri", "role", "roleIri"))


def statement_groups(iri: str, rows: list[dict[str, str]], select: Select) -> list[dict[str, Any]]:
    """The statements of `rows` (describe.statements: one row per statement and sentence) in groups,
    one per source (article and sentences, in text order), each with its facts and one citation;
    `select` asks the store about the memberships among their subjects."""
    merged: dict[str, dict[str, Any]] = {}
    for row in rows:
        item = merged.get(row["st"])
        if item is None:
            item = merged[row["st"]] = _statement(iri, row)
        if row.get("sentence") and row["sentence"] not in item["sentences"]:
            item["sentences"].append(row["sentence"])
    subjects = sorted({item["subject"]["iri"] for item in merged.values() if item["subject"]["iri"]})
    memberships = {r["m"]: r for r in select(describe.memberships(subjects))} if subjects else {}
    return _grouped(iri, list(merged.values()), memberships)


def _grouped(iri: str, items: list[dict[str, Any]], memberships: dict[str, dict[str, str]]) -> list[dict[str, Any]]:
    """The statements in one group per source, a fact each but for those another fact already says."""
    said = _membership_shortcuts(items, memberships)
    groups: dict[tuple, dict[str, Any]] = {}
    for item in items:
        key = (item["doc"], tuple(item["sentences"]))
        group = groups.setdefault(key, {**item, "facts": [], "statements": [], "anchors": []})
        group["statements"].append(item["iri"])
        fact = _fact(iri, item, memberships.get(item["subject"]["iri"] or ""))
        if _triple(item) in said.get(key, ()) or any(f["parts"] == fact["parts"] for f in group["facts"]):
            group["anchors"] += [item["anchor"]] if item["anchor"] else []  # its fragment still lands here
        else:
            group["facts"].append(fact)
    for group in groups.values():
        group["citation"] = _citation(group)
    return list(groups.values())


def _membership_shortcuts(items: Iterable[dict[str, Any]],
                          memberships: dict[str, dict[str, str]]) -> dict[tuple, set[tuple]]:
    """Per source, the shortcut facts a membership it states already says in words (the member's
    memberOf its organization, hasRole its role, holds its post; the post's postIn and role):
    shown once, as the membership."""
    said: dict[tuple, set[tuple]] = {}
    for item in items:
        membership = memberships.get(item["subject"]["iri"] or "")
        if membership is None:
            continue
        said.setdefault((item["doc"], tuple(item["sentences"])), set()).update(
            (membership[s], iris.ONTOLOGY + p, membership[o]) for s, p, o in MEMBERSHIP_SHORTCUTS
            if membership.get(s) and membership.get(o))
    return said


def _triple(item: dict[str, Any]) -> tuple:
    return item["subject"]["iri"], item["predicate"]["iri"], item["object"]["iri"]


def _statement(iri: str, row: dict[str, str]) -> dict[str, Any]:
    statement = row["st"]
    anchor = statement[len(iri) + 1:] if statement.startswith(iri + "#") else None
    return {"iri": statement, "anchor": anchor, "href": href(statement),
            "subject": value(row["s"], row.get("sLabel"), "iri"),
            "predicate": value(row["p"], row.get("pLabel"), "iri"),
            "object": value(row["o"], row.get("oLabel"), row["kind"]),
            "sentences": [], "title": row.get("title"), "date": row.get("date"), "publisher": row.get("publisher"),
            "doc": row.get("doc"), "document": value(row["doc"], row.get("title"), "iri") if row.get("doc") else None}


def _fact(iri: str, item: dict[str, Any], membership: dict[str, str] | None) -> dict[str, Any]:
    """One statement as the page says it: parts (values, or words with their spaces) to show in
    a row. A statement about a membership says who is a member of what, and as what; the member is
    left out on the member's own page."""
    fact = {"anchor": item["anchor"], "href": item["href"], "iri": item["iri"]}
    said = [words(" "), {**item["predicate"], "cls": "predicate"}, words(" "), item["object"]]
    if membership is None:
        return {**fact, "parts": [item["subject"], *said]}
    own = item["predicate"]["iri"] in MEMBERSHIP_PREDICATES  # else a statement about the membership
    member = membership.get("memberIri")
    parts = [value(member, membership.get("memberLabel"), "iri"), words(" ")] \
        if member and (member != iri or not own) else []
    parts.append(words("member of " if membership.get("orgIri") else "member", "predicate"))
    if membership.get("orgIri"):
        parts.append(value(membership["orgIri"], membership.get("orgLabel"), "iri"))
    if membership.get("roleLabel"):
        parts.append(words(f", as {membership['roleLabel']}"))
    return {**fact, "parts": parts if own else [*parts, words(" —"), *said]}


def _citation(group: dict[str, Any]) -> str:
    """The source of a group of statements as one line to copy: sentences, publisher, title, date,
    document IRI, statement IRIs."""
    quoted = " … ".join(f"“{s}”" for s in group["sentences"])
    parts = [quoted or None, group["publisher"], f"“{group['title']}”" if group["title"] else None, group["date"]]
    source = ", ".join(p for p in parts if p)
    word = "statement" if len(group["statements"]) == 1 else "statements"
    return f"{source}. <{group['doc'] or ''}> ({word} {' '.join(f'<{s}>' for s in group['statements'])})"
