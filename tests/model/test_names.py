"""Which mentions are names (kg.model.entities.names), and names only among an entity's names.

The function-word lists are checked against spaCy's stop words (their stated source); the rule on
the words of a text; the shipped graph for the forms issue 40 saw offered as names.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import kg
from kg.formats.records import Span, TextBound
from kg.model.entities.function_words import INDEFINITE, PRONOUNS_AND_DETERMINERS, is_function_word, is_indefinite
from kg.model.entities.names import WordKind, name_mentions, word_kind
from tests.helpers import spacys_stop_words


def _mentions(text: str, *words: str) -> list[TextBound]:
    """A mention for each of `words`, at its first place in `text` after the previous one."""
    bounds, at = [], 0
    for i, word in enumerate(words, start=1):
        begin = text.index(word, at)
        bounds.append(TextBound(f"T{i}", "Thing", (Span(begin, begin + len(word)),), word, i))
        at = begin + 1
    return bounds


def _named(text: str, *words: str, dates: tuple[str, ...] = ()) -> list[str]:
    bounds = _mentions(text, *words)
    found = name_mentions(text, bounds, [b.id for b in bounds if b.text in dates])
    return [b.text for b in bounds if b.id in found]


@pytest.mark.parametrize("language", sorted(PRONOUNS_AND_DETERMINERS))
def test_every_function_word_is_one_of_spacys_stop_words_for_its_language(language: str) -> None:
    stop_words = spacys_stop_words(language)
    listed = PRONOUNS_AND_DETERMINERS[language].split() + INDEFINITE.get(language, "").split()
    assert [w for w in listed if w not in stop_words] == []


def test_acronyms_are_never_function_words() -> None:
    assert is_function_word("we") and is_function_word("That") and is_function_word("Mr") and is_function_word("I")
    assert is_indefinite("An") and is_indefinite("2") and not is_indefinite("Anne")
    assert not is_function_word("US") and not is_function_word("IT") and not is_function_word("Will")


def test_capitals_beyond_the_sentence_start_make_a_name() -> None:
    text = "Yesterday Juan Guaidó met the army. We saw that his mother and Mr Smith went to the Pentagon."
    assert _named(text, "Juan Guaidó", "the army", "We", "that", "his mother", "Mr Smith", "the Pentagon") == [
        "Juan Guaidó", "Mr Smith", "the Pentagon"]


def test_pronouns_determiners_and_honorifics_alone_are_no_names() -> None:
    text = "Then Mr and Sir Walter spoke, and No-one came; That was all, said I."
    assert _named(text, "Mr", "Sir Walter", "No-one", "That", "I") == ["Sir Walter"]


def test_a_capital_at_a_sentence_start_is_decided_by_the_document() -> None:
    text = "Home was far. He went home. Maduro spoke. \u201cHer father left,\u201d she said. Later Maduro left."
    # "Home" is also written "home"; "Maduro" is a name elsewhere; "Her father": "father" is lower case
    assert _named(text, "Home", "Maduro", "Her father") == ["Maduro"]
    alone = "Guaidó spoke first."
    assert _named(alone, "Guaidó") == ["Guaidó"]  # never written in lower case: a name


def test_words_capitalised_only_at_a_sentence_start_are_no_name_unless_written_so_inside_one() -> None:
    """A span whose only capital opens a sentence and that has a word in lower case ("Dodal je", "he
    added") is no name; the same shape written with its capital inside a sentence elsewhere in the
    text ("Evropska unija") is one."""
    text = "Dodal je, da bo banka rasla. Evropska unija je rekla. Kasneje je Evropska unija odšla. Vesel sem."
    assert _named(text, "Dodal je", "Evropska unija", "Vesel sem") == ["Evropska unija"]


def test_a_line_in_capitals_or_title_case_says_nothing_of_names() -> None:
    text = "Venezuelan Troops Flee Across The Border\nThe troops crossed the border at night. Troops fled."
    assert _named(text, "Venezuelan Troops", "Border", "Troops fled") == ["Venezuelan Troops"]
    shouting = "THE CHAIRMAN. The committee will come to order, said the chairman to NASA."
    assert _named(shouting, "THE CHAIRMAN", "The committee", "NASA") == ["NASA"]


def test_scripts_without_case_name_what_the_document_annotates_twice() -> None:
    text = "张三来了。他说张三不在。李四走了。"
    assert _named(text, "张三", "他", "张三", "李四") == ["张三", "张三"]


def test_a_date_is_named_by_its_numbers() -> None:
    text = "On Saturday, 23 February 2019, and last month, in February, it rained."
    dates = ("Saturday", "23 February 2019", "last month", "February")
    assert _named(text, *dates, dates=dates) == ["23 February 2019"]


ISSUE_40 = ("their country", "capital", "events", "halt", "clashes", "the government", "last month")


def test_no_entity_of_the_shipped_graph_offers_a_word_that_only_refers_to_it_as_a_name(shipped_data: Path) -> None:
    with kg.open(shipped_data) as graph:
        names = {row["l"] for row in graph.query(
            "SELECT ?l WHERE { GRAPH kgg:entities { ?e skos:prefLabel|skos:altLabel|rdfs:label ?l } }")}
        forms = {row["l"] for row in graph.query("SELECT ?l WHERE { GRAPH kgg:entities { ?e kgo:mentionForm ?l } }")}
        guaido = {row["l"] for row in graph.query(
            "SELECT ?l WHERE { GRAPH kgg:entities { person:juan-guaido skos:altLabel ?l } }")}
    assert names & set(ISSUE_40) == set()
    assert set(ISSUE_40) <= forms  # still there, as mention forms
    assert "Guaidó" in guaido


def test_an_indefinite_noun_phrase_is_no_name() -> None:
    text = "Then a Venezuelan soldier, two Colombian officials and the U.S. Army met Venezuelan troops."
    assert _named(text, "a Venezuelan soldier", "two Colombian officials", "the U.S. Army", "Venezuelan troops") == [
        "the U.S. Army", "Venezuelan troops"]


def test_a_type_named_for_its_mention_level_says_whether_its_mentions_are_names() -> None:
    text = "他说老曹来了。老曹说: 家!"
    bounds = [TextBound("T1", "Person-Pronoun", (Span(0, 1),), "他", 1),
              TextBound("T2", "Person-Name", (Span(2, 4),), "老曹", 2),
              TextBound("T3", "Thing-Nominal", (Span(12, 13),), "家", 3),
              TextBound("T4", "PROP_PER", (Span(7, 9),), "老曹", 4)]
    assert name_mentions(text, bounds) == {"T2", "T4"}


def _fragments(text: str, tid: str, *words: str) -> TextBound:
    """A mention of the fragments `words`, each at its first place in `text`, its text them joined by spaces."""
    spans = tuple(Span(text.index(w), text.index(w) + len(w)) for w in words)
    return TextBound(tid, "Thing", spans, " ".join(words), 1)


def test_a_mention_in_fragments_is_judged_by_each_fragment_at_its_place() -> None:
    """A capital inside a sentence in a later fragment makes a name; one that opens a sentence there says nothing."""
    inside = "Yesterday the bank said that England agreed."
    assert name_mentions(inside, [_fragments(inside, "T1", "bank", "England")]) == {"T1"}
    opening = "Yesterday the bank fell. England agreed."
    assert name_mentions(opening, [_fragments(opening, "T1", "bank", "England")]) == set()


def test_a_word_is_judged_the_same_wherever_it_is_met() -> None:
    """The facts kept of a word once per worker are those of the word itself."""
    assert word_kind("NASA") == WordKind(False, True, True, True, True, True)
    assert word_kind("Maduro") == WordKind(False, True, True, True, False, False)
    assert word_kind("I") == WordKind(True, True, True, True, True, False)
    assert word_kind("iPhone") == WordKind(False, True, True, False, False, False)
    assert word_kind("张三") == WordKind(False, False, False, False, False, False)
