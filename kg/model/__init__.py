"""What the graph says and how things are named: IRIs, the ontology, the corpus's vocabulary,
resolution of surface forms to canonical entities, and the entity records built from evidence.

    schema/        the kgo ontology, a corpus's annotation schema and its alignment to kgo
    entities/      from mentions to entities: names, sharing, identity chains, resolution, records

    iris.py        namespaces and stable IRIs minted from canonical keys and document slugs
    document_ids.py a document's id from its path in the corpus, and back
    sentences.py   an article split into sentences, so every fact cites one
    event_links.py which events merge with the canonical event their `KG:` link names
    view_parts.py  each graph's part of the network view, read from its N-Quads
    nquads.py      N-Quads lines written fast, as text
    resources.py   the ontology and shapes that ship with kg

May import kg.errors, kg.settings and kg.formats (records, positions, the brat configuration).
Never imports kg.store, kg.pipeline or kg.publish: what is kept in a store is kg.pipeline's.
"""
