"""The Dask cluster a build reads on: the workers of a running scheduler (tcp://HOST:8786), or N
worker processes started here for the build (local:N), and a check that every worker sees what
the build needs before it starts."""

from __future__ import annotations

import logging
import secrets
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

from kg.errors import ClusterError, SettingError
from kg.model import iris
from kg.pipeline.cluster import tasks

if TYPE_CHECKING:
    from distributed import Client

LOCAL = "local:"
CONNECT_SECONDS = 20  # to reach the scheduler, and to wait for its first worker
PROBE_FILE = ".cluster-probe"


@contextmanager
def connected(address: str) -> Iterator[Client]:
    """A client of the cluster at `address`, with at least one worker; a local cluster is stopped
    at the end, a remote scheduler and its workers are left running."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise SettingError("--cluster needs Dask distributed (pip install 'brat-kg[cluster]')") from None
    cluster = None
    quiet = _quiet_client_logs()
    try:
        if address.startswith(LOCAL):
            cluster = LocalCluster(n_workers=_local_workers(address), threads_per_worker=1, processes=True,
                                   host="127.0.0.1", dashboard_address="127.0.0.1:0", silence_logs=logging.ERROR)
            client = Client(cluster)
        else:
            client = Client(_scheduler_url(address), timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError) as exc:
        if cluster is not None:
            cluster.close()
        quiet.close()
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    try:
        _wait_for_a_worker(client, address)
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
        quiet.close()


def _quiet_client_logs() -> ExitStack:
    """distributed logs a lost scheduler as tracebacks while it tries to reconnect: the build says
    what happened itself (ClusterError). Undone by closing the stack."""
    stack = ExitStack()
    names = ["distributed", *(n for n in logging.root.manager.loggerDict if n.startswith("distributed."))]
    for logger in map(logging.getLogger, names):  # distributed's configuration sets some levels of its own
        stack.callback(logger.setLevel, logger.level)
        logger.setLevel(logging.CRITICAL)
    return stack


def _local_workers(address: str) -> int:
    count = address[len(LOCAL):]
    if not count.isdigit() or not 1 <= int(count) <= 256:
        raise SettingError(f"cluster {address!r}: expected local:N with N from 1 to 256")
    return int(count)


def _scheduler_url(address: str) -> str:
    if "://" not in address:
        raise SettingError(f"cluster {address!r}: expected a scheduler address such as tcp://HOST:8786, or local:N")
    return address


def _wait_for_a_worker(client: Client, address: str) -> None:
    try:
        client.wait_for_workers(1, timeout=CONNECT_SECONDS)
    except TimeoutError:
        raise ClusterError(f"no Dask worker joined the scheduler at {address} within {CONNECT_SECONDS} s "
                           f"(start some with `dask worker {address}`)") from None


def threads(client: Client) -> int:
    """Tasks the cluster runs at once: its workers' threads."""
    return sum(w["nthreads"] for w in client.scheduler_info(n_workers=-1)["workers"].values()) or 1


def dashboard(client: Client) -> str:
    """The Dask dashboard's address, or why there is none."""
    link = client.dashboard_link if "dashboard" in client.scheduler_info(n_workers=-1).get("services", {}) else ""
    return f"Dask dashboard: {link}" if link else "Dask dashboard: none (the scheduler runs without one)"


def check_workers(client: Client, corpus_file: Path | None, build_dir: Path, code: str) -> None:
    """Exit 2 (SettingError) naming every worker that does not see the corpus or the build
    directory at the paths this machine sees them, cannot write there, or runs other kg code."""
    probe = build_dir / PROBE_FILE
    token = secrets.token_hex(16)
    probe.write_text(token)
    try:
        corpus = (str(corpus_file), corpus_file.stat().st_size) if corpus_file else ("", 0)
        answers = client.run(tasks.sees, *corpus, str(probe), token, code, iris.current().base, on_error="return")
    finally:
        probe.unlink()
    names = {address: w.get("name", address) for address, w in client.scheduler_info(n_workers=-1)["workers"].items()}
    blind = {address: what if isinstance(what, list) else [f"its check failed: {what!r}"]
             for address, what in answers.items()}
    lines = [f"worker {names.get(a, a)} ({a}) does not see {'; '.join(what)}" for a, what in sorted(blind.items()) if what]
    if lines:
        raise SettingError("\n".join(lines) + "\n(expected the corpus and data directories on a file system every "
                           "worker mounts at the same path, and the same kg installed on every worker)")
