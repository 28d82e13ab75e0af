"""`simulate --versus`: which rules differ, whether they fired, paired differences that read
FIRST − OTHER, and numbers for people without `-0.000` (docs/game.md, "Simulation")."""
from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

import rulekit
from rulekit.cli import main
from rulekit.game import impact
from rulekit.game.stats import Sessions, num, rate, shown, signed, spread


def run(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(args), out=out), out.getvalue()


def overlay(tmp_path: Path) -> str:
    """An edit that fires in most hands: 混吊 ×3, 暗杠 3."""
    path = tmp_path / "hd3.yaml"
    path.write_text("extends: tianjin\nname: hd3\nscoring: {multiply: {hun_diao: 3}}\n"
                    "kong_points: {concealed: 3}\n", encoding="utf-8")
    return str(path)


def test_street_lists_its_three_rules_with_fired_hands_and_warns_for_each_unfired() -> None:
    code, out = run("simulate", "--ruleset", "tianjin", "--versus", "tianjin-street",
                    "--hands", "64", "--seed", "5", "--format", "json")
    rep = json.loads(out)
    assert code == 0
    rules = {r["key"]: r for r in rep["rules_differ"]}
    assert set(rules) == {"kong_points.golden", "scoring.combinations.雙混吊捉5龍",
                          "settlement.kong_points_multiplied"}
    gold = rules["kong_points.golden"]
    assert (gold["first"], gold["other"], gold["name"]) == (4, 8, "金杠分")
    combo = rules["scoring.combinations.雙混吊捉5龍"]
    assert combo["first"] is None and combo["other"]["value"] == 15
    assert rules["settlement.kong_points_multiplied"]["first"] is True
    assert all(r["fired_hands"] == 0 for r in rules.values())     # greedy, no 坐莊: none fires
    assert len(rep["warnings"]) == 3
    assert any("settlement.kong_points_multiplied" in w and "game.dealer_sits" in w
               for w in rep["warnings"])
    assert rep["money_changed"]["count"] == 0


def test_a_rule_that_fires_counts_its_hands_and_no_warning(tmp_path: Path) -> None:
    code, out = run("simulate", "-r", overlay(tmp_path), "--versus", "tianjin",
                    "--hands", "48", "--seed", "3", "--format", "json")
    rep = json.loads(out)
    rules = {r["key"]: r for r in rep["rules_differ"]}
    hd = rules["scoring.multiply.hun_diao"]
    assert (hd["first"], hd["other"], hd["name"]) == (3, 2, "翻倍 混吊")
    # fired = 混吊 among the winner's patterns under either ruleset: at least under each alone
    shares = [rep[k]["patterns"]["hun_diao"]["count"] for k in ("first_summary",
                                                                "other_summary")]
    assert max(shares) <= hd["fired_hands"] <= sum(shares)
    assert not any("hun_diao" in w for w in rep["warnings"])
    assert rep["money_changed"]["count"] > 0
    per_hand = rep["money_difference"][0]["value"]
    per_changed = rep["money_difference_per_changed_hand"][0]["value"]
    assert per_changed == pytest.approx(per_hand * 48 / rep["money_changed"]["count"],
                                        abs=1e-5)


def test_swapping_the_rulesets_swaps_the_labels_and_the_signs(tmp_path: Path) -> None:
    mine = overlay(tmp_path)
    _, ab = run("simulate", "-r", mine, "--versus", "tianjin", "--hands", "32", "--seed", "8",
                "--format", "json")
    _, ba = run("simulate", "-r", "tianjin", "--versus", mine, "--hands", "32", "--seed", "8",
                "--format", "json")
    a, b = json.loads(ab), json.loads(ba)
    assert (a["first"], a["other"]) == ("hd3", "tianjin") == (b["other"], b["first"])
    assert a["reading"].startswith("differences read FIRST − OTHER: hd3 minus tianjin")
    assert b["reading"].startswith("differences read FIRST − OTHER: tianjin minus hd3")
    moved = [s for s in range(4) if a["money_difference"][s]["value"] != 0]
    assert moved                                   # the edit moves money at this seed
    for s in range(4):
        x, y = a["money_difference"][s], b["money_difference"][s]
        assert x["value"] == pytest.approx(-y["value"])
        assert x["low"] == pytest.approx(-y["high"]) and x["high"] == pytest.approx(-y["low"])
    assert [(r["key"], r["first"], r["other"], r["fired_hands"]) for r in a["rules_differ"]] \
        == [(r["key"], r["other"], r["first"], r["fired_hands"]) for r in b["rules_differ"]]
    # the text says it in words, and the sign of each seat follows
    _, text = run("simulate", "-r", mine, "--versus", "tianjin", "--hands", "32",
                  "--seed", "8")
    assert "Differences read FIRST − OTHER: hd3 minus tianjin" in text
    seat = moved[0]
    line = next(ln for ln in text.splitlines() if ln.strip().startswith(f"seat {seat} ("))
    assert line.split(")")[1].split()[0] == signed(a["money_difference"][seat]["value"])


def test_rule_diff_names_each_rule_in_chinese() -> None:
    a, b = rulekit.load_ruleset("tianjin"), rulekit.load_ruleset("tianjin-dianpao")
    diffs = {d.key: d for d in impact.rule_diff(a, b)}
    assert diffs["win.by"].first == ["self_draw", "kong_draw"]
    assert diffs["win.by"].kind == "play" and diffs["win.by"].name.startswith("和牌方式")
    assert impact.rule_diff(a, a) == ()


def outcome(**kw: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"winner": 0, "win_by": "self_draw", "dealer": 0,
                            "patterns": ["tiliu"], "total_fan": 2, "payments": [6, -2, -2, -2],
                            "kongs": [[], [], [], []], "chan": False, "turns": 30,
                            "dealer_sits": False, "pulls": [0, 0, 0, 0]}
    base.update(kw)
    return base


def test_fired_means_what_each_kind_says() -> None:
    gold = impact.RuleDiff("kong_points.golden", "金杠分", 4, 8, "kong", kong=("golden",))
    plain = outcome()
    with_gold = outcome(kongs=[["golden"], [], [], []])
    assert not gold.fired(plain, plain) and gold.fired(plain, with_gold)
    combo = impact.RuleDiff("scoring.combinations.x", "x", None, {}, "combination",
                            patterns=("su", "long"))
    assert combo.fired(outcome(patterns=["long", "su"]), plain)
    assert not combo.fired(outcome(patterns=["long"]), plain)
    mult = impact.RuleDiff("settlement.kong_points_multiplied", "", True, False,
                           "kong_multiplied")
    assert not mult.fired(with_gold, with_gold)
    assert mult.fired(outcome(kongs=[["exposed"], [], [], []], dealer_sits=True), plain)
    play = impact.RuleDiff("win.minimum", "", 2, 1, "play")
    assert not play.fired(plain, plain) and play.fired(plain, outcome(turns=31))


def test_numbers_for_people_never_read_minus_zero() -> None:
    assert num(-0.0001) == "0.000" and num(-0.0) == "0.000" and num(-0.002) == "-0.002"
    assert signed(0.0) == "0.000" and signed(0.1234) == "+0.123" and signed(-1.5) == "-1.500"
    assert shown({"value": -0.0, "low": -0.0004, "high": 0.0}) == "0.000 [0.000, 0.000]"


def test_wilson_holds_for_a_rare_event() -> None:
    r = rate(0, 2000)
    assert r["low"] == 0.0 and 0.0015 < r["high"] < 0.0025      # 3.84/(n+3.84)
    r = rate(1, 2000)
    assert r["low"] > 0 and r["high"] < 0.003


def test_bootstrap_over_sessions_is_seeded_and_brackets_the_mean() -> None:
    xs = [float(i % 7) - 3 for i in range(160)]
    sessions = [i // 16 for i in range(160)]
    one = Sessions(sessions, 4).ratio(xs)
    assert one == Sessions(sessions, 4).ratio(xs)                 # reproducible
    assert one["low"] <= one["value"] <= one["high"]
    assert one["value"] == pytest.approx(sum(xs) / 160, abs=1e-6)
    # one session changed: per hand tiny, the interval reaches 0 from the resamples without it
    rare = [0.0] * 160
    rare[5] = 8.0
    got = Sessions(sessions, 4).ratio(rare)
    assert got["low"] == 0.0 and got["value"] == pytest.approx(0.05)
    assert spread([3.0, -1.0, 2.0])["worst"] == -1.0


def ci(v: float, lo: float, hi: float) -> dict[str, Any]:
    return {"value": v, "low": lo, "high": hi}


def versus_report(players: list[str], win: dict[str, Any], fired: int) -> dict[str, Any]:
    zero = ci(0.0, 0.0, 0.0)
    return {"first": "a", "other": "b", "reading": "differences read FIRST − OTHER: a minus b",
            "hands": 64, "session_hands": 16, "players": players,
            "win_rate_difference": win, "draw_rate_difference": zero,
            "hand_length_difference": zero, "dealer_edge_difference": zero,
            "money_changed": {"count": fired},
            "rules_differ": [{"key": "kong_points.golden", "name": "金杠分",
                              "fired_hands": fired}],
            "warnings": []}


def test_across_players_says_which_conclusions_depend_on_the_players() -> None:
    from rulekit.game import across
    assert across.mixes(4) == [("greedy",) * 4, ("value",) * 4,
                               ("value", "greedy", "value", "greedy")]
    got = across.combine([versus_report(["greedy"] * 4, ci(0.1, 0.05, 0.2), 0),
                          versus_report(["value"] * 4, ci(0.01, -0.02, 0.04), 3)])
    depends = got["depends_on_players"]
    assert depends[0].startswith("win rate: all greedy: more under a (+0.100")
    assert "all value: no clear difference" in depends[0]
    assert any(d.startswith("kong_points.golden (金杠分) fired in 0 hands with all greedy, "
                            "3 hands with all value") for d in depends)
    assert got["warnings"] == []
    assert [h.split(":")[0] for h in got["holds_across_players"]] == \
        ["荒莊 rate", "hand length (discards)", "dealer edge per hand"]


def test_across_players_runs_each_mix_and_needs_versus(capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    code, out = run("simulate", "--versus", "tianjin-gold8", "--across-players",
                    "--hands", "16", "--seed", "1", "--format", "json")
    rep = json.loads(out)
    assert code == 0 and [r["players"] for r in rep["across_players"]] == \
        [["greedy"] * 4, ["value"] * 4, ["value", "greedy", "value", "greedy"]]
    assert all(r["hands"] == 16 for r in rep["across_players"])
    code, _ = run("simulate", "--across-players", "--hands", "16")
    assert code == 2 and "give --versus OTHER" in capsys.readouterr().err


def test_the_html_page_serves_a_plain_summary_and_an_across_report(tmp_path: Path) -> None:
    from rulekit.game import across, html_report
    page = tmp_path / "plain.html"
    code, _ = run("simulate", "--hands", "16", "--seed", "2", "--html", str(page))
    text = page.read_text(encoding="utf-8")
    assert code == 0 and "<title>tianjin: 16 simulated hands</title>" in text
    assert 'id="plot-fan"' in text and 'id="plot-money"' in text and "<script" not in text
    rep = across.combine([versus_report(["greedy"] * 4, ci(0.1, 0.05, 0.2), 0),
                          versus_report(["value"] * 4, ci(0.01, -0.02, 0.04), 3)])
    for r in rep["across_players"]:           # what _versus reads beyond the combine test's
        r.update(json.loads(run("simulate", "--versus", "tianjin-gold8", "--hands", "16",
                                "--format", "json")[1]))
    html = html_report.page(rep)
    assert html.count('id="mix0-rules"') == 1 and html.count('id="mix1-rules"') == 1
    assert '<ul id="depends"><li>win rate: all greedy: more under a (+0.100' in html


def test_one_worker_plays_a_task_per_session_so_progress_moves(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from rulekit.game import cli as game_cli, parallel
    seen: list[int] = []
    real = parallel.run

    def counting(tasks: Any, workers: int, cluster: Any = None) -> Any:
        seen.append(len(tasks))
        return real(tasks, workers, cluster)
    monkeypatch.setattr(game_cli.parallel, "run", counting)
    code, _ = run("simulate", "--hands", "40", "--seed", "1", "--session-hands", "8")
    assert code == 0 and seen == [5]                 # 40 hands: 5 sessions, 5 advances


def test_every_ruleset_key_of_the_schema_has_a_chinese_name() -> None:
    """rulekit/data/rule_keys.json names each section and each key of a section the schema
    lists (the report's `name`), so a new `game:` key is never shown bare."""
    from rulekit.ruleset.schema import schema
    names = impact.key_names()
    props = schema()["properties"]
    keys = [k for k in props if k not in impact.META_KEYS]
    keys += [f"{k}.{sub}" for k in keys for sub in props[k].get("properties") or {}]
    assert "game.declare_ready" in keys
    assert [k for k in keys if k not in names] == []
    assert names["game.declare_ready"] == "報天聽"


def test_the_one_row_charts_share_their_frame() -> None:
    """`html_report.intervals` and `boxes` draw on one frame (`_rows_frame`): 640 wide, the
    axis from the lowest to the highest value with zero on it, a dashed zero line, both ends
    labelled; rows of the first half in the first colour."""
    from rulekit.game.html_report import boxes, intervals
    rows = [("seat 0", {"value": 1.5, "low": -2.25, "high": 3.0}),
            ("seat 1", {"value": -0.5, "low": -1.0, "high": 0.25})]
    svg = intervals(rows)
    assert 'viewBox="0 0 640 74"' in svg                      # 30 + 22 a row
    assert '<line x1="374.3" y1="4" x2="374.3" y2="56"' in svg  # zero: 190 + 430 × 2.25/5.25
    assert ">-2.250</text>" in svg and ">3.000</text>" in svg
    assert '<circle cx="497.1" cy="14" r="4" fill="#2f6fb3">' in svg
    assert '<circle cx="333.3" cy="36" r="4" fill="#d9822b">' in svg
    sp = {"worst": -10, "best": 12.5,
          "quantiles": {"5%": -8, "25%": -2, "50%": 1, "75%": 3, "95%": 9}}
    svg = boxes([("a", sp)])
    assert 'viewBox="0 0 640 54"' in svg                      # 30 + 24 a row
    assert ">-10.0</text>" in svg and ">12.5</text>" in svg
    assert '<line x1="381.1" y1="4" x2="381.1" y2="36"' in svg  # zero: 190 + 430 × 10/22.5
