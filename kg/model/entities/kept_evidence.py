"""The evidence a build keeps (kg.store.build_dirs.EVIDENCE_FILE), read and written entity by entity.

A large corpus keeps the evidence of hundreds of thousands of entities, and an edit of one article
patches a few dozen of them. Pickled as one object, the whole file was made into Python objects
when read and encoded again when written: an edit's cost grew with the corpus. So each entity's
evidence is pickled on its own, and the file is a pickle of those bytes by key: reading it makes
bytes objects alone, an entity's evidence is unpickled when asked for, and writing it encodes again
only the entities set since it was read.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterator, MutableMapping
from typing import Any

FORMAT = "kg-evidence-4"  # kg-evidence-3 pickled the whole evidence as one object

Plain = tuple  # one entity's evidence in its kept form (kg.model.entities.evidence.kept_form)


class KeptEvidence(MutableMapping):
    """Entity key -> its evidence in the kept form, as a build's file holds it (`packed`: each
    entity's pickled), unpickled when asked for; what is set is encoded when the whole is packed."""

    def __init__(self, packed: dict[str, bytes] | None = None) -> None:
        self._packed = packed if packed is not None else {}
        self._fresh: dict[str, Plain] = {}  # set since read: keys the packed ones lack

    def __getitem__(self, key: str) -> Plain:
        if key in self._fresh:
            return self._fresh[key]
        return pickle.loads(self._packed[key])

    def __setitem__(self, key: str, value: Plain) -> None:
        self._packed.pop(key, None)
        self._fresh[key] = value

    def __delitem__(self, key: str) -> None:
        if key in self._fresh:
            del self._fresh[key]
        else:
            del self._packed[key]

    def __contains__(self, key: object) -> bool:
        return key in self._fresh or key in self._packed

    def __iter__(self) -> Iterator[str]:
        yield from self._packed
        yield from self._fresh

    def __len__(self) -> int:
        return len(self._packed) + len(self._fresh)

    def packed(self) -> dict[str, bytes]:
        """Every entity's evidence, pickled: those read, as read; those set, encoded now."""
        return self._packed | {key: _pickled(value) for key, value in self._fresh.items()}


def dumps(kept: MutableMapping[str, Plain]) -> bytes:
    """The bytes of the file keeping `kept` (a KeptEvidence, or any mapping of the kept form)."""
    packed = kept.packed() if isinstance(kept, KeptEvidence) else {k: _pickled(v) for k, v in kept.items()}
    return pickle.dumps((FORMAT, packed), pickle.HIGHEST_PROTOCOL)


def loads(data: bytes) -> KeptEvidence | None:
    """The evidence a file's bytes keep; None when they are of another format (an older build's)."""
    tag, packed = pickle.loads(data)
    return KeptEvidence(packed) if tag == FORMAT and isinstance(packed, dict) else None


def _pickled(value: Any) -> bytes:
    return pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
