"""INCEpTION and WebAnno's UIMA CAS XMI exports, read through dkpro-cassis and written back.

    xmi.py           read an .xmi (or an export .zip) as brat standoff, in memory
    cas_to_brat.py   collect brat standoff from a loaded CAS's layers
    errors.py        what cassis refuses, as located errors
    export.py        write a build as INCEpTION documents (`kg export --format xmi`)
"""
