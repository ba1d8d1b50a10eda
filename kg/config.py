"""Settings: one table of (name, default, help); each can be overridden by a KG_<NAME> environment variable."""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Setting:
    name: str
    default: str
    help: str


SETTINGS = (
    Setting("corpus", "corpus", "Directory of the annotated corpus (.txt, .ann, .json, annotation.conf, aliases.toml)."),
    Setting("data", "data", "Directory for builds: the store, the exports and the network view."),
    Setting("store", "", "URL of a remote SPARQL 1.1 store to push to / answer from; empty for the embedded store."),
)


def setting(name: str) -> str:
    """The value of a setting: KG_<NAME> from the environment, else its default."""
    for item in SETTINGS:
        if item.name == name:
            return os.environ.get(f"KG_{name.upper()}", item.default)
    raise KeyError(name)
