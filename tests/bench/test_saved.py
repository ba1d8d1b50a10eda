"""What a benchmark run saves as each size ends, and when `run.py --resume` may continue it."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from benchmarks.corpus.check import Shape
from benchmarks.measuring import report
from benchmarks.measuring.results import SizeResult, Step, scale_verdicts, view_verdicts
from benchmarks.measuring.saved import STATE_FILE, CannotResume, SavedRun, saved_form, size_result

CODE = {"commit": "a" * 40, "changes": ""}
SETTINGS = {"seed": 1, "full_steps_up_to": 10_000}


def _measured(docs: int) -> SizeResult:
    result = SizeResult(docs, generate_seconds=0.5, quads=docs * 900, problems=0,
                        shape=Shape(docs, docs * 2300, Counter({"T": 30 * docs}), Counter({"Person": 9 * docs}),
                                    Counter({"anna lind": 3, "ö": 1})))
    result.steps["build"] = Step(12.5, 3 * 2**30, {"summary": "full build", "phases": {"read": 9.0}}, cpu=20.0)
    result.steps["rdflib"] = Step(300.0, 2**34, {"parse_seconds": 300.0}, projected=True, note="not run: projected")
    result.steps["build_1core"] = Step(note="not run above 10,000 articles", skipped=True)
    result.companions = [("Endpoint under load", "| a | b |\n|---:|---:|\n| 1 | 2 |")]
    result.view = {"articles": docs, "graph": 1.2, "expand": 0.8, "memory_mib": 140.5}
    return result


def test_a_size_saved_reads_back_the_same(tmp_path: Path) -> None:
    saved = SavedRun.start(tmp_path, CODE, SETTINGS, "python benchmarks/run.py", {"load average": "3.1 2 1"}, False)
    saved.size_done(_measured(100))
    again = SavedRun.load(tmp_path / STATE_FILE)
    assert again.results((100, 1000)) == [_measured(100)]
    assert json.loads(json.dumps(saved_form(_measured(20)))) == saved_form(_measured(20))
    assert size_result(saved_form(_measured(20))).shape.top_share() == _measured(20).shape.top_share()


def test_a_resumed_run_continues_the_saved_one_and_says_when_each_part_ran(tmp_path: Path) -> None:
    first = SavedRun.start(tmp_path, CODE, SETTINGS, "python benchmarks/run.py --sizes 100,1000",
                           {"load average": "3.10 2.00 1.00"}, False)
    first.size_done(_measured(100))
    second = SavedRun.start(tmp_path, CODE, SETTINGS, "python benchmarks/run.py --sizes 100,1000 --resume",
                            {"load average": "7.50 6.00 5.00"}, True)
    assert [r.docs for r in second.results((100, 1000))] == [100]
    second.size_done(_measured(1000))
    second.finish()
    header = second.header()
    assert header.startswith("Resumed: this run was made in 2 parts on the same code (aaaaaaaaaaaa)")
    lines = header.splitlines()[1:]
    assert "part 1: `python benchmarks/run.py --sizes 100,1000`" in lines[0] and "its end (killed" in lines[0]
    assert "sizes measured: 100;" in lines[0] and "load average 3.10" in lines[0]
    assert "sizes measured: 1,000;" in lines[1] and "load average 7.50" in lines[1] and "killed" not in lines[1]
    # a run without --resume starts again
    fresh = SavedRun.start(tmp_path, CODE, SETTINGS, "python benchmarks/run.py", {}, False)
    assert fresh.results((100, 1000)) == [] and fresh.header() == ""


def test_resuming_on_other_code_or_options_is_refused(tmp_path: Path) -> None:
    SavedRun.start(tmp_path, CODE, SETTINGS, "run.py", {}, False).size_done(_measured(100))
    with pytest.raises(CannotResume, match=r"measured on commit aaaaaaaaaaaa, and this checkout is at bbbbbbbbbbbb: "
                                           r"a resumed run must measure the same code"):
        SavedRun.start(tmp_path, {"commit": "b" * 40, "changes": ""}, SETTINGS, "run.py --resume", {}, True)
    with pytest.raises(CannotResume, match="at aaaaaaaaaaaa with uncommitted changes"):
        SavedRun.start(tmp_path, {"commit": "a" * 40, "changes": "0f"}, SETTINGS, "run.py --resume", {}, True)
    with pytest.raises(CannotResume, match=r"measured with --seed 1 \(now 2\)"):
        SavedRun.start(tmp_path, CODE, {**SETTINGS, "seed": 2}, "run.py --resume", {}, True)
    assert [r.docs for r in SavedRun.load(tmp_path / STATE_FILE).results((100,))] == [100]  # left as it was


def test_the_view_targets_are_judged_at_the_sizes_the_issue_names() -> None:
    small, big = _measured(10_000), _measured(100_000)
    big.view = {"graph": 1.5, "edit_graph": 2.5, "neighbours": 0.3, "viz": 4.0, "first_frame": 0.6,
                "search": 0.2, "expand": 1.1, "memory_mib": 620.0}
    lines = [report.verdict_line(v) for v in view_verdicts([small, big])]
    assert "- `/graph`, first request of a fresh build at 10,000 documents within 2 s: met (1.20 s)" in lines
    assert "- Chromium: expand a node at 10,000 documents within 0.3 s: **missed** (0.80 s, 2.67x the target)" in lines
    assert "- `kg viz` at 10,000 documents within 5 s: not measured" in lines
    assert "- `/graph` after a one-article edit, first request at 100,000 documents within 2 s: **missed** " \
           "(2.50 s, 1.25x the target)" in lines
    assert "- the server's memory for the view (resident set) at 100,000 documents within 500 MiB: **missed** " \
           "(620.00 MiB, 1.24x the target)" in lines
    assert len(lines) == 7 + 8  # the memory is judged at 100,000 alone
    assert all(v.met is None for v in view_verdicts([]))


def test_exports_not_run_say_why_in_the_targets() -> None:
    result = SizeResult(100_000)
    result.steps["export_ttl_incremental"] = Step(note="not run: it would first write the incremental build's "
                                                       "kg.nq beside the build", skipped=True)
    exports = [v for v in scale_verdicts([result]) if "four exports" in v.target]
    assert report.verdict_line(exports[0]).endswith("not measured (not run: it would first write the incremental "
                                                    "build's kg.nq beside the build)")
