"""The corpora nobody here wrote that the tests of this folder read: samples in tests/data/public
(its README says whence) and the real corpora beside the project (../shared/corpora, skipped where absent)."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from tests.helpers import shared_corpus

PUBLIC = Path(__file__).resolve().parents[1] / "data" / "public"

CORPORA: dict[str, Callable[[], Path]] = {
    "nerel": lambda: PUBLIC / "nerel",
    "nerel-bio-mcn": lambda: PUBLIC / "nerel-bio-mcn",
    "keepha-ja": lambda: PUBLIC / "keepha-ja",
    "ner-uk": lambda: PUBLIC / "ner-uk",
    "zh-literature": lambda: PUBLIC / "zh-literature",
    "ullekhanam": lambda: PUBLIC / "ullekhanam",
    "because": lambda: PUBLIC / "because",
    "diagnosis": lambda: PUBLIC / "diagnosis",
    "litbank": lambda: PUBLIC / "litbank",
    "raredis": lambda: PUBLIC / "raredis",
    "brat-commodity-news": lambda: shared_corpus("brat-commodity-news"),
    "mimotext": lambda: shared_corpus("inception-xmi", "mimotext"),
    "caesar": lambda: shared_corpus("inception-xmi", "caesar"),
    "sentivent": lambda: shared_corpus("inception-xmi", "sentivent"),
    "ner4archives": lambda: shared_corpus("inception-xmi", "ner4archives"),
}

# brat corpora published with their annotation.conf: what brat's verifier marks is defined
WITH_CONF = ("because", "diagnosis", "raredis", "keepha-ja", "nerel", "ullekhanam", "brat-commodity-news")
