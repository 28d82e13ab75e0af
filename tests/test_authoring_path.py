"""What a newcomer trips on along the authoring path (issue 21, item 6): example files that
exist, reports that name things, errors that say what is wrong."""
from __future__ import annotations

import io
from pathlib import Path

import pytest

import rulekit
from rulekit.cli import main

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(args), out=out), out.getvalue()


def test_an_instant_win_is_reported_by_its_name_as_documented() -> None:
    rs = rulekit.load_ruleset("tianjin-flowers")
    r = rulekit.score({"indicator": "7p", "hand": "46m123456789s22z", "win_tile": "5m",
                       "flowers": "12345678f"}, rs)
    assert (r.win, r.patterns, r.pattern_names, r.explain) == \
        (True, ("ba_hua_qi",), ("八花齊",), ("八花齊 16",))
    code, out = run("score", "-r", "tianjin-flowers", "46m 123456789s 22z", "--win", "5m",
                    "--indicator", "7p", "--flowers", "12345678f")
    assert code == 0 and "patterns: 八花齊\n" in out


def test_the_example_ruleset_is_the_tutorials_and_passes_its_cases() -> None:
    doc = (ROOT / "docs" / "authoring.md").read_text(encoding="utf-8")
    mine = (ROOT / "examples" / "my-table.yaml").read_text(encoding="utf-8")
    body = mine.split("\n", 1)[1]                  # the first line points at the schema
    assert body in doc
    assert (ROOT / "examples" / "cases" / "my-table.yaml").read_text(encoding="utf-8") in doc
    code, out = run("test", str(ROOT / "examples" / "my-table.yaml"))
    assert code == 0 and "5 passed, 0 failed" in out


@pytest.mark.parametrize("name", ["hand.json", "hands.jsonl", "settle.json", "session.jsonl"])
def test_the_example_documents_are_valid(name: str) -> None:
    path = ROOT / "examples" / name
    cmd = {"hand.json": ["score", "--json", str(path)],
           "hands.jsonl": ["score", "--jsonl", str(path)],
           "settle.json": ["settle", "--json", str(path)],
           "session.jsonl": ["session", "--jsonl", str(path)]}[name]
    code, out = run(*cmd)
    assert code == 0 and '"error"' not in out


def test_a_missing_file_is_no_such_file_with_the_nearest_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "my-table.yaml").write_text("extends: tianjin\nname: t\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, _ = run("validate", "my-tabel.yaml")
    assert code == 2
    assert capsys.readouterr().err.endswith(
        "my-tabel.yaml: no such file; did you mean 'my-table.yaml'?\n")
    code, _ = run("validate", "rules/none.yaml")
    assert code == 2 and capsys.readouterr().err.endswith("rules/none.yaml: no such file\n")
    code, _ = run("validate", "tianjn")            # a name: the built-ins
    assert code == 2 and "did you mean 'tianjin'?" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["tianjin", "tianjin-flowers", "tianjin-laizi"])
def test_show_writes_multi_line_conditions_as_blocks_and_reads_back_the_same(name: str) -> None:
    import yaml
    from rulekit.report import plain
    code, out = run("show", name)
    assert code == 0 and "\\n" not in out                # no escaped one-line texts
    assert "    when: |\n" in out
    assert yaml.safe_load(out) == plain(rulekit.load_ruleset(name).data)


def test_text_waits_name_the_patterns_of_a_wait_below_the_minimum() -> None:
    code, out = run("waits", "12m9p456s777z555p3z", "--indicator", "8p")
    assert code == 0
    assert out.splitlines()[0] == "3m  no win: below the minimum fan (提溜, 1 fan)"


def test_a_flag_the_ruleset_does_not_read_is_reported(capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    hand = ["46m 123456789s 22z", "--win", "5m", "--indicator", "7p"]
    code, _ = run("score", *hand, "--flowers", "1358f", "--discarded-hun")
    err = capsys.readouterr().err.splitlines()
    assert code == 0 and err == [
        "rulekit score: warning: --flowers: tianjin does not read flowers (no valued pattern, "
        "forbid, instant win or total rule of it uses hand.flowers); the score is the same "
        "without it"]                        # --discarded-hun is read: 小相公 forbids the win
    code, _ = run("score", "-r", "tianjin-flowers", *hand, "--flowers", "1358f")
    assert code == 0 and capsys.readouterr().err == ""
    code, _ = run("score", *hand, "--earthly")     # 地和 is defined but has no value
    assert "--earthly: tianjin does not read earthly" in capsys.readouterr().err


def test_a_revision_outside_a_repository_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    (tmp_path / "c.jsonl").write_text("", encoding="utf-8")
    code, _ = run("diff", "HEAD:x.yaml", "tianjin", "--corpus", "c.jsonl")
    err = capsys.readouterr().err
    assert code == 2 and err.strip().endswith(
        f"HEAD:x.yaml: {tmp_path} is not in a git repository (REV:PATH reads PATH as "
        "committed at REV; outside a repository name the file itself)")


def test_serve_refuses_a_rulesets_folder_with_a_broken_ruleset(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from rulekit.serve.startup import check_rulesets_dir
    (tmp_path / "my-table.yaml").write_text(
        (ROOT / "examples" / "my-table.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    assert check_rulesets_dir(tmp_path) == 1
    (tmp_path / "bad.yaml").write_text("extends: tianjin\nname: bad\nwin: {minimum: -1}\n",
                                       encoding="utf-8")
    code, _ = run("serve", "--rulesets", str(tmp_path), "--port", "1")
    err = capsys.readouterr().err.splitlines()
    assert code == 2 and err == [
        f"rulekit serve: error: --rulesets {tmp_path}: a ruleset does not load, so it would fail "
        "every request; fix it or move it out",
        f"rulekit serve: error: {tmp_path}/bad.yaml:3: win.minimum: must be at least 0"]
