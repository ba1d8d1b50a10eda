"""kg.formats.positions: the one place located errors find their line and column."""

from __future__ import annotations

import tomllib

import pytest

from kg.errors import ConfigError
from kg.formats.positions import json_key_line, line_column, toml_error, toml_key_line

TOML = '# aliases\n[[entity]]\nkey = "person/x"\n"label" = "X"\n\n[align]\nlabels = 1\n'


def test_line_column() -> None:
    text = "ab\ncd\n\nef"
    assert [line_column(text, text.index(c)) for c in "abcdef"] == [(1, 1), (1, 2), (2, 1), (2, 2), (4, 1), (4, 2)]


@pytest.mark.parametrize("key, line", [("entity", 2), ("key", 3), ("label", 4), ("align", 6), ("labels", 7),
                                       ("person", None), ("lab", None)])
def test_toml_key_line(key: str, line: int | None) -> None:
    assert toml_key_line(TOML, key) == line


def test_json_key_line() -> None:
    raw = '{\n  "title": "a",\n  "date": "2019",\n  "title": "b"\n}'
    assert (json_key_line(raw, "title"), json_key_line(raw, "date"), json_key_line(raw, "title", occurrence=2)) == (2, 3, 4)
    assert json_key_line(raw, "author") == 1


def test_toml_error_is_located() -> None:
    with pytest.raises(tomllib.TOMLDecodeError) as caught:
        tomllib.loads('a = 1\n[[entity]\nkey = 1\n')
    error = toml_error(caught.value, "aliases.toml", "[[entity]] tables")
    assert isinstance(error, ConfigError)
    assert str(error) == "aliases.toml:2:9: invalid TOML: Expected ']]' at the end of an array declaration " \
                         "(expected [[entity]] tables)"
