"""INCEpTION and WebAnno's UIMA CAS XMI exports, read through dkpro-cassis and written back.

    xmi.py           read an .xmi (or an export .zip) as brat standoff, in memory
    cas_to_brat.py   collect brat standoff from a loaded CAS's layers
    errors.py        what cassis refuses, as located errors; type hierarchies too deep, offsets it cannot map
    offsets.py       UTF-16 offsets to code points in memory per astral character (cassis's map: per character)
    xmi_writer.py    write a build as INCEpTION documents (`kg export --format xmi`)
"""
