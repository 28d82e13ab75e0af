"""The pytest plugin (rulekit/pytest_plugin.py): a club's rules folder, outside this
repository, under plain `pytest` in a fresh process: every case an item named by its name,
failures with the line `rulekit test` prints, -k / -x / --junitxml as for any test."""
from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NAMES = ["一般高 with 素", "一般高 adds to 捉5, then 素 doubles",
         "金杠杠開 doubles once more; the 金杠 is worth 8", "a 暗杠 杠開 is not doubled again",
         "提溜 with hun still does not win"]


def rules_folder(tmp_path: Path, table: str | None = None) -> Path:
    rules = tmp_path / "rules"
    (rules / "cases").mkdir(parents=True)
    text = table or (ROOT / "examples" / "my-table.yaml").read_text(encoding="utf-8")
    (rules / "my-table.yaml").write_text(text, encoding="utf-8")
    (rules / "cases" / "my-table.yaml").write_text(
        (ROOT / "examples" / "cases" / "my-table.yaml").read_text(encoding="utf-8"),
        encoding="utf-8")
    # YAML that is not a case file, and a config with `cases:` but no `ruleset:` line
    (rules / "notes.yaml").write_text("title: our table\n", encoding="utf-8")
    (rules / "other.yaml").write_text("cases:\n  - a\n", encoding="utf-8")
    return rules


def pytest_run(cwd: Path, *args: str) -> tuple[int, str, dict[str, str | None]]:
    """Plain pytest in a fresh process; the JUnit XML as {case name: failure text or None}."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    xml = cwd / "junit.xml"
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                           f"--junitxml={xml}", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)
    cases: dict[str, str | None] = {}
    for tc in ET.parse(xml).getroot().iter("testcase"):
        bad = tc.find("failure")
        cases[tc.get("name", "")] = None if bad is None else (bad.text or "")
    return proc.returncode, proc.stdout, cases


def test_each_case_is_an_item_in_the_junit_xml(tmp_path: Path) -> None:
    rules_folder(tmp_path)
    code, out, cases = pytest_run(tmp_path, "rules")
    assert code == 0, out
    assert list(cases) == NAMES and all(v is None for v in cases.values())
    code, out, cases = pytest_run(tmp_path, "rules", "-k", "暗杠")
    assert list(cases) == ["a 暗杠 杠開 is not doubled again"] and code == 0


def test_a_broken_rule_fails_its_cases_by_name(tmp_path: Path) -> None:
    table = (ROOT / "examples" / "my-table.yaml").read_text(encoding="utf-8")
    rules_folder(tmp_path, table.replace("add: {yi_ban_gao: 2}", "add: {yi_ban_gao: 3}"))
    code, out, cases = pytest_run(tmp_path, "rules")
    assert code == 1
    failed = {k: v for k, v in cases.items() if v is not None}
    assert set(failed) == {"一般高 with 素", "一般高 adds to 捉5, then 素 doubles"}
    assert failed["一般高 with 素"].startswith(
        "FAIL rules/cases/my-table.yaml:4: 一般高 with 素: hand_fan: expected 4, got 6")
    code, out, cases = pytest_run(tmp_path, "rules", "-x")
    assert code == 1 and list(cases) == ["一般高 with 素"]          # -x: stops at the first


def test_a_ruleset_that_does_not_load_fails_every_case_with_its_error(tmp_path: Path) -> None:
    table = (ROOT / "examples" / "my-table.yaml").read_text(encoding="utf-8")
    rules_folder(tmp_path, table.replace("context.last_kong == golden",
                                         "context.last_kong == gold"))
    code, out, cases = pytest_run(tmp_path, "rules")
    assert code == 1 and list(cases) == NAMES
    assert all("unknown name 'gold'; did you mean 'golden'?" in (v or "")
               for v in cases.values())


def test_a_case_file_naming_another_ruleset_fails_as_rulekit_test_says(tmp_path: Path) -> None:
    rules = rules_folder(tmp_path)
    cases_file = rules / "cases" / "my-table.yaml"
    cases_file.write_text(cases_file.read_text(encoding="utf-8").replace(
        "ruleset: ../my-table.yaml", "ruleset: tianjin"), encoding="utf-8")
    code, out, cases = pytest_run(tmp_path, "rules")
    assert code == 1
    assert "ruleset: tianjin" in cases and "write `ruleset: ../my-table.yaml`" in \
        (cases["ruleset: tianjin"] or "")


def test_this_repository_turns_the_plugin_off_for_its_own_suite() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'rulekit = "rulekit.pytest_plugin"' in text and "rulekit_cases = false" in text
    from rulekit.pytest_plugin import looks_like_casefile
    assert looks_like_casefile(ROOT / "rulesets" / "cases" / "tianjin.yaml")
    assert not looks_like_casefile(ROOT / "rulesets" / "tianjin.yaml")
