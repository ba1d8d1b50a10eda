"""The configuration files a build kept (build_dirs.corpus_config_dir), checked before an export
reads them.

`kg export --format brat|xmi` writes the corpus back with the annotation.conf, kg.toml, ... the
build read, from the copies it kept. The build seals them (kg.store.checksums.seal_tree); a copy
damaged since is made again from the corpus when the corpus still holds the same bytes, and
otherwise refused, naming it: an export never carries a damaged configuration silently.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from kg.errors import StoreError, printable
from kg.model.document_ids import inside
from kg.store import build_dirs, checksums


def checked_config_dir(build_dir: Path) -> Path:
    """The build's kept configuration directory, every file whole (restored from the corpus where
    it was damaged and the corpus holds the bytes kept); StoreError naming a file that is not."""
    config_dir = build_dirs.corpus_config_dir(build_dir)
    damaged = checksums.damaged_in_tree(config_dir)
    if damaged is None:
        raise StoreError(f"{printable(str(checksums.sidecar(config_dir)))}: the list of the kept configuration "
                         "files' checksums does not read (expected the JSON the build wrote; run `kg build` "
                         "after removing this build to make it again)")
    corpus = build_dirs.corpus_of(build_dir)
    for relative, kept in sorted(damaged.items()):
        original = inside(corpus, relative) if corpus is not None else None
        if original is None or not original.is_file() or checksums.digest_of(original) != kept:
            raise StoreError(f"{printable(str(config_dir / relative))}: damaged since the build (its bytes no longer "
                             f"give the checksum kept in {checksums.sidecar(config_dir).name}, and the corpus no "
                             f"longer holds them) (expected the configuration the build read: build again with "
                             f"`kg build --full`)")
        _restore(original, inside(config_dir, relative))
    return config_dir


def _restore(original: Path, kept: Path) -> None:
    """Copy the corpus's file over its damaged copy, in one rename."""
    partial = kept.with_name(f".{kept.name}.{os.getpid()}.part")
    try:
        shutil.copyfile(original, partial)
        os.replace(partial, kept)
    finally:
        partial.unlink(missing_ok=True)
