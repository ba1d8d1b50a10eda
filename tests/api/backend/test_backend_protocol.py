"""The Backend protocol is the whole interface: api/ and the view call nothing on a backend
that it does not declare, and every backend implements every member it declares."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from kg.api.backend import embedded, protocol, remote

ROOT = Path(__file__).resolve().parents[3]
MEMBERS = sorted(set(protocol.Backend.__annotations__)
                 | {name for name, value in vars(protocol.Backend).items()
                    if callable(value) and not name.startswith("_")})
# the expressions whose value is a backend: the app's (app_state().backend), the request's
# (request_life.pinned_backend()) and locals named so
BACKEND_FUNCTIONS = {"pinned_backend"}
BACKEND_NAMES = {"backend", "pinned", "served"}


def _is_backend(node: ast.expr, names: set[str]) -> bool:
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Name) and node.func.id in BACKEND_FUNCTIONS
    if isinstance(node, ast.Attribute) and node.attr == "backend":  # app_state().backend, state.backend
        return isinstance(node.value, ast.Call | ast.Name)
    return isinstance(node, ast.Name) and node.id in names


def _modules_named_backend(tree: ast.Module) -> set[str]:
    """Names that are the package kg.api.backend in this file (not a backend object)."""
    return {alias.asname or alias.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
            for alias in n.names if alias.name == "backend"}


def used_members() -> dict[str, set[str]]:
    """member -> files of api/ and viz/ that read it on a backend."""
    used: dict[str, set[str]] = {}
    for path in sorted([*(ROOT / "api").rglob("*.py"), *(ROOT / "viz").rglob("*.py")]):
        if path.parent.name == "backend":  # the backends themselves
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        modules = _modules_named_backend(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and _is_backend(node.value, BACKEND_NAMES - modules):
                used.setdefault(node.attr, set()).add(path.name)
    return used


def test_callers_use_only_declared_members() -> None:
    used = used_members()
    assert {"run", "select", "version", "served", "export"} <= set(used)  # the scan sees the calls
    undeclared = {member: files for member, files in used.items() if member not in MEMBERS}
    assert undeclared == {}


@pytest.mark.parametrize("implementation", [embedded.EmbeddedBackend, embedded.PinnedBuild, remote.RemoteBackend])
def test_every_backend_implements_the_protocol(implementation: type) -> None:
    for member in MEMBERS:
        assert hasattr(implementation, member), f"{implementation.__name__} lacks {member}"
        declared = getattr(protocol.Backend, member, None)
        if callable(declared):
            wanted = list(inspect.signature(declared).parameters)
            assert list(inspect.signature(getattr(implementation, member)).parameters) == wanted, member
