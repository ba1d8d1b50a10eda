"""The ontology and a corpus's own schema aligned with it.

    ontology.py           the kgo ontology as a closed rdflib namespace
    corpus_vocabulary.py  a corpus's annotation schema as RDF classes and properties, and its alignment to kgo
    default_alignment.py  the usual NER and event type names aligned with kgo without a kg.toml
    schema_report.py      what `kg check` says of the alignment, and the kg.toml it suggests
"""
