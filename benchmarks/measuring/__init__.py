"""How a benchmark run is measured and told.

    measure.py    run a command; wall time and peak memory of its whole process tree
    machine.py    the machine and software a run ran on
    floors.py     the reference points beside `kg build` (bulk loading, dumps, rdflib), one per process
    results.py    what a run measured per size, and the targets checked against it
    report.py     the run as Markdown: the tables of RESULTS.md and the README

Imports kg and benchmarks.corpus only.
"""
