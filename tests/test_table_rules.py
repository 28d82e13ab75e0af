"""The decisions and procedure switches the rules text gives (issue 19 item 3), the kong
replacement at the end of the tail (issue 18), and greedy's waits (issue 21): each on a
constructed position, each shown to change play."""
from __future__ import annotations

import json
from pathlib import Path

import rulekit
from game_script import Plan, stacked
from rulekit.game import Observation, Table, make_player, play_hand
from rulekit.game.actions import Action
from rulekit.game.players import GreedyPlayer, WaitScorer
from rulekit.game.procedure import Event
from rulekit.game.replay import replay
from rulekit.game.simulate import run_task, tasks
from rulekit.game.state import HandState
from rulekit.game.wall import from_order
from rulekit.game.documents import doc_of
from rulekit.scoring import score_document
from rulekit.tiles import parse_tiles, successor

TJ = rulekit.load_ruleset("tianjin")
IND, DICE = "7z", (3, 4)           # hun 白 and 中, as in test_game_scripted
FAR = ["1m4m7m1p4p7p1s4s7s1z2z3z4z6z", "2m5m8m2p5p8p2s5s8s1z2z3z4z",
       "3m6m9m3p6p9p3s6s9s1z2z3z6z", "1m5m9m1p5p9p1s5s9s1z2z3z4z"]
FAR3B = "1m5m9m1p5p9p1s5s9s6z2z3z4z"
LONG_READY = "123456789m11z23p"    # 龍 waiting on 1p / 4p


def overlay(tmp_path: Path, name: str, body: str) -> rulekit.Ruleset:
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"extends: tianjin\nname: {name}\n{body}\n", encoding="utf-8")
    return rulekit.load_ruleset(str(path))


class Ready(Plan):
    """A plan that declares 天聽 when asked and records the legal lists of its turns."""

    def __init__(self, first: str = "", wins: bool = False) -> None:
        super().__init__(first, wins)
        self.turns: list[list[Action]] = []

    def act(self, obs: Observation, legal: list[Action]) -> Action:
        if legal[0] == {"action": "ready"}:
            return legal[0]
        if any(a["action"] == "discard" for a in legal):
            self.turns.append([dict(a) for a in legal])
        return super().act(obs, legal)


def test_tian_ting_where_the_ruleset_allows_it(tmp_path: Path) -> None:
    """天聽 (000/Ⅳ 特殊規則): 「莊家打下第一張牌後，後旁家立手即聽牌，可報天聽，此後不能換張。
    和牌分數翻倍」. Seat 1 is dealt a ready 龍; asked after the dealer's first discard, it
    declares; it may then only discard what it draws (8s), and wins on 4p doubled:
    龍 4 × 素 2 × 天聽 2 = 16 from each. The question is `game.declare_ready`'s, the value
    `tian_ting`'s: each without the other changes what it alone says."""
    rs = overlay(tmp_path, "ting", "scoring: {multiply: {tian_ting: 2}}\n"
                                   "game: {declare_ready: true}")
    hands = [FAR[0], LONG_READY, FAR[2], FAR3B]
    order = stacked(hands, "8s8p8p8m4p", IND, DICE)
    seat1 = Ready(wins=True)
    rec = play_hand(rs, [Plan(), seat1, Plan(), Plan()], seed=None, order=order,
                    hun_dice=DICE)
    assert [e[1:] for e in rec.events if e[0] == 1][1] == ("ready", -1, "天聽: 此後不能換張")
    assert seat1.turns[0] == [{"action": "discard", "tile": "8s"}]
    assert rec.result["hand"]["ready_declared"] is True
    assert rec.result["patterns"] == ["long", "su", "tian_ting"]
    assert rec.result["payments"] == [-16, 48, -16, -16]
    # declared where tian_ting has no value: the tiles are bound, the win is not doubled
    bare = overlay(tmp_path, "bare", "game: {declare_ready: true}")
    seat1 = Ready(wins=True)
    rec = play_hand(bare, [Plan(), seat1, Plan(), Plan()], seed=None, order=order,
                    hun_dice=DICE)
    assert seat1.turns[0] == [{"action": "discard", "tile": "8s"}]
    assert rec.result["patterns"] == ["long", "su"]
    assert rec.result["payments"] == [-8, 24, -8, -8]
    # valued but not allowed (and tianjin, neither): the question is never asked
    valued = overlay(tmp_path, "valued", "scoring: {multiply: {tian_ting: 2}}")
    for ruleset in (valued, TJ):
        seat1 = Ready(wins=True)
        rec = play_hand(ruleset, [Plan(), seat1, Plan(), Plan()], seed=None, order=order,
                        hun_dice=DICE)
        assert not any(e[1] == "ready" for e in rec.events)
        assert len(seat1.turns[0]) > 1


def test_earthly_paid_as_heavenly(tmp_path: Path) -> None:
    """000/Ⅳ: 地和「一般認為和天和處理方法相同」. Seat 1 wins on its first draw: under tianjin
    龍 × 素 = 8 (di_he has no value); with game.earthly_as_heavenly the hand is scored as
    天和, the best winning tile of its fourteen included: (捉5 3 + 龍 4) × 素 2 × 天和 4."""
    hands = [FAR[0], LONG_READY, FAR[2], FAR3B]
    order = stacked(hands, "4p", IND, DICE)
    rec = play_hand(TJ, [Plan(), Plan(wins=True), Plan(), Plan()], seed=None, order=order,
                    hun_dice=DICE)
    assert rec.result["total_fan"] == 8 and rec.result["hand"]["earthly"] is True
    rs = overlay(tmp_path, "dihe", "game: {earthly_as_heavenly: true}")
    rec = play_hand(rs, [Plan(), Plan(wins=True), Plan(), Plan()], seed=None, order=order,
                    hun_dice=DICE)
    assert [e[3] for e in rec.events if e[1] == "win"] == ["地和"]
    assert rec.result["patterns"] == ["long", "su", "tian_he", "zhuo_wu"]
    assert rec.result["payments"] == [-56, 168, -56, -56]


def _claims_near_the_end(rs: rulekit.Ruleset, seeds: range) -> tuple[int, int]:
    """(claims of a discard, added kongs) made with 4 or fewer tiles left to draw."""
    late = [0, 0]

    def watch(st: HandState, e: Event) -> None:
        if st.wall.live("before_indicator_stack") <= 4:
            if e[1] in ("pung", "kong"):
                late[0] += 1
            elif e[1] == "added_kong":
                late[1] += 1

    for seed in seeds:
        players = [make_player(n, rs, seed + i)
                   for i, n in enumerate(["random", "greedy", "random", "greedy"])]
        play_hand(rs, players, seed=seed, observer=watch)
    return late[0], late[1]


def test_no_claims_on_the_last_four_tiles(tmp_path: Path) -> None:
    """000/Ⅳ 特殊規則: 「有些規則中最後4張牌時…是不允許碰牌和明杠的（追杠除外）」: with
    game.claims_on_last_four false no discard is punged or konged once 4 or fewer tiles are
    left; added kongs still are. The default (true) claims them."""
    seeds = range(80)
    claims, _ = _claims_near_the_end(TJ, seeds)
    assert claims > 0
    rs = overlay(tmp_path, "last4", "game: {claims_on_last_four: false}")
    claims, added = _claims_near_the_end(rs, seeds)
    assert claims == 0 and added > 0


def test_a_kong_replacement_takes_the_stacks_other_tile_before_the_wall_is_drawn_out() -> None:
    """Issue 18: the head has taken the top of the stack the tail comes to; its other tile
    is still live and is the replacement (before: None, the hand ended in 荒莊)."""
    w = from_order(list(range(34)) * 4, (1, 1))          # indicator at 132
    assert w.tail_order[:5] == [134, 135, 133, 130, 131]
    w.taken_tail, w.head = 3, 131                        # the head took 130
    assert w.tail_left() and w.draw_tail() == 131
    assert not w.tail_left() and w.draw_tail() is None   # the head took everything else
    # the same at a table: the dealer konges four 8s as the wall reaches that point
    hands = ["8s8s8s8s123456789m1z", "2m5m8m2p5p8p2s5s3s1z2z3z4z", FAR[2], FAR3B]
    t = Table(TJ, None, 0, order=stacked(hands, "", IND, DICE), hun_dice=DICE)
    for seat in t.pending():
        t.act(seat, {"action": "pass"})
    for seat in t.pending():
        t.act(seat, {"action": "pass"})
    wall = t.state.wall
    top = wall.tail_order[wall.taken_tail]               # the tail's next: a stack's top
    assert top % 2 == 0
    wall.head = top + 1                                  # the head has taken that top
    t.act(0, {"action": "kong", "tile": "8s", "kind": "concealed"})
    got = [e for e in t.events(0) if e["action"] in ("replacement", "draw_game")]
    assert got[-1]["action"] == "replacement"
    assert got[-1]["tile"] == rulekit.tiles.TILE_NAMES[wall.tiles[top + 1]]
    assert not t.over


def observation(hand: str, indicator: str) -> Observation:
    """Seat 0's observation at its turn, nothing else on the table."""
    counts = [0] * 34
    for k in parse_tiles(hand):
        counts[k] += 1
    ind = parse_tiles(indicator)[0]
    hun = rulekit.tiles.hun_kinds(ind, 2)
    return Observation(0, 0, tuple(counts), None, ((), (), (), ()), ((), (), (), ()),
                       ((), (), (), ()), ind, hun, (14, 13, 13, 13), 60, None, 0, None,
                       (False,) * 4, (False,) * 4, False, (0, 0, 0, 0), None)


def test_greedy_keeps_a_wait_that_can_reach_the_minimum() -> None:
    """Issue 21: hun 5s and 6s. Greedy's usual discard (3m, the least connected of those
    leaving the hand ready) leaves waits worth only 提溜 (1 fan), which tianjin's 2-fan
    minimum never lets win; with the ruleset it discards 8m, also ready, whose waits win."""
    obs = observation("335668m123p56789s", "5s")
    legal = [{"action": "discard", "tile": t} for t in ("3m", "5m", "6m", "8m", "1p", "2p",
                                                        "3p", "5s", "6s", "7s", "8s", "9s")]
    assert GreedyPlayer().act(obs, legal) == {"action": "discard", "tile": "3m"}
    assert GreedyPlayer(TJ).act(obs, legal) == {"action": "discard", "tile": "8m"}
    scorer = WaitScorer(TJ)
    for discard, wins in (("3m", False), ("8m", True)):
        counts = list(obs.hand)
        counts[parse_tiles(discard)[0]] -= 1
        waits = scorer.waits(obs, counts)
        assert waits and scorer.can_win(obs, counts) is wins
    counts = list(obs.hand)
    counts[parse_tiles("3m")[0]] -= 1
    best = max((score_document(doc_of([c + (k == w) for k, c in enumerate(counts)], (),
                                      obs.indicator, w, "self_draw"), TJ)
                for w in scorer.waits(obs, counts)[:1]), key=lambda r: r.total_fan)
    assert not best.win and best.patterns == ("tiliu",)


def test_single_hun_is_the_indicator_or_its_successor(tmp_path: Path) -> None:
    """000/Ⅲ 開混 with one hun kind: the indicator's kind (3 live tiles) or its successor (4).
    game.single_hun says which, for play and for scoring alike: indicator 9p makes 1p the
    hun under `successor`, so 123p is no longer 素."""
    kinds1 = overlay(tmp_path, "one", "hun: {kinds: 1}")
    succ = overlay(tmp_path, "succ", "hun: {kinds: 1}\ngame: {single_hun: successor}")
    doc = {"indicator": "9p", "hand": "123456789m11z13p", "win_tile": "2p",
           "win_by": "self_draw"}
    assert rulekit.score(doc, kinds1).total_fan == 8          # 龍 4 × 素 2
    got = rulekit.score(doc, succ)
    assert got.total_fan == 4 and "su" not in got.patterns    # 1p is a hun
    for seed in range(4):
        one, two = Table(kinds1, seed, 0), Table(succ, seed, 0)
        for t in (one, two):
            for _ in range(2):                                # no 坐莊, no 拉莊
                for seat in t.pending():
                    t.act(seat, {"action": "pass"})
        ind = one.state.wall.indicator
        assert one.observation(1).hun == (ind,)
        assert two.observation(1).hun == (successor(ind),)
    for rs in (kinds1, succ):                  # whole hands: conserved, paid, replayed
        ts = tasks(rs, ["greedy", "random", "greedy", "random"], 8, 2, chunks=1, log=True)
        for o in (o for task in ts for o in run_task(task)):
            rec = json.loads(o["log"])
            assert sum(rec["result"]["payments"]) == 0
            assert replay(rec, rs)["same"]
