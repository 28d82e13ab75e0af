"""`rulekit match`: bots from outside play through the protocol; a bot that fails never stops
the match and is named; a match log replays exactly; --duplicate rotates the seats over the
same walls; the paired statistics (docs/bots.md)."""
from __future__ import annotations

import ast
import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from rulekit.cli import main
from rulekit.game import match_cli
from rulekit.game.match_stats import per_bot, t975, t_mean

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = f"cmd:{sys.executable} {ROOT / 'examples' / 'bot_greedyish.py'}"
BAD = ROOT / "tests" / "data" / "bad_bot.py"


def bad(mode: str, after: int = 0) -> str:
    return f"cmd:{sys.executable} {BAD} {mode} {after}"


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return main(argv, out), out.getvalue()


def match(seats: list[str], hands: int, *extra: str, log: Path | None = None,
          think: float = 3.0) -> dict[str, Any]:
    """A match's JSON report. A bot's faults other than timeouts come at once, so the think
    time only needs to be long enough for a good bot on a busy machine."""
    argv = ["match", "--hands", str(hands), "--seed", "4", "--think-time", str(think),
            "--format", "json", *extra]
    for s in seats:
        argv += ["--seat", s]
    if log is not None:
        argv += ["--log", str(log)]
    code, out = run(argv)
    assert code == 0
    rep: dict[str, Any] = json.loads(out)
    return rep


def replays(log: Path) -> dict[str, Any]:
    code, out = run(["replay", str(log), "--format", "json"])
    got: dict[str, Any] = json.loads(out)
    assert code == 0, got["not_reproduced"]
    return got


def records(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def test_the_sample_bot_plays_a_match_that_replays(tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    rep = match([SAMPLE, "greedy", "greedy", "greedy"], 6, log=log)
    assert rep["faults"] == [] and rep["hands"] == 6
    assert rep["bots"][SAMPLE]["seat_hands"] == 6 and rep["bots"]["greedy"]["seat_hands"] == 18
    assert sum(r["result"]["payments"][0] for r in records(log)) == pytest.approx(
        6 * rep["bots"][SAMPLE]["money"]["value"])
    assert replays(log) == {**replays(log), "hands": 6, "reproduced": 6}
    assert [r["players"][0] for r in records(log)] == [SAMPLE] * 6


def test_the_sample_bot_is_short_and_stands_alone() -> None:
    text = (ROOT / "examples" / "bot_greedyish.py").read_text(encoding="utf-8")
    imported = {a.name.split(".")[0] for node in ast.walk(ast.parse(text))
                if isinstance(node, ast.Import) for a in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(ast.parse(text))
                 if isinstance(node, ast.ImportFrom) and node.module}
    assert len(text.splitlines()) < 60 and imported == {"json", "re", "sys", "collections"}


@pytest.mark.parametrize("mode, after, kind", [
    ("crash", 0, "crash"), ("crash", 15, "crash"), ("hang", 12, "timeout"),
    ("garbage", 3, "garbage"), ("illegal", 0, "illegal"), ("huge", 5, "too_long"),
    ("close", 8, "closed"),
])
def test_a_failing_bot_never_stops_the_match(tmp_path: Path, mode: str, after: int,
                                             kind: str) -> None:
    log = tmp_path / "m.jsonl"
    spec = bad(mode, after)
    seats = ["greedy", spec, "greedy", "greedy"] if mode == "hang" else \
        ["greedy", spec, SAMPLE, "greedy"]
    rep = match(seats, 3, log=log, think=1.0 if mode == "hang" else 3.0)
    assert rep["hands"] == 3 and len(records(log)) == 3
    [fault] = rep["faults"]
    assert (fault["participant"], fault["spec"], fault["kind"]) == (1, spec, kind)
    assert fault["decision"] == after
    assert rep["fallback"] == "greedy"
    assert replays(log)["reproduced"] == 3
    text = match_cli.text(rep)
    assert f"FAULT --seat 2 {spec!r}: seat 1, hand " in text
    assert "played by greedy from then on" in text


def test_a_bot_that_cannot_start_is_named_at_the_start(tmp_path: Path) -> None:
    rep = match(["cmd:/nonexistent/bot --x", "greedy", "greedy", "greedy"], 2)
    [fault] = rep["faults"]
    assert fault["kind"] == "start" and fault["hand"] == -1
    assert "cannot start '/nonexistent/bot'" in fault["detail"]
    assert rep["hands"] == 2


def test_built_in_seats_play_exactly_as_simulate(tmp_path: Path) -> None:
    a, b = tmp_path / "match.jsonl", tmp_path / "simulate.jsonl"
    match(["greedy", "random", "value", "greedy"], 5, log=a)
    code, _ = run(["simulate", "--hands", "5", "--seed", "4", "--players",
                   "greedy,random,value,greedy", "--log", str(b), "--format", "json"])
    assert code == 0 and a.read_bytes() == b.read_bytes()


def test_duplicate_rotates_the_seats_over_the_same_walls(tmp_path: Path) -> None:
    log = tmp_path / "d.jsonl"
    seats = [SAMPLE, "greedy", "random", "value"]
    rep = match(seats, 2, "--duplicate", log=log)
    recs = records(log)
    assert rep["hands"] == 8 and rep["deals"] == 2 and len(recs) == 8
    for d in range(2):
        four = recs[4 * d:4 * d + 4]
        assert [r["rotation"] for r in four] == [0, 1, 2, 3]
        assert {r["deal"] for r in four} == {d}
        assert len({(r["seed"], r["wall"], r["dealer"], tuple(r["hun_dice"])) for r in four}) == 1
        for r in four:     # participant i sits at seat (i + rotation) % 4
            assert r["players"] == [seats[(s - r["rotation"]) % 4] for s in range(4)]
    assert recs[0]["wall"] != recs[4]["wall"]
    assert all(b["seat_hands"] == 8 for b in rep["bots"].values())
    assert "Student t over deals" in rep["interval"]
    assert replays(log)["reproduced"] == 8


def test_bad_arguments_are_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["match", "--hands", "1"]
    four = ["--seat", "greedy"] * 4
    for argv, says in [
        (base + ["--seat", "greedy"], "give --seat once per seat (4), got 1"),
        (base + four[:6] + ["--seat", "alpha"], "unknown player 'alpha'"),
        (base + four[:6] + ["--seat", "cmd: "], "cmd: needs a command"),
        (base + four + ["--think-time", "0"], "--think-time must be more than 0"),
        (base + four + ["--think-time", "nan"], "--think-time must be more than 0"),
        (["match", "--hands", "-1"] + four, "--hands must be 0 or more"),
        (base + four + ["--log", "/nonexistent/dir/m.jsonl"], "cannot write"),
    ]:
        code, out = run(argv)
        err = capsys.readouterr().err
        assert code == 2 and out == "" and says in err and len(err.splitlines()) == 1, err


# -- the statistics ---------------------------------------------------------------------------

def test_t_quantiles() -> None:
    assert t975(1) == pytest.approx(12.7062, abs=1e-4)
    assert t975(9) == pytest.approx(2.2622, abs=1e-4)
    for df, q in [(31, 2.039513), (40, 2.021075), (60, 2.000298), (120, 1.979930),
                  (1000, 1.962339)]:
        assert t975(df) == pytest.approx(q, abs=2e-5)
    m = t_mean([1.0, 2.0, 3.0, 4.0])
    half = 3.182446 * (1.6666666666666667 / 4) ** 0.5
    assert m == {"value": 2.5, "low": round(2.5 - half, 6), "high": round(2.5 + half, 6),
                 "n": 4}


def test_duplicate_means_are_per_deal_means_over_the_rotations() -> None:
    def hand(deal: int, rot: int, pay: list[float], winner: int | None, fan: int
             ) -> dict[str, Any]:
        players = [["A", "B", "B", "B"][(s - rot) % 4] for s in range(4)]
        return {"deal": deal, "rotation": rot, "players": players, "payments": pay,
                "winner": winner, "total_fan": fan}
    hands = [hand(0, 0, [3, -1, -1, -1], 0, 4), hand(0, 1, [-1, 3, -1, -1], 1, 4),
             hand(0, 2, [0, 0, 0, 0], None, 0), hand(0, 3, [0, 0, 0, 0], None, 0),
             hand(1, 0, [-3, 1, 1, 1], 1, 2), hand(1, 1, [1, -3, 1, 1], 0, 2),
             hand(1, 2, [0, 0, 0, 0], None, 0), hand(1, 3, [0, 0, 0, 0], None, 0)]
    got = per_bot(hands, ["A", "B", "B", "B"], duplicate=True)
    # A: deal 0 rotations 3, 3 (A at seat 1 in rotation 1), 0, 0 -> 1.5; deal 1: -3, -3 -> -1.5
    assert got["A"]["money"]["value"] == 0.0 and got["A"]["money"]["n"] == 2
    half = 12.706205 * (4.5 / 2) ** 0.5
    assert got["A"]["money"]["high"] == pytest.approx(half, abs=1e-5)
    assert got["A"]["fan"]["value"] == pytest.approx((2.0 + 0.0) / 2)
    assert (got["A"]["seat_hands"], got["A"]["wins"]) == (8, 2)
    assert (got["B"]["seat_hands"], got["B"]["wins"]) == (24, 2)
    assert got["B"]["money"]["value"] == 0.0


def test_what_a_bot_is_told(tmp_path: Path) -> None:
    seen = tmp_path / "seen.jsonl"
    spec = f"cmd:{sys.executable} {BAD} record 0 {seen}"
    log = tmp_path / "d.jsonl"
    match([spec, "greedy", "greedy", "greedy"], 1, "--duplicate", log=log)
    msgs = [json.loads(line) for line in seen.read_text(encoding="utf-8").splitlines()]
    start = msgs[0]
    assert (start["type"], start["protocol"], start["seat"], start["players"],
            start["hands"]) == ("start", "rulekit-bot/1", 0, 4, 4)
    assert start["ruleset"]["name"] == "tianjin" and start["think_time"] == 3.0
    assert start["ruleset"]["patterns"]["tiliu"] == "提溜"
    recs = records(log)
    assert [m["hand"] for m in msgs if m["type"] == "end"] == [0, 1, 2, 3]
    for hand, rec in enumerate(recs):
        seat = hand % 4                      # participant 0 sits at seat rotation % 4
        assert rec["players"][seat] == spec
        evs = [m for m in msgs if m["type"] == "event" and m["hand"] == hand]
        assert [m["index"] for m in evs] == list(range(len(evs)))
        assert {m["seat"] for m in evs} == {seat}
        end = next(m for m in msgs if m["type"] == "end" and m["hand"] == hand)
        assert end["seat"] == seat and end["result"] == rec["result"]
        deals = [m["event"] for m in evs if m["event"]["action"] == "deal"]
        for d in deals:        # its own deal shows its tiles; the others' none
            assert (d["rule"] != "拿牌") == (d["seat"] == seat), d
        shown = [m["event"] for m in evs[4:]]   # after 坐莊 and 3 拉莊 choices
        assert len(shown) == len(rec["events"])
        for e, r in zip(shown, rec["events"]):
            assert (e["seat"], e["action"]) == (r["seat"], r["action"])
            hidden = r["seat"] != seat and r["action"] in (
                "draw", "replacement", "concealed_kong", "golden_kong") \
                and not r["tile"].endswith("f")
            assert e["tile"] == (None if hidden or r["action"] == "deal" else r["tile"])
    requests = [m for m in msgs if m["type"] == "request"]
    assert requests and all(m["legal"] for m in requests)
    assert {m["seat"] for m in requests} == {0, 1, 2, 3}


def test_bot_processes_end_when_the_match_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    import os
    import rulekit
    from rulekit.game import match as m
    from rulekit.game.table import Table
    pids: list[int] = []
    real_launch = m.SubprocessBot.launch

    def launch(self: m.SubprocessBot) -> None:
        real_launch(self)
        assert self.proc is not None
        pids.append(self.proc.pid)

    calls = {"n": 0}
    real_act = Table.act

    def act(self: Table, seat: int, action: dict[str, Any]) -> None:
        calls["n"] += 1
        if calls["n"] == 30:
            raise KeyboardInterrupt
        real_act(self, seat, action)

    monkeypatch.setattr(m.SubprocessBot, "launch", launch)
    monkeypatch.setattr(Table, "act", act)
    cfg = m.MatchConfig((SAMPLE, SAMPLE, "greedy", "greedy"), 3, 1, think_time=3.0)
    with pytest.raises(KeyboardInterrupt):
        m.run_match(rulekit.load_ruleset("tianjin"), cfg)
    assert len(pids) == 2
    for pid in pids:                       # reaped: no such process any more
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)


def test_duplicate_money_is_zero_sum_over_the_seats(tmp_path: Path) -> None:
    # one sample bot against three greedy seats: money only changes hands, so per deal the
    # bot's mean is minus three times greedy's per-seat mean, and so are the averages
    rep = match([SAMPLE, "greedy", "greedy", "greedy"], 3, "--duplicate")
    bot, greedy = rep["bots"][SAMPLE], rep["bots"]["greedy"]
    assert (bot["seat_hands"], greedy["seat_hands"]) == (12, 36)
    assert bot["money"]["value"] == pytest.approx(-3 * greedy["money"]["value"], abs=1e-5)
    diff = rep["difference"]["money"]
    assert diff["value"] == pytest.approx(bot["money"]["value"] - greedy["money"]["value"],
                                          abs=1e-5)
    assert diff["n"] == 3 and diff["low"] <= diff["value"] <= diff["high"]
    same = match(["greedy"] * 4, 2, "--duplicate")["bots"]["greedy"]["money"]
    assert (same["value"], same["low"], same["high"]) == (0.0, 0.0, 0.0)


@pytest.mark.parametrize("field, value", [("rotation", 2), ("deal", 5),
                                          ("players", None), ("wall", None)])
def test_an_edited_match_record_is_caught(tmp_path: Path, field: str, value: Any) -> None:
    """A bot's record is sealed like simulate's (deal and rotation included) and its wall
    proved from the seed, though no replay runs the bot again."""
    log = tmp_path / "d.jsonl"
    match([SAMPLE, "greedy", "greedy", "greedy"], 1, "--duplicate", log=log)
    recs = records(log)
    rec = recs[1]
    if field == "players":
        value = [*rec["players"][1:], rec["players"][0]]
    if field == "wall":
        value = rec["wall"][2:] + rec["wall"][:2]
    rec[field] = value
    log.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in recs),
                   encoding="utf-8")
    code, out = run(["replay", str(log), "--format", "json"])
    assert code != 0 and field in out


# -- the log on a full disk, and each hand on disk as it ends (issue 18 item 6) -----------------

@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_disk_under_the_match_log_is_one_line_naming_it(
        capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["match", "--hands", "2", "--seed", "1", *["--seat", "greedy"] * 4,
            "--log", "/dev/full"]
    assert main(argv, out=io.StringIO()) == 3
    assert capsys.readouterr().err == ("rulekit match: error: --log /dev/full: cannot write: "
                                       "No space left on device\n")


def test_the_match_log_holds_each_hand_when_the_next_is_played(tmp_path: Path) -> None:
    import rulekit
    from rulekit.game import match as m
    from rulekit.game.logfile import HandLog
    path = tmp_path / "m.jsonl"
    seen: list[int] = []
    cfg = m.MatchConfig(("greedy",) * 4, 3, 1, False, 1.0, 16)
    log = HandLog(str(path))
    m.run_match(rulekit.load_ruleset("tianjin"), cfg, log,
                lambda _: seen.append(len(path.read_text(encoding="utf-8").splitlines())))
    log.close()
    assert seen == [1, 2, 3]
