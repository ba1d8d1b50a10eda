"""Benchmarks for kg: the runner behind `make bench` and its companions, each timing what a user touches.

    run.py             build, load, parse and export at several N; write RESULTS.md and the README table
    bench_*.py         the companions (endpoint, load, view, view data, services, search index, lexer,
                       input bounds, Virtuoso, cluster), each runnable alone
    corpus/            the synthetic brat corpus: its generator, its entity pool and names, the sentence
                       templates, the edits between builds, and a checker of a corpus's shape
    measuring/         how a run is measured and told: the process tree's time and memory, the machine,
                       the floors beside `kg build`, the results against their targets, the Markdown report

The companions and run.py import corpus/ and measuring/; those two never import a companion.
See docs/benchmarks.md.
"""
