"""A full build loaded into a remote store by the engine's own bulk loader, from the build's kg.nq.

- Oxigraph (`oxigraph serve`): the N-Quads streamed in one POST to its Graph Store endpoint with
  `no_transaction`, which hands the body to Oxigraph's bulk loader (not atomic; kg's manifest
  says the store holds no complete build until it is done).
- Virtuoso: its bulk loader (`ld_dir`, `rdf_loader_run`, `checkpoint`) run through its SQL port
  (the store_isql setting, with `isql`), reading kg.nq where the build wrote it: the server must
  see the data directory at the same path and be allowed to read it (DirsAllowed in the
  [Parameters] section of virtuoso.ini). When it cannot (no SQL port given, no isql here, the
  directory not allowed, or another file at that path there), the graphs go one by one over
  HTTP as before, with a warning saying why.

The graphs kg wrote before are dropped first (batched SPARQL Update), since both loaders add.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import warnings
from pathlib import Path
from typing import Callable, Iterable

from kg.errors import StoreError
from kg.store.remote.store import RemoteStore

DROPS_PER_REQUEST = 200  # Virtuoso refuses requests of ~700 operations
LOAD_SECONDS = 24 * 3600.0  # a bulk load answers only once the whole file is in
ISQL_BINARIES = ("isql-vt", "isql")
_DEFAULT_GRAPH = "urn:kg:bulk-load-default"  # kg.nq has no triple outside a named graph


def bulk_loader(remote: RemoteStore, nquads: Path, isql: str = "", user: str = "", password: str = "") \
        -> Callable[[], None] | None:
    """A function loading `nquads` with the engine's bulk loader, or None when the engine has
    none kg can use on that file (then a push goes graph by graph)."""
    if remote.engine.bulk == "post":
        return lambda: post_dataset(remote, nquads)
    if remote.engine.bulk != "isql":
        return None
    why_not = _isql_unusable(isql)
    loader = None if why_not else VirtuosoLoader(isql, user or "dba", password or "dba")
    why_not = why_not or loader.sees(nquads)
    if why_not:
        if isql:  # asked for, and not possible: said; not asked for: the push as before
            warnings.warn(f"Virtuoso's bulk loader not used ({why_not}): the graphs go one by one over HTTP "
                          "(the server must read the data directory at the same path: add it to DirsAllowed "
                          "in virtuoso.ini)", stacklevel=2)
        return None
    return lambda: loader(nquads)


def drop_graphs(remote: RemoteStore, graphs: Iterable[str]) -> None:
    """Drop named graphs, many per SPARQL Update request."""
    names = sorted(graphs)
    for start in range(0, len(names), DROPS_PER_REQUEST):
        remote.update(" ;\n".join(f"DROP SILENT GRAPH <{g}>" for g in names[start:start + DROPS_PER_REQUEST]))


def post_dataset(remote: RemoteStore, nquads: Path) -> None:
    """Stream an N-Quads file into Oxigraph's bulk loader: POST to its store endpoint, no transaction."""
    remote.http.limit_time(LOAD_SECONDS)
    try:
        with open(nquads, "rb") as body:
            remote.write_dataset(body, params={"no_transaction": ""})
    finally:
        remote.http.limit_time(0)


def _isql_unusable(isql: str) -> str:
    if not isql:
        return "no SQL port given (KG_STORE_ISQL)"
    if not _isql_binary():
        return f"none of {', '.join(ISQL_BINARIES)} is installed here"
    return ""


def _isql_binary() -> str:
    return next((path for name in ISQL_BINARIES if (path := shutil.which(name))), "")


class VirtuosoLoader:
    """Virtuoso's bulk loader, driven through its SQL port by `isql`."""

    def __init__(self, address: str, user: str, password: str) -> None:
        self.address, self.user, self.password = address, user, password

    def __call__(self, nquads: Path) -> None:
        """Load `nquads`: ld_dir, rdf_loader_run, checkpoint; StoreError with Virtuoso's words
        when a step fails or the loader records an error for the file."""
        path = str(Path(nquads).absolute())
        name = _sql_string(path)
        self.sql(f"DELETE FROM DB.DBA.LOAD_LIST WHERE ll_file = {name};\n"
                 f"ld_dir({_sql_string(str(Path(path).parent))}, {_sql_string(Path(path).name)}, "
                 f"{_sql_string(_DEFAULT_GRAPH)});\nrdf_loader_run();\n"
                 f"SELECT 'kg-load-error:' || coalesce(ll_error, '') FROM DB.DBA.LOAD_LIST WHERE ll_file = {name};\n"
                 "checkpoint;")

    def sees(self, nquads: Path) -> str:
        """Why the server cannot read `nquads` as this machine sees it (empty: it can)."""
        path = str(Path(nquads).absolute())
        try:
            output = self.sql(f"SELECT 'kg-size:' || cast(file_stat({_sql_string(path)}, 1) AS VARCHAR);")
        except StoreError as exc:
            return str(exc)
        found = re.search(r"kg-size:(\d+)", output)
        if not found or int(found.group(1)) != Path(path).stat().st_size:
            return f"the server finds another file at {path}"
        return ""

    def sql(self, statements: str) -> str:
        done = subprocess.run([_isql_binary(), self.address, self.user, self.password],
                              input=statements + "\n", capture_output=True, text=True, timeout=LOAD_SECONDS)
        output = done.stdout + done.stderr
        errors = re.findall(r"\*\*\* Error.*|kg-load-error:(.+)", output)
        if done.returncode != 0 or "*** Error" in output or any(e.strip() for e in errors if e):
            raise StoreError(f"Virtuoso's SQL port {self.address}: " + _first_error(output))
        return output


def _first_error(output: str) -> str:
    lines = [line for line in output.splitlines() if "Error" in line or "kg-load-error:" in line]
    return (lines[0] if lines else output.strip()[-500:]).strip()


def _sql_string(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"
