"""The served corpus's own vocabulary as the JSON API reads it, once per build, from the build's
ontology graph (kg.model.schema.corpus_vocabulary declares it there): its classes, for the `type`
parameter of the lists, and its object properties (relations and event roles), for neighbourhoods.

`type` is a class of kg's ontology (`Person`, any case, or `kgo:Person`) or one of the corpus's
own (`kgv:PER`, or `PER` where no kgo class has that name, any case where only one has it); an
event type is one under kgo:Event or one of its kgo subclasses.
"""

from __future__ import annotations

from flask import request

from kg.api.build_answers import cached
from kg.api.json_api.store_reads import select
from kg.errors import ApiError
from kg.model import iris
from kg.model.iris import prologue

KGO, KGV = "kgo:", "kgv:"


def _corpus_classes_query() -> str:
    return prologue() + f"""
SELECT ?c ?super WHERE {{ GRAPH <{iris.ONTOLOGY_GRAPH}> {{ ?c a owl:Class . OPTIONAL {{ ?c rdfs:subClassOf ?super }} }}
  FILTER(STRSTARTS(STR(?c), "{iris.VOCABULARY}")) }}
"""


def corpus_classes() -> dict[str, bool]:
    """{local name of each class the corpus minted: whether it is an event type}, once per build."""

    def compute(deadline: float) -> dict[str, bool]:
        supers: dict[str, set[str]] = {}
        for row in select(_corpus_classes_query(), deadline):
            supers.setdefault(row["c"], set()).update([row["super"]] if "super" in row else [])
        return {c[len(iris.VOCABULARY):]: _is_event(c, supers) for c in supers}

    return cached("corpus classes", compute)


def corpus_properties() -> list[str]:
    """The object properties (relations and event roles) the corpus minted, once per build."""
    query = prologue() + f"""
SELECT ?p WHERE {{ GRAPH <{iris.ONTOLOGY_GRAPH}> {{ ?p a owl:ObjectProperty }}
  FILTER(STRSTARTS(STR(?p), "{iris.VOCABULARY}")) }}
"""
    return cached("corpus properties", lambda deadline: sorted(row["p"] for row in select(query, deadline)))


def _is_event(cls: str, supers: dict[str, set[str]]) -> bool:
    seen, todo = set(), [cls]
    while todo:
        current = todo.pop()
        if current == iris.ONTOLOGY + "Event":
            return True
        if current not in seen:
            seen.add(current)
            todo += supers.get(current, ())
    return False


def type_arg(kgo_classes: tuple[str, ...], events: bool | None = None) -> str | None:
    """The `type` parameter as the name the API echoes: a kgo class by its name (`Person`), a class
    of the corpus's as a prefixed name (`kgv:PER`). `events`: True for event types only, False for
    all but them, None for any. A 400 listing the valid types for anything else."""
    raw = request.args.get("type")
    if raw is None:
        return None
    own = sorted(name for name, event in corpus_classes().items() if events is None or event == events)
    name = _match(raw, kgo_classes, own)
    if name is None:
        valid = list(kgo_classes) + [KGV + name for name in own]
        raise ApiError(400, f"unknown type {raw!r}; the valid types (kgo's in any case, then the corpus's own): "
                            f"{', '.join(valid)}", valid=valid)
    return name


def _match(raw: str, kgo_classes: tuple[str, ...], own: list[str]) -> str | None:
    kgo_fold = {name.casefold(): name for name in kgo_classes}
    if raw.startswith(KGO):
        return kgo_fold.get(raw[len(KGO):].casefold())
    if raw.startswith(KGV):
        return raw if raw[len(KGV):] in own else None
    if raw in kgo_classes:
        return raw
    if raw in own:
        return KGV + raw
    if raw.casefold() in kgo_fold:
        return kgo_fold[raw.casefold()]
    folded = [name for name in own if name.casefold() == raw.casefold()]
    return KGV + folded[0] if len(folded) == 1 else None


def class_iri(name: str) -> str:
    """The class a name of type_arg's answers names."""
    return iris.VOCABULARY + name[len(KGV):] if name.startswith(KGV) else iris.ONTOLOGY + name
