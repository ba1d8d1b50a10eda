"""A stamp of a corpus directory: one digest of every entry's path, type, size, permissions,
owner, modification time and change time.

It is taken by one GNU `find` process: one stat per file, made in C. At 100,000 articles
(300,000 files) that costs a fraction of the scan's per-file Python work (kg.formats.corpus),
which also groups the files into documents. Two equal stamps mean that nothing in the corpus
changed between them, so a build can say "nothing to do" without scanning. The change time
(ctime) covers an edit that keeps a file's size and sets its modification time back: no user
can set it.

Where there is no GNU find (no -printf), or it cannot walk the whole tree (a link loop, an
unreadable folder), there is no stamp, and the build scans as it always does.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

# path, type, size, modification and change time (ns), permissions and owner, NUL-separated
_ENTRY = "%P\\0%y %s %T@ %C@ %m %U\\0"


def corpus_stamp(corpus_dir: Path) -> str | None:
    """The stamp of everything under `corpus_dir` (links followed, as the scan follows them), or
    None when it cannot be taken whole."""
    find = shutil.which("find")
    if find is None:
        return None
    try:
        done = subprocess.run([find, "-L", os.fspath(corpus_dir), "-printf", _ENTRY], capture_output=True,
                              env={**os.environ, "LC_ALL": "C"}, check=False)
    except OSError:
        return None
    if done.returncode != 0 or done.stderr or not done.stdout:
        return None
    digest = hashlib.sha256(os.fsencode(Path(corpus_dir).resolve()))
    digest.update(done.stdout)
    return digest.hexdigest()
