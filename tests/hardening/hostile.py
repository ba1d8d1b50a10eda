"""A corpus whose names, quotes and title are hostile text: markup, script, quotes, RTL and
bidi-override marks, emoji (astral, ZWJ sequences, variation selectors) and combining accents.

Every string below must come out of the builder, the exports, the API, the
query page and the network view with exactly the same code points, and must
never run or render as markup. Script payloads set `window.__pwned`, so a
browser test can tell whether any of them ran.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.helpers import CORPUS

SLUG = "hostile-names"
PEOPLE = [
    "<script>window.__pwned=1</script> Pérez",
    "Ana <img src=x onerror=\"window.__pwned=2\"> O'Brien",
    "Jose\u0301 Nun\u0303ez",                          # combining acute and tilde, not NFC
    "Zoë \"Z\" Ruiz 😀 👩\u200d👩\u200d👧 ❤\ufe0f",     # emoji: astral, ZWJ family, variation selector
    "\u200fNasser \u202eRLO\u202c محمد\u200f",         # RLM, right-to-left override, Arabic
    "Lo\u0308we ]]> &amp; &lt;b&gt; `${x}` {{7*7}}",
]
ORGANIZATION = "</textarea><b onmouseover=\"window.__pwned=3\">Frente</b> & \"Co\" \u2066Ltd\u2069"
PLACE = "Cúcuta <svg onload=\"window.__pwned=4\"> \u05e9\u05dc\u05d5\u05dd"
QUOTE = "\"We <i>won't</i> go — \u200f\u05e9\u05dc\u05d5\u05dd\u200e 😀 e\u0301 </script><script>window.__pwned=5</script>\""
TITLE = "<img src=x onerror=\"window.__pwned=6\"> \"Soldiers\" & 'ñ' 😀 \u202eevil\u202c"
NAMES = PEOPLE + [ORGANIZATION, PLACE]
ALL_STRINGS = NAMES + [QUOTE, TITLE]


def write_corpus(target: Path) -> Path:
    """A corpus directory with the shipped annotation.conf, an alias table naming one hostile person,
    and one article (text, brat annotations, metadata) whose offsets are computed here."""
    target.mkdir(parents=True, exist_ok=True)
    shutil.copy(CORPUS / "annotation.conf", target)
    (target / "aliases.toml").write_text(
        "[[entity]]\n"
        'key = "person/jose-nunez"\n'
        'type = "Person"\n'
        f"label = {json.dumps(PEOPLE[2], ensure_ascii=False)}\n"
        f"aliases = [{json.dumps(PEOPLE[5], ensure_ascii=False)}]\n", encoding="utf-8")
    text, ann = _article()
    (target / f"{SLUG}.txt").write_text(text, encoding="utf-8")
    (target / f"{SLUG}.ann").write_text(ann, encoding="utf-8")
    (target / f"{SLUG}.json").write_text(json.dumps({"title": TITLE, "date": "2019-02-24"}, ensure_ascii=False),
                                         encoding="utf-8")
    return target


def _article() -> tuple[str, str]:
    parts: list[str] = []
    lines: list[str] = []
    ids: dict[str, str] = {}

    def say(words: str) -> None:
        parts.append(words)

    def mention(kind: str, words: str, key: str) -> None:
        begin = sum(len(p) for p in parts)
        parts.append(words)
        tid = f"T{len(ids) + 1}"
        ids[key] = tid
        lines.append(f"{tid}\t{kind} {begin} {begin + len(words)}\t{words}")

    for n, person in enumerate(PEOPLE):
        mention("Person", person, f"p{n}")
        say(" is a member of ")
        mention("Organization", ORGANIZATION, f"o{n}")
        say(".\n")
    mention("Person", PEOPLE[0], "again")
    say(" ")
    mention("Flight", "fled", "flight")
    say(" to ")
    mention("City", PLACE, "place")
    say(". ")
    mention("Quote", QUOTE, "quote")
    say(" said ")
    mention("Person", PEOPLE[3], "speaker")
    say(".\n")
    relations = [f"MemberOf Arg1:{ids[f'p{n}']} Arg2:{ids[f'o{n}']}" for n in range(len(PEOPLE))]
    relations.append(f"SaidBy Arg1:{ids['quote']} Arg2:{ids['speaker']}")
    lines += [f"R{n}\t{r}" for n, r in enumerate(relations, start=1)]
    lines.append(f"E1\tFlight:{ids['flight']} Agent:{ids['again']} Destination:{ids['place']}")
    lines.append(f"#1\tAnnotatorNotes {ids['quote']}\t{QUOTE}")
    return "".join(parts), "\n".join(lines) + "\n"
