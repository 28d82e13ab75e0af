"""Every entry of conftest.SLOW names a test file, or a test function in it, that exists: a
renamed test must not drop out of the quick loop's exclusions unnoticed."""
from __future__ import annotations

import re
from pathlib import Path

from conftest import SLOW

ROOT = Path(__file__).resolve().parent.parent


def test_every_slow_entry_names_a_test_that_exists() -> None:
    missing = []
    for entry in sorted(SLOW):
        path, _, name = entry.partition("::")
        source = ROOT / path
        if not source.is_file() or (
                name and not re.search(rf"^def {re.escape(name)}\(", source.read_text(
                    encoding="utf-8"), re.M)):
            missing.append(entry)
    assert missing == [] and len(SLOW) > 40


def test_the_golden_cases_live_once() -> None:
    """Issue 22 item 6: the built-ins' golden cases are kept in rulesets/cases/ only (what
    `rulekit test` runs); no case file under tests/ repeats one (a test ruleset's own cases,
    e.g. tests/serve/served/, are not copies)."""
    import yaml

    def cases(path: Path) -> list[str]:
        text = path.read_text(encoding="utf-8")
        if not re.search(r"^cases:", text, re.M):
            return []                          # not a case file (some are hostile YAML)
        data = yaml.safe_load(text)
        if not isinstance(data, dict) or not isinstance(data.get("cases"), list):
            return []
        return [repr(sorted((k, repr(v)) for k, v in c.items() if k != "name"))
                for c in data["cases"]]

    golden = {c for p in (ROOT / "rulesets" / "cases").glob("*.yaml") for c in cases(p)}
    assert len(golden) > 200
    copies = [p.relative_to(ROOT).as_posix() for p in (ROOT / "tests").rglob("*.y*ml")
              if set(cases(p)) & golden]
    assert copies == []


def test_example_counts_go_through_the_profiles() -> None:
    """A test that writes a literal example count runs it in the `dev` profile too; through
    `examples(n)` the quick loop runs a fifth (issue 22 item 6). Three test files of this
    stop's branches had slipped back to literal counts."""
    literal = re.compile(r"max_examples=\d")
    found = [str(p.relative_to(ROOT)) for p in sorted((ROOT / "tests").rglob("test_*.py"))
             if literal.search(p.read_text(encoding="utf-8"))]
    assert found == []
