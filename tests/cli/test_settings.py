"""One settings table (kg/settings.py): the docs are rendered from it, every command takes the
options it lists, nothing reads a KG_* variable the table does not name, values keep their type."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from kg import settings
from kg.cli import main
from kg.errors import SettingError
from tests.helpers import ROOT, TINY, run_kg


def test_docs_settings_md_is_the_table():
    assert (ROOT / "docs" / "settings.md").read_text(encoding="utf-8") == settings.markdown(), \
        "docs/settings.md is stale: run `python -m kg.settings > docs/settings.md`"


def test_every_command_takes_the_options_the_table_gives_it():
    ctx = click.Context(main)
    for item in settings.SETTINGS:
        for name in item.commands:
            command = main.get_command(ctx, name)
            flags = {flag for param in command.params for flag in param.opts}
            if item.option:
                assert item.flag in flags, f"kg {name} has no {item.flag}"
                assert item.env in _help(command, item.flag), f"kg {name} {item.flag} does not name {item.env}"
            else:
                assert item.flag not in flags


def _help(command: click.Command, flag: str) -> str:
    return next(p.help for p in command.params if flag in p.opts)


def test_no_code_reads_a_kg_variable_the_table_does_not_name():
    named = {item.env for item in settings.SETTINGS}
    for package in ("kg", "api", "viz"):
        for path in (ROOT / package).rglob("*.py"):
            for variable in re.findall(r"\bKG_[A-Z_]+\b", path.read_text(encoding="utf-8")):
                assert variable in named, f"{path.relative_to(ROOT)} names {variable}, which kg/settings.py lacks"


def test_values_take_the_type_of_their_default():
    environ = {"KG_QUERY_TIMEOUT": "2.5", "KG_MAX_ROWS": "7", "KG_CORS": "off", "KG_DATA": "elsewhere"}
    values = settings.load({"PORT": 8080, "max_rows": None}, environ)
    assert (values["QUERY_TIMEOUT"], values["MAX_ROWS"], values["CORS"], values["DATA"], values["PORT"],
            values["CORPUS"]) == (2.5, 7, False, "elsewhere", 8080, "corpus")
    with pytest.raises(SettingError, match=r"^KG_MAX_ROWS: expected int, got 'many'$"):
        settings.load(environ={"KG_MAX_ROWS": "many"})
    with pytest.raises(SettingError, match="KG_CORS: expected a boolean"):
        settings.setting("cors", {"KG_CORS": "maybe"})


def test_a_bad_setting_in_the_environment_is_exit_2():
    result = CliRunner().invoke(main, ["serve"], env={"KG_WORKERS": "three"})
    assert (result.exit_code, result.stderr) == (2, "error: KG_WORKERS: expected int, got 'three'\n")


def test_kg_viz_and_kg_stats_read_kg_data(tmp_path):
    corpus, data = tmp_path / "corpus", tmp_path / "elsewhere"
    shutil.copytree(TINY, corpus)
    assert run_kg("build", "--corpus", str(corpus), "--data", str(data), "--quiet").exit_code == 0
    runner = CliRunner()
    viz = runner.invoke(main, ["viz"], env={"KG_DATA": str(data)})
    assert viz.exit_code == 0, viz.output
    assert viz.stdout.startswith(f"wrote {data / 'graph.html'} (")
    assert (data / "graph.html").stat().st_size > 0
    stats = runner.invoke(main, ["stats", "--json"], env={"KG_DATA": str(data)})
    assert stats.exit_code == 0 and '"documents": 2' in stats.stdout


def test_adding_a_setting_is_one_entry(monkeypatch):
    """A new row is read from the environment and rendered, with nothing else to change."""
    row = settings.Setting("base_iri", "https://kg.example.org/", "base of every IRI kg mints", ("build",), False)
    monkeypatch.setattr(settings, "SETTINGS", settings.SETTINGS + (row,))
    monkeypatch.setitem(settings.BY_NAME, "base_iri", row)
    assert settings.load(environ={"KG_BASE_IRI": "https://x.test/"})["BASE_IRI"] == "https://x.test/"
    assert "| base_iri | `KG_BASE_IRI` | (environment only) | `'https://kg.example.org/'` | `kg build` |" \
        in settings.markdown()


def test_the_data_directory_is_a_path_for_every_command():
    ctx = click.Context(main)
    for name in settings.BY_NAME["data"].commands:
        param = next(p for p in main.get_command(ctx, name).params if "--data" in p.opts)
        assert param.type.convert("d", param, ctx) == Path("d")


def test_every_limit_is_applied_where_the_table_says_and_nowhere_else():
    """Each fixed limit of the server is bound by the module its row names, and every `limit(...)`
    call in the code names a row of the table."""
    for item in settings.LIMITS:
        assert f'limit("{item.name}")' in (ROOT / item.where).read_text(encoding="utf-8"), item
    for package in ("kg", "api", "viz"):
        for path in (ROOT / package).rglob("*.py"):
            for name in re.findall(r'\blimit\("([a-z_]+)"\)', path.read_text(encoding="utf-8")):
                assert settings.LIMIT_BY_NAME[name].where == str(path.relative_to(ROOT)), (path, name)
