"""What `kg.toml` says of which mentions are shared entities, beside its alignment:

    [entities]
    DISEASE = "shared"       # every mention of the type is shared across documents by its words
    ANAPHOR = "local"        # every mention of the type stays in its document and its chain

    [identity]
    relations = ["Is_synon", "Is_acron"]   # relation types that state identity, besides the usual names

Without an entry, a type follows kg's rule (kg.model.entities.names, kg.model.entities.resolve): names and linked
mentions are shared, everything else is local.
"""

from __future__ import annotations

from pathlib import Path

from kg.errors import ConfigError

SHARED, LOCAL = "shared", "local"
ENTITIES_TABLE, IDENTITY_TABLE = "entities", "identity"
TABLES = (ENTITIES_TABLE, IDENTITY_TABLE)


def read_tables(data: dict, key_lines: dict[str, int], path: Path | str) -> tuple[dict[str, str], frozenset[str]]:
    """The [entities] settings (type -> shared or local) and the [identity] relation types of a
    parsed kg.toml; a value of another kind is a ConfigError at its line."""
    entities = data.get(ENTITIES_TABLE, {})
    if not isinstance(entities, dict):
        raise ConfigError(f"{ENTITIES_TABLE} is not a table (expected [{ENTITIES_TABLE}] TYPE = \"{SHARED}\" or "
                          f"\"{LOCAL}\")", path, key_lines.get(ENTITIES_TABLE))
    for name, value in entities.items():
        if value not in (SHARED, LOCAL):
            raise ConfigError(f"{name} = {value!r} in [{ENTITIES_TABLE}] (expected \"{SHARED}\": every mention shared "
                              f"across documents, or \"{LOCAL}\": every mention local to its document)", path,
                              key_lines.get(name))
    identity = data.get(IDENTITY_TABLE, {})
    relations = identity.get("relations", []) if isinstance(identity, dict) else None
    unknown = sorted(set(identity) - {"relations"}) if isinstance(identity, dict) else []
    if relations is None or unknown or not isinstance(relations, list) \
            or not all(isinstance(r, str) and r for r in relations):
        raise ConfigError(f"[{IDENTITY_TABLE}] {unknown[0] if unknown else 'relations'} is not a list of relation "
                          f"types (expected [{IDENTITY_TABLE}] relations = [\"SameAs\", ...])", path,
                          key_lines.get(unknown[0] if unknown else "relations", key_lines.get(IDENTITY_TABLE)))
    return dict(entities), frozenset(relations)
