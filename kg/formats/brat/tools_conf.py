"""Read the normalization databases brat's tools.conf declares, with the URL pattern of each.

brat's tools.conf has a `[normalization]` section of lines `NAME<TAB>DB:..., <URL>:home,
<URLBASE>:pattern`, where the pattern holds `%s` for an identifier of the database (brat turns
it into a link). kg reads those patterns to know which databases are knowledge bases, and how
their items are spelled as IRIs. brat looks tools.conf up as it looks up annotation.conf: the
nearest one in the document's directory or a parent.
"""

from __future__ import annotations

import re
from pathlib import Path

from kg.errors import ConfigError
from kg.formats import limits
from kg.formats.brat.conf import decode_utf8

TOOLS_FILE = "tools.conf"
_SECTION = re.compile(r"^\[(\w+)\]\s*$")
_ARGUMENT = re.compile(r"<(URLBASE|URL)>:(\S+?)(?:,|$)")


def find_tools(directory: Path, root: Path) -> Path | None:
    """The tools.conf that applies to `directory`: its own, else the nearest parent's up to `root`."""
    directory, root = Path(directory), Path(root)
    inside = [directory, *(p for p in directory.parents if p == root or root in p.parents)]
    return next((folder / TOOLS_FILE for folder in inside if (folder / TOOLS_FILE).is_file()), None)


def url_patterns(path: Path | None) -> dict[str, str]:
    """Database name -> its URL pattern with `%s`, for each [normalization] line that gives one
    (<URLBASE>, or <URL> when it holds %s). No file: no databases. Lines brat would not read are
    left out: the databases they would declare stay plain references."""
    if path is None:
        return {}
    patterns, section = {}, None
    for line in decode_utf8(limits.read_bounded(path, limits.CONFIG, ConfigError), path).splitlines():
        header = _SECTION.match(line)
        if header:
            section = header.group(1)
            continue
        fields = line.split("\t", 1)
        if section != "normalization" or line.startswith("#") or len(fields) != 2:
            continue
        found = {kind: value for kind, value in _ARGUMENT.findall(fields[1]) if "%s" in value}
        pattern = found.get("URLBASE") or found.get("URL")
        if pattern:
            patterns[fields[0].strip()] = pattern
    return patterns
