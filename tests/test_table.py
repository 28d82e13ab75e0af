"""The referee (`rulekit.game.Table`, issue 19): who must decide, what each seat may do and
may know. A seat's observation and events never hold another seat's concealed tiles or the
wall's order; anything not legal is refused; a player's copies are its own."""
from __future__ import annotations

import dataclasses
import json
import random
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings, strategies as st_

import rulekit
from game_script import Plan, stacked
from test_game_invariants import check_conserved
from rulekit.game import IllegalMove, Observation, Table, make_player, play_hand
from rulekit.game.actions import Action
from rulekit.game.observation import HIDDEN
from rulekit.game.state import CONCEALED, GOLDEN
from rulekit.tiles import NUM_KINDS, TILE_NAMES
from conftest import examples

TJ = rulekit.load_ruleset("tianjin")
_OVERLAYS = Path(tempfile.mkdtemp(prefix="rulekit-table-test-"))
(_OVERLAYS / "every-switch.yaml").write_text(
    "extends: tianjin-dianpao\nname: every-switch\nscoring: {multiply: {tian_ting: 2}}\n"
    "game: {rob_kong: true, claims_on_last_four: false, earthly_as_heavenly: true,\n"
    "       declare_ready: true,\n"
    "       pung_hun: true, draw_game_at: wall_empty}\n", encoding="utf-8")
RULESETS = {name: rulekit.load_ruleset(name) for name in
            ("tianjin", "tianjin-flowers", "tianjin-dianpao", "tianjin-3p")}
RULESETS["every-switch"] = rulekit.load_ruleset(str(_OVERLAYS / "every-switch.yaml"))
IND, DICE = "7z", (3, 4)           # as in test_game_scripted: hun 白 and 中
FAR = ["1m4m7m1p4p7p1s4s7s1z2z3z4z6z", "2m5m8m2p5p8p2s5s8s1z2z3z4z",
       "3m6m9m3p6p9p3s6s9s1z2z3z6z", "1m5m9m1p5p9p1s5s9s1z2z3z4z"]
FAR3B = "1m5m9m1p5p9p1s5s9s6z2z3z4z"


def check_observation(t: Table, seat: int, obs: Observation) -> None:
    """The observation against the true state: own tiles exact, others' only counted."""
    st = t.state
    assert obs.seat == seat and obs.dealer == st.dealer
    assert list(obs.hand) == st.seats[seat].counts
    assert obs.tiles_held == tuple(sum(s.counts) for s in st.seats)
    assert obs.wall_left == st.wall.live(t.rules.draw_game_at)
    dealt = t._hand.seen.dealt
    assert obs.indicator == (st.wall.indicator if dealt else None)
    assert obs.hun == (st.hun if dealt else ())
    for s, seat_state in enumerate(st.seats):
        assert obs.discards[s] == tuple(seat_state.river)
        assert obs.flowers[s] == tuple(seat_state.flowers)
        assert len(obs.melds[s]) == len(seat_state.melds)
        for (kind, shape), m in zip(obs.melds[s], seat_state.melds):
            assert shape == m.shape
            hidden = s != seat and m.shape in (CONCEALED, GOLDEN)
            assert kind == (HIDDEN if hidden else m.kind)
    assert_blind_to_hidden(t, seat, obs)
    d = obs.to_dict()
    text = json.dumps(d, ensure_ascii=False)
    json.loads(text)
    wall = "".join(TILE_NAMES[k] for k in st.wall.tiles)
    assert wall not in text and wall[:40] not in text
    assert set(d) == {"seat", "dealer", "hand", "drawn", "melds", "discards", "flowers",
                      "indicator", "hun", "tiles_held", "wall_left", "scores", "turn",
                      "last_discard", "discarded_hun", "ready", "sits", "pulls", "win"}


def assert_blind_to_hidden(t: Table, seat: int, obs: Observation) -> None:
    """Change what `seat` may not know (every other seat's concealed tiles, the order of the
    tiles not yet drawn) and observe again: the observation must not change."""
    st = t.state
    saved = [list(s.counts) for s in st.seats], list(st.wall.tiles)
    rng = random.Random(len(t._hand.events))
    for other, s in enumerate(st.seats):
        held = [k for k in range(NUM_KINDS) for _ in range(s.counts[k])]
        if other != seat and held:
            held[rng.randrange(len(held))] = rng.randrange(NUM_KINDS)   # another tile
            s.counts[:] = [held.count(k) for k in range(NUM_KINDS)]
    w = st.wall
    taken = set(w.tail_order[:w.taken_tail])
    if t._hand.seen.dealt:                     # face up from 開混 on
        taken.add(w.indicator_at)
    rest = [i for i in range(w.head, len(w.tiles)) if i not in taken]
    shuffled = [w.tiles[i] for i in rest]
    rng.shuffle(shuffled)
    for i, k in zip(rest, shuffled):
        w.tiles[i] = k
    t._hand.seen.views.clear()
    try:
        assert t.observation(seat) == obs
    finally:
        for s, counts in zip(st.seats, saved[0]):
            s.counts[:] = counts
        w.tiles[:] = saved[1]


def check_events(t: Table, seat: int) -> None:
    """Others' draws, replacements and concealed kongs carry no tile (a flower drawn is shown);
    others' deals no tiles; the seat's own events are the record's."""
    for e in t.events(seat):
        if e["seat"] != seat:
            if e["action"] in ("draw", "replacement", "concealed_kong", "golden_kong"):
                assert e["tile"] is None or e["tile"].endswith("f")
            if e["action"] == "deal":
                assert e.get("rule") == "拿牌"
        elif e["action"] == "deal":
            assert e["rule"].startswith("拿牌: ")
    hand = t._hand
    assert len(t.events(seat)) == len(hand.pre_events) + len(hand.events)
    assert t.events(seat, 3) == t.events(seat)[3:]


def step_randomly(t: Table, rng: random.Random, check: bool) -> None:
    seat = rng.choice(t.pending())
    legal = t.legal(seat)
    if check:
        check_observation(t, seat, t.observation(seat))
        other = (seat + 1) % t.rules.players
        if other not in t.pending():
            assert t.legal(other) == []
            with pytest.raises(IllegalMove, match="nothing to decide"):
                t.act(other, legal[0])
    t.act(seat, rng.choice(legal))


@settings(max_examples=examples(50), deadline=None)
@example(seed=630, dealer=2, ruleset="tianjin-flowers")     # a tail reaching a taken top
@given(seed=st_.integers(0, 2 ** 32), dealer=st_.integers(0, 2),
       ruleset=st_.sampled_from(sorted(RULESETS)))
def test_observations_hide_what_a_seat_may_not_know(seed: int, dealer: int,
                                                    ruleset: str) -> None:
    t = Table(RULESETS[ruleset], seed, dealer, observer=check_conserved)
    rng = random.Random(seed)
    steps = 0
    while not t.over:
        step_randomly(t, rng, check=True)
        steps += 1
    assert steps > 4 and t.pending() == () and t.legal(0) == []
    for seat in range(t.rules.players):
        check_events(t, seat)
    assert sum(t.record().result["payments"]) == 0


def test_a_concealed_kong_is_shown_face_down_to_the_others() -> None:
    hands = ["8s8s8s8s123456789m1z", "2m5m8m2p5p8p2s5s3s1z2z3z4z", FAR[2], FAR3B]
    t = Table(TJ, None, 0, order=stacked(hands, "", IND, DICE, tail="1z"), hun_dice=DICE)
    t.act(0, {"action": "pass"})                          # no 坐莊
    for s in (1, 2, 3):
        t.act(s, {"action": "pass"})                      # no 拉莊
    assert t.pending() == (0,)
    assert {"action": "kong", "tile": "8s", "kind": "concealed"} in t.legal(0)
    t.act(0, {"action": "kong", "tile": "8s", "kind": "concealed"})
    assert t.observation(0).melds[0] == ((25, CONCEALED),)
    assert t.observation(1).melds[0] == ((HIDDEN, CONCEALED),)
    assert t.observation(1).to_dict()["melds"][0] == [{"kind": "kong", "type": "concealed",
                                                       "tile": None}]
    kong = [e for e in t.events(1) if e["action"] == "concealed_kong"]
    assert kong == [{"seat": 0, "action": "concealed_kong", "tile": None, "rule": "暗杠"}]
    replaced = [e for e in t.events(1) if e["action"] == "replacement"][-1]
    assert replaced["tile"] is None
    assert [e for e in t.events(0) if e["action"] == "replacement"][-1]["tile"] == "1z"
    assert t.observation(0).drawn == 27 and t.observation(1).drawn is None
    win = t.observation(0).win                 # 杠開 龍 素 + 暗杠 (test_game_scripted)
    assert win is not None and win.fan == 18 and win.patterns == ("gang_kai", "long", "su")
    assert t.observation(1).win is None and t.legal(0)[0] == {"action": "win"}


def test_anything_not_legal_is_refused_naming_what_is() -> None:
    t = Table(TJ, 5, 0)
    assert t.pending() == (0,) and t.legal(0) == [{"action": "sit"}, {"action": "pass"}]
    for bad in ({"action": "sit", "x": 1}, {"action": "pull", "count": 1}, "sit", None,
                {"action": "discard", "tile": "5m"}):
        with pytest.raises(IllegalMove, match='legal: {"action": "sit"}, {"action": "pass"}'):
            t.act(0, bad)  # type: ignore[arg-type]
    t.act(0, {"action": "sit"})
    assert t.pending() == (1, 2, 3)                      # 拉莊: all non-dealers at once
    assert t.legal(1) == [{"action": "pass"}, {"action": "pull", "count": 1},
                          {"action": "pull", "count": 2}]
    with pytest.raises(IllegalMove, match="pull"):
        t.act(1, {"action": "pull", "count": 3})
    t.act(2, {"action": "pull", "count": 2})
    assert t.pending() == (1, 3) and t.legal(2) == []
    assert t.observation(1).pulls == (None, None, None, None)   # not shown until all chose
    t.act(1, {"action": "pass"})
    t.act(3, {"action": "pull", "count": 1})
    obs = t.observation(0)
    assert obs.sits is True and obs.pulls == (0, 0, 2, 1)
    assert t.pending() == (0,)
    held = [a["tile"] for a in t.legal(0) if a["action"] == "discard"]
    assert len(held) >= 1
    with pytest.raises(IllegalMove, match="is not legal"):
        t.act(0, {"action": "discard", "tile": next(TILE_NAMES[k] for k in range(NUM_KINDS)
                                                    if TILE_NAMES[k] not in held)})
    with pytest.raises(rulekit.RulekitError, match="not over"):
        t.record()
    assert Table(TJ, 5, 1, scores=[3, -1, -1, -1]).observation(2).to_dict()["scores"] == \
        [3, -1, -1, -1]
    with pytest.raises(rulekit.RulekitError, match="one total per seat"):
        Table(TJ, 5, 0, scores=[1, 2])
    with pytest.raises(rulekit.RulekitError, match="dealer"):
        Table(TJ, 5, 4)


class Vandal(Plan):
    """Greedy's choice, after which it wrecks the legal list and tries the observation."""

    def __init__(self, inner: rulekit.game.Player) -> None:
        super().__init__()
        self.inner = inner

    def act(self, obs: Observation, legal: list[Action]) -> Action:
        choice = dict(self.inner.act(obs, legal))
        for a in legal:
            a["action"], a["tile"] = "discard", "1z"
        legal.clear()
        with pytest.raises(dataclasses.FrozenInstanceError):
            obs.hand = (4,) * 34  # type: ignore[misc]
        with pytest.raises(TypeError):
            obs.discards[0] += (1,)  # type: ignore[index]
        return choice


def test_changing_what_a_player_was_given_changes_nothing() -> None:
    for seed in range(6):
        plain = play_hand(TJ, [make_player("greedy", TJ, 0) for _ in range(4)], seed=seed)
        wrecked = play_hand(TJ, [Vandal(make_player("greedy", TJ, 0)) for _ in range(4)],
                            seed=seed)
        assert wrecked.to_dict() == plain.to_dict()


def test_sit_and_pull_reach_the_settlement() -> None:
    """000/Ⅲ 鏟: 「莊家坐莊，閑家A不拉庄，B拉庄，C拉兩庄，結算時由莊家另外付A兩分，付B四分，付C八分」
    (tianjin: 鏟 pays one 明杠, 1 point): ×2, ×4, ×8."""
    order = stacked(FAR, "", IND, DICE)
    plans = [Plan("1z"), Plan("1z"), Plan("1z"), Plan("1z")]
    plans[0].sits = True
    for seat, n in ((1, 0), (2, 1), (3, 2)):
        plans[seat].pulls = n
    rec = play_hand(TJ, plans, seed=None, order=order, hun_dice=DICE)
    assert rec.result["chan"] is True
    assert rec.settle["dealer_sits"] is True and rec.settle["pulls"] == [0, 0, 1, 2]
    assert rec.result["payments"] == [-14, 2, 4, 8]


PINNED = {
    ("tianjin", ("greedy", "random", "value", "random")):
        "4ad6a0e50a75e5d102bccf8e1177d87e060a1019f88736412c2225fb3a325b68",
    ("tianjin-dianpao", ("greedy", "random", "greedy", "random")):
        "5fd9c2b53ee0b04b1ec02e93c1dcb7299ea2a9faf95ab155d0168e36224d40f8",
}


def test_logs_of_fixed_seeds_are_pinned() -> None:
    """The log lines of 8 hands (master seed 11) under two rulesets, byte for byte. A change
    here changes what `rulekit replay` reproduces: say so in the commit and in docs/game.md
    ("Logs"). Pinned after the Table rewrite (logs byte-identical to the callback engine)
    and greedy's wait check (issue 21), which changed greedy's play. Since format 2 each line is
    sealed (`format` first, `digest` last): the pin is over the lines without the seal."""
    import hashlib
    import json
    from rulekit.game.record import digest_of
    from rulekit.game.simulate import run_task, tasks
    for (name, players), digest in PINNED.items():
        rs = rulekit.load_ruleset(name)
        ts = tasks(rs, list(players), 8, 11, chunks=1, log=True, session_hands=8)
        lines = [o["log"] for task in ts for o in run_task(task)]
        plays = []
        for line in lines:                      # sealed as format 2 (game/record.py) ...
            rec = json.loads(line)
            assert rec.pop("format") == 2 and rec.pop("digest") == digest_of(
                {"format": 2, **rec}), name
            plays.append(json.dumps(rec, ensure_ascii=False, separators=(",", ":")))
        # ... over the same play, byte for byte
        assert hashlib.sha256("\n".join(plays).encode()).hexdigest() == digest, name


def test_sit_and_pull_choices_are_logged_and_replay(tmp_path: Path) -> None:
    """The built-in players sit and pull as game.dealer_sits / game.pulls say; the record
    keeps the choices (dealer_sits, pulls) and a replay answers from them."""
    from rulekit.game.replay import replay
    from rulekit.game.simulate import run_task, tasks
    path = tmp_path / "sits.yaml"
    path.write_text("extends: tianjin\nname: sits\ngame: {dealer_sits: true, pulls: 1}\n")
    rs = rulekit.load_ruleset(str(path))
    ts = tasks(rs, ["greedy", "random", "greedy", "random"], 6, 3, chunks=1, log=True)
    for o in (o for task in ts for o in run_task(task)):
        rec = json.loads(o["log"])
        assert rec["dealer_sits"] is True
        assert rec["pulls"] == [0 if s == rec["dealer"] else 1 for s in range(4)]
        got = replay(rec, rs)
        assert got["same"], got["mismatch"]


def test_players_hooks_see_their_own_events() -> None:
    """`start`, `event` (only what the seat may see, every event once, in order) and `end`."""
    class Listener(Plan):
        def __init__(self) -> None:
            super().__init__()
            self.calls: list[Any] = []

        def start(self, seat: int, ruleset: str) -> None:
            self.calls.append(("start", seat, ruleset))

        def event(self, event: dict[str, Any]) -> None:
            self.calls.append(event)

        def end(self, result: dict[str, Any]) -> None:
            self.calls.append(("end", result["winner"]))

    players = [Listener() for _ in range(4)]
    rec = play_hand(TJ, players, seed=7)
    for seat, p in enumerate(players):
        assert p.calls[0] == ("start", seat, "tianjin")
        assert p.calls[-1] == ("end", rec.result["winner"])
        events = p.calls[1:-1]
        assert len(events) == 4 + len(rec.events)       # 坐莊, 3 × 拉莊, then the log
        mine = [e for e in events if e["seat"] == seat and e["action"] == "draw"]
        others = [e for e in events if e["seat"] != seat and e["action"] == "draw"]
        assert all(e["tile"] for e in mine) and not any(e["tile"] for e in others)
