"""The authoring tutorial works as written: its ruleset and case file pass `rulekit test`."""
from __future__ import annotations

import io
from pathlib import Path

from rulekit.cli import main

DOC = Path(__file__).parent.parent / "docs" / "authoring.md"
MY_TABLE = "# yaml-language-server: $schema=./ruleset-overlay.schema.json\n#\n# My table"


def block_after(text: str, marker: str) -> str:
    start = text.index(marker)
    return text[start:text.index("```", start)]


def test_tutorial_ruleset_and_cases_pass(tmp_path: Path) -> None:
    text = DOC.read_text(encoding="utf-8")
    (tmp_path / "my-table.yaml").write_text(
        block_after(text, MY_TABLE),
        encoding="utf-8")
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "my-table.yaml").write_text(
        block_after(text, "# cases/my-table.yaml"), encoding="utf-8")
    out = io.StringIO()
    code = main(["test", str(tmp_path / "my-table.yaml")], out)
    assert code == 0, out.getvalue()
    assert "5 passed, 0 failed" in out.getvalue()
