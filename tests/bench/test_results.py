"""Judging the targets of issues 5 and 13 and rendering the tables from measured figures."""

from __future__ import annotations

import pytest

from benchmarks.measuring import report
from benchmarks.measuring.results import GIB, SizeResult, Step, exponent, loop_verdicts, verdicts


def _size(docs: int, build: float, floor: float, export: float, dump: float, peak: int, noop: float) -> SizeResult:
    result = SizeResult(docs, quads=docs * 800)
    result.steps = {
        "build": Step(build, peak, {"summary": "full build"}, cpu=build * 1.5),
        "bulk_load": Step(floor, 10 * 2**20),
        "kg_turtle": Step(export, 10 * 2**20, {"bytes": docs * 50_000}),
        "oxigraph_dump": Step(dump, 10 * 2**20),
        "noop": Step(noop, 2**20, {"summary": "nothing to do: 10 documents unchanged"}),
        "rdflib": Step(1.0 * docs, GIB, {"parse_seconds": 0.5 * docs, "serialize_seconds": 0.5 * docs},
                       projected=True, note="not run: projected"),
    }
    return result


def test_exponent_of_power_laws() -> None:
    assert exponent(100, 2.0, 1000, 20.0) == pytest.approx(1.0)
    assert exponent(100, 1.0, 1000, 100.0) == pytest.approx(2.0)
    assert exponent(100, None, 1000, 3.0) is None


def test_targets_met() -> None:
    results = [_size(1000, 20, 12, 3, 2, GIB, 0.2), _size(10_000, 200, 110, 30, 20, GIB, 0.5)]
    judged = verdicts(results)
    assert all(v.met for v in judged), judged
    assert [v.figures for v in judged][:4] == ["1.82x", "1.00 GiB", "1.50x", "0.50 s"]
    assert judged[4].figures == "build ~ N^1.00, kg_turtle ~ N^1.00"


def test_targets_missed_say_by_how_much() -> None:
    results = [_size(1000, 20, 5, 3, 0.5, GIB, 0.2), _size(10_000, 400, 50, 40, 5, 3 * GIB, 4.0)]
    judged = verdicts(results)
    assert [v.met for v in judged] == [False, False, False, False, False]
    assert [v.figures for v in judged][:4] == ["8.00x, 4.00x the target", "3.00 GiB, 1.50x the target",
                                                 "8.00x, 2.67x the target", "4.00 s, 4.00x the target"]
    assert "build ~ N^1.30" in judged[4].figures


def test_unmeasured_targets_are_not_judged() -> None:
    result = SizeResult(100)
    result.steps["build"] = Step(note="exit 2: error")
    judged = verdicts([result])
    assert {v.met for v in judged} == {None}


def test_report_shows_each_size_projection_and_verdict() -> None:
    results = [_size(1000, 20, 12, 3, 2, GIB, 0.2), _size(10_000, 200, 110, 30, 20, GIB, 0.5)]
    text = report.render({"date": "today", "cores": "2"}, results, [("Endpoint", "| q | ms |")], "run.py")
    assert "| 10,000 | 8,000,000 | 200 s | 300 s | 1.00 GiB | 40,000 | 110 s |" in text
    assert "~5,000 s (projected)" in text
    assert "says nothing to do" in text
    issue_5 = text.split("## Targets of the annotation loop")[0]
    assert issue_5.count(": met (") == 5
    assert "## Endpoint\n\n| q | ms |" in text


def test_report_notes_failures_and_warnings_and_shortens_rebuild_summaries() -> None:
    result = _size(100, 20, 12, 3, 2, GIB, 30.0)
    result.steps["noop"].detail = {"summary": "full build: 100 documents; 80786 quads, in 30 s -> /x",
                                   "warning": "kg's code changed"}
    result.steps["edit"] = Step(note="exit 2: corpus/x.ann:3: bad line")
    text = report.render({"date": "today"}, [result], [], "run.py")
    assert "| 100 | 30.0 s | full build: 100 documents | – (exit 2: corpus/x.ann:3: bad line) / – (not run) |" in text
    assert "- 100 documents, noop: kg's code changed" in text
    assert "- 100 documents, edit: exit 2: corpus/x.ann:3: bad line" in text
    assert "rdflib: not run: projected" not in text


def test_loop_targets_say_by_how_much_they_are_missed_and_what_was_not_run() -> None:
    result = _size(1000, 20, 5, 3, 2, GIB, 0.2)
    result.steps["edit_queryable"] = Step(2.0, GIB)
    judged = {v.target: v for v in loop_verdicts([result])}
    build = judged["full build of 1,000 documents within 2.5x the bulk-load floor"]
    assert (build.met, build.figures) == (False, "4.00x, 1.60x the target")
    edit = judged["edit one of 1,000 documents until a query sees it under 3 s"]
    assert (edit.met, edit.figures) == (True, "2.00 s")
    at_10k = [v for target, v in judged.items() if "10,000" in target]
    assert len(at_10k) == 5 and {v.met for v in at_10k} == {None}


def test_two_cores_against_one_is_judged_at_10000() -> None:
    result = _size(10_000, 100, 50, 30, 20, GIB, 0.3)
    result.steps["build_1core"] = Step(150.0, GIB)
    judged = {v.target: v for v in loop_verdicts([result])}
    cores = judged["a build of 10,000 documents on 2 cores at least 1.6x faster than on 1"]
    assert (cores.met, cores.figures) == (False, "1.50x, 0.94x the target")


def test_readme_table_comes_from_the_run_and_replaces_the_previous_one() -> None:
    results = [_size(1000, 20, 12, 3, 2, GIB, 0.2), _size(10_000, 200, 110, 30, 20, GIB, 0.5)]
    machine = {"date": "2026-01-02 03:04 UTC", "cores": "2 usable (2 online)", "load average": "1.50 1.00 0.50 (...)"}
    block = report.readme_table(machine, results, "python benchmarks/run.py")
    assert "| 10,000 | 8,000,000 | 200 s | 110 s | 1.8x |" in block
    readme = "# kg\n\n## Benchmarks\n\nProse.\n\n## Development\n\nMore.\n"
    once = report.replace_readme_table(readme, block)
    assert once.index("Prose.") < once.index(report.README_START) < once.index("## Development")
    again = report.replace_readme_table(once, block.replace("200 s", "190 s"))
    assert again.count(report.README_START) == 1 and "190 s" in again and "| 200 s |" not in again
    assert again.endswith("## Development\n\nMore.\n")


def test_a_size_above_the_full_steps_says_what_it_skipped_and_its_disk_per_article() -> None:
    from benchmarks.run import FULL_STEPS_UP_TO, skip

    result = _size(100_000, 2000, 1100, 30, 20, 4 * GIB, 0.8)
    result.steps["build"].detail["disk_bytes"] = 100_000 * 300 * 2**10
    skip(result, ("build_1core", "kg_turtle"))
    assert result.steps["kg_turtle"].skipped and not result.steps["kg_turtle"].ok
    text = report.render({"date": "today", "cores": "2"}, [result], [], "run.py --sizes 100000")
    assert f"– (not run above {FULL_STEPS_UP_TO:,} articles)" in text
    assert "| 300 KiB |" in text
    judged = {v.target: v for v in loop_verdicts([result])}
    assert judged["no-op rebuild of 100,000 documents under 1 s"].met is True


def test_the_watched_loop_is_judged_and_tabled_with_the_watchers_build_time() -> None:
    from benchmarks.measuring.results import scale_verdicts

    result = _size(10_000, 100, 50, 30, 20, GIB, 0.3)
    result.steps["noop_watched"] = Step(0.25, 2**20)
    result.steps["edit_watched"] = Step(6.5, detail={"build_seconds": 4.25})
    result.steps["add_watched"] = Step(3.0, detail={"build_seconds": 2.0})
    result.steps["remove_watched"] = Step(note="the server did not see the change within 120 s")
    judged = {v.target: v for v in scale_verdicts([result])}
    noop = judged["no-op rebuild of 10,000 documents under 0.5 s, told by `kg serve --watch`"]
    assert (noop.met, noop.figures) == (True, "0.25 s")
    edit = judged["edit one of 10,000 documents until `kg serve --watch` answers from it under 5 s"]
    assert (edit.met, edit.figures) == (False, "6.50 s, 1.30x the target")
    assert judged["edit one of 1,000 documents until `kg serve --watch` answers from it under 3 s"].met is None
    text = report.render({"date": "today", "cores": "2"}, [result], [], "run.py")
    assert ("| 10,000 | 0.25 s | 6.50 s (build 4.25 s) | 3.00 s (build 2.00 s) | – (the server did not see "
            "the change within 120 s) |") in text
