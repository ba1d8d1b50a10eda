"""SPARQL servers to try a remote store on, for tests and benchmarks: a stock `oxigraph serve`
and a Virtuoso 7 (Debian's virtuoso-opensource), each in its own directory on free loopback
ports, up in a few seconds, stopped with their process group.

`url` is what a user gives `--store`; restarting keeps the data (same directory). A start that
fails (the process exits, misses its deadline, or its set-up fails) stops what it started before
it raises, so no server outlives a failed fixture."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import requests

from kg.testing.servers import Process, ServerDown, free_port, hiding

# Seconds a server may take to answer: Virtuoso came up in 21 s at a load average of 49 on 2 cores,
# and once took 92 s; a server that dies at start fails at once, whatever the deadline.
START_TIMEOUT = 300.0
VIRTUOSO = "virtuoso-t"
VIRTUOSO_ISQL = "isql-vt"
VIRTUOSO_ADMIN = ("dba", "dba")  # the password of a fresh database; the server listens on 127.0.0.1 only
# SPARQL update for the anonymous "SPARQL" account, as Virtuoso's documentation says, so that
# /sparql-graph-crud accepts PUT and DELETE; dba reaches the digest-authenticated endpoints.
VIRTUOSO_GRANTS = ('GRANT SPARQL_UPDATE TO "SPARQL";\n'
                   "DB.DBA.RDF_DEFAULT_USER_PERMS_SET ('nobody', 7);")
VIRTUOSO_INI = """[Database]
DatabaseFile = {dir}/virtuoso.db
ErrorLogFile = {dir}/virtuoso.log
LockFile = {dir}/virtuoso.lck
TransactionFile = {dir}/virtuoso.trx
xa_persistent_file = {dir}/virtuoso.pxa
ErrorLogLevel = 7
FileExtend = 200
Striping = 0
[TempDatabase]
DatabaseFile = {dir}/virtuoso-temp.db
TransactionFile = {dir}/virtuoso-temp.trx
[Parameters]
ServerPort = 127.0.0.1:{isql}
DisableUnixSocket = 1
CheckpointInterval = 0
NumberOfBuffers = 10000
MaxDirtyBuffers = 6000
DirsAllowed = {dirs_allowed}
ThreadsPerQuery = 2
MaxQueryMem = 500M
[HTTPServer]
ServerPort = 127.0.0.1:{http}
ServerRoot = {dir}
ServerThreads = 10
MaxClientConnections = 10
Charset = UTF-8
[SPARQL]
ResultSetMaxRows = 1000000
MaxQueryExecutionTime = 30
MaxQueryCostEstimationTime = 0
"""


def oxigraph_binary() -> str:
    path = Path(sys.executable).parent / "oxigraph"
    return str(path) if path.exists() else (shutil.which("oxigraph") or "")


def virtuoso_binary() -> str:
    return shutil.which(VIRTUOSO) or ""


class StoreServer:
    """A SPARQL server process that can be stopped and started again on the same data."""

    name = ""
    probe = ""  # path answering a GET once the server is up
    start_timeout = START_TIMEOUT

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self.port = free_port()
        self.process: Process | None = None
        self.start()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        raise NotImplementedError

    def argv(self) -> list[str]:
        raise NotImplementedError

    def start(self) -> None:
        """Start the server and wait until it answers and is set up; stopped again if it is not."""
        with open(self.directory / f"{self.name}.out", "ab") as log:  # the child keeps its own copy
            self.process = Process(self.argv(), stdout=log, stderr=subprocess.STDOUT, cwd=str(self.directory))
        try:
            self._wait()
            self.ready()
        except BaseException:
            self.stop()
            raise

    def ready(self) -> None:
        """Set-up once the server answers."""

    def stop(self) -> None:
        if self.process:
            self.process.stop()
            self.process = None

    def _wait(self) -> None:
        deadline = time.monotonic() + self.start_timeout
        while time.monotonic() < deadline:
            if self.process.process.poll() is not None:
                raise ServerDown(f"{self.name} exited at start: see {self.directory}")
            try:
                requests.get(self.base + self.probe, params={"query": "ASK {}"}, timeout=2)
                return
            except requests.RequestException:
                time.sleep(0.1)
        raise ServerDown(f"{self.name} did not start within {self.start_timeout:g} s")


class OxigraphServer(StoreServer):
    """`oxigraph serve` (read-write, on disk)."""

    name = "oxigraph"
    probe = "/query"

    @property
    def url(self) -> str:
        return self.base

    def argv(self) -> list[str]:
        return [oxigraph_binary(), "serve", "--location", str(self.directory / "db"), "--bind",
                f"127.0.0.1:{self.port}"]


class VirtuosoServer(StoreServer):
    """`virtuoso-t` in the foreground with a virtuoso.ini of its own directory."""

    name = "virtuoso"
    probe = "/sparql"

    def __init__(self, directory: Path, reads: Path | None = None, hide: Path | None = None) -> None:
        """`reads`: a directory the server may read files from besides its own (DirsAllowed), e.g. a
        data directory whose builds it bulk-loads; `hide`: a directory it does not see at all, as
        a server on another machine (kg.testing.servers.hiding)."""
        self.isql_port = free_port()
        self.reads = reads
        self.hide = hide
        super().__init__(directory)

    @property
    def isql_address(self) -> str:
        """Its SQL port, as isql and kg's store_isql setting take it."""
        return f"127.0.0.1:{self.isql_port}"

    @property
    def url(self) -> str:
        return self.base + "/sparql"

    def argv(self) -> list[str]:
        ini = self.directory / "virtuoso.ini"
        allowed = ", ".join([".", *([str(self.reads)] if self.reads else [])])
        ini.write_text(VIRTUOSO_INI.format(dir=self.directory, isql=self.isql_port, http=self.port,
                                           dirs_allowed=allowed))
        return hiding(self.hide, [virtuoso_binary(), "+foreground", "+configfile", str(ini)])

    def ready(self) -> None:
        granted = self.directory / "granted"
        if not granted.exists():  # kept in the database across restarts
            self.isql(VIRTUOSO_GRANTS)
            granted.touch()

    def isql(self, statements: str, timeout: float = 60.0) -> str:
        """Run SQL as the administrator of this throwaway database (its well-known default
        password, on 127.0.0.1 only); fails loudly when a statement fails."""
        user, password = VIRTUOSO_ADMIN
        done = subprocess.run([VIRTUOSO_ISQL, f"127.0.0.1:{self.isql_port}", user, password],
                              input=statements + "\n", capture_output=True, text=True, timeout=timeout)
        output = done.stdout + done.stderr
        if done.returncode != 0 or "*** Error" in output:
            raise ServerDown(f"isql failed: {output[-2000:]}")
        return output


ENGINES = {"oxigraph": (OxigraphServer, oxigraph_binary), "virtuoso": (VirtuosoServer, virtuoso_binary)}
