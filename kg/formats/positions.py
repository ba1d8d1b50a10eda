"""Where in a raw input something stands: the line and column of an offset, the line of a TOML
key or table, of a JSON key, and of a TOML syntax error. Every located error (`path:line: ...`)
finds its line here."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from kg.errors import ConfigError


def line_column(text: str, offset: int) -> tuple[int, int]:
    """The 1-based line and column of a character offset."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def toml_key_line(raw: str, key: str) -> int | None:
    """The line where a TOML key (`key =`, `"key" =`) or table (`[key]`, `[[key]]`) is first given."""
    pattern = re.compile(rf"^\s*(\[+\s*{re.escape(key)}\s*\]+|\"?{re.escape(key)}\"?\s*=)")
    return next((number for number, line in enumerate(raw.splitlines(), start=1) if pattern.match(line)), None)


_TOML_KEY = re.compile(r"""\s*(?:\[+\s*([^\]]*?)\s*\]+|"([^"]*)"\s*=|'([^']*)'\s*=|([^\s="'\[]+)\s*=)""")


def toml_key_lines(raw: str) -> dict[str, int]:
    """The line where each TOML key or table is first given, from one pass over the text (asking
    toml_key_line for each of n keys would read the text n times)."""
    lines: dict[str, int] = {}
    for number, line in enumerate(raw.splitlines(), start=1):
        match = _TOML_KEY.match(line)
        if match:
            lines.setdefault(next(group for group in match.groups() if group is not None), number)
    return lines


def json_key_line(raw: str, key: str, *, occurrence: int = 1) -> int:
    """The line of a JSON record on which `"key":` appears (its `occurrence`-th time), else 1."""
    for seen, match in enumerate(re.finditer(r'"' + re.escape(key) + r'"\s*:', raw), start=1):
        if seen == occurrence:
            return raw.count("\n", 0, match.start()) + 1
    return 1


def toml_error(exc: tomllib.TOMLDecodeError, path: Path | str, expected: str) -> ConfigError:
    """A TOML syntax error located at its line and column."""
    where = re.search(r"at line (\d+), column (\d+)", str(exc))
    line, column = (int(where.group(1)), int(where.group(2))) if where else (None, None)
    return ConfigError(f"invalid TOML: {str(exc).split(' (at line')[0]} (expected {expected})", path, line, column)
