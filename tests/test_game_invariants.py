"""Invariants of play: every tile of the wall is in exactly one place at every step;
payments sum to zero; walls are permutations of the tile set; replay is exact; the same
seed gives byte-identical logs whatever runs it."""
from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st_

import rulekit
from rulekit.cli import main
from rulekit.game import play_hand
from rulekit.game.players import make_player
from rulekit.game.procedure import Event
from rulekit.game.replay import replay
from rulekit.game.simulate import run_task, tasks
from rulekit.game.state import PUNG, HandState
from rulekit.tiles import parse_tiles
from conftest import examples

TJ = rulekit.load_ruleset("tianjin")
TILES = sorted(k for k in range(34) for _ in range(4))


def check_conserved(st: HandState, e: Event) -> None:
    """Each wall position is in the wall, face up, or drawn; each kind's four copies are
    in exactly one of: the live wall, the indicator, a hand, a meld, a river."""
    w = st.wall
    drawn_tail = set(w.tail_order[:w.taken_tail])
    in_wall = [w.tiles[i] for i in range(w.head, len(w.tiles))
               if i not in drawn_tail and i != w.indicator_at]
    assert not drawn_tail & set(range(w.head)), "a tile drawn from both ends"
    places = list(in_wall) + [w.indicator]
    for s in st.seats:
        places += [k for k in range(34) for _ in range(s.counts[k])]
        places += [m.kind for m in s.melds for _ in range(3 if m.shape == PUNG else 4)]
        places += s.river + s.flowers
    assert sorted(places) == sorted(w.tiles), f"tiles not conserved after {e}"


@settings(max_examples=examples(40), deadline=None)
@given(seed=st_.integers(0, 2 ** 32), dealer=st_.integers(0, 3),
       names=st_.lists(st_.sampled_from(["random", "greedy"]), min_size=4, max_size=4))
def test_tiles_are_conserved_at_every_step(seed: int, dealer: int, names: list[str]) -> None:
    players = [make_player(n, TJ, seed + i) for i, n in enumerate(names)]
    rec = play_hand(TJ, players, seed=seed, dealer=dealer, observer=check_conserved)
    assert sum(rec.result["payments"]) == 0
    assert sorted(rec.wall) == TILES


def test_tiles_are_conserved_with_claims_on_discards_and_robbed_kongs(tmp_path: Path) -> None:
    path = tmp_path / "rob.yaml"
    path.write_text("extends: tianjin-dianpao\nname: rob\ngame: {rob_kong: true}\n")
    rs = rulekit.load_ruleset(str(path))
    wins = set()
    for seed in range(40):
        players = [make_player(n, rs, seed * 4 + i)
                   for i, n in enumerate(["greedy", "random", "greedy", "random"])]
        rec = play_hand(rs, players, seed=seed, observer=check_conserved)
        assert sum(rec.result["payments"]) == 0
        wins.add(rec.result["win_by"])
    assert "discard" in wins                     # 點炮 happened and was conserved


def _simulated(hands: int, names: list[str], seed: int = 9) -> list[dict[str, Any]]:
    ts = tasks(TJ, names, hands, seed, chunks=1, log=True)
    return [json.loads(o["log"]) for t in ts for o in run_task(t)]


def test_replay_of_1000_simulated_hands_is_exact() -> None:
    records = _simulated(1000, ["greedy", "random", "greedy", "random"])
    assert len(records) == 1000
    kinds = set()
    for rec in records:
        assert sorted(replay_tiles(rec["wall"])) == TILES
        assert sum(rec["result"]["payments"]) == 0
        got = replay(rec, TJ)
        assert got["same"], got["mismatch"]
        kinds.update(e["action"] for e in rec["events"])
    assert {"pung", "kong", "concealed_kong", "added_kong", "replacement", "win",
            "draw_game"} <= kinds


def replay_tiles(wall: str) -> list[int]:
    from rulekit.game.replay import parse_wall
    return parse_wall(wall)


def test_a_changed_record_does_not_replay() -> None:
    rec = _simulated(1, ["greedy"] * 4)[0]
    d = next(e for e in rec["events"] if e["action"] == "discard")
    d["tile"] = "5m" if d["tile"] != "5m" else "6m"
    got = replay(rec, TJ)
    assert not got["same"] and "discard" in (got["mismatch"] or "")


def run_cli(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(args), out=out), out.getvalue()


def test_logs_are_byte_identical_with_one_or_two_workers(tmp_path: Path) -> None:
    outs = []
    for workers in ("1", "2"):
        log = tmp_path / f"w{workers}.jsonl"
        code, out = run_cli("simulate", "--ruleset", "tianjin", "--hands", "64", "--seed", "9",
                            "--log", str(log), "--json", "--workers", workers,
                            "--session-hands", "8")
        assert code == 0
        outs.append((log.read_bytes(), out))
    assert outs[0] == outs[1]
    assert len(outs[0][0].splitlines()) == 64


def test_logs_are_byte_identical_on_a_local_dask_cluster(tmp_path: Path) -> None:
    import dask.distributed  # noqa: F401  (the test extra installs it: never skipped)
    args = ["simulate", "--hands", "24", "--seed", "3", "--json", "--session-hands", "8"]
    code, ref = run_cli(*args, "--log", str(tmp_path / "a.jsonl"))
    code2, got = run_cli(*args, "--log", str(tmp_path / "b.jsonl"), "--cluster", "local",
                         "--workers", "1")
    assert code == code2 == 0 and ref == got
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()


def test_flowers_are_shown_replaced_and_conserved() -> None:
    """tianjin-flowers (game.flowers): 144 tiles; every flower dealt or drawn is shown and
    replaced from the tail (補花), and a replay of the hand is exact."""
    from rulekit.game.simulate import hand_seed, log_line
    from rulekit.game.rules import game_rules
    from rulekit.game.wall import tile_set
    rs = rulekit.load_ruleset("tianjin-flowers")
    shown = 0
    for seed in range(12):
        players = [make_player("greedy", rs, seed)] * 4
        rec = play_hand(rs, players, seed=hand_seed(5, seed), dealer=seed % 4,
                        observer=check_conserved)
        assert sorted(rec.wall) == tile_set(True) and len(rec.wall) == 144
        assert sum(rec.result["payments"]) == 0
        flowers = [e for e in rec.events if e[3] == "補花: a flower, shown"]
        assert all(e[2] >= 34 for e in flowers)
        shown += len(flowers)
        line = json.loads(log_line(rec, rs, game_rules(rs), ["greedy"] * 4, seed))
        assert replay(line, rs)["same"]
        if rec.result["winner"] is not None:          # the winner's flowers reach its hand
            seat = rec.result["winner"]
            dealt = next(e[3] for e in rec.events if e[0] == seat and e[1] == "deal")
            held = [k for k in parse_tiles(dealt.split(": ")[1]) if k >= 34]
            held += [e[2] for e in flowers if e[0] == seat]
            assert parse_tiles(rec.result["hand"].get("flowers", "")) == tuple(sorted(held))
    assert shown > 0
