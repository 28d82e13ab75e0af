"""Golden case files (rulesets/cases/*.yaml), `rulekit test`, `rulekit corpus`."""
from __future__ import annotations

import io
import json
import shutil
from collections import Counter
from pathlib import Path

import pytest

from rulekit import casefile as cf_
from rulekit import cli, resources
from rulekit.api import load_ruleset, score
from rulekit.corpus import corpus
from rulekit.hand import parse_hand
from rulekit.ruleset import resolve

CASE_FILES = sorted(resources.cases_dir().glob("*.yaml"))


def _all_cases() -> list[tuple[Path, cf_.Case]]:
    return [(p, c) for p in CASE_FILES for c in cf_.load_casefile(p).cases]


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = cli.main(list(argv), out=out)
    return code, out.getvalue()


# --- the built-in case files -------------------------------------------------------------------

@pytest.mark.parametrize("path,case", _all_cases(),
                         ids=[f"{p.stem}::{c.name}" for p, c in _all_cases()])
def test_builtin_case(path: Path, case: cf_.Case) -> None:
    cf = cf_.load_casefile(path)
    outcome = cf_.run_case(case, load_ruleset(cf.ruleset_path()))
    assert outcome.passed, cf_.failure_line(cf, outcome)


@pytest.mark.parametrize("name", resolve.builtin_names())
def test_every_builtin_ruleset_has_cases_for_every_scored_pattern(name: str) -> None:
    path = cf_.builtin_casefile(name)
    assert path.is_file(), f"rulesets/{name}.yaml has no case file rulesets/cases/{name}.yaml"
    cf = cf_.load_casefile(path)
    rs = load_ruleset(cf.ruleset_path())
    assert rs.name == name
    assert cf_.unknown_patterns(cf, rs) == []
    assert cf_.uncovered(cf, rs) == ()


def test_cli_test_passes_on_every_builtin() -> None:
    code, out = run("test")
    assert code == 0, out
    assert out.splitlines()[-1].endswith(" passed, 0 failed")


# --- comparing ----------------------------------------------------------------------------------

def test_only_the_expected_keys_are_compared() -> None:
    got = {"win": True, "hand_fan": 14, "kong_fan": 0, "total_fan": 14,
           "patterns": ["zhuo_wu", "long", "su"]}
    assert cf_.compare({"total_fan": 14}, got) == ()
    assert cf_.compare({"patterns": ["su", "long", "zhuo_wu"]}, got) == ()   # a set
    assert cf_.compare({"patterns_one_of": [["long"], ["su", "zhuo_wu", "long"]]}, got) == ()
    (m,) = cf_.compare({"hand_fan": 7, "win": True}, got)
    assert (m.key, m.expected, m.got) == ("hand_fan", 7, 14)
    assert cf_.compare({"hand_fan": 14.0}, got) == ()
    assert cf_.compare({"win": 1}, got) != ()                                # true is not 1


def test_an_error_is_a_mismatch_unless_expected() -> None:
    got = {"error": "win_by: 'discard' is not allowed by this ruleset"}
    assert [m.key for m in cf_.compare({"win": True}, got)] == ["error"]
    assert cf_.compare({"error": "not allowed"}, got) == ()
    assert cf_.compare({"error": "something else"}, got) != ()
    assert cf_.compare({"error": "x"}, {"win": True}) != ()


# --- loading ------------------------------------------------------------------------------------

def write(tmp_path: Path, text: str, name: str = "cases.yaml") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_malformed_case_files_name_file_and_line(tmp_path: Path) -> None:
    p = write(tmp_path, """ruleset: tianjin
cases:
  - name: ok
    hand: {indicator: 3s, hand: 234m567p111z666z8p, win_tile: 8p}
    expect: {win: true}
  - name: ok
    hand: {indicator: 3s, hand: 234m567p111z666z8p, win_tile: 8p}
    expect: {totl_fan: 2}
  - hand: {}
    settle: {}
    expect: {win: true}
  - name: typo
    hand: {indicator: 3s, hand: 234m567p111z666z8p, win_tile: 8p}
    expcet: {win: true}
""")
    with pytest.raises(cf_.CaseFileError) as err:
        cf_.load_casefile(p)
    text = "\n".join(err.value.problems)
    assert "cases.yaml:8: cases[1].expect (ok): unknown key 'totl_fan'" in text
    assert "cases.yaml:6: cases[1].name: 'ok' is also the name of the case on line 3" in text
    assert "cases.yaml:9: cases[2].name: every case needs a short name" in text
    assert "give exactly one of 'hand'" in text
    assert "cases.yaml:14: cases[3]: unknown key 'expcet'" in text


def test_cli_reports_a_broken_case_file_and_exits_2(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    p = write(tmp_path, "ruleset: tianjin\ncases: {}\n")
    code, out = run("test", str(p))
    assert code == 2
    assert "cases: expected a list" in capsys.readouterr().err
    assert out.splitlines()[-1] == "0 passed, 0 failed, 1 case file(s) could not run"


def test_unknown_target(capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run("test", "no-such-ruleset")
    assert code == 2
    assert "no-such-ruleset: no such case file or built-in ruleset" in capsys.readouterr().err


def test_a_pattern_id_the_ruleset_does_not_define(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    p = write(tmp_path, """ruleset: tianjin
cases:
  - name: typo
    hand: {indicator: 3s, hand: 234m567p111z666z8p, win_tile: 8p}
    expect: {patterns: [tiliu, sū]}
""")
    assert run("test", str(p))[0] == 2
    assert "pattern 'sū' is not defined by ruleset tianjin" in capsys.readouterr().err


# --- a changed ruleset fails, --update rewrites ---------------------------------------------------

@pytest.fixture
def edited_copy(tmp_path: Path) -> Path:
    """A copy of the default ruleset with 龍 worth 5, and the default's cases beside it."""
    text = (resources.rulesets_dir() / "tianjin.yaml").read_text(encoding="utf-8")
    assert "add: {zhuo_wu: 3, long: 4}" in text
    ruleset = tmp_path / "tianjin.yaml"
    ruleset.write_text(text.replace("add: {zhuo_wu: 3, long: 4}", "add: {zhuo_wu: 3, long: 5}"),
                       encoding="utf-8")
    (tmp_path / "cases").mkdir()
    cases = (resources.cases_dir() / "tianjin.yaml").read_text(encoding="utf-8")
    (tmp_path / "cases" / "tianjin.yaml").write_text(
        cases.replace("\nruleset: tianjin\n", "\nruleset: ../tianjin.yaml\n"), encoding="utf-8")
    return ruleset


def test_a_changed_value_fails_with_expected_and_got(edited_copy: Path) -> None:
    code, out = run("test", str(edited_copy))
    assert code == 1
    lines = out.splitlines()
    row16 = next(x for x in lines if "row 16 素龍" in x)
    assert row16.startswith("FAIL ")
    assert ("row 16 素龍: hand_fan: expected 8, got 10; total_fan: expected 8, got 10 | "
            "龍 5 × 素 2 = 10") in row16
    failed = [x for x in lines if x.startswith("FAIL ")]
    n = len(cf_.load_casefile(resources.cases_dir() / "tianjin.yaml").cases)
    assert lines[-1] == f"{n - len(failed)} passed, {len(failed)} failed"
    assert not any("row 2 素的提溜" in x for x in failed)          # no 龍: unchanged


def test_the_same_cases_under_another_ruleset(edited_copy: Path) -> None:
    code, out = run("test", "tianjin", "--ruleset", str(edited_copy))
    assert code == 1
    assert "row 16 素龍: hand_fan: expected 8, got 10" in out


def test_update_rewrites_only_changed_values(edited_copy: Path) -> None:
    path = edited_copy.parent / "cases" / "tianjin.yaml"
    before = path.read_text(encoding="utf-8")
    code, out = run("test", "--update", str(edited_copy))
    assert code == 0
    assert "row 16 素龍: hand_fan: 8 -> 10" in out
    assert "row 16 素龍: total_fan: 8 -> 10" in out
    after = path.read_text(encoding="utf-8")
    changed = [(a, b) for a, b in zip(before.splitlines(), after.splitlines()) if a != b]
    assert all(a.lstrip().startswith("expect:") for a, _ in changed)
    assert len(before.splitlines()) == len(after.splitlines())          # comments, notes kept
    assert ("    expect: {win: true, hand_fan: 10, kong_fan: 0, total_fan: 10, "
            "patterns: [long, su]}") in after
    code, out = run("test", str(edited_copy))
    assert code == 0 and out.endswith(" passed, 0 failed\n")


@pytest.fixture
def issue_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The issue's experiment: edit/tianjin.yaml with 龍 worth 5 and the default's case file
    copied unchanged to edit/cases/ (so it still says `ruleset: tianjin`)."""
    (tmp_path / "edit" / "cases").mkdir(parents=True)
    text = (resources.rulesets_dir() / "tianjin.yaml").read_text(encoding="utf-8")
    ruleset = tmp_path / "edit" / "tianjin.yaml"
    ruleset.write_text(text.replace("add: {zhuo_wu: 3, long: 4}", "add: {zhuo_wu: 3, long: 5}"),
                       encoding="utf-8")
    shutil.copy(resources.cases_dir() / "tianjin.yaml", tmp_path / "edit" / "cases")
    monkeypatch.chdir(tmp_path)
    return ruleset


def test_a_ruleset_file_is_tested_not_the_builtin_its_cases_name(issue_copy: Path) -> None:
    code, out = run("test", "edit/tianjin.yaml")
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == ("FAIL edit/cases/tianjin.yaml:3: ruleset: 'tianjin' names "
                        "rulesets/tianjin.yaml, but these cases ran against edit/tianjin.yaml, "
                        "the file under test; write `ruleset: ../tianjin.yaml`")
    assert ("FAIL edit/cases/tianjin.yaml:100: row 16 素龍: hand_fan: expected 8, got 10; "
            "total_fan: expected 8, got 10 | 龍 5 × 素 2 = 10") in lines
    # exactly the cases whose expected patterns hold 龍 change (龍 4 -> 5)
    cases = cf_.load_casefile(resources.cases_dir() / "tianjin.yaml").cases
    with_long = {c.name for c in cases if "long" in cf_.pattern_ids(c)}
    fails = [x for x in lines[1:] if x.startswith("FAIL ")]
    failed = {c.name for c in cases for x in fails
              if x.startswith(f"FAIL edit/cases/tianjin.yaml:{c.line}: {c.name}: ")}
    assert failed == with_long, failed ^ with_long
    assert len(fails) == len(with_long) == 33
    assert lines[-1] == (f"{len(cases) - 33} passed, 33 failed, "
                         "1 case file(s) name another ruleset")


def test_an_unchanged_copy_still_reports_the_misnamed_ruleset(issue_copy: Path) -> None:
    shutil.copy(resources.rulesets_dir() / "tianjin.yaml", issue_copy)
    code, out = run("test", "edit/tianjin.yaml")
    assert code == 1
    n = len(cf_.load_casefile(resources.cases_dir() / "tianjin.yaml").cases)
    assert out.splitlines()[-1] == f"{n} passed, 0 failed, 1 case file(s) name another ruleset"
    cases = issue_copy.parent / "cases" / "tianjin.yaml"
    cases.write_text(cases.read_text(encoding="utf-8").replace(
        "\nruleset: tianjin\n", "\nruleset: ../tianjin.yaml\n"), encoding="utf-8")
    assert run("test", "edit/tianjin.yaml") == (0, f"{n} passed, 0 failed\n")


def test_a_case_file_naming_a_missing_ruleset_is_reported(issue_copy: Path) -> None:
    cases = issue_copy.parent / "cases" / "tianjin.yaml"
    cases.write_text(cases.read_text(encoding="utf-8").replace(
        "\nruleset: tianjin\n", "\nruleset: ../gone.yaml\n"), encoding="utf-8")
    code, out = run("test", "edit/tianjin.yaml")
    assert code == 1
    assert out.splitlines()[0].startswith(
        "FAIL edit/cases/tianjin.yaml:3: ruleset: '../gone.yaml' names no such ruleset, ")


def test_update_on_the_issue_copy_writes_the_file_under_test(issue_copy: Path) -> None:
    code, out = run("test", "--update", "edit/tianjin.yaml")
    assert code == 1                                    # the misnamed ruleset still counts
    assert "updated edit/cases/tianjin.yaml:100: row 16 素龍: hand_fan: 8 -> 10" in out
    assert not [p.name for p in (issue_copy.parent / "cases").iterdir()
                if p.name != "tianjin.yaml"]            # no temporary file left behind


ALIASED = """ruleset: tianjin
cases:
  - name: first
    hand: {indicator: 3s, hand: 234m567p111z666z8p, win_tile: 8p}
    expect: &e {win: true, hand_fan: 3}
  - name: second
    hand: {indicator: 3s, hand: 234m567p111z666z8p, win_tile: 8p}
    expect: *e
"""


@pytest.mark.parametrize("text,message", ids=["anchor", "alias", "merge"], argvalues=[
    (ALIASED, "cases.yaml:5: YAML anchors (&e) are not allowed in rulesets or case files"),
    (ALIASED.replace("&e ", ""), "cases.yaml:8: YAML aliases (*e) are not allowed in rulesets or case files"),
    ("ruleset: tianjin\ncases:\n  - name: m\n    hand: {indicator: 3s}\n    expect:\n"
     "      <<: {win: true}\n", "cases.yaml:6: YAML merge keys (<<) are not allowed"),
])
def test_anchors_aliases_and_merge_keys_are_refused(tmp_path: Path, text: str,
                                                    message: str) -> None:
    with pytest.raises(cf_.CaseFileError) as err:
        cf_.load_casefile(write(tmp_path, text))
    assert err.value.problems[0].startswith(f"{tmp_path}/{message}")


def test_unreadable_case_files_are_one_clean_error(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "cases.yaml"
    p.write_bytes(b"ruleset: tianjin\ncases:\n  - name: \xff\n")
    assert run("test", str(p))[0] == 2
    assert capsys.readouterr().err == f"rulekit test: error: {p}:3: not UTF-8 text (byte 34)\n"
    p.write_text("ruleset: tianjin\ncases: []\n" + "#" * 1024 * 1024, encoding="utf-8")
    assert run("test", str(p))[0] == 2
    assert capsys.readouterr().err == (f"rulekit test: error: {p}:1: larger than 1048576 bytes; split the "
                                       "cases over several files\n")


def test_update_refuses_an_aliased_file_before_writing(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    p = write(tmp_path, ALIASED)
    code, out = run("test", "--update", str(p))
    assert code == 2
    assert "cases.yaml:5: YAML anchors (&e) are not allowed" in capsys.readouterr().err
    assert out.splitlines()[-1] == "0 passed, 0 failed, 0 updated, 1 case file(s) could not run"
    assert p.read_text(encoding="utf-8") == ALIASED


def test_a_killed_update_leaves_the_old_file(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    p = write(tmp_path, "old text\n")

    def killed(fd: int) -> None:
        raise KeyboardInterrupt                     # as if interrupted before the rename

    monkeypatch.setattr(cf_.os, "fsync", killed)
    with pytest.raises(KeyboardInterrupt):
        cf_.write_atomic(p, "new text\n" * 1000)
    assert p.read_text(encoding="utf-8") == "old text\n"
    assert [x.name for x in tmp_path.iterdir()] == ["cases.yaml"]
    monkeypatch.undo()
    cf_.write_atomic(p, "new text\n")
    assert p.read_text(encoding="utf-8") == "new text\n"
    assert [x.name for x in tmp_path.iterdir()] == ["cases.yaml"]


def test_update_handles_block_style_and_changed_shapes(tmp_path: Path) -> None:
    p = write(tmp_path, """ruleset: tianjin   # the default
cases:
  - name: block
    hand: {indicator: 3s, hand: 234m567p111z666z8p, win_tile: 8p}
    expect:
      win: true
      hand_fan: 3        # wrong on purpose
      patterns:
        - su
      # trailing comment
    note: keep me
  - name: now an error
    hand: {indicator: 3s, hand: 234m567p111z666z8p, win_tile: 8p, win_by: discard}
    expect: {win: true, total_fan: 2}
  - name: one of, neither
    hand: {indicator: 3s, hand: 234m567p111z666z8p, win_tile: 8p}
    expect: {patterns_one_of: [[su], [tiliu]]}
""")
    code, out = run("test", "--update", str(p))
    assert code == 0, out
    text = p.read_text(encoding="utf-8")
    assert "      hand_fan: 2        # wrong on purpose\n" in text
    assert "      patterns: [tiliu, su]\n      # trailing comment\n    note: keep me\n" in text
    assert "expect: {error: 'win_by: ''discard'' is not allowed by this ruleset" in text
    assert "expect: {patterns: [tiliu, su]}" in text
    assert run("test", str(p))[0] == 0


def test_update_through_a_symlink_writes_its_target(tmp_path: Path) -> None:
    real = write(tmp_path, """ruleset: tianjin
cases:
  - name: block
    hand: {indicator: 3s, hand: 234m567p111z666z8p, win_tile: 8p}
    expect: {win: true, hand_fan: 3}
""")
    (tmp_path / "linked").mkdir()
    link = tmp_path / "linked" / "cases.yaml"
    link.symlink_to(real)
    code, out = run("test", "--update", str(link))
    assert code == 0, out
    assert link.is_symlink() and link.resolve() == real.resolve()      # still the link
    assert "expect: {win: true, hand_fan: 2}" in real.read_text(encoding="utf-8")
    assert sorted(p.name for p in (tmp_path / "linked").iterdir()) == ["cases.yaml"]
    assert run("test", str(link))[0] == 0


def test_settle_cases(tmp_path: Path) -> None:
    p = write(tmp_path, """ruleset: tianjin
cases:
  - name: 鏟 on a draw
    settle: {dealer: 0, dealer_sits: true, pulls: [0, 0, 1, 2], winner: null, chan: true}
    expect: {payments: [-14, 2, 4, 8], next_dealer: 0}
  - name: wrong on purpose
    settle: {dealer: 0, chan: true}
    expect: {payments: [-3, 1, 1, 2]}
""")
    code, out = run("test", str(p))
    assert code == 1
    assert ("wrong on purpose: payments: expected [-3, 1, 1, 2], got [-3, 1, 1, 1] | "
            "0→1 1 (chan); 0→2 1 (chan); 0→3 1 (chan)") in out
    assert out.splitlines()[-1] == "1 passed, 1 failed"


def test_a_builtin_ruleset_without_cases_fails(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    rulesets = tmp_path / "rulesets"
    (rulesets / "cases").mkdir(parents=True)
    shutil.copy(resources.rulesets_dir() / "tianjin.yaml", rulesets / "tianjin.yaml")
    monkeypatch.setattr(resources, "rulesets_dir", lambda: rulesets)
    code, out = run("test")
    assert code == 1
    assert "FAIL rulesets/tianjin.yaml: no case file (write rulesets/cases/tianjin.yaml)" in out


# --- corpus -------------------------------------------------------------------------------------

def test_corpus_is_seeded() -> None:
    assert list(corpus(50, 3)) == list(corpus(50, 3))
    assert list(corpus(50, 3)) != list(corpus(50, 4))
    code, out = run("corpus", "--count", "50", "--seed", "3")
    assert code == 0
    assert [json.loads(x) for x in out.splitlines()] == list(corpus(50, 3))


def test_corpus_hands_are_valid_and_varied() -> None:
    rs = load_ruleset("tianjin")
    seen: Counter[str] = Counter()
    for doc in corpus(600, 11):
        hand = parse_hand(doc)
        held = sum(1 for t in hand.concealed + (hand.win_tile,) if t in hand.hun)
        seen[f"hun{min(held, 7)}"] += 1
        seen.update(m.kong_type or m.kind for m in hand.melds)
        seen[doc.get("win_by", "self_draw")] += 1
        seen["heavenly"] += bool(doc.get("heavenly"))
    for key in ["hun0", "hun1", "hun4", "hun7", "pung", "exposed", "concealed", "golden",
                "kong_draw", "heavenly"]:
        assert seen[key] > 0, key
    assert rs is not None


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_default_pattern_occurs_in_a_corpus(seed: int) -> None:
    rs = load_ruleset("tianjin")
    seen: set[str] = set()
    for doc in corpus(1000, seed):
        seen.update(score(doc, rs).patterns)
    assert rs.algebra.ids <= seen, sorted(rs.algebra.ids - seen)


def test_corpus_rejects_a_negative_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("corpus", "--count", "-1")[0] == 2
    assert "--count must be 0 or more" in capsys.readouterr().err
