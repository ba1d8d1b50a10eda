"""The knowledge-base tests' 10,000-article parameter never starts a build of that size by itself: run in the slow
tier without TEST_BUILD_10K, every one of its tests is skipped with the reason, and no server starts."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.api.services.test_inception_kb import NO_BIG_BUILD

ROOT = Path(__file__).resolve().parents[3]


def test_the_slow_tier_skips_without_a_big_build(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "TEST_BUILD_10K"}
    env["TMPDIR"] = str(tmp_path)
    run = subprocess.run([sys.executable, "-m", "pytest", "-m", "slow", "-q", "-rs", "-p", "no:cacheprovider",
                          "-p", "no:xdist", "tests/api/services/test_inception_kb.py"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert " passed" not in run.stdout and " failed" not in run.stdout, run.stdout[-3000:]
    assert "skipped" in run.stdout and NO_BIG_BUILD in " ".join(run.stdout.split()), run.stdout[-3000:]
    assert not any(tmp_path.rglob("data-10000")) and not any(tmp_path.rglob("*.sqlite*"))
