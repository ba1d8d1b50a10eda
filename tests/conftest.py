"""Fixtures shared by every test folder: corpora copied to tmp dirs and builds of them; and the
tiers of the suite (`make check` runs the quick one, `make test` all but `slow`), set here from
what a test needs, so that a new test falls in its tier without a mark of its own:

- `servers`: it starts server processes (`kg serve`, `oxigraph serve`, Virtuoso, a Dask
  cluster): every test of tests/remote and tests/hardening, and elsewhere those using a fixture of
  SERVER_FIXTURES (a test that starts one in its own body carries the mark itself);
- `browser`: it drives headless Chromium (the `browser` fixture);
- `bench`: the benchmarks' own tests (tests/bench);
- `heavy`: a test of over about 5 s on a quiet machine (`--durations`), listed in HEAVY with what
  makes it so: builds of the large public corpora, the incremental builds of a generated corpus, the
  fifth-article rerun. `make test` runs them; the quick tier (`make check`) leaves them out."""

from __future__ import annotations

import fnmatch
import os
import shutil
from pathlib import Path

import pytest

from kg.pipeline.builder import build
from kg.testing import servers
from tests.helpers import BROWSER_TIMEOUT_MS, CHROMIUM, CHROMIUM_ARGS, CORPUS, TINY, settle

# a build starts a compaction of its own after compact_after incremental builds in a row: off in
# tests, whose data directories go when they end (tests/store/test_compaction.py turns it on)
os.environ.setdefault("KG_COMPACT_AFTER", "0")


@pytest.fixture(scope="session")
def shipped_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data directory holding a build of the shipped corpus (built once per session; do not modify)."""
    data = tmp_path_factory.mktemp("shipped-data")
    build(CORPUS, data)
    return data


@pytest.fixture
def corpus_copy(tmp_path: Path) -> Path:
    """A private copy of the shipped corpus that a test may edit."""
    target = tmp_path / "corpus"
    shutil.copytree(CORPUS, target, ignore=shutil.ignore_patterns("README.md"))
    settle(target)
    return target


@pytest.fixture
def tiny_copy(tmp_path: Path) -> Path:
    """A private copy of the two-document test corpus (tests/data/tiny)."""
    target = tmp_path / "tiny"
    shutil.copytree(TINY, target)
    settle(target)
    return target


@pytest.fixture(scope="session")
def browser():
    """Debian's headless Chromium through Playwright (never a downloaded browser), one per test
    process: Playwright's sync API allows a single running instance per thread.

    Missing Chromium skips the browser tests, except under CI=true, where it fails them."""
    if not CHROMIUM.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{CHROMIUM} is missing (install the Debian package chromium)")
        pytest.skip(f"{CHROMIUM} is missing: install the Debian package chromium to run the browser tests")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS,
                                      timeout=BROWSER_TIMEOUT_MS)
        yield chromium
        chromium.close()


TESTS = Path(__file__).resolve().parent
SERVER_FOLDERS = ("remote", "hardening")
SERVER_FIXTURES = frozenset({"server", "kg_endpoint", "watched", "store_server", "served", "limited", "roomy",
                             "hostile_server", "cluster", "own_cluster",
                             # kg serve of a corpus of its own, oxigraph serve, the knowledge base's server
                             "commodity", "nerel", "sanskrit", "foreign", "hostile", "kb", "oxigraph",
                             "oxigraph_endpoint"})


HEAVY = {  # node-id pattern -> what makes it heavy
    "tests/corpora/test_fifth_article.py::test_the_corpus_dependent_tests_hold_with_a_fifth_article[[]*":
        "reruns the corpus-dependent tests on the shipped corpus and a fifth article",
    "tests/corpora/test_public_corpora.py::*[[]caesar]": "checks and builds caesar, the largest public corpus",
    "tests/corpora/test_public_corpora.py::*[[]sentivent]": "builds sentivent, a public news corpus",
    "tests/corpora/test_public_corpora.py::*[[]brat-commodity-news]": "builds a public news corpus",
    "tests/corpora/test_public_corpora.py::*[[]litbank]": "builds litbank (novels)",
    "tests/corpora/test_public_corpora.py::*[[]because]": "builds a public corpus",
    "tests/formats/test_brat_compat.py::test_round_trip_through_brat_gives_the_same_graph[[]*":
        "builds a brat corpus, exports it back to brat and builds that",
    "tests/formats/test_webanno_tsv.py::test_a_real_export_as_xmi_and_as_tsv3_*": "builds a real export twice",
    "tests/formats/test_inception_warnings.py::test_a_layer_not_read_is_one_line_with_its_count":
        "checks the shared INCEpTION exports",
    "tests/formats/test_inception_warnings.py::test_like_groups_with_like_across_documents_in_check_and_build":
        "checks and builds the shared INCEpTION exports",
    "tests/formats/test_semantic_layers.py::test_the_semargs_and_role_fillers_of_an_archival_corpus_reach_the_graph":
        "builds an archival corpus",
    "tests/model/test_vocabulary_declared.py::test_the_shared_corpora_validate[[]globalise*]":
        "builds and validates the globalise exports",
    "tests/model/test_base_iri.py::test_every_iri_in_the_store_is_under_the_base*": "builds under two bases",
    "tests/model/test_base_iri.py::test_exports_and_view_name_nothing_under_the_default_base*": "builds under two bases",
    "tests/model/test_base_iri.py::test_changing_the_base_rebuilds_everything": "builds three times",
    "tests/model/test_evidence.py::test_a_previous_build_without_evidence_is_asked_in_sparql": "builds twice",
    "tests/publish/test_search_locals.py::test_corpora_rich_in_local_things[[]commodity-news]": "builds a public news corpus",
    "tests/publish/test_search_locals.py::test_corpora_rich_in_local_things[[]zh-literature]": "builds a Chinese novel",
    "tests/publish/test_search_locals.py::test_corpora_rich_in_local_things[[]keepha-ja]": "builds a Japanese corpus",
    "tests/model/test_evidence.py::test_a_full_build_keeps_the_evidence_the_store_holds[[]generated]":
        "builds a generated corpus",
    "tests/model/test_default_alignment.py::test_the_kg_toml_suggested_aligns_and_builds": "builds the shared corpora",
    "tests/model/test_default_alignment.py::test_inception_named_entities_are_aligned": "builds an INCEpTION export",
    "tests/pipeline/test_incremental.py::test_incremental_build_equals_full_build[[]*": "a full and an incremental build",
    "tests/pipeline/test_incremental.py::test_a_build_killed_mid_way_then_run_again_equals_a_full_build":
        "builds three times",
    "tests/pipeline/test_incremental.py::test_exports_after_builds_that_exported_nothing_copy_from_the_last_written_kg_nq":
        "builds and exports several times",
    "tests/pipeline/test_incremental.py::test_incremental_builds_of_a_generated_corpus_equal_a_full_build":
        "builds a generated corpus after each of several edits",
    "tests/bad_input/test_file_names.py::test_shared_corpora_with_such_names_check[[]*": "checks the shared corpora",
    "tests/publish/test_xmi_export.py::test_shipped_corpus_through_xmi_is_stable": "exports to XMI and builds it",
    "tests/viz/test_kept_view.py::test_edits_in_a_row_carry_the_delta_and_a_grown_delta_is_compacted":
        "builds after each of several edits",
    "tests/viz/test_kept_view.py::test_the_kept_view_of_a_shared_corpus_is_the_stores[[]*": "builds a shared corpus",
    "tests/viz/test_kept_view.py::test_an_incremental_build_patches_the_view_index[[]*": "builds twice",
    "tests/viz/test_view_index.py::test_the_index_of_a_store_answers_as_the_kept_one": "builds a public news corpus",
    "tests/formats/test_webanno_tsv.py::test_real_tsv3_exports_build[[]globalise]":
        "builds the globalise exports (pySHACL over their long documents)",
    "tests/formats/test_webanno_tsv.py::test_every_one_line_damage_of_an_export_is_a_located_error_or_a_document"
    "[[]testStackedComplexSlotFeatureWithoutValues]": "reads an export once per line damaged",
    "tests/corpora/test_brat_rules.py::test_kg_marks_what_brat_marks_and_builds_it[[]brat-commodity-news]":
        "checks and builds a public news corpus",
    "tests/corpora/test_public_corpora.py::*[[]ner4archives]": "checks and builds ner4archives (archival finding aids)",
    "tests/corpora/test_public_corpora.py::*[[]mimotext]": "builds mimotext",
    "tests/corpora/test_fidelity_audit.py::test_a_canonical_key_without_an_event_type_merges_nothing":
        "builds the shipped corpus under an edited alias table (every document validated again)",
    "tests/model/test_vocabulary_declared.py::test_the_shared_corpora_validate[[]senticoref]":
        "builds and validates senticoref",
    "tests/model/test_vocabulary_declared.py::test_the_shared_corpora_validate[[]ner4archives-tsv]":
        "builds and validates the ner4archives export",
    "tests/model/test_evidence.py::test_a_full_build_keeps_the_evidence_the_store_holds[[]brat-*]":
        "builds a brat example collection twice",
    "tests/model/test_default_alignment.py::test_conll_names_are_people_organizations_and_places":
        "builds a CoNLL corpus",
    "tests/publish/test_jsonld.py::*[[]ours-own-base]":
        "builds the shipped corpus under another base (every document validated again)",
    "tests/pipeline/test_unchanged_stamp.py::test_another_base_iri_is_a_full_build": "builds under two bases",
    "tests/pipeline/test_unchanged_stamp.py::test_a_change_made_after_the_scan_is_seen_by_the_next_build":
        "builds three times",
    "tests/pipeline/test_watched_builds.py::test_an_edit_in_place_that_keeps_size_and_time_is_built":
        "a watched build, an edit and a full build",
    "tests/pipeline/test_watched_builds.py::test_a_named_change_is_built_without_a_scan[[]edit]":
        "a watched build, an edit and a full build",
    "tests/pipeline/test_incremental.py::test_a_first_mention_removed_is_found_again": "builds after each of two edits",
    "tests/pipeline/test_incremental.py::test_parallel_build_equals_single_process": "builds in two ways",
    "tests/pipeline/test_report.py::test_check_and_build_print_the_same_warnings_and_strict_makes_them_errors":
        "checks and builds a corpus of warnings, then strictly",
    "tests/store/test_kept_checksums.py::test_an_incremental_build_does_not_carry_damaged_kept_files":
        "builds after each of several damages",
    "tests/api/backend/test_switch.py::test_a_request_keeps_its_build_through_a_switch":
        "builds two corpora under a held request",
    "tests/api/json_api/test_local_search.py::test_descriptions_are_local_results_and_an_incremental_build_keeps_them_right":
        "builds, edits and builds again",
    "tests/api/linked_data/test_linked_pages.py::test_every_link_of_an_entity_page_resolves":
        "follows every link of an entity page",
    "tests/api/page/test_corpus_examples.py::test_without_a_build_kg_own_examples_are_offered_and_the_corpus_is_asked_again":
        "builds a corpus under a running app",
    "tests/api/services/test_slow_tier.py::test_the_slow_tier_skips_without_a_big_build": "runs pytest in a subprocess",
    "tests/cli/test_query_command.py::test_every_name_printed_pastes_back_into_a_query": "builds two public corpora",
    "tests/formats/test_conf_warnings.py::test_the_commodity_news_corpus_builds_unedited": "builds a public news corpus",
    "tests/corpora/test_brat_rules.py::test_kg_marks_what_brat_marks_and_builds_it[[]because]": "builds a public corpus",
    "tests/pipeline/test_build.py::test_kg_validate_accepts_the_shipped_build":
        "validates the whole shipped build with pySHACL",
    "tests/pipeline/test_watched_builds.py::test_a_named_change_is_built_without_a_scan[[]add]":
        "a watched build, an addition and a full build",
    "tests/pipeline/test_watched_builds.py::test_a_named_change_is_built_without_a_scan[[]remove]":
        "a watched build, a removal and a full build",
    "tests/pipeline/test_watched_builds.py::test_what_the_watcher_cannot_vouch_for_is_scanned[[]configuration]":
        "a watched build, a new alias and a full build of every document",
    "tests/pipeline/test_watched_builds.py::test_what_the_watcher_cannot_vouch_for_is_scanned[[]new-folder]":
        "a watched build, a new folder and a full build",
    "tests/pipeline/test_incremental.py::test_a_build_records_its_phases": "a full and an incremental build",
    "tests/model/test_evidence.py::test_incremental_builds_patch_the_evidence_as_the_store_changes":
        "builds after each of several edits",
    "tests/publish/test_search_index.py::test_an_incremental_build_patches_the_index_to_the_whole_one":
        "a full and an incremental build",
    "tests/viz/test_layout.py::test_the_same_graph_gets_the_same_positions_in_every_process[[]shipped*":
        "lays out the shipped corpus in fresh processes",
}


# The files of the quick tier that take longest (`--durations`, summed per file; only an order, so
# a file renamed or gone costs time, not a failure). `make check` runs with `--dist loadfile`: a file
# runs whole on one worker, its module fixtures built once, not once per worker; these start first,
# so that the short files even out the end of the run on both workers.
LONGEST_FIRST = ("tests/publish/test_exports.py", "tests/pipeline/test_unchanged_stamp.py",
                 "tests/corpora/test_public_corpora.py", "tests/publish/test_jsonld.py",
                 "tests/formats/test_webanno_tsv.py", "tests/publish/test_search_index.py",
                 "tests/model/test_vocabulary_declared.py", "tests/suggest/test_suggest.py",
                 "tests/api/backend/test_workers.py", "tests/pipeline/test_incremental.py",
                 "tests/viz/test_kept_view.py", "tests/store/test_sparql_lexer.py", "tests/model/test_base_iri.py",
                 "tests/pipeline/test_watched_builds.py", "tests/viz/test_foreign.py",
                 "tests/corpora/test_brat_rules.py", "tests/model/test_knowledge_bases.py",
                 "tests/api/json_api/test_cached_answers.py", "tests/corpora/test_fidelity.py")


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node) -> None:
    """Tell each xdist worker how the run distributes its tests: xdist sets a worker's own `--dist`
    to `no`, and the workers' collections (sorted below) are the order the run hands out files."""
    node.workerinput["kg_dist"] = getattr(node.config.option, "dist", "no")


def _distribution(config: pytest.Config) -> str:
    """The run's `--dist` (`no` without xdist), as seen by the controller and by each worker."""
    workerinput = getattr(config, "workerinput", None)
    if workerinput is not None:
        return workerinput.get("kg_dist", "no")
    return getattr(config.option, "dist", "no")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Put each test in its tiers (the module docstring says which); with files run whole on one
    worker (`--dist loadfile`), the longest files first (stable: a file's tests keep their order)."""
    if _distribution(config) in ("loadfile", "loadscope"):
        first = {name: rank for rank, name in enumerate(LONGEST_FIRST)}
        items.sort(key=lambda item: first.get(item.nodeid.split("::", 1)[0], len(first)))
    _mark_heavy(config, items)
    for item in items:
        path = Path(str(item.path)).resolve()
        folder = path.relative_to(TESTS).parts[0] if path.is_relative_to(TESTS) else ""
        fixtures = set(getattr(item, "fixturenames", ()))
        if folder in SERVER_FOLDERS or fixtures & SERVER_FIXTURES:
            item.add_marker(pytest.mark.servers)
        if "browser" in fixtures:
            item.add_marker(pytest.mark.browser)
        if folder == "bench":
            item.add_marker(pytest.mark.bench)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):
    """A test without the `servers` mark that starts a server process (kg.testing.servers.Process:
    `kg serve`, a SPARQL server, a Dask cluster), in its body or in a fixture it sets up, fails
    saying so: the quick tier leaves out the tests of servers by that mark, so that one not marked
    would slip into it unseen. Name its fixture in SERVER_FIXTURES, or mark the test."""
    if item.get_closest_marker("servers") is not None:
        return (yield)
    real = servers.Process.__init__

    def unmarked(process: servers.Process, argv: list, **kwargs) -> None:
        pytest.fail(f"{item.nodeid} starts a server process ({' '.join(map(str, argv[:3]))} ...) without "
                    "the servers mark (tests/conftest.py SERVER_FIXTURES)", pytrace=False)

    servers.Process.__init__ = unmarked
    try:
        return (yield)
    finally:
        servers.Process.__init__ = real


def _mark_heavy(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests HEAVY names; when the whole suite is collected, a pattern that names no test
    (a test renamed or gone) is an error, so that the table cannot go stale unseen."""
    unmatched = set(HEAVY)
    for item in items:
        for pattern in HEAVY:
            if fnmatch.fnmatchcase(item.nodeid, pattern):
                item.add_marker(pytest.mark.heavy)
                unmatched.discard(pattern)
    whole = not config.option.keyword and [Path(a).resolve() for a in config.args] in ([], [TESTS])
    if whole and unmatched:
        raise pytest.UsageError("tests/conftest.py HEAVY names no collected test: " + ", ".join(sorted(unmatched)))
