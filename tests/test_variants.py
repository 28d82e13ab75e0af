"""The built-in variants (rulesets/tianjin-*.yaml) and the overlays of docs/variants.md.

Data lives in tests/data/variants/: one file per built-in variant (`ruleset:` names it) and
overlays.yaml (each overlay's YAML text is written to a file and loaded by path, as an author
would). Every case gives `expect` under the variant and, where the variant changes the result,
`default`: what rulesets/tianjin.yaml gives for the same document, so a case shows the change.
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from rulekit import cli
from conftest import fan_table_cases, reading_cases
from rulekit.dsl.vocabulary import ATTRIBUTES, CONSTANTS, FUNCTIONS, NAMES
from rulekit.errors import HandError, RulekitError, RulesetError, SettleError
from rulekit.resources import cases_dir, rulesets_dir
from rulekit.ruleset.model import Ruleset, load
from rulekit.scoring import ScoreResult, score_document
from rulekit.session import run_session
from rulekit.settlement import SettleResult, settle_document

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).parent / "data"
VARIANTS = DATA / "variants"
DOCS = ROOT / "docs"
ERRORS: dict[str, type[RulekitError]] = {"HandError": HandError, "SettleError": SettleError}

DEFAULT = load("tianjin")


def _yaml(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


VARIANT_FILES = sorted(p for p in VARIANTS.glob("*.yaml") if p.name != "overlays.yaml")
OVERLAYS: list[dict[str, Any]] = _yaml(VARIANTS / "overlays.yaml")
BUILTIN_VARIANTS = sorted(p.stem for p in rulesets_dir().glob("tianjin-*.yaml"))


# --- running a case ----------------------------------------------------------------------------

def _score_or_error(doc: dict[str, Any], rs: Ruleset) -> ScoreResult | RulekitError:
    try:
        return score_document(doc, rs)
    except (HandError, SettleError) as err:
        return err


def _settle_or_error(doc: dict[str, Any], rs: Ruleset) -> SettleResult | RulekitError:
    try:
        return settle_document(doc, rs)
    except (HandError, SettleError) as err:
        return err


def _check_error(got: Any, expect: dict[str, Any], where: str) -> None:
    want = ERRORS[expect["error"]]
    assert isinstance(got, want), f"{where}: expected {want.__name__}, got {got!r}"
    if "field" in expect:
        assert got.field == expect["field"], f"{where}: {got}"  # type: ignore[attr-defined]


def check_score(got: ScoreResult | RulekitError, expect: dict[str, Any], where: str) -> None:
    if "error" in expect:
        _check_error(got, expect, where)
        return
    assert isinstance(got, ScoreResult), f"{where}: {got}"
    for key in ("win", "hand_fan", "kong_fan", "total_fan", "reason"):
        if key in expect:
            assert getattr(got, key) == expect[key], \
                f"{where}: {key} {getattr(got, key)!r} != {expect[key]!r} ({got.explain})"
    if "patterns" in expect:
        assert set(got.patterns) == set(expect["patterns"]), f"{where}: {got.patterns}"
    if "patterns_one_of" in expect:
        assert set(got.patterns) in [set(p) for p in expect["patterns_one_of"]], \
            f"{where}: {got.patterns}"


def check_settle(got: SettleResult | RulekitError, expect: dict[str, Any], where: str) -> None:
    if "error" in expect:
        _check_error(got, expect, where)
        return
    assert isinstance(got, SettleResult), f"{where}: {got}"
    if "payments" in expect:
        assert list(got.payments) == expect["payments"], f"{where}: {got.transfers}"
    if "next_dealer" in expect:
        assert got.next_dealer == expect["next_dealer"], where


def run_inline_cases(spec: dict[str, Any], rs: Ruleset) -> int:
    """Every score and settle case written in `spec` (an overlay's) under `rs`, and its
    `default` under tianjin."""
    n = 0
    for case in spec.get("cases", []):
        where = f"{rs.name}: {case['name']}"
        check_score(_score_or_error(case["hand"], rs), case["expect"], where)
        if "default" in case:
            check_score(_score_or_error(case["hand"], DEFAULT), case["default"],
                        f"tianjin (default): {case['name']}")
        n += 1
    for case in spec.get("settle", []):
        where = f"{rs.name}: {case['name']}"
        check_settle(_settle_or_error(case["doc"], rs), case["expect"], where)
        if "default" in case:
            check_settle(_settle_or_error(case["doc"], DEFAULT), case["default"],
                         f"tianjin (default): {case['name']}")
        n += 1
    return n


def golden(ruleset: str) -> list[dict[str, Any]]:
    """The cases of rulesets/cases/RULESET.yaml: the one copy of every variant's cases."""
    cases: list[dict[str, Any]] = _yaml(cases_dir() / f"{ruleset}.yaml")["cases"]
    return cases


def run_cases(spec: dict[str, Any], rs: Ruleset) -> int:
    """Every case of the variant's case file under `rs` (a refused document by its error
    class and field from `spec["refused"]`), and each `spec["default"]` under tianjin."""
    n = 0
    refused, default = spec.get("refused", {}), spec.get("default", {})
    for case in golden(spec["ruleset"]):
        where = f"{rs.name}: {case['name']}"
        expect = refused.get(case["name"], case["expect"])
        name = case["name"]
        if "error" in case["expect"]:
            assert name in refused, f"{where}: refused, but no error class and field here"
        if "hand" in case:
            got_hand = _score_or_error(case["hand"], rs)
            assert "error" not in case["expect"] or str(got_hand) == case["expect"]["error"]
            check_score(got_hand, expect, where)
            if name in default:
                check_score(_score_or_error(case["hand"], DEFAULT), default[name],
                            f"tianjin (default): {name}")
        else:
            got_settle = _settle_or_error(case["settle"], rs)
            assert "error" not in case["expect"] or str(got_settle) == case["expect"]["error"]
            check_settle(got_settle, expect, where)
            if name in default:
                check_settle(_settle_or_error(case["settle"], DEFAULT), default[name],
                             f"tianjin (default): {name}")
        n += 1
    assert set(refused) | set(default) <= {c["name"] for c in golden(spec["ruleset"])}
    return n


# --- the built-in variants ---------------------------------------------------------------------

@pytest.mark.parametrize("path", VARIANT_FILES, ids=lambda p: p.stem)
def test_builtin_variant_cases(path: Path) -> None:
    spec = _yaml(path)
    rs = load(spec["ruleset"])
    assert run_cases(spec, rs) >= 3


def test_every_builtin_variant_has_its_own_cases() -> None:
    covered = {_yaml(p)["ruleset"] for p in VARIANT_FILES}
    assert BUILTIN_VARIANTS and set(BUILTIN_VARIANTS) <= covered
    assert {"tianjin-gold8", "tianjin-laizi", "tianjin-street", "tianjin-flowers",
            "tianjin-3p", "tianjin-dianpao"} <= set(BUILTIN_VARIANTS)


@pytest.mark.parametrize("name", BUILTIN_VARIANTS)
def test_builtin_variant_extends_tianjin_and_cites_its_seeds(name: str) -> None:
    rs = load(name)
    assert rs.name == name
    assert rs.chain == (f"rulesets/{name}.yaml", "rulesets/tianjin.yaml")
    text = (rulesets_dir() / f"{name}.yaml").read_text(encoding="utf-8")
    header = "".join(line for line in text.splitlines(keepends=True)
                     if line.startswith("#"))
    assert text.startswith("# yaml-language-server: $schema=")
    assert re.search(r"\b00[012]/?[ⅠⅡⅢⅣⅤⅥⅦⅧⅨⅩ]?", header), "the header cites no seed"
    assert "docs/variants.md" in header or "tests/data/variants" in header
    assert name in (DOCS / "variants.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", BUILTIN_VARIANTS)
def test_builtin_variant_validates_and_shows(name: str, capsys: pytest.CaptureFixture[str]
                                             ) -> None:
    assert cli.main(["validate", str(rulesets_dir() / f"{name}.yaml")]) == 0
    assert capsys.readouterr().out == f"rulesets/{name}.yaml: ok ({name}, " \
        f"{len(load(name).patterns)} patterns)\n"
    assert cli.main(["show", name]) == 0
    shown = capsys.readouterr().out
    assert shown.startswith(f"# {name}: resolved from rulesets/{name}.yaml <- "
                            "rulesets/tianjin.yaml")


def test_laizi_reproduces_every_consistent_number_of_002() -> None:
    """Each 002 number is a case; the self-contradicting ones are marked and documented."""
    conflicts = [c for c in golden("tianjin-laizi")
                 if "the consistent reading gives" in c.get("note", "")]
    assert len(conflicts) == 5     # 杠開混吊 ×2, 杠開雙混吊 ×2, 暗杠杠開本混捉5龍
    doc = (DOCS / "variants.md").read_text(encoding="utf-8")
    for needle in ("杠開混吊", "杠開雙混吊", "暗杠杠開本混捉5龍"):
        assert needle in doc


def test_three_player_session_rotates_among_three() -> None:
    rs = load("tianjin-3p")
    su = {"indicator": "3s", "hand": "234m567p111z666z8p", "win_tile": "8p"}
    s = run_session([{"dealer": 2, "winner": 0, "hand": su}, {"winner": 1, "hand": su}, {}],
                    rs)
    assert s.dealers == (2, 0, 1)
    assert s.hands[0].payments == (4, -2, -2)
    assert s.totals == (2, 2, -4)
    assert s.next_dealer == 1


# --- overlays: every disputed point, and the fixed keys ---------------------------------------

DISPUTED_POINTS = {
    # the rows of the "Disputed points" table of RULES.md
    "hun kinds", "金杠 kong points", "天和", "地和, 天聽", "鏟 payout",
    "kong points and 坐莊/拉莊", "dealer on a draw", "杠開 with a concealed kong",
    "雙混吊捉5龍", "素本龍, 素本伍龍", "minimum fan counts kong points",
    "win on discard (點炮), 海底撈", "flowers, 八花齊, 混一色 碰碰胡 清一色 清碰 亂風向 字碰",
    "players",
}
FIXED_KEYS = {"hun": {"kinds"}, "kong_points": {"golden"}, "heavenly": {"multiplier"},
              "chan": {"payout"}}


def test_every_disputed_point_has_an_overlay() -> None:
    points = {o["point"] for o in OVERLAYS}
    assert DISPUTED_POINTS <= points, DISPUTED_POINTS - points


@pytest.mark.parametrize("overlay", OVERLAYS, ids=lambda o: o["id"])
def test_overlay(overlay: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / f"{overlay['id']}.yaml"
    path.write_text(overlay["overlay"], encoding="utf-8")
    rs = load(path)                                   # loaded by path, as an author would
    assert rs.chain[0] == str(path)
    assert run_inline_cases(overlay, rs) >= 1


@pytest.mark.parametrize("overlay", [o for o in OVERLAYS if o.get("fixed")],
                         ids=lambda o: o["id"])
def test_fixed_key_overlays_are_three_lines(overlay: dict[str, Any]) -> None:
    lines = [line for line in overlay["overlay"].splitlines() if line.strip()]
    assert 2 <= len(lines) <= 3 and lines[0] == "extends: tianjin"
    data = yaml.safe_load(overlay["overlay"])
    for key, value in data.items():
        if key != "extends":
            assert key in FIXED_KEYS and set(value) <= FIXED_KEYS[key], key


def test_all_fixed_keys_are_tested() -> None:
    used = {(k, sub) for o in OVERLAYS if o.get("fixed")
            for k, v in yaml.safe_load(o["overlay"]).items() if k != "extends" for sub in v}
    assert used == {(k, s) for k, subs in FIXED_KEYS.items() for s in subs}


@pytest.mark.parametrize("overlay", OVERLAYS, ids=lambda o: o["id"])
def test_overlay_is_shown_verbatim_in_docs(overlay: dict[str, Any]) -> None:
    assert overlay["overlay"].strip() in (DOCS / "variants.md").read_text(encoding="utf-8")


# --- `rulekit validate`: every mistake at once, with its line --------------------------------

FIVE_MISTAKES = """\
extends: tianjin
name: five-mistakes
hun: {kinds: 3}
kong_point: {golden: 8}
win:
  minimum: -1
chan: {payout: everything}
patterns:
  hun_diao:
    name: 混吊
    when: win.group.shap == pair and win.group.other_hun == 1
"""


def test_validate_reports_five_mistakes_with_their_lines(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "five.yaml"
    path.write_text(FIVE_MISTAKES, encoding="utf-8")
    assert cli.main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    problems = [line for line in err.splitlines() if line.startswith(f"{path}:")]
    assert len(problems) == 5, err
    expected = [(3, "hun.kinds: must be one of 1, 2"),
                (4, "kong_point: unknown key; did you mean 'kong_points'?"),
                (6, "win.minimum: must be at least 0"),
                (7, "chan.payout: must be one of exposed_kong, hun_diao"),
                (11, "patterns.hun_diao.when: a group has no attribute 'shap'; "
                     "did you mean 'shape'?")]
    for (line, message), got in zip(expected, problems):
        assert got.startswith(f"{path}:{line}:"), got
        assert message in got, got


def test_validate_as_a_process_exits_2_without_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "five.yaml"
    path.write_text(FIVE_MISTAKES, encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "rulekit.cli", "validate", str(path)],
                          capture_output=True, text=True, encoding="utf-8", check=False)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    lines = [line for line in proc.stderr.splitlines() if line.startswith(f"{path}:")]
    assert [int(line.split(":")[1]) for line in lines] == [3, 4, 6, 7, 11]


def test_load_raises_with_the_same_five(tmp_path: Path) -> None:
    path = tmp_path / "five.yaml"
    path.write_text(FIVE_MISTAKES, encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        load(path)
    assert len([p for p in info.value.problems if p.startswith(f"{path}:")]) == 5


# --- the default is untouched by the patterns added for the variants -------------------------

def test_default_cases_still_hold() -> None:
    for case in fan_table_cases() + reading_cases():
        check_score(_score_or_error(case["hand"], DEFAULT), case["expect"],
                    f"tianjin: {case['name']}")


def test_off_patterns_have_no_value_in_the_default() -> None:
    off = {"di_he", "tian_ting", "su_ben_long", "hai_di_lao", "dian_pao"}
    assert off <= {p.id for p in DEFAULT.patterns}
    assert not off & DEFAULT.algebra.ids
    assert not DEFAULT.total_rules and not DEFAULT.instant_wins


# --- docs ----------------------------------------------------------------------------------------

def test_dsl_reference_names_every_primitive() -> None:
    text = (DOCS / "dsl.md").read_text(encoding="utf-8")
    words = set(NAMES) | set(CONSTANTS) | set(FUNCTIONS)
    words |= {f"{obj}.{attr}" for obj, attrs in ATTRIBUTES.items() for attr in attrs
              if obj in ("win", "hand", "hun", "context")}
    words |= {f".{attr}" for attr in ATTRIBUTES["group"]}
    words |= {"some", "every", "no", "count(", "not", "and", "or", " in ", "true", "false", "#"}
    missing = sorted(w for w in words if f"`{w}" not in text and f"{w}`" not in text)
    assert not missing, missing


def test_glossary_has_the_terms_the_issue_lists() -> None:
    text = (DOCS / "glossary.md").read_text(encoding="utf-8")
    for term in ("混", "hun", "提溜", "tiliu", "素", "su", "混吊", "hun_diao", "雙混吊",
                 "shuang_hun_diao", "捉5", "zhuo_wu", "龍", "long", "本混", "ben_hun", "杠開",
                 "gang_kai", "天和", "tian_he", "金杠", "golden", "明杠", "暗杠", "鏟", "chan",
                 "坐莊", "dealer_sits", "拉莊", "pulls", "小相公", "xiao_xiang_gong", "荒莊",
                 "點炮", "discard", "海底撈", "last_draw", "地和", "earthly", "天聽",
                 "ready_declared", "八花齊", "ba_hua_qi"):
        assert term in text, term


def test_authoring_tutorial_overlay_loads(tmp_path: Path) -> None:
    """The house rule the tutorial writes (docs/authoring.md) loads and scores as it says."""
    text = (DOCS / "authoring.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", text, re.S)
    final = next(b for b in blocks if b.startswith("# yaml-language-server") and
                 "name: my-table" in b)
    path = tmp_path / "my-table.yaml"
    path.write_text(final, encoding="utf-8")
    rs = load(path)
    assert rs.name == "my-table"
    cases = next(b for b in blocks if b.startswith("# cases/my-table.yaml"))
    for case in yaml.safe_load(cases)["cases"]:
        check_score(_score_or_error(case["hand"], rs), case["expect"], case["name"])


