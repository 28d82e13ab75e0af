"""The authoring tutorial works as written: its ruleset and case file pass `rulekit test`."""
from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

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


# -- every file a doc points at is in the repository -------------------------------------------

ROOT = DOC.parent.parent
DOCS = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
TOP = {p.name for p in ROOT.iterdir() if not p.name.startswith(".") or p.name == ".ci"}
LINK = re.compile(r"\]\(([^)\s]+)\)")
# a path as prose mentions one: dir/dir/name.ext, a dir/ or a glob, possibly in backquotes
MENTION = re.compile(r"(?<![\w./:~-])((?:\.{1,2}/|/)?(?:[\w.*-]+/)+[\w.*-]*)")
# a name that stands for any: NAME, ID, or a one-letter name
PLACEHOLDER = re.compile(r"(?<=/)(?:[A-Z]+|[a-z])(?=\.|/|$)")
# not files: the HTTP routes of `rulekit serve` (docs/serve.md) and Debian's browser binary
NOT_FILES = ("/v1/", "/rules/", "/tables/", "/usr/bin/")
BARE_MD = re.compile(r"(?<![\w./-])([\w-]+\.md)\b")


def prose(text: str) -> str:
    """`text` without fenced code blocks: they show a user's own files (my-table.yaml, ~/...)."""
    return re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)


def missing_paths(doc: Path) -> list[str]:
    text = doc.read_text(encoding="utf-8")
    bad = []
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:|#", target):
            continue
        if not (doc.parent / target.split("#")[0]).exists():
            bad.append(target)
    for path in MENTION.findall(prose(text)):
        path = path.rstrip(".")                    # the end of a sentence
        path = PLACEHOLDER.sub("*", path)          # rulesets/NAME.yaml, rulesets/x.yaml
        if path.startswith(NOT_FILES):
            continue
        if path.startswith(("/", "../", "~")) or path.split("/")[0] in ("shared", "seeds"):
            bad.append(path)      # outside the repository, whatever is there
        elif path.split("/")[0] in TOP and not list(ROOT.glob(path.rstrip("/") or ".")):
            bad.append(path)
    for name in BARE_MD.findall(prose(text)):
        if not ((doc.parent / name).exists() or (ROOT / name).exists()):
            bad.append(name)
    return bad


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_path_a_doc_mentions_is_in_the_repository(doc: Path) -> None:
    assert missing_paths(doc) == []


def test_the_path_check_catches_what_it_should(tmp_path: Path) -> None:
    fake = ROOT / "docs" / "no-such-doc.md"
    for text, caught in [("see /work/shared/RULES.md", True), ("(RULES.md, \"Disputed\")", True),
                         ("the [rules](rules.md)", False), ("the [x](nope.md)", True),
                         ("`tests/data/variants/laizi.yaml`", False), ("`tests/data/nope.yaml`", True),
                         ("`rulesets/*.yaml`", False), ("seeds/000_*.txt", True),
                         ("`rulesets/NAME.yaml`.", False), ("docs/rules.md.", False),
                         ("```\nrulekit test cases/my-table.yaml /home/me/x\n```", False)]:
        doc = tmp_path / "docs" / "d.md"
        doc.parent.mkdir(exist_ok=True)
        doc.write_text(text, encoding="utf-8")
        # resolve as if the doc sat in docs/: links relative to docs/, mentions to the root
        got = missing_paths_at(doc, fake.parent)
        assert bool(got) == caught, (text, got)


def missing_paths_at(doc: Path, where: Path) -> list[str]:
    moved = where / doc.name
    if moved.exists():
        raise AssertionError(f"{moved} exists")
    moved.write_text(doc.read_text(encoding="utf-8"), encoding="utf-8")
    try:
        return missing_paths(moved)
    finally:
        moved.unlink()


def test_rules_md_names_a_variant_for_every_builtin_and_only_builtins() -> None:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    table = text[text.index("## Disputed points"):text.index("## Where the texts disagree")]
    named = set(re.findall(r"`(tianjin[\w-]*)`", table))
    builtins = {p.stem for p in (ROOT / "rulesets").glob("tianjin-*.yaml")}
    assert named == builtins
