"""Scripted deals that follow the rules text step by step: 鏟, 荒莊, dealer rotation,
小相公, 天和, the indicator's stack on a replacement (000/Ⅲ, 000/Ⅳ)."""
from __future__ import annotations

import re

import pytest

import rulekit
from game_script import Plan, deal_positions, stacked
from rulekit.game import play_hand
from rulekit.game import actions
from rulekit.game.actions import Action
from rulekit.game.observation import Observation
from rulekit.game.procedure import IllegalMove
from rulekit.game.wall import from_order

TJ = rulekit.load_ruleset("tianjin")
GOLD8 = rulekit.load_ruleset("tianjin-gold8")
# indicator 7z (白): hun are 白 and 中 (000/Ⅲ: 「如果翻開的是白板，則白板和紅中都是混」)
IND, DICE = "7z", (3, 4)
# hands with no hun, far from winning, so that nobody wins by chance
FAR = ["1m4m7m1p4p7p1s4s7s1z2z3z4z6z", "2m5m8m2p5p8p2s5s8s1z2z3z4z",
       "3m6m9m3p6p9p3s6s9s1z2z3z6z", "1m5m9m1p5p9p1s5s9s1z2z3z4z"]
FAR3B = "1m5m9m1p5p9p1s5s9s6z2z3z4z"       # FAR[3] without its 東, for seat 1's 東 pair


def test_the_deal_follows_000_iii() -> None:
    pos = deal_positions(dealer=2)
    assert [len(p) for p in pos] == [13, 13, 14, 13]          # 莊家拿14張牌，閑家13張牌
    assert pos[2][:4] == [0, 1, 2, 3] and pos[3][:4] == [4, 5, 6, 7]   # the dealer first
    assert pos[2][-1] == 52


def test_the_indicator_is_counted_from_the_tail_and_its_stack_completes_replacements() -> None:
    w = from_order(list(range(34)) * 4, (1, 1))      # 2 stacks from the tail: index 132
    assert w.indicator_at == 132                     # 「從尾墩數3墩，翻開上邊的牌」 (here 2)
    assert [w.draw_tail() for _ in range(3)] == [134, 135, 133]   # 遇到混所在的墩，把剩下的那張補掉


def test_draw_game_after_the_stack_before_the_indicator() -> None:
    """荒莊 (000/Ⅳ 術語 4): 當抓完翻混的前一墩牌時沒有人和牌; the dealer keeps the deal."""
    order = stacked(FAR, "", IND, DICE)
    rec = play_hand(TJ, [Plan(), Plan(), Plan(), Plan()], seed=None, order=order,
                    hun_dice=DICE)
    draws = [e for e in rec.events if e[1] == "draw"]
    indicator_stack = 2 * (68 - 7)                   # dealing-order index of its top tile
    assert len(draws) == indicator_stack - 53        # every tile up to that stack, no more
    assert draws[-1][2] == order[indicator_stack - 1]
    assert rec.events[-1][1:] == ("draw_game", -1, "荒莊: the wall is drawn out")
    assert rec.result["winner"] is None and rec.result["next_dealer"] == 0
    assert rec.result["payments"] == [0, 0, 0, 0]


def test_chan_when_the_three_others_follow_the_dealers_first_discard() -> None:
    """鏟 (000/Ⅲ): 莊家打出東風，其他玩家依次都打出東風 → after settlement (even on a draw) the
    dealer pays each non-dealer one 明杠 (tianjin: 1); 001: one 混吊's money (gold8: 2)."""
    order = stacked(FAR, "", IND, DICE)
    plans = [Plan("1z"), Plan("1z"), Plan("1z"), Plan("1z")]
    rec = play_hand(TJ, plans, seed=None, order=order, hun_dice=DICE)
    assert [e[2] for e in rec.events if e[1] == "discard"][:4] == [27] * 4
    assert rec.result["chan"] is True
    assert any(e[1] == "chan" and e[3].startswith("鏟") for e in rec.events)
    assert rec.result["payments"] == [-3, 1, 1, 1]
    plans = [Plan("1z"), Plan("1z"), Plan("1z"), Plan("1z")]
    assert play_hand(GOLD8, plans, seed=None, order=order,
                     hun_dice=DICE).result["payments"] == [-6, 2, 2, 2]


def test_no_chan_when_one_seat_does_not_follow() -> None:
    order = stacked(FAR, "", IND, DICE)
    plans = [Plan("1z"), Plan("1z"), Plan("2z"), Plan("1z")]
    rec = play_hand(TJ, plans, seed=None, order=order, hun_dice=DICE)
    assert rec.result["chan"] is False and rec.result["payments"] == [0, 0, 0, 0]


LONG_READY = "123456789m11z23p"         # 龍 waiting on 1p / 4p (4 fan)


def test_a_non_dealer_self_draw_passes_the_deal() -> None:
    """莊家胡牌，則莊家繼續做莊，閑家胡牌，則現任莊家的下一家坐莊 (000/Ⅳ 莊家)."""
    hands = [FAR[0], LONG_READY, FAR[2], FAR3B]
    order = stacked(hands, "4p", IND, DICE)
    rec = play_hand(TJ, [Plan(), Plan(wins=True), Plan(), Plan()], seed=None, order=order,
                    hun_dice=DICE)
    assert rec.result["winner"] == 1 and rec.result["patterns"] == ["long", "su"]
    assert rec.result["payments"] == [-8, 24, -8, -8]       # 龍 4 × 素 2, from each of three
    assert rec.result["next_dealer"] == 1


def test_the_dealer_keeps_the_deal_on_heavenly() -> None:
    """天和 (000/Ⅲ): the dealer's first 14 tiles win; ×4 (tianjin.yaml)."""
    hands = ["123456789m11z234p", FAR[1], FAR[2], FAR3B]
    rec = play_hand(TJ, [Plan(wins=True), Plan(), Plan(), Plan()], seed=None,
                    order=stacked(hands, "", IND, DICE), hun_dice=DICE)
    assert [e[3] for e in rec.events if e[1] == "win"] == ["天和"]
    assert rec.result["winner"] == 0 and rec.result["next_dealer"] == 0
    # the best winning tile of the fourteen is 5m: (捉5 3 + 龍 4) × 素 2 × 天和 4
    assert rec.result["patterns"] == ["long", "su", "tian_he", "zhuo_wu"]
    assert rec.result["total_fan"] == 56
    assert rec.result["payments"] == [168, -56, -56, -56]


def test_dealer_on_draw_passes_when_only_others_konged(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """000/Ⅳ 術語 1 (overlay `dealer_on_draw: pass_if_no_kong`): on 荒莊 the deal passes
    when the dealer has no kong and another seat has one."""
    hands = [FAR[0], "1m4m7m1p4p7p1s4s7s8s8s8s8s", FAR[2], FAR3B]

    path = tmp_path / "pass.yaml"
    path.write_text("extends: tianjin\nname: pass\nsettlement: {dealer_on_draw: pass_if_no_kong}\n")
    rs = rulekit.load_ruleset(str(path))
    order = stacked(hands, "", IND, DICE)
    rec = play_hand(rs, [Plan(), Konger(), Plan(), Plan()], seed=None, order=order,
                    hun_dice=DICE)
    assert rec.result["kongs"][1] == ["concealed"] and rec.result["winner"] is None
    assert rec.result["next_dealer"] == 1
    assert rec.result["payments"] == [-2, 6, -2, -2]        # 暗杠 2 from each (000/Ⅸ)
    rec = play_hand(TJ, [Plan(), Konger(), Plan(), Plan()], seed=None, order=order,
                    hun_dice=DICE)
    assert rec.result["next_dealer"] == 0                   # default: 流局，莊家繼續做莊


def test_xiao_xiang_gong_forbids_the_win_after_a_hun_discard() -> None:
    """小相公 (000/Ⅲ): 如果玩家把手上的混打出 ... 該局此玩家不能胡牌."""
    hands = [FAR[0], LONG_READY, FAR[2], FAR3B]
    # seat 1 draws 白 (a hun: it wins, declined), discards it, then draws 4p: the 龍 shape
    # again, and this time the win is not even offered
    class DeclineFirst(Plan):
        def choose_win(self, obs: Observation) -> bool:
            return len(self.offered) > 1

    order = stacked(hands, "7z8s8s8p4p", IND, DICE)
    seat1 = DeclineFirst("7z")
    rec = play_hand(TJ, [Plan(), seat1, Plan(), Plan()], seed=None, order=order, hun_dice=DICE)
    hun_discard = [e for e in rec.events if e[0] == 1 and e[1] == "discard"][0]
    assert hun_discard[2] == 33 and hun_discard[3].startswith("小相公")
    assert [e[2] for e in rec.events if e[0] == 1 and e[1] == "draw"][:2] == [33, 12]
    assert len(seat1.offered) == 1 and rec.result["winner"] is None
    # the same deal where seat 1 discards a plain tile instead wins on the 4p
    order = stacked(hands, "8p8s8s8m4p", IND, DICE)
    rec = play_hand(TJ, [Plan(), Plan("8p", wins=True), Plan(), Plan()], seed=None,
                    order=order, hun_dice=DICE)
    assert rec.result["winner"] == 1


def test_a_hun_discards_label_names_the_forbid_rules_that_read_it(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The event of a discarded hun says what the ruleset makes of it, never a rule the
    engine knows by name: tianjin's forbid 小相公 (the label pinned logs carry), a forbid
    renamed, or nothing where no forbid reads `context.discarded_hun` (then the hun discard
    is not 小相公, and seat 1 may win after it)."""
    from rulekit.game.simulate import outcome_of
    hands = [FAR[0], LONG_READY, FAR[2], FAR3B]
    order = stacked(hands, "7z8s8s8p4p", IND, DICE)

    class DeclineFirst(Plan):                 # as above: 白 drawn, the win declined
        def choose_win(self, obs: Observation) -> bool:
            return len(self.offered) > 1

    def hun_label(rs: rulekit.Ruleset) -> tuple[str, int, object]:
        rec = play_hand(rs, [Plan(), DeclineFirst("7z"), Plan(), Plan()], seed=None,
                        order=order, hun_dice=DICE)
        e = [e for e in rec.events if e[0] == 1 and e[1] == "discard"][0]
        assert e[2] == 33
        return e[3], outcome_of(rec)["xiao_xiang_gong"], rec.result["winner"]
    assert hun_label(TJ) == ("小相公: this seat cannot win this hand", 1, None)
    renamed = tmp_path / "renamed.yaml"
    renamed.write_text("extends: tianjin\nname: renamed\nforbid:\n  xiao_xiang_gong:\n"
                       "    name: small fool\n", encoding="utf-8")
    assert hun_label(rulekit.load_ruleset(str(renamed))) == (
        "small fool: this seat cannot win this hand", 1, None)
    free = tmp_path / "free.yaml"
    free.write_text("extends: tianjin\nname: free\nforbid: {xiao_xiang_gong: null}\n",
                    encoding="utf-8")
    assert hun_label(rulekit.load_ruleset(str(free))) == ("", 0, 1)


def test_an_illegal_move_is_refused_naming_it() -> None:
    class Cheat(Plan):
        def choose_discard(self, obs: Observation, legal: list[Action]) -> int:
            return 4 if not obs.hand[4] else 5

    order = stacked(FAR, "", IND, DICE)
    with pytest.raises(IllegalMove, match=r'seat 0: \{"action": "discard", "tile": "(5m|6m)"\} '
                                          r'is not legal; legal: \{"action": "discard", '
                                          r'"tile": "1m"\}'):
        play_hand(TJ, [Cheat(), Plan(), Plan(), Plan()], seed=None, order=order, hun_dice=DICE)


class Konger(Plan):
    """A plan that takes the first kong offered."""

    def choose_kong(self, obs: Observation, kongs: list[Action]) -> Action | None:
        return kongs[0]


def test_a_win_on_the_replacement_is_gang_kai_and_the_kong_is_the_last_declared() -> None:
    """杠開 (000/Ⅲ): the dealer konges four 8s before the first discard; the replacement from
    the tail (000/Ⅲ 杠後補牌) completes a 龍: not 天和 (「暗杠，補杠後胡牌，不算天胡」).
    tianjin: 龍 4 × 素 2 × 杠開 2 + 暗杠 2 = 18; tianjin-laizi (002): 暗杠杠開 doubles the
    whole total with the kong as exposed, (16 + 1) × 2 = 34 (002: 杠開素龍 17 / 34)."""
    hands = ["8s8s8s8s123456789m1z", "2m5m8m2p5p8p2s5s3s1z2z3z4z", FAR[2], FAR3B]
    order = stacked(hands, "", IND, DICE, tail="1z")
    for name, fan in (("tianjin", 18), ("tianjin-laizi", 34)):
        rec = play_hand(rulekit.load_ruleset(name), [Konger(wins=True), Plan(), Plan(), Plan()],
                        seed=None, order=order, hun_dice=DICE)
        acts = [(e[1], e[3]) for e in rec.events if e[0] == 0][-3:]
        assert acts == [("concealed_kong", "暗杠"), ("replacement", "杠後補牌"), ("win", "杠開")]
        assert rec.result["win_by"] == "kong_draw" and rec.result["total_fan"] == fan
        assert rec.result["payments"] == [3 * fan, -fan, -fan, -fan]


def test_an_illegal_claim_or_kong_is_refused_naming_it() -> None:
    """Seat 1 holds two 東 and is offered 東 from the dealer: "chow" is not among
    pass / pung; seat 1 then holds four 8s and names a kong of 9s."""
    class Chow(Plan):
        def choose_claim(self, obs: Observation, legal: list[Action]) -> Action | None:
            return {"action": "chow"}

    hands = [FAR[0], "2m5m8m2p5p8p2s5s8s1z1z3z4z", FAR[2], FAR3B]
    order = stacked(hands, "", IND, DICE)
    with pytest.raises(IllegalMove, match=re.escape(
            'seat 1: {"action": "chow"} is not legal; legal: {"action": "pass"}, '
            '{"action": "pung"}')):
        play_hand(TJ, [Plan("1z"), Chow(), Plan(), Plan()], seed=None, order=order,
                  hun_dice=DICE)

    class BadKong(Plan):
        def choose_kong(self, obs: Observation, kongs: list[Action]) -> Action | None:
            return actions.kong(26, "concealed")

    hands = ["8s8s8s8s123456789m1z", "2m5m8m2p5p8p2s5s3s1z2z3z4z", FAR[2], FAR3B]
    with pytest.raises(IllegalMove, match=re.escape(
            'seat 0: {"action": "kong", "kind": "concealed", "tile": "9s"} is not legal; '
            'legal: {"action": "kong", "kind": "concealed", "tile": "8s"}, '
            '{"action": "discard", "tile": "1m"}')):
        play_hand(TJ, [BadKong(), Plan(), Plan(), Plan()], seed=None,
                  order=stacked(hands, "", IND, DICE), hun_dice=DICE)


def test_dealing_starts_where_the_dice_say() -> None:
    """000/Ⅲ 拿牌: 從自己面前的牌墩 ... 數到「兩個篩子點數之和+1」那一墩開始拿牌: with 17 stacks a
    seat, dealer 2 rolling 3 + 4 starts at stack 2·17 + 7 (0-based: the 8th of its wall).
    000/Ⅷ 開牌: dealer 0 rolls 2 + 3, counting 本人 1, 下家 2, ... to seat 0 + 5 - 1 = seat 0
    (the fifth count comes round to itself), who rolls 1 + 1: 7 stacks into seat 0's wall."""
    from rulekit.game.wall import break_stack
    assert break_stack(2, 4, 68, (3, 4)) == 2 * 17 + 7
    assert break_stack(3, 4, 68, (6, 6)) == (3 * 17 + 12) % 68
    assert break_stack(0, 4, 68, (2, 3, 1, 1)) == 7
    assert break_stack(0, 4, 68, (1, 1, 3, 3)) == 17 + 8       # 下家 (count 2) rolls


def test_three_players_pay_three_numbers() -> None:
    rs = rulekit.load_ruleset("tianjin-3p")
    from rulekit.game.players import make_player
    for seed in range(6):
        rec = play_hand(rs, [make_player("greedy", rs, 0)] * 3, seed=seed, dealer=seed % 3)
        assert len(rec.result["payments"]) == 3 and sum(rec.result["payments"]) == 0
        assert len([e for e in rec.events if e[1] == "deal"]) == 3


def test_eight_flowers_win_at_once() -> None:
    """tianjin-flowers: 八花齊 (000/Ⅰ 7 「抓滿春夏秋冬梅蘭竹菊8朵花即可馬上胡牌」), 16 fan there.
    Seat 1 is dealt all eight; they are shown and replaced from the tail, the dealer first,
    then seat 1 (補花); at its first draw it wins at once: 16 from each of three."""
    rs = rulekit.load_ruleset("tianjin-flowers")
    hands = [FAR[0], "12345678f2m5m8m2p5p", FAR[2], FAR3B]
    order = stacked(hands, "9p", IND, DICE, flowers=True)
    rec = play_hand(rs, [Plan(), Plan(wins=True), Plan(), Plan()], seed=None, order=order,
                    hun_dice=DICE)
    supplied = [e for e in rec.events if e[1] == "replacement" and e[3] == "補花"]
    assert [e[0] for e in supplied] == [1] * 8
    assert rec.result["winner"] == 1 and rec.result["hand"]["flowers"] == "12345678f"
    assert rec.result["patterns"] == ["ba_hua_qi"] and rec.result["total_fan"] == 16
    assert rec.result["payments"] == [-16, 48, -16, -16]
