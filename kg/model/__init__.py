"""What the graph says and how things are named: IRIs, the ontology, the corpus's vocabulary,
resolution of surface forms to canonical entities, and the entity records built from evidence.

    iris.py               namespaces and stable IRIs minted from canonical keys and document slugs
    ontology.py           the kgo ontology as a closed rdflib namespace
    corpus_vocabulary.py  a corpus's annotation schema as RDF classes and properties, and its alignment to kgo
    default_alignment.py  the usual NER and event type names aligned with kgo without a kg.toml
    schema_report.py      what `kg check` says of the alignment, and the kg.toml it suggests
    aliases.py            the alias table (corpus/aliases.toml)
    knowledge_bases.py    knowledge-base items: which normalizations name one, and each item's one IRI
    resolve.py            surface forms -> canonical entities, deterministic and explained
    chain_types.py        the type of a chain whose mentions carry several: the most frequent
    evidence.py           what the documents say of each canonical entity, summed
    entity_records.py     the entity records graph, written from that evidence (as N-Quads text)
    nquads.py             N-Quads lines written fast, as text
    resources.py          the ontology and shapes that ship with kg

    sentences.py          an article split into sentences, so every fact cites one

May import kg.errors, kg.settings and kg.formats (records, positions, the brat configuration).
Never imports kg.store, kg.pipeline or kg.publish: what is kept in a store is kg.pipeline's.
"""
