"""What a text holds that could be annotated, each found by one matcher that returns Suggestions:

    spans.py        the lexicon of known names, and its names found in a text
    dates.py        date expressions with their ISO 8601 value
    figures.py      numbers and quantities with their value and qualifier
    stems.py        word stems for matching triggers (Snowball, in the article's language)

They know nothing of the corpus beyond the lexicon they are given: what is learned from the corpus
(kg.suggest.knowledge, events, practice) is made above them.
"""
