"""From mentions to entities: which mentions are names, which types are shared across documents,
how chains join mentions, how surface forms resolve to canonical entities, and what the documents
say of each entity, summed and written as records.

    names.py           which mentions are names (capitalised, not a pronoun or a description)
    function_words.py  pronouns, determiners and honorifics, per language, that no name is made of
    sharing.py         which annotation types are shared entities and which stay in their document
    identity.py        identity chains (Equiv, coreference links) joining mentions into one thing
    chain_types.py     the type of a chain whose mentions carry several: the most frequent
    aliases.py         the alias table (corpus/aliases.toml)
    knowledge_bases.py knowledge-base items: which normalizations name one, and each item's one IRI
    resolve.py         surface forms -> canonical entities, deterministic and explained
    evidence.py        what the documents say of each canonical entity, summed
    entity_records.py  the entity records graph, written from that evidence (as N-Quads text)
"""
