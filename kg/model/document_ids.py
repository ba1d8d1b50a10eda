"""A document's id from its path in the corpus, and back: the one place that turns one into the other.

The id is the document's path relative to the corpus, '/'-separated, without its extension, written
as an IRI path (kg.model.iris.iri_path): letters of any script kept, every other character that is
not unreserved percent-encoded, '%' included. Names of ASCII letters, digits and . _ - are their own
ids, as they always were ('news/2019/a1'); the encoding is injective, so `A` and `%41`, `sub/doc`
and `sub%2Fdoc` are four ids (`A`, `%2541`, `sub/doc`, `sub%252Fdoc`), and `document_path` gives
each id's path back. (Before, an escape in a name was kept as it was: `%41` was the id of both `A`
and `%41`, and an export wrote `x%2F..%2F..%2Fvictim` as `x/../../victim`.)

Every file kg writes under a name that comes from a corpus (the exports back to brat and XMI, the
configurations a build keeps) is placed by `inside`, which resolves the path and refuses, with the
name, one that would lie outside its target.
"""

from __future__ import annotations

from pathlib import Path

from kg.errors import OutsideTarget, printable
from kg.model.iris import iri_path, path_of_iri


def document_id(path: str) -> str:
    """The id of the document at `path` ('/'-separated, relative to the corpus, without extension):
    'news/2019/a1' stays; 'Oil-drops-7%' -> 'Oil-drops-7%25'; 'Die_französische' keeps its letters."""
    return iri_path(path)


def document_path(doc_id: str) -> str:
    """The path (NFC) a document id was minted from: the file name it is written back under."""
    return path_of_iri(doc_id)


def shown_path(doc_id: str) -> str:
    """The document's path as text (a title, kgo:sourceFile, a message): bytes of a file name that
    were not UTF-8 written as \\xNN."""
    return printable(document_path(doc_id))


def is_utf8_name(name: str) -> bool:
    """Whether a file name the system gave was UTF-8 throughout (no byte of it surrogate-escaped)."""
    return printable(name) == name


def document_file(target: Path, doc_id: str, suffix: str) -> Path:
    """Where the document `doc_id` is written under `target` with `suffix` ('.ann', '.xmi'), checked
    to lie inside `target` (OutsideTarget otherwise)."""
    return inside(target, document_path(doc_id) + suffix, doc_id)


def inside(target: Path, relative: str | Path, name: str | None = None) -> Path:
    """`target / relative`, once resolved (links followed, '..' taken), inside `target`; else
    OutsideTarget naming `name` (the document id or file name the path comes from)."""
    target = Path(target)
    path = target / relative
    root = target.resolve()
    resolved = path.resolve()
    if Path(relative).is_absolute() or not resolved.is_relative_to(root) or resolved == root:
        raise OutsideTarget(f"{printable(str(name or relative))!r} would be written at {printable(str(resolved))}, "
                            f"outside {printable(str(root))} (expected a name that stays inside its target)",
                            target)
    return path
