"""Edit, add and remove one document of a generated corpus, as a user does between builds.

The runner uses these to time the rebuild after a one-document change; they
keep the corpus valid (offsets, ids, alias table untouched).
"""

from __future__ import annotations

import random
from pathlib import Path

from benchmarks.corpus import templates
from benchmarks.corpus.document import Document
from benchmarks.corpus.generate import DOC_SUFFIXES, Generator


def edit_document(corpus: Path, slug: str, generator: Generator, salt: int = 0) -> None:
    """Append an annotated paragraph (a figure reported by an organization, and a quote)
    to the end of one document, keeping every existing offset and id."""
    txt, ann = Path(corpus) / f"{slug}.txt", Path(corpus) / f"{slug}.ann"
    old_ann = ann.read_text(encoding="utf-8")
    rng = random.Random(f"{generator.seed}:edit:{slug}:{salt}")
    doc = Document.resume(slug, rng, generator.pool, txt.read_text(encoding="utf-8"), old_ann)
    doc.separate(paragraph=True)
    templates.registry(doc)
    doc.separate(paragraph=False)
    templates.quote_organization(doc)
    txt.write_text(doc.text, encoding="utf-8")
    ann.write_text(old_ann + doc.ann, encoding="utf-8")


def add_document(corpus: Path, generator: Generator, index: int) -> str:
    """Write the corpus's document number `index` (one past the last adds a new one); its slug."""
    document = generator.document(index)
    document.write(Path(corpus))
    return document.slug


def remove_document(corpus: Path, slug: str) -> None:
    for suffix in DOC_SUFFIXES:
        (Path(corpus) / f"{slug}{suffix}").unlink()
