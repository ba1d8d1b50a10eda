"""build_dirs.prune keeps the current build and the one finished before it, however the data directory
is named (relative, absolute, through a symbolic link), and whatever a server wrote into an older build
since (issue 41: a relative data directory compared with the resolved current build pruned the current
build by age once a server had written an export into the previous one, and kept one build, not two)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from kg.store import build_dirs


def _finished_build(data: Path, name: str, finished: float) -> Path:
    """A build directory with a manifest written at `finished` (seconds since the epoch)."""
    build = data / build_dirs.BUILDS_DIR / name
    build.mkdir(parents=True)
    manifest = build / build_dirs.MANIFEST_FILE
    manifest.write_text("{}")
    os.utime(manifest, (finished, finished))
    os.utime(build, (finished, finished))
    return build


def _data_dir(tmp_path: Path) -> tuple[Path, list[Path]]:
    """Three finished builds, the newest current, the oldest written into (an export) after all."""
    data = tmp_path / "real" / "data"
    start = time.time() - 3600
    builds = [_finished_build(data, f"2024010{n}T000000-1-0", start + 60 * n) for n in range(3)]
    os.symlink(os.path.relpath(builds[-1], data), data / build_dirs.CURRENT)
    (builds[0] / "kg.ttl").write_text("")  # a server's export: the directory's time is now the newest
    (builds[1] / "kg.ttl").write_text("")
    return data, builds


@pytest.mark.parametrize("spelling", ["relative", "absolute", "link", "relative link", "dotted"])
def test_prune_keeps_the_current_build_and_the_one_before(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          spelling: str) -> None:
    data, (oldest, previous, current) = _data_dir(tmp_path)
    (tmp_path / "link").symlink_to(data)
    monkeypatch.chdir(tmp_path)
    named = {"relative": Path("real/data"), "absolute": data, "link": tmp_path / "link",
             "relative link": Path("link"), "dotted": Path("real/../real/./data")}[spelling]
    build_dirs.prune(named)
    assert build_dirs.current_build(named) == current.resolve()
    assert sorted(p.name for p in (data / build_dirs.BUILDS_DIR).iterdir()) == [previous.name, current.name]
    assert not oldest.exists()


def test_prune_orders_builds_by_when_they_were_finished(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The build written into last (its directory newest) is the oldest finished: it goes first."""
    data, (oldest, previous, current) = _data_dir(tmp_path)
    os.utime(oldest, None)
    monkeypatch.chdir(data.parent)
    build_dirs.prune(Path("data"), keep=1)
    assert sorted(p.name for p in (data / build_dirs.BUILDS_DIR).iterdir()) == [current.name]


def _gone_soon(path: Path, seconds: float = 30.0) -> bool:
    deadline = time.monotonic() + seconds
    while path.exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    return not path.exists()


def test_prune_moves_old_builds_out_of_builds_at_once_and_deletes_them(tmp_path: Path) -> None:
    """The cleanup renames a stale build away from builds/ before it returns (a listing of builds/ is
    right at once) and leaves nothing of it once its deleting process has ended."""
    data, (oldest, previous, current) = _data_dir(tmp_path)
    (oldest / "store").mkdir()
    for n in range(50):
        (oldest / "store" / f"{n:06d}.sst").write_bytes(b"x" * 1000)
    build_dirs.prune(data)
    assert sorted(p.name for p in (data / build_dirs.BUILDS_DIR).iterdir()) == [previous.name, current.name]
    assert _gone_soon(data / build_dirs.REMOVING_DIR / f"{oldest.name}.{os.getpid()}")
    assert previous.is_dir() and current.is_dir()


def test_a_deletion_killed_midway_is_finished_by_the_next_cleanup(tmp_path: Path) -> None:
    """What a deleting process killed midway left under the data directory goes at the next cleanup;
    the builds kept are untouched."""
    data, (_, previous, current) = _data_dir(tmp_path)
    build_dirs.prune(data, wait=True)
    left = data / build_dirs.REMOVING_DIR / "20240100T000000-1-0.4242"
    (left / "store").mkdir(parents=True)
    (left / "store" / "000001.sst").write_bytes(b"x")
    build_dirs.prune(data)
    assert _gone_soon(left)
    assert sorted(p.name for p in (data / build_dirs.BUILDS_DIR).iterdir()) == [previous.name, current.name]
    assert (current / build_dirs.MANIFEST_FILE).is_file()
