"""Check a brat corpus directory and describe its shape.

    python benchmarks/check.py DIR        # list problems (exit 1 if any) and print the shape

Checks, independently of the generator that wrote the corpus: every T text
equals its slice of the .txt; every id an annotation refers to exists; every
type, role, attribute and value is declared in annotation.conf and fills a
slot that admits it; normalizations are well formed; the metadata names
publishers and authors of the alias table; the alias table parses and no
two entries of a family share a spelling.
"""

from __future__ import annotations

import json
import re
import sys
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.names import normalize
from kg.conf import AnnotationConfig, load_config

ISO8601 = re.compile(r"^\d{4}(-\d{2}(-\d{2})?)?$")
META_KEYS = ("title", "publisher", "author", "date", "date_note", "language")


@dataclass
class Shape:
    """Counts over a corpus: what the benchmark table's 'corpus' lines report."""

    documents: int = 0
    characters: int = 0
    kinds: Counter = field(default_factory=Counter)       # T (mentions), trigger, R, E, A, N, *, #
    types: Counter = field(default_factory=Counter)       # annotation type of every T, R and E
    surfaces: Counter = field(default_factory=Counter)    # normalized text of entity mentions

    def per_document(self, kind: str) -> float:
        return self.kinds[kind] / self.documents if self.documents else 0.0

    def top_share(self, n: int = 10) -> float:
        """Share of all entity mentions taken by the n most frequent spellings (Zipf head)."""
        total = sum(self.surfaces.values())
        return sum(c for _, c in self.surfaces.most_common(n)) / total if total else 0.0


def check_corpus(corpus: Path) -> tuple[list[str], Shape]:
    """Problems found in the corpus (empty when it is valid) and its shape."""
    corpus = Path(corpus)
    conf = load_config(corpus / "annotation.conf")
    problems: list[str] = []
    keys = _check_aliases(corpus / "aliases.toml", conf, problems)
    shape = Shape()
    for txt in sorted(corpus.glob("*.txt")):
        _check_document(txt, conf, keys, problems, shape)
    return problems, shape


def _check_aliases(path: Path, conf: AnnotationConfig, problems: list[str]) -> set[str]:
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        problems.append(f"{path}: {exc}")
        return set()
    keys: set[str] = set()
    spellings: dict[tuple[str, str], str] = {}
    for entry in table.get("entity", []):
        key, type_ = entry.get("key", ""), entry.get("type", "")
        if key in keys:
            problems.append(f"{path}: duplicate key {key}")
        keys.add(key)
        if type_ not in conf.parents and type_ not in conf.events and type_ != "Role":
            problems.append(f"{path}: {key} has undeclared type {type_}")
        family = key.split("/")[0]
        for spelling in [entry.get("label", "")] + entry.get("aliases", []) + entry.get("hidden", []):
            owner = spellings.setdefault((family, normalize(spelling)), key)
            if owner != key:
                problems.append(f"{path}: {spelling!r} names both {owner} and {key}")
    return keys


def _check_document(txt: Path, conf: AnnotationConfig, keys: set[str], problems: list[str], shape: Shape) -> None:
    text = txt.read_text(encoding="utf-8")
    ann = txt.with_suffix(".ann")
    shape.documents += 1
    shape.characters += len(text)
    _check_metadata(txt.with_suffix(".json"), keys, problems)
    if not ann.exists():
        problems.append(f"{ann}: missing")
        return
    where = str(ann)
    lines = ann.read_text(encoding="utf-8").splitlines()
    types: dict[str, str] = {}
    for number, line in enumerate(lines, 1):
        if line.startswith("T"):
            _text_bound(line, text, conf, types, f"{where}:{number}", problems, shape)
        elif line[:1] in "REAN*#":
            types.setdefault(line.split("\t")[0], line.split("\t")[1].split(":")[0].split(" ")[0] if "\t" in line else "")
    for number, line in enumerate(lines, 1):
        at = f"{where}:{number}"
        kind = line[:1]
        fields = line.split("\t")
        if kind == "R":
            _relation(fields, conf, types, at, problems, shape)
        elif kind == "E":
            _event(fields, conf, types, at, problems, shape)
        elif kind == "A":
            _attribute(fields, conf, types, at, problems)
        elif kind == "N":
            _normalization(fields, types, keys, at, problems)
        elif kind == "*":
            members = fields[1].split()[1:]
            if len(members) < 2 or any(m not in types for m in members):
                problems.append(f"{at}: Equiv needs two or more existing mentions: {line!r}")
        elif kind == "#":
            target = fields[1].split()[1]
            if target not in types:
                problems.append(f"{at}: note on unknown id {target}")
        elif kind != "T":
            problems.append(f"{at}: unknown line {line!r}")
        if kind in "RAN*#":
            shape.kinds[kind] += 1


def _text_bound(line: str, text: str, conf: AnnotationConfig, types: dict, at: str, problems: list, shape: Shape) -> None:
    try:
        tid, middle, surface = line.split("\t")
        type_, *offsets = middle.replace(";", " ").split(" ")
        spans = [(int(offsets[i]), int(offsets[i + 1])) for i in range(0, len(offsets), 2)]
    except ValueError:
        problems.append(f"{at}: malformed T line {line!r}")
        return
    if tid in types:
        problems.append(f"{at}: duplicate id {tid}")
    types[tid] = type_
    sliced = " ".join(text[b:e] for b, e in spans)
    if sliced != surface:
        problems.append(f"{at}: text {surface!r} differs from the slice {sliced!r}")
    if type_ in conf.events or type_ == "Membership":
        shape.kinds["trigger"] += 1
    elif type_ in conf.parents:
        shape.kinds["T"] += 1
        if type_ not in ("Date", "Figure", "Quote"):
            shape.surfaces[normalize(surface)] += 1
    else:
        problems.append(f"{at}: type {type_} is not declared in annotation.conf")
    shape.types[type_] += 1


def _relation(fields: list[str], conf: AnnotationConfig, types: dict, at: str, problems: list, shape: Shape) -> None:
    type_, arg1, arg2 = fields[1].split()
    a1, a2 = arg1.split(":")[1], arg2.split(":")[1]
    shape.types[type_] += 1
    if type_ not in conf.relations:
        problems.append(f"{at}: relation {type_} is not declared")
        return
    declared = conf.relations[type_][0]
    allowed1, allowed2 = declared.arg1.types, declared.arg2.types
    for arg, allowed in ((a1, allowed1), (a2, allowed2)):
        if arg not in types:
            problems.append(f"{at}: {type_} refers to unknown id {arg}")
        elif not conf.matches(types[arg], allowed):
            problems.append(f"{at}: {type_} does not admit {types[arg]} ({arg})")


def _event(fields: list[str], conf: AnnotationConfig, types: dict, at: str, problems: list, shape: Shape) -> None:
    head, *args = fields[1].split()
    type_, trigger = head.split(":")
    shape.kinds["E"] += 1
    shape.types[type_] += 1
    if type_ not in conf.events:
        problems.append(f"{at}: event {type_} is not declared")
        return
    if types.get(trigger) != type_:
        problems.append(f"{at}: trigger {trigger} is not a {type_} span")
    roles = {r.name: r for r in conf.events[type_].roles}
    seen: Counter = Counter()
    for arg in args:
        role, target = arg.split(":")
        role = role.rstrip("0123456789")
        seen[role] += 1
        if role not in roles:
            problems.append(f"{at}: {type_} has no role {role}")
        elif target not in types:
            problems.append(f"{at}: {role} refers to unknown id {target}")
        elif not conf.matches(types[target], roles[role].types):
            problems.append(f"{at}: {type_} {role} does not admit {types[target]} ({target})")
    for name, role in roles.items():
        if not role.optional and not seen[name]:
            problems.append(f"{at}: {type_} lacks its {name}")
        if not role.repeatable and seen[name] > 1:
            problems.append(f"{at}: {type_} repeats {name}")


def _attribute(fields: list[str], conf: AnnotationConfig, types: dict, at: str, problems: list) -> None:
    name, target, *value = fields[1].split()
    if name not in conf.attributes:
        problems.append(f"{at}: attribute {name} is not declared")
        return
    allowed, values = conf.attributes[name].targets, conf.attributes[name].values
    if target not in types:
        problems.append(f"{at}: {name} on unknown id {target}")
    elif target.startswith("E") and "<EVENT>" not in allowed:
        problems.append(f"{at}: {name} does not apply to events")
    elif target.startswith("T") and not conf.matches(types[target], allowed):
        problems.append(f"{at}: {name} does not admit {types[target]} ({target})")
    if (values is None) != (not value) or (values and value[0] not in values):
        problems.append(f"{at}: {name} value {value} is not one of {values}")


def _normalization(fields: list[str], types: dict, keys: set[str], at: str, problems: list) -> None:
    _, target, ref = fields[1].split()
    db, _, value = ref.partition(":")
    if target not in types:
        problems.append(f"{at}: normalization of unknown id {target}")
    ok = {
        "Wikidata": re.fullmatch(r"Q\d+", value) is not None,
        "ISO8601": ISO8601.match(value) is not None and types.get(target) == "Date",
        "Number": re.fullmatch(r"-?\d+(\.\d+)?", value) is not None and types.get(target) == "Figure",
        "KG": value in keys,
    }.get(db, False)
    if not ok:
        problems.append(f"{at}: bad normalization {ref} of {types.get(target)} {target}")


def _check_metadata(path: Path, keys: set[str], problems: list[str]) -> None:
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        problems.append(f"{path}: {exc}")
        return
    missing = [k for k in META_KEYS if k not in meta]
    if missing:
        problems.append(f"{path}: missing {', '.join(missing)}")
    if meta.get("publisher") not in keys:
        problems.append(f"{path}: publisher {meta.get('publisher')} is not in the alias table")
    if meta.get("author") is not None and meta["author"] not in keys:
        problems.append(f"{path}: author {meta['author']} is not in the alias table")
    if meta.get("date") is not None and not ISO8601.match(meta["date"]):
        problems.append(f"{path}: date {meta['date']!r} is not YYYY[-MM[-DD]]")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    problems, shape = check_corpus(Path(args[0]))
    for problem in problems:
        print(problem)
    n = shape.documents
    print(f"{n} documents, {shape.characters / max(n, 1):,.0f} characters each; per document: "
          + ", ".join(f"{shape.per_document(k):.1f} {k}" for k in ("T", "trigger", "R", "E", "A", "N", "*", "#"))
          + f"; top-10 spellings take {shape.top_share():.0%} of entity mentions", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
