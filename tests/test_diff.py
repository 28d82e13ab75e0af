"""`rulekit diff`: two rulesets over a corpus; and the progress bar it shows."""
from __future__ import annotations

import io
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import rulekit
from rulekit import cli, diff
from rulekit.errors import RulesetError, SettleError
from rulekit.hand import parse_hand
from rulekit.progress import Progress, render
from rulekit.ruleset import resolve

GOLD8 = "extends: tianjin\nname: gold8\nkong_points: {golden: 8}\nchan: {payout: hun_diao}\n"
SU = {"indicator": "3s", "hand": "234m567p111z666z8p", "win_tile": "8p"}
GOLDEN = {"indicator": "1m", "hand": "345p678s999p1z",
          "melds": [{"kind": "kong", "tiles": "2222m", "concealed": True}], "win_tile": "1z"}


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = cli.main(list(argv), out=out)
    return code, out.getvalue()


@pytest.fixture(scope="module")
def corpus_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("corpus") / "corpus.jsonl"
    code_out = io.StringIO()
    assert cli.main(["corpus", "--count", "1500", "--seed", "5"], out=code_out) == 0
    path.write_text(code_out.getvalue(), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def golden_lines(corpus_file: Path) -> list[int]:
    """Corpus lines whose hand has a 金杠 (a concealed kong of four hun)."""
    lines = []
    for n, line in enumerate(corpus_file.read_text(encoding="utf-8").splitlines(), 1):
        if any(m.golden for m in parse_hand(json.loads(line)).melds):
            lines.append(n)
    assert len(lines) >= 5
    return lines


@pytest.fixture(scope="module")
def gold8_overlay(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("rulesets") / "gold8.yaml"
    path.write_text(GOLD8, encoding="utf-8")
    return path


# --- the acceptance checks -------------------------------------------------------------

def test_a_ruleset_against_itself_changes_nothing(corpus_file: Path) -> None:
    code, out = run("diff", "tianjin", "tianjin", "--corpus", str(corpus_file),
                    "--fail-on-change")
    assert code == 0
    assert out.splitlines() == [
        f"rulekit diff: tianjin → tianjin over {corpus_file}: 1500 documents (1500 hands, "
        "0 settle)",
        "no change: every document gives the same win and fan under both rulesets"]


def test_gold8_changes_exactly_the_hands_with_a_golden_kong(
        corpus_file: Path, golden_lines: list[int], gold8_overlay: Path) -> None:
    code, out = run("diff", "tianjin", str(gold8_overlay), "--corpus", str(corpus_file),
                    "--json")
    assert code == 0
    report = json.loads(out)
    assert report["changed_lines"] == golden_lines
    assert report["changed"] == len(golden_lines)
    assert report["win_changed"] == 0
    assert sum(g["changed"] for g in report["groups"]) == len(golden_lines)
    for g in report["groups"]:
        assert g["how"] == [{"change": "kong_fan +4, total_fan +4", "count": g["changed"]}]
        assert g["example"]["line"] in golden_lines
    assert all(c["new"]["total_fan"] - c["old"]["total_fan"] == 4 for c in report["largest"])


@pytest.mark.skipif("tianjin-gold8" not in resolve.builtin_names(),
                    reason="the built-in tianjin-gold8 is not there")
def test_builtin_gold8(corpus_file: Path, golden_lines: list[int]) -> None:
    code, out = run("diff", "tianjin", "tianjin-gold8", "--corpus", str(corpus_file),
                    "--json", "--jobs", "2")
    assert code == 0
    assert json.loads(out)["changed_lines"] == golden_lines


def test_fail_on_change_and_the_text_report(corpus_file: Path, golden_lines: list[int],
                                            gold8_overlay: Path) -> None:
    code, out = run("diff", "tianjin", str(gold8_overlay), "--corpus", str(corpus_file),
                    "--fail-on-change", "--top", "3")
    assert code == 1
    lines = out.splitlines()
    n = len(golden_lines)
    assert lines[1] == (f"changed: {n} ({n / 1500:.2%}), win changed: 0, unchanged: "
                        f"{1500 - n}")
    assert lines[2] == (f"by pattern combination under tianjin, → under {gold8_overlay} where "
                        "the patterns changed (changed / documents with it):")
    assert any(x.endswith(": kong_fan +4, total_fan +4") for x in lines)
    assert any("e.g. line " in x and "concealed kong" in x for x in lines)
    i = lines.index("largest changes:")
    assert len(lines) - i - 1 == 3 + 1                   # and the corpus's blind spot:
    assert lines[-1] == ("warning: the rulesets differ in chan.payout, which this corpus "
                         "cannot exercise: it has no settle document with chan: true "
                         "(`rulekit corpus --settle` writes settle documents)")


def test_jobs_do_not_change_the_report(corpus_file: Path, gold8_overlay: Path) -> None:
    lines = diff.read_corpus(corpus_file.read_text(encoding="utf-8").splitlines()[:600])
    old, new = diff.spec_for("tianjin"), diff.spec_for(str(gold8_overlay))
    one = diff.run(old, new, lines, jobs=1, chunk=50).to_dict()
    two = diff.run(old, new, lines, jobs=2, chunk=50).to_dict()
    assert one == two


# --- settle documents --------------------------------------------------------------------------

def test_settle_documents_are_compared_by_payments(tmp_path: Path, gold8_overlay: Path) -> None:
    docs: list[dict[str, Any]] = [
        {"id": "chan draw", "dealer": 0, "chan": True},                       # 鏟 1 → 2 each
        {"id": "plain win", "dealer": 0, "winner": 1, "hand": SU},             # unchanged
        {"id": "golden win", "dealer": 0, "winner": 2, "hand": GOLDEN,
         "kongs": [[], [], ["golden"], []]},                                   # 4 → 8 each
        {"id": "bad both", "dealer": 0, "winner": 1},                          # error twice
        SU,
    ]
    path = tmp_path / "mixed.jsonl"
    path.write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in docs),
                    encoding="utf-8")
    code, out = run("diff", "tianjin", str(gold8_overlay), "--corpus", str(path), "--json")
    assert code == 0
    r = json.loads(out)
    assert (r["documents"], r["hands"], r["settles"]) == (5, 1, 4)
    assert r["changed_lines"] == [1, 3]
    chan = next(c for c in r["largest"] if c["line"] == 1)
    assert chan["old"]["payments"] == [-3, 1, 1, 1]
    assert chan["new"]["payments"] == [-6, 2, 2, 2]
    gold = next(c for c in r["largest"] if c["line"] == 3)
    assert gold["change"] == "payments [-6, -6, 18, -6] → [-10, -10, 30, -10]"
    combos = {tuple(g["combination"]) for g in r["groups"]}
    assert combos == {("settle", "draw"), ("settle", "tiliu", "su")}


# --- git revisions -----------------------------------------------------------------------------

@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_old_may_be_a_git_revision(tmp_path: Path, corpus_file: Path, golden_lines: list[int],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
                       cwd=tmp_path, check=True, capture_output=True)

    git("init", "-q")
    (tmp_path / "rulesets").mkdir()
    table = tmp_path / "rulesets" / "table.yaml"
    table.write_text("extends: tianjin\nname: table\n", encoding="utf-8")
    git("add", ".")
    git("commit", "-q", "-m", "a table")
    table.write_text("extends: tianjin\nname: table\nkong_points: {golden: 8}\n",
                     encoding="utf-8")
    monkeypatch.chdir(tmp_path / "rulesets")
    code, out = run("diff", "HEAD:rulesets/table.yaml", "table.yaml", "--corpus",
                    str(corpus_file), "--json")
    assert code == 0, out
    r = json.loads(out)
    assert r["old"] == "HEAD:rulesets/table.yaml"
    assert r["changed_lines"] == golden_lines
    code, out = run("diff", "HEAD:./table.yaml", "HEAD:rulesets/table.yaml", "--corpus",
                    str(corpus_file), "--fail-on-change")
    assert code == 0 and "no change" in out


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_bad_revision_is_one_line(tmp_path: Path, corpus_file: Path,
                                    monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    monkeypatch.chdir(tmp_path)
    code, _ = run("diff", "HEAD:nope.yaml", "tianjin", "--corpus", str(corpus_file))
    err = capsys.readouterr().err
    assert code == 2
    assert err == (f"rulekit diff: error: HEAD:nope.yaml: 'HEAD' is not a commit in the git "
                   f"repository at {tmp_path}\n")
    git(tmp_path, "commit", "-q", "--allow-empty", "-m", "empty")
    code, _ = run("diff", "HEAD:nope.yaml", "tianjin", "--corpus", str(corpus_file))
    assert code == 2
    assert capsys.readouterr().err == ("rulekit diff: error: HEAD:nope.yaml: no such file at that "
                                       "revision\n")


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
                   cwd=repo, check=True, capture_output=True)


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
@pytest.mark.parametrize("ref", ["--output={victim}", "--output={victim}:HEAD",
                                 "-o{victim}:x.yaml", "--output={victim}:rulesets/x.yaml"])
def test_a_revision_that_looks_like_an_option_never_reaches_git(
        tmp_path: Path, corpus_file: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], ref: str) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / "x.yaml").write_text("extends: tianjin\nname: x\n", encoding="utf-8")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "x")
    monkeypatch.chdir(repo)
    victim = tmp_path / "victim"
    code, out = run("diff", "--corpus", str(corpus_file), "--", ref.format(victim=victim),
                    "tianjin")
    err = capsys.readouterr().err
    assert code == 2 and out == ""
    assert err.startswith("rulekit diff: error: ") and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == [repo]                  # nothing was written


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_revisions_parents_come_from_that_revision(tmp_path: Path, corpus_file: Path,
                                                     golden_lines: list[int],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    git(tmp_path, "init", "-q")
    (tmp_path / "rulesets" / "base").mkdir(parents=True)
    parent = tmp_path / "rulesets" / "base" / "parent.yaml"
    parent.write_text("extends: tianjin\nname: parent\n", encoding="utf-8")
    child = tmp_path / "rulesets" / "child.yaml"
    child.write_text("extends: base/parent.yaml\nname: child\n", encoding="utf-8")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-q", "-m", "v1")
    parent.write_text("extends: tianjin\nname: parent\nkong_points: {golden: 8}\n",
                      encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    # the child is the same at HEAD and on disk: only the parent changed, and it shows
    code, out = run("diff", "HEAD:rulesets/child.yaml", "rulesets/child.yaml", "--corpus",
                    str(corpus_file), "--json")
    assert code == 0, out
    assert json.loads(out)["changed_lines"] == golden_lines
    spec = diff.spec_for("HEAD:rulesets/child.yaml")
    assert spec.parents == (("rulesets/base/parent.yaml",
                             "extends: tianjin\nname: parent\n"),)
    assert spec.load().kong_points["golden"] == 4
    # a broken parent at a revision is named as REV:path:line
    git(tmp_path, "commit", "-q", "-am", "v2")
    parent.write_text("extends: tianjin\nname: parent\nkong_points: {golden: many}\n",
                      encoding="utf-8")
    git(tmp_path, "commit", "-q", "-am", "v3")
    with pytest.raises(RulesetError) as err:
        diff.spec_for("HEAD:rulesets/child.yaml").load()
    assert err.value.problems[0].startswith("HEAD:rulesets/base/parent.yaml:3: kong_points")
    assert diff.spec_for("HEAD~1:rulesets/child.yaml").load().kong_points["golden"] == 8
    # a parent missing at the revision
    child.write_text("extends: ghost.yaml\nname: child\n", encoding="utf-8")
    git(tmp_path, "commit", "-q", "-am", "v4")
    with pytest.raises(diff.RevisionError) as derr:
        diff.spec_for("HEAD:rulesets/child.yaml")
    assert str(derr.value) == ("HEAD:rulesets/ghost.yaml (extended by rulesets/child.yaml): "
                               "no such file at that revision")


def test_a_revision_text_names_itself_in_errors(tmp_path: Path) -> None:
    spec = diff.RulesetSpec("v1:x.yaml", str(tmp_path / "x.yaml"),
                            "extends: tianjin\nname: x\nkong_points: {golden: many}\n")
    with pytest.raises(RulesetError) as err:
        spec.load()
    assert err.value.problems[0].startswith("v1:x.yaml:3: kong_points.golden")


# --- bad input ---------------------------------------------------------------------------------

def test_bad_corpus_lines_stop_the_run(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(SU) + "\n\n{oops\n", encoding="utf-8")
    assert run("diff", "tianjin", "tianjin", "--corpus", str(path))[0] == 2
    assert capsys.readouterr().err == (f"rulekit diff: error: {path}:3: invalid JSON: Expecting "
                                       "property name enclosed in double quotes at column 2\n")
    path.write_text("[1, 2]\n", encoding="utf-8")
    assert run("diff", "tianjin", "tianjin", "--corpus", str(path))[0] == 2
    assert "bad.jsonl:1: expected a hand or settle document" in capsys.readouterr().err


@pytest.mark.parametrize("line,message", ids=["bytes", "long", "digits", "deep", "NaN",
                                              "duplicate"], argvalues=[
    (b'{"hand": "\xff"}', "bad.jsonl:2: not UTF-8 text (byte 10)"),
    (b"[" * 100_000 + b"]" * 100_000, "bad.jsonl:2: longer than 65536 bytes"),
    (b'{"stake": ' + b"9" * 5000 + b"}",
     "bad.jsonl:2: invalid JSON: an integer of more than 30 digits"),
    (b"[" * 30_000 + b"]" * 30_000, "bad.jsonl:2: invalid JSON: nested deeper than 32 levels"),
    # issue 18 item 5 (one loader, one meaning): diff read these as `score` never would
    (b'{"dealer": 0, "winner": 1, "stake": NaN}',
     "bad.jsonl:2: invalid JSON: NaN is not a JSON number"),
    (b'{"dealer": 0, "winner": 1, "dealer": 2}', "bad.jsonl:2: invalid JSON: duplicate key 'dealer'"),
])
def test_hostile_corpus_lines_are_one_clean_error(tmp_path: Path, line: bytes, message: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(json.dumps(SU).encode() + b"\n" + line + b"\n")
    assert run("diff", "tianjin", "tianjin", "--corpus", str(path))[0] == 2
    err = capsys.readouterr().err
    assert err.startswith(f"rulekit diff: error: {tmp_path}/{message}") and err.count("\n") == 1


def test_unknown_ruleset_and_missing_corpus(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("diff", "tianjin", "no-such", "--corpus", "x.jsonl")[0] == 2
    assert "no-such: no such ruleset" in capsys.readouterr().err
    assert run("diff", "tianjin", "tianjin", "--corpus", "/no/such.jsonl")[0] == 2
    assert "cannot open" in capsys.readouterr().err


# --- progress ----------------------------------------------------------------------------------

class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_progress_is_off_when_not_a_terminal() -> None:
    stream = io.StringIO()
    clock = Clock()
    with Progress(10, "x", stream=stream, clock=clock) as bar:
        clock.now = 5.0
        bar.advance(10)
    assert stream.getvalue() == ""


def test_progress_waits_a_second_then_draws_on_a_terminal() -> None:
    stream = io.StringIO()
    clock = Clock()
    with Progress(100, "diff", stream=stream, clock=clock, enabled=True) as bar:
        clock.now = 0.5
        bar.advance(10)
        assert stream.getvalue() == ""                      # short runs stay quiet
        clock.now = 2.0
        bar.advance(40)
    assert stream.getvalue().startswith("\r" + render("diff", 50, 100, 2.0))
    assert stream.getvalue().endswith(render("diff", 50, 100, 2.0) + "\n")
    assert render("diff", 50, 100, 2.0) == \
        "diff [############------------] 50/100  50% 2s, 2s left"


# --- settle documents in the corpus, and what a corpus cannot see -------------------------------

@pytest.fixture(scope="module")
def settle_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = io.StringIO()
    assert cli.main(["corpus", "--count", "1200", "--seed", "5", "--settle"], out=out) == 0
    path = tmp_path_factory.mktemp("corpus") / "settle.jsonl"
    path.write_text(out.getvalue(), encoding="utf-8")
    return path


def docs_of(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_corpus_settle_wraps_the_same_hands_in_valid_settle_documents(
        corpus_file: Path, settle_corpus: Path) -> None:
    hands, mixed = docs_of(corpus_file)[:1200], docs_of(settle_corpus)    # both seed 5
    settles = [(h, d) for h, d in zip(hands, mixed) if diff.kind_of(d) == "settle"]
    assert 200 < len(settles) < 400                           # a quarter of 1200
    for h, d in zip(hands, mixed):
        if diff.kind_of(d) == "hand":
            assert d == h                                     # the hand corpus is unchanged
    draws = [d for _, d in settles if d["winner"] is None]
    assert draws and all("hand" not in d for d in draws)
    assert any(d["chan"] for _, d in settles) and any(not d["chan"] for _, d in settles)
    outcomes: dict[str, int] = {}
    for h, d in settles:
        assert d["id"].startswith("s5-")
        if d["winner"] is not None:
            assert d["hand"] == {k: v for k, v in h.items() if k != "id"}
            if d["hand"].get("heavenly"):
                assert d["winner"] == d["dealer"]             # 天和 is the dealer's
        try:
            result = rulekit.settle(d)
        except SettleError as err:                            # a hand below the minimum
            assert "cannot win (below_minimum" in str(err), str(err)
            outcomes["below minimum"] = outcomes.get("below minimum", 0) + 1
            continue
        assert sum(result.payments) == 0
        outcomes["settled"] = outcomes.get("settled", 0) + 1
    assert outcomes["settled"] > 2 * outcomes["below minimum"] > 0
    assert cli.main(["corpus", "--count", "5", "--settle", "1.5"], out=io.StringIO()) == 2


def test_a_settle_corpus_shows_chan_edits(settle_corpus: Path, gold8_overlay: Path) -> None:
    code, out = run("diff", "tianjin", str(gold8_overlay), "--corpus", str(settle_corpus),
                    "--json")
    assert code == 0
    r = json.loads(out)
    assert r["warnings"] == []
    changed = set(r["changed_lines"])
    tianjin = rulekit.load_ruleset("tianjin")
    for n, d in enumerate(docs_of(settle_corpus), 1):
        if diff.kind_of(d) != "settle" or diff.evaluate(d, tianjin).error is not None:
            continue
        golden = any("golden" in k for k in d["kongs"])
        # 鏟 pays 1 (a 明杠) under tianjin and 2 (one 混吊) under gold8; 金杠 4 → 8
        assert (n in changed) == (d["chan"] or golden), (n, d)


def test_keys_the_corpus_cannot_exercise_are_warned_about(corpus_file: Path,
                                                         settle_corpus: Path,
                                                         tmp_path: Path) -> None:
    assert diff.differing_keys(rulekit.load_ruleset("tianjin").data,
                               rulekit.load_ruleset("tianjin-gold8").data) == [
        "chan.payout", "kong_points.golden"]
    overlay = tmp_path / "pulls.yaml"
    overlay.write_text("extends: tianjin\nname: pulls\nsettlement: {pull_multiplier: 3, "
                       "dealer_on_draw: pass_if_no_kong, discard_payer: discarder}\n",
                       encoding="utf-8")
    code, out = run("diff", "tianjin", str(overlay), "--corpus", str(corpus_file))
    assert code == 0
    assert out.splitlines()[-3:] == [
        "warning: the rulesets differ in settlement.dealer_on_draw, which this corpus cannot "
        "exercise: it has no settle document of a draw (`rulekit corpus --settle` writes "
        "settle documents)",
        "warning: the rulesets differ in settlement.discard_payer, which this corpus cannot "
        "exercise: it has no settle document of a win on a discard (`rulekit corpus "
        "--settle` writes settle documents)",
        "warning: the rulesets differ in settlement.pull_multiplier, which this corpus "
        "cannot exercise: it has no settle documents (`rulekit corpus --settle` writes "
        "settle documents)"]
    assert "no change: every document gives the same win and fan" in out
    code, out = run("diff", "tianjin", str(overlay), "--corpus", str(settle_corpus), "--json")
    r = json.loads(out)
    assert r["changed"] > 0
    assert r["warnings"] == [
        "the rulesets differ in settlement.discard_payer, which this corpus cannot exercise: "
        "it has no settle document of a win on a discard (`rulekit corpus --settle` writes "
        "settle documents)"]


def test_a_diff_on_a_local_dask_cluster_is_the_same_report(tmp_path: Path) -> None:
    """`diff --cluster local`: workers get the merged ruleset text, not our files, and the
    report (settle documents and 鏟 included) is byte for byte the one-process report."""
    import dask.distributed  # noqa: F401  (the test extra installs it: never skipped)
    corpus = tmp_path / "c.jsonl"
    code, text = run("corpus", "--count", "120", "--seed", "3", "--settle", "0.3")
    assert code == 0
    corpus.write_text(text, encoding="utf-8")
    argv = ("diff", "tianjin", "tianjin-gold8", "--corpus", str(corpus), "--format", "json")
    code, here = run(*argv, "--jobs", "1")
    assert code == 0 and json.loads(here)["changed"] > 0
    code, there = run(*argv, "--cluster", "local", "--jobs", "2")
    assert (code, there) == (0, here)


def test_a_cluster_ruleset_keeps_its_key_order() -> None:
    """The shipped text keeps `scoring`'s order, which is the order results list patterns."""
    spec = diff.spec_for("tianjin-flowers")
    rs = rulekit.load_ruleset("tianjin-flowers")
    shipped = diff.shipped(spec, rs)
    assert shipped.text is not None and shipped.load().algebra == rs.algebra


def test_a_new_pattern_is_named_and_top_trims_every_section(tmp_path: Path) -> None:
    """my-table adds 一般高: its groups name it under NEW; fan changes come before a document
    that became invalid (two pulls, my-table allows one); --top 1 trims groups and changes."""
    root = Path(__file__).resolve().parent.parent
    docs = [{"id": "pulled twice", "dealer": 0, "pulls": [0, 0, 0, 2], "winner": None},
            {"id": "plain", "indicator": "1z", "hand": "123m123m456p789s5z", "win_tile": "5z"},
            {"id": "zhuo", "indicator": "1z", "hand": "456m46m123p999s77z", "win_tile": "5m"}]
    path = tmp_path / "c.jsonl"
    path.write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in docs),
                    encoding="utf-8")
    table = str(root / "examples" / "my-table.yaml")
    code, out = run("diff", "tianjin", table, "--corpus", str(path), "--json")
    r = json.loads(out)
    assert code == 0 and r["changed_lines"] == [1, 2, 3] and len(r["groups"]) == 3
    assert [c["line"] for c in r["largest"]] == [3, 2, 1]      # validity changes last
    news = {tuple(g["combination"]): g["new_combination"] for g in r["groups"]}
    assert news[("tiliu", "su")] == ["yi_ban_gao", "su"]
    code, out = run("diff", "tianjin", table, "--corpus", str(path))
    assert "  tiliu su (提溜 素) → yi_ban_gao su (一般高 素): hand_fan +2, total_fan +2" in \
        "\n".join(ln[17:] if ln.startswith("       1 / 1") else ln for ln in out.splitlines()) \
        or "tiliu su (提溜 素) → yi_ban_gao su (一般高 素): hand_fan +2, total_fan +2" in out
    code, out = run("diff", "tianjin", table, "--corpus", str(path), "--top", "1")
    lines = out.splitlines()
    assert "  ... and 2 more groups (--top 1 shows the largest; --json lists them all)" in lines
    i = lines.index("largest changes:")
    assert lines[i + 1].startswith("  line 3 (zhuo): hand_fan 6 → 10, total_fan 6 → 10")
    assert not any(x.startswith("  line ") for x in lines[i + 2:])
