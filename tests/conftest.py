"""Shared fixtures: the default ruleset is loaded once per session (it is immutable)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import os
import shutil
import tempfile
import atexit

import pytest
import yaml
from hypothesis import settings

import rulekit
from rulekit.resources import cases_dir

DATA = Path(__file__).parent / "data"

# Every record a test writes is sealed with a key of the test run, never the user's
# (~/.config/rulekit/record.key): set before any test, so CLI subprocesses inherit it too.
_KEYS = tempfile.mkdtemp(prefix="rulekit-test-key-")
atexit.register(shutil.rmtree, _KEYS, True)
os.environ["RULEKIT_KEY_FILE"] = os.path.join(_KEYS, "record.key")
# Likewise every `rulekit serve` a test starts without `--db` keeps its tables in the test
# run's folder, never in the user's ~/.local/share/rulekit/tables.db.
os.environ["XDG_DATA_HOME"] = os.path.join(_KEYS, "data")

# Hypothesis profiles: `ci` runs every property test with the example counts written at it
# (.ci/run sets HYPOTHESIS_PROFILE=ci; so does any environment with CI set); `dev`, the
# default elsewhere, runs a fifth of them (at least 10) for a quick loop while editing. Tests
# give their counts as `examples(n)`, which reads the profile.
settings.register_profile("ci", deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None, max_examples=20)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
settings.load_profile(PROFILE)


def examples(n: int) -> int:
    """A property test's example count under the loaded profile: `n` under `ci`, a fifth of
    it (at least 10) under `dev`."""
    return n if PROFILE == "ci" else max(10, n // 5)
# The golden cases live once, in the package's case files (rulesets/cases/, what `rulekit test`
# reads): the tests read them from there too.
CASES = cases_dir()


@pytest.fixture(scope="session")
def tianjin() -> rulekit.Ruleset:
    return rulekit.load_ruleset("tianjin")


def golden_cases(ruleset: str) -> list[dict[str, Any]]:
    """The cases of rulesets/cases/RULESET.yaml (hand cases have `hand`, settle cases `settle`)."""
    with open(CASES / f"{ruleset}.yaml", encoding="utf-8") as fh:
        cases: list[dict[str, Any]] = yaml.safe_load(fh)["cases"]
    return cases


def fan_table_cases() -> list[dict[str, Any]]:
    """Seed 000's 番數演算法: the default's cases named `row N ...`, with N as `row`."""
    return [dict(c, row=int(c["name"].split()[1])) for c in golden_cases("tianjin")
            if c["name"].startswith("row ")]


def reading_cases() -> list[dict[str, Any]]:
    """The default's other hand cases: the readings of docs/rules.md."""
    return [c for c in golden_cases("tianjin")
            if "hand" in c and not c["name"].startswith("row ")]


def check_expect(result: dict[str, Any], expect: dict[str, Any]) -> list[str]:
    """Differences between a result and the keys an expectation names (patterns as sets)."""
    diffs = []
    for key, want in expect.items():
        if key == "patterns":
            if set(want) != set(result["patterns"]):
                diffs.append(f"patterns: expected {sorted(want)}, got {sorted(result['patterns'])}")
        elif key == "patterns_one_of":
            if not any(set(p) == set(result["patterns"]) for p in want):
                diffs.append(f"patterns: expected one of {want}, got {result['patterns']}")
        elif result.get(key) != want:
            diffs.append(f"{key}: expected {want!r}, got {result.get(key)!r}")
    return diffs


# The slow tests: each took 2 s or more in a full run on the shared 2-core machine (about a
# second alone), by `pytest --durations`; a module named whole is slow in most of its tests.
# `pytest -m "not slow"` (with the default `dev` Hypothesis profile) is the quick loop for
# people working on the scorer; CI runs everything. A test named here is marked `slow`
# wherever it is defined (one list, so the test files stay as their owners wrote them).
SLOW: frozenset[str] = frozenset([
    "tests/serve/test_serve_browser.py",
    "tests/serve/test_serve_live.py",
    "tests/serve/test_serve_trust.py",
    "tests/test_agree.py",
    "tests/test_fuzz_documents.py",
    "tests/test_fuzz_rulesets.py",
    "tests/test_game_invariants.py",
    "tests/serve/test_serve_api.py::test_a_request_may_be_larger_than_one_cli_document",
    "tests/serve/test_serve_api.py::test_batch_longer_than_the_limit_is_413",
    "tests/serve/test_serve_api.py::test_inline_overlay_is_compiled_and_cached",
    "tests/serve/test_serve_api.py::test_max_work_lowers_the_library_budget",
    "tests/serve/test_serve_api.py::test_no_body_makes_a_500",
    "tests/serve/test_serve_api.py::test_pattern_over_the_work_budget_is_refused",
    "tests/serve/test_serve_api.py::test_rule_sheet_shows_values_and_examples",
    "tests/serve/test_serve_api.py::test_time_limit_answers_503",
    "tests/test_arrange.py::test_anchored_cut_by_the_other_suits_least_hun_is_the_uncut_loops",
    "tests/test_casefile.py::test_an_unchanged_copy_still_reports_the_misnamed_ruleset",
    "tests/test_casefile.py::test_builtin_case",
    "tests/test_casefile.py::test_the_same_cases_under_another_ruleset",
    "tests/test_casefile.py::test_update_rewrites_only_changed_values",
    "tests/test_diff.py::test_a_diff_on_a_local_dask_cluster_is_the_same_report",
    "tests/test_diff.py::test_keys_the_corpus_cannot_exercise_are_warned_about",
    "tests/test_diff.py::test_old_may_be_a_git_revision",
    "tests/test_game_cli.py::test_replay_reproduces_and_rescores",
    "tests/test_game_cli.py::test_simulate_compares_two_kinds_of_player_within_each_hand",
    "tests/test_game_cli.py::test_simulate_json_reports_rates_with_intervals",
    "tests/test_game_cli.py::test_simulate_versus_same_deals",
    "tests/test_gate.py::test_group_allows_equals_possible",
    "tests/test_hand.py::test_fast_path_agrees_with_the_checked_parser",
    "tests/test_hostile_documents.py::test_single_document_in_a_subprocess_has_no_traceback",
    "tests/test_import_graph.py::test_no_import_circle_among_rulekit_modules",
    "tests/test_jsonio.py::test_the_scanner_fast_path_agrees_with_json_loads",
    "tests/test_masks.py::test_bound_on_masks_equals_the_algebra_bound",
    "tests/test_memo_bounds.py::test_rulesets_no_longer_referenced_are_freed_with_their_scorers",
    "tests/test_reach.py::test_every_small_suit_by_every_key",
    "tests/test_reference.py::test_three_hun",
    "tests/test_reference.py::test_two_hun",
    "tests/test_shape.py::test_deficiency_is_zero_exactly_on_wins",
    "tests/test_shape.py::test_deficiency_matches_a_plain_recursion",
    "tests/test_shape.py::test_is_win_on_every_small_one_suit_hand",
    "tests/test_shape.py::test_tables_rebuild_byte_for_byte",
    "tests/test_suit_parts.py::test_every_small_numbered_suit_matches_the_reference",
    "tests/test_yaml_strict.py::test_a_duplicate_key_anywhere_is_refused_naming_the_key_and_both_lines",
    # added at issue 22 item 6 (the quick loop over a minute): each 2 s or more in a full run
    # at load ~7, and heavy by nature: a browser, subprocesses (the CLI per doc command, a
    # nested pytest, a cluster, a live server and its bot), tracemalloc, whole games, or a
    # corpus scored under a ruleset with 300 hands
    "tests/serve/test_serve_impact_browser.py",
    "tests/serve/test_tables_browser.py",
    "tests/serve/test_tables_live.py::test_a_remote_bot_plays_a_session_through_the_bridge",
    "tests/test_cluster_workers.py::test_a_cluster_whose_workers_are_killed_stops_with_a_message",
    "tests/test_docs.py::test_every_command_example_runs",
    "tests/test_impact.py::test_across_players_runs_each_mix_and_needs_versus",
    "tests/test_memo_bounds.py::test_a_scorers_estimate_is_never_below_what_its_memos_hold",
    "tests/test_memo_bounds.py::test_the_short_tiles_memo_holds_what_it_is_allowed",
    "tests/test_memo_bounds.py::test_the_suit_memo_estimate_is_never_below_what_it_holds",
    "tests/test_pytest_plugin.py::test_a_broken_rule_fails_its_cases_by_name",
    "tests/test_pytest_plugin.py::test_a_case_file_naming_another_ruleset_fails_as_rulekit_test_says",
    "tests/test_pytest_plugin.py::test_a_ruleset_that_does_not_load_fails_every_case_with_its_error",
    "tests/test_pytest_plugin.py::test_each_case_is_an_item_in_the_junit_xml",
    "tests/test_result_json.py::test_to_json_is_the_strict_encoding_of_to_dict",
    "tests/test_suit_parts.py::test_random_suits_match_the_reference_at_every_hun_budget",
    "tests/test_wins_with.py::test_greedy_wins_agrees_with_its_fan",
    "tests/test_wins_with.py::test_wins_with_answers_as_the_full_score",
    "tests/test_work_budget.py::test_a_ruleset_the_algebra_cannot_prune_is_stopped_naming_its_patterns",
    # added when the quick loop reached 62 s again (68 new quick tests): bot subprocesses
    # that hang, die or take their start-up grace, so each waits out a real timeout
    "tests/test_bots.py::test_close_kills_the_children_a_bot_started",
    "tests/test_bots.py::test_each_failure_is_one_fault_naming_it",
    "tests/test_bots.py::test_the_first_answer_may_take_the_startup_grace_too",
    "tests/test_match.py::test_a_failing_bot_never_stops_the_match",
])


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    root = Path(__file__).resolve().parent.parent
    for item in items:
        path = Path(str(item.fspath)).resolve().relative_to(root).as_posix()
        name = item.nodeid.split("::", 1)[1].split("[", 1)[0] if "::" in item.nodeid else ""
        if path in SLOW or f"{path}::{name}" in SLOW:
            item.add_marker(pytest.mark.slow)
