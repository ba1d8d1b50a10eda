"""How much of each input kg reads, checked before anything is expanded.

A file is refused by its size before it is read, a zip member by the size its
header declares and again by the bytes it really inflates to (a header can
lie), and every refusal names the limit and why it is enough. docs/hardening.md
gives the attack each limit stops and its figures.
"""

from __future__ import annotations

import hashlib
import os
import zipfile
from dataclasses import dataclass
from pathlib import Path

from kg.errors import InputError


@dataclass(frozen=True)
class Limit:
    """A size in bytes, and why real input fits in it (the refusal says so)."""

    bytes: int
    why: str


TEXT = Limit(16 * 2**20, "kg reads news articles and their annotations, each well under that")  # .txt .ann .xmi .tsv
ARCHIVE = Limit(4 * TEXT.bytes, "an INCEpTION export of a few news articles is far smaller")  # all of a zip's documents
TYPE_SYSTEM = Limit(2 * 2**20, "INCEpTION's type systems are about 150 KB")  # cassis reads 1 MiB in about 5 s
CONFIG = Limit(2**20, "a configuration of a few hundred lines is a few KiB")  # kg.toml, annotation.conf, tools.conf
ALIASES = Limit(TEXT.bytes, "an alias table of tens of thousands of entities takes a few MiB")  # aliases.toml
MAX_TYPE_DEPTH = 100  # supertype links from a type up to UIMA's own; INCEpTION's exports have 3
_CHUNK = 2**20


def too_large(size: int, limit: Limit, where: Path | str, error: type[InputError],
              what: str = "file of") -> InputError:
    """The refusal of an input of `size` bytes over `limit` ("file of 17,825,792 bytes (expected ...)")."""
    return error(f"{what} {size:,} bytes (expected at most {limit.bytes:,}: {limit.why})", where)


def read_bounded(path: Path | str, limit: Limit, error: type[InputError]) -> bytes:
    """The bytes of a file within `limit`, refused by its size before it is read (and again if it
    grew past the limit since)."""
    try:
        with open(path, "rb") as opened:
            size = os.fstat(opened.fileno()).st_size
            if size > limit.bytes:
                raise too_large(size, limit, path, error)
            data = opened.read(limit.bytes + 1)
    except OSError as exc:
        raise error(f"cannot read ({exc.strerror or exc}) (expected a readable file)", path) from exc
    if len(data) > limit.bytes:
        raise too_large(len(data), limit, path, error)
    return data


def read_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, limit: Limit, where: str,
                error: type[InputError]) -> bytes:
    """The inflated bytes of one member of a zip archive, refused when its header declares more
    than `limit` and as soon as the inflated bytes pass it, whatever the header said. (Python's
    zipfile also stops at the declared size, and then finds the checksum wrong.)"""
    if info.file_size > limit.bytes:
        raise too_large(info.file_size, limit, where, error, "member inflating to")
    data = bytearray()
    with archive.open(info) as member:
        while chunk := member.read(min(_CHUNK, limit.bytes + 1 - len(data))):
            data += chunk
            if len(data) > limit.bytes:
                raise error(f"member inflates past {limit.bytes:,} bytes though its header says "
                            f"{info.file_size:,} (expected at most {limit.bytes:,}: {limit.why})", where)
    return bytes(data)


def digest_file(path: Path | str, digest: hashlib._Hash, missing: bytes = b"\0missing") -> None:
    """Feed a file to `digest` a chunk at a time; one larger than any input kg reads gives only its
    size and time (reading it refuses it: hashing gigabytes first would only delay that)."""
    try:
        with open(path, "rb") as opened:
            st = os.fstat(opened.fileno())
            if st.st_size > ARCHIVE.bytes:
                digest.update(f"\0too large {st.st_size} {st.st_mtime_ns}".encode())
                return
            hashlib.file_digest(opened, lambda: digest)  # feeds `digest` itself
    except FileNotFoundError:
        digest.update(missing)
