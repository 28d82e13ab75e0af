"""`rulekit simulate` and `rulekit replay`, and the ruleset's `game:` section."""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import rulekit
from rulekit.cli import main
from rulekit.errors import RulesetError
from rulekit.game.rules import defaults, game_rules


def run(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(args), out=out), out.getvalue()


def test_game_rules_default_from_the_schema_and_tianjin_states_them() -> None:
    r = game_rules(rulekit.load_ruleset("tianjin"))
    assert defaults() == {"break_dice": "dealer", "draw_game_at": "before_indicator_stack",
                          "pung_hun": False, "rob_kong": False, "flowers": False,
                          "dealer_sits": False, "pulls": 0, "claims_on_last_four": True,
                          "earthly_as_heavenly": False, "single_hun": "indicator",
                          "declare_ready": False}
    assert r.ready is False
    assert (r.players, r.hun_kinds, r.break_dice, r.rob_kong, r.win_on_discard) == \
        (4, 2, "dealer", False, False)
    assert dict(rulekit.load_ruleset("tianjin").data["game"]) == defaults()


def test_a_game_overlay_changes_the_procedure(tmp_path: Path) -> None:
    path = tmp_path / "t.yaml"
    path.write_text("extends: tianjin-dianpao\nname: t\n"
                    "game: {rob_kong: true, dealer_sits: true, pulls: 3, break_dice: two_rolls}\n")
    r = game_rules(rulekit.load_ruleset(str(path)))
    assert r.rob_kong and r.win_on_discard and r.dealer_sits and r.break_dice == "two_rolls"
    assert r.pulls == 2                      # at most settlement.max_pulls


def test_an_unknown_game_key_is_refused_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("extends: tianjin\nname: bad\ngame:\n  rob_kongs: true\n")
    with pytest.raises(RulesetError) as err:
        rulekit.load_ruleset(str(path))
    assert "bad.yaml:4: game.rob_kongs: unknown key; did you mean 'rob_kong'?" in str(err.value)


def test_simulate_json_reports_rates_with_intervals(tmp_path: Path) -> None:
    code, out = run("simulate", "--hands", "48", "--seed", "1", "--json",
                    "--players", "greedy,greedy,value,random")
    assert code == 0
    rep = json.loads(out)
    assert rep["hands"] == 48 and rep["players"] == ["greedy", "greedy", "value", "random"]
    w, d = rep["win_rate"], rep["draw_rate"]
    assert w["count"] + d["count"] == 48
    assert w["low"] <= w["value"] <= w["high"]
    assert sum(rep["fan"]["distribution"].values()) == w["count"]
    assert abs(sum(m["value"] for m in rep["money"])) < 1e-6       # money only moves
    assert all(r["count"] <= w["count"] for r in rep["patterns"].values())
    assert set(rep["by_player"]) == {"greedy", "value", "random"}


def test_simulate_compares_two_kinds_of_player_within_each_hand() -> None:
    code, out = run("simulate", "--hands", "16", "--seed", "5", "--json",
                    "--players", "value,greedy,value,greedy")
    by = json.loads(out)["by_player"]
    # payments sum to zero, so the two kinds' means are opposite and differ by twice one
    assert by["value"]["value"] == pytest.approx(-by["greedy"]["value"])
    assert by["value - greedy"]["value"] == pytest.approx(2 * by["value"]["value"])


def test_simulate_versus_same_deals(tmp_path: Path) -> None:
    code, out = run("simulate", "--hands", "32", "--seed", "2", "--json",
                    "--versus", "tianjin-gold8")
    rep = json.loads(out)
    assert code == 0 and rep["first"] == "tianjin" and rep["other"] == "tianjin-gold8"
    assert rep["same_play"] == 32 and rep["changed_without_golden_kong_or_chan"] == 0


def test_replay_reproduces_and_rescores(tmp_path: Path) -> None:
    log = tmp_path / "a.jsonl"
    code, _ = run("simulate", "--hands", "20", "--seed", "4", "--log", str(log), "--json")
    rec = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert {"seed", "dealer", "indicator", "wall", "events", "result"} <= set(rec)
    assert {"winner", "patterns", "total_fan", "payments", "next_dealer"} <= set(rec["result"])
    assert len(rec["wall"]) == 272 and len(rec["result"]["payments"]) == 4
    code, out = run("replay", str(log))
    assert code == 0 and out.startswith("20 hands, 20 reproduced exactly")
    code, out = run("replay", str(log), "--ruleset", "tianjin-street", "--format", "json")
    rep = json.loads(out)
    assert code == 0 and rep["hands"] == 20 and len(rep["money_difference"]) == 4


def test_replay_refuses_a_broken_record_in_one_line(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "bad.jsonl"
    log.write_text('{"wall": "1m2m", "hun_dice": [3, 4], "dealer": 0, "events": []}\n')
    code, _ = run("replay", str(log))
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and err.endswith("bad.jsonl: line 1: hand: missing\n")


def test_simulate_refuses_bad_players(capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run("simulate", "--hands", "1", "--players", "greedy,shark,greedy,greedy")
    assert code == 2 and "unknown player 'shark'" in capsys.readouterr().err


def test_replay_under_another_ruleset_names_patterns_and_counts_what_it_could_not(
        tmp_path: Path) -> None:
    log = tmp_path / "a.jsonl"
    run("simulate", "--hands", "24", "--seed", "4", "--log", str(log), "--json")
    stricter = tmp_path / "min3.yaml"
    stricter.write_text("extends: tianjin\nname: min3\nwin: {minimum: 3}\n", encoding="utf-8")
    code, out = run("replay", str(log), "--ruleset", str(stricter), "--format", "json")
    rep = json.loads(out)
    assert code == 0 and rep["replayed"] + len(rep["diverged"]) == 24
    assert rep["diverged"] and rep["difference"] == "ruleset - recorded"
    code, text = run("replay", str(log), "--ruleset", str(stricter))
    first = text.splitlines()[0]
    assert first == (f"24 hands recorded under tianjin, replayed under min3: {rep['replayed']} "
                     f"replayed, {len(rep['diverged'])} could not be replayed (play min3 does "
                     "not allow, listed below; left out of the numbers)")
    assert "Differences read min3 minus the recorded tianjin" in text
    hd3 = tmp_path / "hd3.yaml"
    hd3.write_text("extends: tianjin\nname: hd3\nscoring: {multiply: {hun_diao: 3}}\n",
                   encoding="utf-8")
    code, text = run("replay", str(log), "--ruleset", str(hd3))
    changed = [ln for ln in text.splitlines() if ln.startswith("  line ")]
    assert changed and "[" not in "".join(changed) and "'" not in "".join(changed)
    assert any("(混吊 提溜); pays" in ln and " → " in ln for ln in changed)


def test_replay_refuses_a_ruleset_with_another_number_of_seats(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "a.jsonl"
    run("simulate", "--hands", "2", "--seed", "4", "--log", str(log), "--json")
    code, _ = run("replay", str(log), "--ruleset", "tianjin-3p")
    assert code == 2 and "the hand has 4 seats; tianjin-3p seats 3" in capsys.readouterr().err
