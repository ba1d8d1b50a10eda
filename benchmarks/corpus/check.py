"""Check a brat corpus directory and describe its shape.

    python benchmarks/corpus/check.py DIR        # list problems (exit 1 if any) and print the shape

The problems are those `kg check` finds (kg.pipeline.check: the build's own reader, so
the benchmarks accept exactly what a build accepts); the shape is counted here.
"""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from kg.errors import InputError
from kg.formats.brat.conf import AnnotationConfig, load_config
from kg.model.entities.aliases import normalize
from kg.pipeline.check import check_corpus as kg_check


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
    """Problems found in the corpus (empty when it is valid, one located line each; warnings count)
    and its shape."""
    corpus = Path(corpus)
    try:
        kg_check(corpus, strict=True)  # what brat only marks is a warning to kg; a generated corpus has none
        problems: list[str] = []
    except InputError as exc:
        problems = str(exc).splitlines()
    return problems, corpus_shape(corpus)


def corpus_shape(corpus: Path) -> Shape:
    """Counts of what the corpus's .ann files hold."""
    conf = load_config(corpus / "annotation.conf")
    shape = Shape()
    for txt in sorted(corpus.glob("*.txt")):
        shape.documents += 1
        shape.characters += len(txt.read_text(encoding="utf-8"))
        ann = txt.with_suffix(".ann")
        for line in ann.read_text(encoding="utf-8").splitlines() if ann.exists() else []:
            _count(line, conf, shape)
    return shape


def _count(line: str, conf: AnnotationConfig, shape: Shape) -> None:
    kind, fields = line[:1], line.split("\t")
    if kind == "T" and len(fields) == 3:
        type_ = fields[1].split(" ")[0]
        shape.types[type_] += 1
        if type_ in conf.events:
            shape.kinds["trigger"] += 1
            return
        shape.kinds["T"] += 1
        if type_ not in ("Date", "Figure", "Quote"):
            shape.surfaces[normalize(fields[2])] += 1
    elif kind in "RE" and len(fields) > 1:
        shape.types[fields[1].split(" ")[0].split(":")[0]] += 1
        shape.kinds[kind] += 1
    elif kind in "AN*#":
        shape.kinds[kind] += 1


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
