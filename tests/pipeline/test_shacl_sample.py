"""A large build checks an evenly spread sample of its documents with SHACL, in runs validated
together in the reader workers: a document of the sample whose graph breaks a shape fails the
build, and the error names that document, not the run it was checked with.

A generated corpus of more documents than kg.pipeline.reading.readers.VALIDATE_ALL_LIMIT is built with two
reader workers through the real command; one document in the middle of a sampled run gets a
relation that kg.toml aligns with kgo:quoteText, whose values must be strings (kgsh:Quote)."""

from __future__ import annotations

import re
from pathlib import Path

from benchmarks.corpus.generate import write_corpus
from kg.formats.corpus import scan_corpus
from kg.pipeline.reading.readers import VALIDATE_ALL_LIMIT, VALIDATE_RUN, _validation_sample
from tests.helpers import run_kg

DOCS = VALIDATE_ALL_LIMIT + 2 * VALIDATE_RUN
SEED = 7


def _sampled_with_a_quote(corpus: Path) -> tuple[Path, str, str]:
    """A document of the SHACL sample, not the first of its run, with a quote and a person: its
    .ann file and the ids of the two."""
    documents = scan_corpus(corpus).documents
    sample = _validation_sample(documents)
    for i, item in enumerate(documents):
        if item.slug not in sample or i % VALIDATE_RUN != VALIDATE_RUN // 2:
            continue
        ann = item.ann
        text = ann.read_text(encoding="utf-8")
        quote, person = re.search(r"^(T\d+)\tQuote ", text, re.M), re.search(r"^(T\d+)\tPerson ", text, re.M)
        if quote and person:
            return ann, quote.group(1), person.group(1)
    raise AssertionError("no sampled document with a quote and a person")


def test_a_sampled_document_that_breaks_a_shape_fails_the_build_naming_it(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    write_corpus(corpus, DOCS, SEED)
    ann, quote, person = _sampled_with_a_quote(corpus)
    conf = corpus / "annotation.conf"
    conf.write_text(conf.read_text(encoding="utf-8").replace(
        "[relations]\n", "[relations]\nQuotedFrom\tArg1:Quote, Arg2:Person\n", 1), encoding="utf-8")
    (corpus / "kg.toml").write_text('[align]\nQuotedFrom = "quoteText"\n', encoding="utf-8")
    with open(ann, "a", encoding="utf-8") as out:
        out.write(f"R9999\tQuotedFrom Arg1:{quote} Arg2:{person}\n")
    result = run_kg("build", "--corpus", str(corpus), "--data", str(tmp_path / "data"), "--quiet",
                    "--workers", "2")
    assert result.exit_code == 3, result.output
    assert result.stderr.startswith(f"error: the graph of document {ann.stem}: the graph does not conform to shapes.ttl")
    assert "Value is not Literal with datatype xsd:string" in result.stderr
    assert not (tmp_path / "data" / "current").exists(), "a build that breaks the shapes was made current"
