"""Every format kg reads or writes: annotated corpora in, RDF syntaxes and annotation formats out.

    registry.py        the one table of formats: input formats (how a file is recognised, its reader)
                       and output formats (`kg export --format`); adding a format is a module and a row
    corpus.py          find a corpus's documents and read each with its format's reader
    records.py         the frozen records every reader yields (mentions, relations, events, notes...)
    positions.py       the line and column behind an offset, for located errors
    limits.py          how much of each input kg reads (files, zip members, type hierarchies), checked first
    rdf_syntaxes.py    the RDF and SPARQL result syntaxes kg serializes and negotiates
    brat/              brat standoff: annotation.conf, .ann, and writing both back
    inception/         INCEpTION and WebAnno UIMA CAS XMI: reading, and writing back
    webanno_tsv/       WebAnno TSV 3.x, read into a UIMA CAS and then as XMI is

May import kg.errors, kg.settings and kg.model; the writers (brat/corpus_writer.py, inception/xmi_writer.py) also
read a built store (kg.store). Never imports kg.pipeline or kg.publish.
"""
