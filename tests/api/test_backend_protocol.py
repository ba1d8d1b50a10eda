"""The Backend protocol is the whole interface: api/ and the view call nothing on a backend
that it does not declare, and every backend implements every member it declares."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from kg.api import backend

ROOT = Path(__file__).resolve().parents[2]
MEMBERS = sorted(set(backend.Backend.__annotations__)
                 | {name for name, value in vars(backend.Backend).items()
                    if callable(value) and not name.startswith("_")})
# the expressions whose value is a backend: the app's (current_app.extensions["kg"]), the request's
# (backend.current(), api/json_api/answers.py's request_backend()) and locals named so
BACKEND_FUNCTIONS = {"request_backend", "backend_of_request"}
BACKEND_NAMES = {"backend", "pinned"}


def _is_backend(node: ast.expr, names: set[str], modules: set[str]) -> bool:
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Attribute):
            return func.attr == "current" and isinstance(func.value, ast.Name) and func.value.id in modules
        return isinstance(func, ast.Name) and func.id in BACKEND_FUNCTIONS
    if isinstance(node, ast.Subscript):
        return isinstance(node.slice, ast.Constant) and node.slice.value == "kg"
    return isinstance(node, ast.Name) and node.id in names


def _modules_named_backend(tree: ast.Module) -> set[str]:
    """Names that are the module kg.api.backend in this file (not a backend object)."""
    return {alias.asname or alias.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
            for alias in n.names if alias.name == "backend"}


def used_members() -> dict[str, set[str]]:
    """member -> files of api/ and viz/ that read it on a backend."""
    used: dict[str, set[str]] = {}
    for path in sorted([*(ROOT / "api").rglob("*.py"), *(ROOT / "viz").rglob("*.py")]):
        if path.name == "backend.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        modules = _modules_named_backend(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and _is_backend(node.value, BACKEND_NAMES - modules, modules):
                used.setdefault(node.attr, set()).add(path.name)
    return used


def test_callers_use_only_declared_members() -> None:
    used = used_members()
    assert {"run", "select", "version", "served", "export"} <= set(used)  # the scan sees the calls
    undeclared = {member: files for member, files in used.items() if member not in MEMBERS}
    assert undeclared == {}


@pytest.mark.parametrize("implementation", [backend.EmbeddedBackend, backend.PinnedBuild, backend.RemoteBackend])
def test_every_backend_implements_the_protocol(implementation: type) -> None:
    for member in MEMBERS:
        assert hasattr(implementation, member), f"{implementation.__name__} lacks {member}"
        declared = getattr(backend.Backend, member, None)
        if callable(declared):
            wanted = list(inspect.signature(declared).parameters)
            assert list(inspect.signature(getattr(implementation, member)).parameters) == wanted, member
