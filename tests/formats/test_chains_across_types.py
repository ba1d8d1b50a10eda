"""A coreference chain whose links carry several types takes the most frequent (the first on a
tie, kg.model.entities.chain_types): a link on no entity's span ("it") is a mention of that type."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg.formats.registry import BY_SUFFIX
from kg.model.entities.chain_types import chain_type, ranked_types

HEADER = ("#FORMAT=WebAnno TSV 3.3\n#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|value\n"
          "#T_CH=webanno.custom.CorefLink|referenceRelation|referenceType\n\n\n")


def _chain(tmp_path: Path, types: list[str]) -> dict[str, str]:
    """A document of one chain over the words w1 w2 ... it, the words of the given NamedEntity
    types, `it` a link on no entity: each covered text with its brat type."""
    words = [f"w{i}" for i in range(1, len(types) + 1)] + ["it"]
    text = " ".join(words)
    rows, offset = [], 0
    for number, (word, type_) in enumerate(zip(words, types + [None]), start=1):
        rows.append(f"1-{number}\t{offset}-{offset + len(word)}\t{word}\t{type_ or '_'}\tcoref->1-{number}\t*[1]")
        offset += len(word) + 1
    (tmp_path / "a.tsv").write_text(HEADER + f"#Text={text}\n" + "\n".join(rows) + "\n", encoding="utf-8")
    ann = BY_SUFFIX[".tsv"].read(tmp_path / "a.tsv").ann
    return {line.split("\t")[2]: line.split("\t")[1].split()[0] for line in ann.splitlines() if line.startswith("T")}


@pytest.mark.parametrize(("types", "taken"), [(["ORG", "LOC", "ORG"], "ORG"), (["LOC", "ORG"], "LOC"),
                                              (["PER", "PER"], "PER")])
def test_a_link_on_no_entity_takes_the_chains_most_frequent_type(tmp_path: Path, types: list[str], taken: str) -> None:
    mentions = _chain(tmp_path, types)
    assert mentions["it"] == taken
    assert [mentions[f"w{i}"] for i in range(1, len(types) + 1)] == types  # the entities keep their own


def test_a_chain_of_links_only_keeps_the_layers_name(tmp_path: Path) -> None:
    assert _chain(tmp_path, []) == {"it": "Coref"}


def test_the_chain_type_is_the_most_frequent_then_the_first() -> None:
    assert ranked_types(["LOC", "ORG", "ORG", "PER"]) == [("ORG", 2), ("LOC", 1), ("PER", 1)]
    assert chain_type(["LOC", "ORG"]) == "LOC"
    assert chain_type([]) is None
