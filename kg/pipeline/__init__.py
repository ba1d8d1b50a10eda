"""`kg build` and `kg check`: from a corpus to a published store, each document read once, an edit costing the edit.

    builder.py         the build: plan, read, fill, validate, publish atomically
    plan.py            what a build has to do, from the corpus and the current build's manifest
    inputs.py          what every document is read against: configurations, alignment, aliases
    kept_aliases.py    the alias table as the parsed inputs keep it, each entry made when first asked for
    reading/           documents read on every core, each into its named graph (N-Quads text)
    validation/        the built graph and its records checked against the shapes and the ontology
    fill.py            the store bulk-loaded from scratch, or patched from the previous build's
    stored_records.py  the entity records in the store: their evidence asked in SPARQL, records replaced
    load_file.py       the N-Quads a full build loads, kept as its N-Quads export
    push.py            the push to a remote store, before publishing
    current.py         the graph of a data directory opened for reading: the current build's store, or a remote one
    phases.py          where a build spends its time
    check.py           `kg check`: all that a build checks, writing nothing
    suggest_toml.py    `kg check --suggest-toml`: a starting kg.toml for the types left over

May import every kg package but kg.suggest and the CLI. Imported by the CLI and the Python API, and for
the manifest and the shapes by kg.publish.
"""
