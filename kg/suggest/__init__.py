"""Pre-annotation (`kg suggest`): brat annotations a person would make, suggested from what the corpus knows.

    matchers/       names of a lexicon, dates, figures and word stems found in a text
    choosing.py     which names, dates, figures, quotes and triggers found in a text are suggested
    human.py        suggestions beside the human annotations: not twice, as .ann lines, scored
    events.py       event triggers and their arguments, learned from the corpus's other articles
    practice.py     how often the other articles' annotators mark a known name or trigger where it occurs
    scoring.py      the --score rows for names: those the suggester knew, those named anywhere
    ner.py          names from an installed spaCy pipeline (--ner; optional, nothing downloaded)
    suggestion.py   one suggested annotation
    corpus.py       the corpus it learns from, read once: configuration, aliases, what annotators marked
    knowledge.py    what the corpus's annotations teach, read once; what each article may use (leave-one-out)
    files.py        `kg suggest` on a corpus's files

May import kg.formats and kg.model; nothing imports it but the CLI.
"""
