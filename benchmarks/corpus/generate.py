"""Write a synthetic brat corpus of N news-like documents, deterministic for a seed.

    python benchmarks/corpus/generate.py --docs 1000 --seed 1 --out data/bench/corpus-1000

The directory gets annotation.conf (copied from corpus/), an aliases.toml
for the synthetic entities, and <slug>.txt / .ann / .json per document.
Documents are written one at a time (each from its own random stream, so
document i does not depend on the others) and never held together in memory.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchmarks.corpus import templates
from benchmarks.corpus.document import MONTHS, Document
from benchmarks.corpus.pool import Pool, write_aliases
from kg.model.iris import slugify

REPO = Path(__file__).resolve().parents[2]
ANNOTATION_CONF = REPO / "corpus" / "annotation.conf"
DOC_SUFFIXES = (".txt", ".ann", ".json")
MAX_SENTENCES = 30


@dataclass(frozen=True)
class Generated:
    """One document's three files."""

    slug: str
    text: str
    ann: str
    meta: dict

    def write(self, out: Path) -> None:
        (out / f"{self.slug}.txt").write_text(self.text, encoding="utf-8")
        (out / f"{self.slug}.ann").write_text(self.ann, encoding="utf-8")
        (out / f"{self.slug}.json").write_text(json.dumps(self.meta, ensure_ascii=False, indent=2) + "\n",
                                               encoding="utf-8")


class Generator:
    """The documents of one corpus: `document(i)` for any index, from (seed, size) alone."""

    def __init__(self, seed: int, docs: int) -> None:
        self.seed = seed
        self.docs = docs
        self.pool = Pool(seed, docs)

    def documents(self) -> Iterator[Generated]:
        for index in range(self.docs):
            yield self.document(index)

    def document(self, index: int) -> Generated:
        rng = random.Random(f"{self.seed}:doc:{index}")
        year, month, day = rng.choice((2018, 2019, 2019, 2020)), rng.randint(1, 12), rng.randint(1, 28)
        title = _headline(rng, self.pool)
        slug = f"news-{index:06d}-" + "-".join(slugify(title).split("-")[:5])
        doc = Document(slug, rng, self.pool, year, month)
        doc.put(title)
        doc.separate(paragraph=True)
        _body(doc)
        author = rng.choice(self.pool.journalists) if rng.random() < 0.6 else None
        if author is not None:
            doc.separate(paragraph=True)
            doc.name(author)
            doc.put(" is a journalist covering ")
            doc.entity("Region", "Country")
            doc.end_sentence()
        meta = _metadata(rng, self.pool, title, author, year, month, day)
        return Generated(slug, doc.text, doc.ann, meta)


def _body(doc: Document) -> None:
    """Sentences in paragraphs: a few event sentences and a quote, filled with facts
    until the document has its ~30 mentions."""
    rng = doc.rng
    target = min(45, max(16, int(rng.gauss(27, 5))))
    planned = rng.sample(templates.EVENTS, rng.choice((2, 3, 3, 4))) + [rng.choice(templates.QUOTES)]
    fillers = templates.FACTS + templates.QUOTES
    for n in range(MAX_SENTENCES):
        if not planned and doc.mentions >= target:
            break
        if n:
            doc.separate(paragraph=rng.random() < 0.45)
        if planned and (doc.mentions >= target or rng.random() < 0.45):
            planned.pop()(doc)
        else:
            rng.choice(fillers)(doc)
        for _ in range(rng.choice((1, 1, 2, 2, 3))):
            doc.separate(paragraph=False)
            templates.background(doc)


_HEADLINES = (
    "{n} {country} soldiers defect as tensions rise",
    "{person} calls for new protests in {city}",
    "Border crisis deepens in {region}",
    "{country} closes crossings after clashes",
    "Aid convoys stranded near {city}",
    "Defectors in {city} wait for orders",
    "{person} rejects talks with the opposition",
    "Thousands cross into {country} in a single week",
)


def _headline(rng: random.Random, pool: Pool) -> str:
    pattern = rng.choice(_HEADLINES)
    return pattern.format(n=rng.choice(("Dozens of", "Hundreds of", "Scores of", "More")),
                          country=pool.draw(rng, "Country").label, person=pool.draw(rng, "Person").label,
                          city=pool.draw(rng, "City").label, region=pool.draw(rng, "Region").label)


def _metadata(rng: random.Random, pool: Pool, title: str, author, year: int, month: int, day: int) -> dict:
    r = rng.random()
    if r < 0.7:
        date, note = f"{year}-{month:02d}-{day:02d}", "Stated in the dateline."
    elif r < 0.85:
        date, note = f"{year}-{month:02d}", f"Inferred, month only: the text refers to events of {MONTHS[month - 1]}."
    else:
        date, note = None, "Not stated."
    return {
        "title": title,
        "publisher": pool.publisher(rng).key,
        "author": author.key if author else None,
        "date": date,
        "date_note": note,
        "language": "en",
    }


def prepare(out: Path, force: bool) -> None:
    """Create the output directory; refuse a non-empty one unless `force`, which clears old documents."""
    out.mkdir(parents=True, exist_ok=True)
    stale = [p for p in out.iterdir() if p.suffix in DOC_SUFFIXES]
    if stale and not force:
        raise SystemExit(f"{out} already holds documents; pass --force to replace them")
    for path in stale:
        path.unlink()


def write_corpus(out: Path, docs: int, seed: int, *, force: bool = False) -> Generator:
    """Write a complete corpus directory; return the generator (for adding documents later)."""
    out = Path(out)
    prepare(out, force)
    generator = Generator(seed, docs)
    shutil.copyfile(ANNOTATION_CONF, out / "annotation.conf")
    write_aliases(generator.pool, out / "aliases.toml")
    for document in generator.documents():
        document.write(out)
    return generator


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, required=True, help="number of documents")
    parser.add_argument("--seed", type=int, default=1, help="random seed (same seed, same bytes)")
    parser.add_argument("--out", type=Path, required=True, help="corpus directory to write")
    parser.add_argument("--force", action="store_true", help="replace documents already in --out")
    args = parser.parse_args(argv)
    if args.docs < 1:
        parser.error("--docs must be at least 1")
    started = time.perf_counter()
    write_corpus(args.out, args.docs, args.seed, force=args.force)
    print(f"wrote {args.docs} documents to {args.out} in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
