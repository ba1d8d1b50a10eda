"""Benchmarks for kg: a synthetic brat corpus generator and the runner behind `make bench`.

    generate.py   write N synthetic documents (brat standoff) for a seed
    run.py        build, load, parse and export at several N; write RESULTS.md

See docs/benchmarks.md.
"""
