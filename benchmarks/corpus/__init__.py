"""The synthetic corpus the benchmarks build: news-like brat documents, deterministic for a seed.

    generate.py    write N documents (python benchmarks/corpus/generate.py --docs N --seed S --out DIR)
    document.py    one document being written: its text and its brat annotations
    templates.py   the sentence templates, each writing and annotating one sentence
    pool.py        who and what the documents talk about, growing with the corpus
    names.py       the syllable-built names of people, organizations and places
    mutate.py      edit, add and remove one document, as a user does between builds
    check.py       check a brat corpus directory and describe its shape

Imports kg (iris, the brat reader in check.py) and nothing else of the benchmarks.
"""
