from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import examples, golden_cases
from rulekit.errors import RulekitError, SettleError
from rulekit.ruleset.model import Ruleset, load
from rulekit.settlement import SettleResult, Transfer, settle_document

DATA = Path(__file__).parent / "data"

# Winning hands under the default ruleset (scores as in rulesets/cases/tianjin.yaml).
SU: dict[str, Any] = {"indicator": "3s", "hand": "234m567p111z666z8p", "win_tile": "8p"}
"""素提溜: hand fan 2, no kongs."""
ZHUO5: dict[str, Any] = {"indicator": "1z", "hand": "4m2z123p789s555p77z", "win_tile": "5m"}
"""捉5: hand fan 3, no kongs."""
GK_EXPOSED: dict[str, Any] = {"indicator": "4p", "hand": "123m888p234s6z",
                              "melds": [{"kind": "kong", "tiles": "7777s"}],
                              "win_tile": "6z", "win_by": "kong_draw"}
"""杠開素提溜 with a 明杠: hand fan 4, kong 1."""
GK_CONCEALED: dict[str, Any] = {"indicator": "9m", "hand": "345p666s789s7z",
                                "melds": [{"kind": "kong", "tiles": "1111z", "concealed": True}],
                                "win_tile": "7z", "win_by": "kong_draw"}
"""杠開素提溜 with a 暗杠: hand fan 4, kong 2."""
GOLDEN: dict[str, Any] = {"indicator": "1m", "hand": "345p678s999p1z",
                          "melds": [{"kind": "kong", "tiles": "2222m", "concealed": True}],
                          "win_tile": "1z"}
"""素提溜 with a 金杠 (hun 1m 2m): hand fan 2, kong 4."""
HANDS = [(SU, []), (ZHUO5, []), (GK_EXPOSED, ["exposed"]), (GK_CONCEALED, ["concealed"]),
         (GOLDEN, ["golden"])]

TIANJIN = load("tianjin")


@pytest.fixture(scope="module")
def rs() -> Ruleset:
    return TIANJIN


def variant(tmp_path: Path, text: str, name: str = "variant") -> Ruleset:
    """A ruleset that extends the default with a few changed keys."""
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"extends: tianjin\nname: {name}\n{text}", encoding="utf-8")
    return load(path)


def flows(result: SettleResult) -> set[tuple[int, int, Any, str]]:
    return {(t.from_seat, t.to_seat, t.amount, t.why) for t in result.transfers}


def by_why(result: SettleResult, why: str) -> dict[tuple[int, int], Any]:
    return {(t.from_seat, t.to_seat): t.amount for t in result.transfers if t.why == why}


# --- the seeds' examples -----------------------------------------------------------------------

def test_chan_000_example_on_a_draw(rs: Ruleset) -> None:
    """000/Ⅲ 鏟: dealer sits, A 0, B 1, C 2 pulls → the dealer pays A 2, B 4, C 8."""
    r = settle_document({"dealer": 0, "dealer_sits": True, "pulls": [0, 0, 1, 2],
                         "chan": True}, rs)
    assert r.transfers == (Transfer(0, 1, 2, "chan"), Transfer(0, 2, 4, "chan"),
                           Transfer(0, 3, 8, "chan"))
    assert r.payments == (-14, 2, 4, 8)
    assert r.next_dealer == 0
    assert r.score is None


def test_chan_is_relative_to_the_dealer_seat(rs: Ruleset) -> None:
    r = settle_document({"dealer": 2, "dealer_sits": True, "pulls": [2, 0, 0, 1],
                         "chan": True}, rs)
    assert flows(r) == {(2, 3, 4, "chan"), (2, 0, 8, "chan"), (2, 1, 2, "chan")}
    assert r.payments == (8, 2, -14, 4)


@pytest.mark.parametrize("hand, fan", [(SU, 2), (ZHUO5, 3)])
def test_dealer_wins_000_IX(rs: Ruleset, hand: dict[str, Any], fan: int) -> None:
    """000/Ⅸ: dealer sits, A 0, B 1, C 2 pulls; the dealer wins F → A 2F, B 4F, C 8F."""
    r = settle_document({"dealer": 0, "dealer_sits": True, "pulls": [0, 0, 1, 2],
                         "winner": 0, "hand": hand}, rs)
    assert r.score is not None and r.score.hand_fan == fan
    assert r.transfers == (Transfer(1, 0, 2 * fan, "hand"), Transfer(2, 0, 4 * fan, "hand"),
                           Transfer(3, 0, 8 * fan, "hand"))
    assert r.payments == (14 * fan, -2 * fan, -4 * fan, -8 * fan)
    assert r.next_dealer == 0


def test_kong_points_multiplied_000_IX(rs: Ruleset) -> None:
    """000/Ⅸ 「杠分的計算根據坐莊、拉庄情況進行翻倍」: A 2×, B 4×, C 8× the kong points."""
    r = settle_document({"dealer": 0, "dealer_sits": True, "pulls": [0, 0, 1, 2],
                         "winner": 0, "hand": GK_EXPOSED,
                         "kongs": [["exposed"], [], [], []]}, rs)
    assert by_why(r, "hand") == {(1, 0): 8, (2, 0): 16, (3, 0): 32}
    assert by_why(r, "kong") == {(1, 0): 2, (2, 0): 4, (3, 0): 8}
    assert r.payments == (70, -10, -20, -40)


def test_kong_points_of_a_non_winner_multiplied_with_the_dealer_only(rs: Ruleset) -> None:
    """Seat 3 (pulls 2) holds a 暗杠: the dealer pays 2 × 2 × 4, the other non-dealers 2."""
    r = settle_document({"dealer": 0, "dealer_sits": True, "pulls": [0, 0, 0, 2],
                         "winner": 1, "hand": SU, "kongs": [[], [], [], ["concealed"]]}, rs)
    assert by_why(r, "kong") == {(0, 3): 16, (1, 3): 2, (2, 3): 2}
    assert by_why(r, "hand") == {(0, 1): 4, (2, 1): 2, (3, 1): 2}
    assert r.payments == (-20, 6, -4, 18)


def test_non_dealer_wins_without_sits_or_pulls_each_pays_f(rs: Ruleset) -> None:
    r = settle_document({"dealer": 0, "winner": 2, "hand": ZHUO5}, rs)
    assert r.transfers == (Transfer(0, 2, 3, "hand"), Transfer(1, 2, 3, "hand"),
                           Transfer(3, 2, 3, "hand"))
    assert r.payments == (-3, -3, 9, -3)
    assert r.next_dealer == 1


def test_no_multiplier_between_non_dealers(rs: Ruleset) -> None:
    """000/Ⅲ 拉庄: 「若其他閑家胡，另外三家均付分不加倍」; 坐莊 doubles only the dealer's share."""
    r = settle_document({"dealer": 0, "dealer_sits": True, "pulls": [0, 2, 0, 1],
                         "winner": 2, "hand": SU}, rs)
    assert by_why(r, "hand") == {(0, 2): 4, (1, 2): 2, (3, 2): 2}


def test_pulling_seat_wins_the_dealer_pays_double(rs: Ruleset) -> None:
    """000/Ⅲ 拉庄: 「若該閑家胡，其他閑家付分不加倍，莊家付兩倍」."""
    r = settle_document({"dealer": 0, "pulls": [0, 1, 0, 0], "winner": 1, "hand": SU}, rs)
    assert by_why(r, "hand") == {(0, 1): 4, (2, 1): 2, (3, 1): 2}


def test_winner_pays_other_kongs_and_kongs_on_a_draw(rs: Ruleset) -> None:
    """000/Ⅸ 「玩家的杠分，由其它三家補（包括胡牌的玩家）」; kong points count on a draw too."""
    r = settle_document({"dealer": 0, "winner": 1, "hand": SU,
                         "kongs": [[], [], ["exposed"], []]}, rs)
    assert by_why(r, "kong") == {(0, 2): 1, (1, 2): 1, (3, 2): 1}
    draw = settle_document({"dealer": 0, "kongs": [[], [], ["exposed"], ["golden"]]}, rs)
    assert draw.payments == (-5, -5, -1, 11)


def test_kong_points_to_a_player_who_xiao_xiang_gong(rs: Ruleset) -> None:
    """A 小相公 player cannot win, but its kong points are still paid."""
    r = settle_document({"dealer": 0, "winner": 2, "hand": SU,
                         "kongs": [[], ["concealed"], [], []]}, rs)
    assert by_why(r, "kong") == {(0, 1): 2, (2, 1): 2, (3, 1): 2}
    assert r.payments == (-4, 4, 4, -4)


def test_kong_points_not_multiplied_variant(tmp_path: Path) -> None:
    """000/Ⅹ 「杠分不翻」: kong payments ignore 坐莊/拉莊, the hand payments do not."""
    rs = variant(tmp_path, "settlement: {kong_points_multiplied: false}\n")
    r = settle_document({"dealer": 0, "dealer_sits": True, "pulls": [0, 0, 1, 2],
                         "winner": 0, "hand": GK_EXPOSED,
                         "kongs": [["exposed"], [], [], ["concealed"]]}, rs)
    assert by_why(r, "kong") == {(1, 0): 1, (2, 0): 1, (3, 0): 1,
                                 (0, 3): 2, (1, 3): 2, (2, 3): 2}
    assert by_why(r, "hand") == {(1, 0): 8, (2, 0): 16, (3, 0): 32}


@pytest.mark.parametrize("sits, pulls, paid", [
    (False, [0, 0, 0, 0], [2, 2, 2]),    # 「莊家不坐莊，閑家不拉庄 … 每人一個混钓的錢」
    (False, [0, 0, 0, 1], [2, 2, 4]),    # 「A，B不拉庄C拉庄 … 每人一個混钓錢，付C兩份」
    (True, [0, 0, 0, 1], [4, 4, 8]),     # 「莊家坐庄 … A，B … 兩份混钓錢付C四份」
    (True, [0, 0, 1, 2], [4, 8, 16]),    # 「A鈈拉庄，B拉庄C拉兩庄 … A兩個 … B四份 … C八份」
])
def test_chan_pays_hun_diao_money_001(tmp_path: Path, sits: bool, pulls: list[int],
                                      paid: list[int]) -> None:
    """001 (last part): 鏟 pays one 混吊's money, 2, from the ruleset's own fan values."""
    rs = variant(tmp_path, "chan: {payout: hun_diao}\n")
    r = settle_document({"dealer": 0, "dealer_sits": sits, "pulls": pulls, "chan": True}, rs)
    assert r.transfers == tuple(Transfer(0, n, a, "chan") for n, a in zip((1, 2, 3), paid))
    assert r.payments == (-sum(paid), *paid)


def test_chan_hun_diao_follows_the_rulesets_fan(tmp_path: Path) -> None:
    rs = variant(tmp_path, "chan: {payout: hun_diao}\nscoring: {multiply: {hun_diao: 3}}\n")
    r = settle_document({"dealer": 1, "chan": True}, rs)
    assert r.payments == (3, -9, 3, 3)


def test_chan_unit_follows_exposed_kong_points(tmp_path: Path) -> None:
    rs = variant(tmp_path, "kong_points: {exposed: 3}\n")
    r = settle_document({"dealer": 0, "chan": True}, rs)
    assert r.payments == (-9, 3, 3, 3)


def test_chan_disabled(tmp_path: Path) -> None:
    rs = variant(tmp_path, "chan: {enabled: false}\n")
    r = settle_document({"dealer": 0, "dealer_sits": True, "chan": True}, rs)
    assert r.transfers == () and r.payments == (0, 0, 0, 0)


def test_chan_after_a_win_is_a_separate_transfer(rs: Ruleset) -> None:
    """「在正常結算之後…由莊家付給三個閑家」: the dealer pays the winner for the hand and gets
    nothing back for it, and pays 鏟 on top."""
    r = settle_document({"dealer": 0, "winner": 1, "hand": SU, "chan": True}, rs)
    assert r.transfers == (Transfer(0, 1, 2, "hand"), Transfer(2, 1, 2, "hand"),
                           Transfer(3, 1, 2, "hand"), Transfer(0, 1, 1, "chan"),
                           Transfer(0, 2, 1, "chan"), Transfer(0, 3, 1, "chan"))
    assert r.payments == (-5, 7, -1, -1)


def test_stake_scales_every_payment(rs: Ruleset) -> None:
    doc = {"dealer": 0, "dealer_sits": True, "winner": 3, "hand": GK_CONCEALED,
           "kongs": [[], [], [], ["concealed"]], "chan": True}
    one = settle_document(doc, rs)
    five = settle_document({**doc, "stake": 5}, rs)
    half = settle_document({**doc, "stake": 0.5}, rs)
    assert five.payments == tuple(5 * p for p in one.payments)
    assert half.payments == tuple(p / 2 for p in one.payments)
    assert all(isinstance(p, int) for p in five.payments)


def test_amounts_are_ints_when_whole(rs: Ruleset) -> None:
    r = settle_document({"dealer": 0, "winner": 0, "hand": SU, "stake": 1.5}, rs)
    assert r.payments == (9, -3, -3, -3)
    assert all(type(p) is int for p in r.payments)
    assert all(type(t.amount) is int for t in r.transfers)
    r = settle_document({"dealer": 0, "winner": 0, "hand": SU, "stake": 0.25}, rs)
    assert r.payments == (1.5, -0.5, -0.5, -0.5)


def test_adjust_total_doubling_is_part_of_the_hand_payment(tmp_path: Path) -> None:
    """For a ruleset whose adjust_total doubles the whole total (002's 杠開 on a 暗杠), each
    loser pays total − kong points; the kong points stay a separate, undoubled transfer."""
    rs = variant(tmp_path, "scoring:\n  adjust_total:\n"
                 "    - {name: 暗杠杠開, when: \"context.kong_draw and context.last_kong == "
                 "concealed\", multiply_total: 2}\n")
    r = settle_document({"dealer": 0, "winner": 1, "hand": GK_CONCEALED,
                         "kongs": [[], ["concealed"], [], []]}, rs)
    assert r.score is not None
    assert (r.score.hand_fan, r.score.kong_fan, r.score.total_fan) == (4, 2, 12)
    assert by_why(r, "hand") == {(0, 1): 10, (2, 1): 10, (3, 1): 10}
    assert by_why(r, "kong") == {(0, 1): 2, (2, 1): 2, (3, 1): 2}


def test_transfers_merge_per_pair_and_reason(rs: Ruleset) -> None:
    r = settle_document({"dealer": 0, "kongs": [[], ["exposed", "concealed", "exposed"], [], []]},
                        rs)
    assert r.transfers == (Transfer(0, 1, 4, "kong"), Transfer(2, 1, 4, "kong"),
                           Transfer(3, 1, 4, "kong"))


def test_zero_amounts_are_omitted(tmp_path: Path) -> None:
    rs = variant(tmp_path, "kong_points: {exposed: 0}\n")
    r = settle_document({"dealer": 0, "kongs": [[], ["exposed"], [], []], "chan": True}, rs)
    assert r.transfers == () and r.payments == (0, 0, 0, 0)


def test_golden_kong_hand(rs: Ruleset) -> None:
    r = settle_document({"dealer": 0, "winner": 3, "hand": GOLDEN,
                         "kongs": [[], [], [], ["golden"]]}, rs)
    assert by_why(r, "hand") == {(0, 3): 2, (1, 3): 2, (2, 3): 2}
    assert by_why(r, "kong") == {(0, 3): 4, (1, 3): 4, (2, 3): 4}


def test_to_dict(rs: Ruleset) -> None:
    r = settle_document({"dealer": 0, "winner": 1, "hand": SU, "chan": True}, rs)
    d = r.to_dict()
    assert d["payments"] == [-5, 7, -1, -1]
    assert d["transfers"][0] == {"from": 0, "to": 1, "amount": 2, "why": "hand"}
    assert d["next_dealer"] == 1
    assert d["score"]["total_fan"] == 2 and d["score"]["win"] is True
    assert settle_document({"dealer": 0}, rs).to_dict() == {
        "payments": [0, 0, 0, 0], "transfers": [], "next_dealer": 0, "score": None}


def test_defaults(rs: Ruleset) -> None:
    r = settle_document({}, rs)
    assert (r.payments, r.transfers, r.next_dealer, r.score) == ((0, 0, 0, 0), (), 0, None)
    assert settle_document({"winner": None}, rs).next_dealer == 0


# --- dealer rotation ---------------------------------------------------------------------------

@pytest.mark.parametrize("dealer, winner, expected", [
    (0, 0, 0), (2, 2, 2),                # the dealer wins: keeps the deal
    (0, 1, 1), (0, 3, 1), (2, 0, 3),     # a non-dealer wins: the next seat deals
    (3, 1, 0),                           # wraps round
])
def test_rotation_on_a_win(rs: Ruleset, dealer: int, winner: int, expected: int) -> None:
    r = settle_document({"dealer": dealer, "winner": winner, "hand": SU}, rs)
    assert r.next_dealer == expected


@pytest.mark.parametrize("kongs", [
    [[], [], [], []], [[], ["exposed"], [], []], [["concealed"], [], [], []]])
def test_rotation_on_a_draw_keep(rs: Ruleset, kongs: list[list[str]]) -> None:
    assert settle_document({"dealer": 0, "kongs": kongs}, rs).next_dealer == 0


@pytest.mark.parametrize("dealer, kongs, expected", [
    (0, [[], [], [], []], 0),                        # nobody konged: keeps
    (0, [[], ["exposed"], [], []], 1),               # only another seat konged: passes
    (3, [["golden"], [], [], []], 0),                # passes, wrapping round
    (0, [["exposed"], ["exposed"], [], []], 0),      # the dealer konged too: keeps
    (2, [[], [], ["concealed"], []], 2),             # only the dealer konged: keeps
])
def test_rotation_on_a_draw_pass_if_no_kong(tmp_path: Path, dealer: int,
                                            kongs: list[list[str]], expected: int) -> None:
    """000/Ⅳ 術語 1: 「荒牌且自己沒有杠別人有杠的時候則下庄」."""
    rs = variant(tmp_path, "settlement: {dealer_on_draw: pass_if_no_kong}\n")
    assert settle_document({"dealer": dealer, "kongs": kongs}, rs).next_dealer == expected


def test_three_players(tmp_path: Path) -> None:
    rs = variant(tmp_path, "players: 3\n")
    r = settle_document({"dealer": 0, "dealer_sits": True, "pulls": [0, 1, 0],
                         "winner": 2, "hand": SU}, rs)
    assert r.payments == (-4, -2, 6)
    assert r.next_dealer == 1
    assert settle_document({"dealer": 2, "winner": 1, "hand": SU}, rs).next_dealer == 0
    with pytest.raises(SettleError) as info:
        settle_document({"pulls": [0, 0, 0, 0]}, rs)
    assert info.value.field == "pulls"


# --- validation --------------------------------------------------------------------------------

def error(doc: Any, rs: Ruleset) -> SettleError:
    with pytest.raises(SettleError) as info:
        settle_document(doc, rs)
    err = info.value
    assert isinstance(err, RulekitError)
    assert "\n" not in str(err)
    assert str(err) == f"{err.field}: {err.message}"
    return err


WIN = {"dealer": 0, "winner": 1, "hand": SU}


@pytest.mark.parametrize("doc, field, words", [
    ([], "document", "expected an object, got array"),
    ("x", "document", "expected an object, got string"),
    ({"dealer": "0"}, "dealer", "expected a seat number 0..3, got string"),
    ({"dealer": True}, "dealer", "got boolean"),
    ({"dealer": 4}, "dealer", "got 4"),
    ({"dealer": -1}, "dealer", "got -1"),
    ({"dealer": 1.0}, "dealer", "got number"),
    ({"dealer": None}, "dealer", "got null"),
    ({**WIN, "winner": "1"}, "winner", "got string"),
    ({**WIN, "winner": False}, "winner", "got boolean"),
    ({**WIN, "winner": 7}, "winner", "got 7"),
    ({"pulls": 0}, "pulls", "expected an array with one entry per seat, got number"),
    ({"pulls": [0, 0, 0]}, "pulls", "expected 4 entries (one per seat), got 3"),
    ({"pulls": [0, 0, "1", 0]}, "pulls[2]", "got string"),
    ({"pulls": [0, 0, 3, 0]}, "pulls[2]", "0..2, got 3"),
    ({"pulls": [0, -1, 0, 0]}, "pulls[1]", "got -1"),
    ({"pulls": [0, True, 0, 0]}, "pulls[1]", "got boolean"),
    ({"dealer": 2, "pulls": [0, 0, 1, 0]}, "pulls[2]", "is the dealer and cannot pull"),
    ({"kongs": "exposed"}, "kongs", "got string"),
    ({"kongs": [[], [], []]}, "kongs", "expected 4 entries"),
    ({"kongs": [[], "exposed", [], []]}, "kongs[1]", "expected an array of kong types"),
    ({"kongs": [[], [], ["exposed", "big"], []]}, "kongs[2][1]", "unknown kong type 'big'"),
    ({"kongs": [[], [], [1], []]}, "kongs[2][0]", "unknown kong type number"),
    ({"kongs": [["exposed"] * 5, [], [], []]}, "kongs[0]", "at most 4"),
    ({"stake": 0}, "stake", "expected a positive number, got 0"),
    ({"stake": -2}, "stake", "got -2"),
    ({"stake": "1"}, "stake", "got string"),
    ({"stake": True}, "stake", "got boolean"),
    ({"stake": None}, "stake", "got null"),
    ({"stake": float("nan")}, "stake", "got nan"),
    ({"stake": float("inf")}, "stake", "got inf"),
    ({"chan": "yes"}, "chan", "expected true or false, got string"),
    ({"chan": 1}, "chan", "got number"),
    ({"dealer_sits": 1}, "dealer_sits", "expected true or false, got number"),
    ({"winner": 1}, "hand", "seat 1 won, so the winner's hand is required"),
    ({"winner": 1, "hand": None}, "hand", "hand is required"),
    ({"hand": SU}, "hand", "a draw (winner null or absent) has no winning hand"),
    ({"winner": None, "hand": SU}, "hand", "has no winning hand"),
    ({**WIN, "hand": GK_EXPOSED}, "kongs[1]",
     "the winner's kongs [] do not match the kongs in its hand ['exposed']"),
    ({**WIN, "hand": GK_EXPOSED, "kongs": [[], ["concealed"], [], []]}, "kongs[1]",
     "do not match"),
    ({**WIN, "kongs": [[], ["exposed"], [], []]}, "kongs[1]", "do not match"),
    ({**WIN, "hand": {**SU, "discarded_hun": True}}, "hand", "(xiao_xiang_gong: "),
    ({**WIN, "hand": {"indicator": "8s", "hand": "12s9s456p777m5z",
                      "melds": [{"kind": "kong", "tiles": "3333p"}], "win_tile": "5z"},
      "kongs": [[], ["exposed"], [], []]}, "hand", "(below_minimum: "),
    ({**WIN, "hand": {**SU, "win_tile": "9p"}}, "hand", "(not_a_winning_shape: "),
    ({**WIN, "hand": {k: v for k, v in SU.items() if k != "win_tile"}}, "hand.win_tile",
     "required field is missing"),
    ({**WIN, "hand": {**SU, "hand": "234m567p111z666z8x"}}, "hand.hand", ""),
    ({**WIN, "hand": {**SU, "melds": [{"kind": "chow", "tiles": "123m"}]}},
     "hand.melds[0].kind", "unknown meld kind"),
    ({**WIN, "hand": [SU]}, "hand.document", "expected an object"),
    ({**WIN, "hand": {**SU, "win_by": "discard"}}, "hand.win_by", "not allowed"),
])
def test_validation(rs: Ruleset, doc: Any, field: str, words: str) -> None:
    err = error(doc, rs)
    assert err.field == field
    assert words in err.message


def test_a_hand_that_cannot_win_names_the_reason(rs: Ruleset) -> None:
    err = error({**WIN, "hand": {**SU, "discarded_hun": True}}, rs)
    assert err.message == ("seat 1's hand cannot win (xiao_xiang_gong: cannot win: 小相公); "
                           "a player who cannot win is not a winner")


def test_golden_kong_forbidden_by_the_ruleset(tmp_path: Path) -> None:
    rs = variant(tmp_path, "hun: {golden_kong: forbidden}\n")
    err = error({"kongs": [[], ["golden"], [], []]}, rs)
    assert err.field == "kongs[1][0]" and "金杠" in err.message
    err = error({"winner": 3, "hand": GOLDEN, "kongs": [[], [], [], ["golden"]]}, rs)
    assert err.field == "kongs[3][0]"


def test_unknown_fields_are_ignored(rs: Ruleset) -> None:
    assert settle_document({"dealer": 1, "note": "x"}, rs).next_dealer == 1


# --- properties --------------------------------------------------------------------------------

@st.composite
def settle_docs(draw: st.DrawFn) -> dict[str, Any]:
    players = 4
    dealer = draw(st.integers(0, players - 1))
    pulls = [0 if s == dealer else draw(st.integers(0, 2)) for s in range(players)]
    kongs = [draw(st.lists(st.sampled_from(["exposed", "concealed", "golden"]), max_size=4))
             for _ in range(players)]
    winner = draw(st.none() | st.integers(0, players - 1))
    doc: dict[str, Any] = {
        "dealer": dealer, "dealer_sits": draw(st.booleans()), "pulls": pulls,
        "chan": draw(st.booleans()),
        "stake": draw(st.sampled_from([1, 2, 5, 0.5, 0.25, 1.5, 10])),
    }
    if winner is not None:
        hand, hand_kongs = draw(st.sampled_from(HANDS))
        kongs[winner] = list(hand_kongs)
        doc.update(winner=winner, hand=hand)
    doc["kongs"] = kongs
    return doc


@settings(max_examples=examples(150), deadline=None)
@given(settle_docs())
def test_payments_sum_to_zero_and_transfers_are_positive(doc: dict[str, Any]) -> None:
    r = settle_document(doc, TIANJIN)
    assert len(r.payments) == 4
    assert sum(r.payments) == 0
    assert all(t.amount > 0 for t in r.transfers)
    assert all(t.from_seat != t.to_seat for t in r.transfers)
    keys = [(t.from_seat, t.to_seat, t.why) for t in r.transfers]
    assert len(keys) == len(set(keys))
    for s in range(4):
        received = sum(t.amount for t in r.transfers if t.to_seat == s)
        paid = sum(t.amount for t in r.transfers if t.from_seat == s)
        assert math.isclose(r.payments[s], received - paid)
    assert (r.score is None) == (doc.get("winner") is None)


# --- case data ---------------------------------------------------------------------------------

CASES = [c for c in golden_cases("tianjin") if "settle" in c]     # rulesets/cases/tianjin.yaml


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_settle_cases(rs: Ruleset, case: dict[str, Any]) -> None:
    assert len(CASES) == 7
    r = settle_document(case["settle"], rs)
    assert list(r.payments) == case["expect"]["payments"]
    assert r.next_dealer == case["expect"]["next_dealer"]


def test_public_settle_stays_a_function_after_use() -> None:
    # the module is rulekit.settlement: a submodule named `settle` would replace the
    # package's `settle` function with itself on first import
    import rulekit
    doc = {"dealer": 0, "winner": None}
    assert rulekit.settle(doc).payments == (0, 0, 0, 0)
    assert callable(rulekit.settle) and rulekit.settle(doc).next_dealer == 0


DISCARD_HAND = {"indicator": "1z", "hand": "4m2z123p789s555p77z", "win_tile": "5m",
                "win_by": "discard"}          # 捉5 (南 is a hun, as 6萬): 3 fan


def _dianpao(tmp_path: Path, rule: str) -> Ruleset:
    p = tmp_path / f"{rule}.yaml"
    p.write_text(f"extends: tianjin-dianpao\nname: d\nsettlement: {{discard_payer: {rule}}}\n",
                 encoding="utf-8")
    return load(p)


@pytest.mark.parametrize("rule, payments", [
    ("all", (-3, 9, -3, -3)),                 # each loser pays its own share
    ("discarder", (0, 3, 0, -3)),             # only the discarder pays, its own share
    ("discarder_for_all", (0, 9, 0, -9)),     # the discarder pays every share (包)
])
def test_discard_payer(tmp_path: Path, rule: str, payments: tuple[int, ...]) -> None:
    rs = _dianpao(tmp_path, rule)
    doc = {"dealer": 0, "winner": 1, "hand": DISCARD_HAND, "discarder": 3}
    assert settle_document(doc, rs).payments == payments


def test_discard_payer_multiplies_per_share(tmp_path: Path) -> None:
    # the dealer sits: the dealer's share is doubled even when the discarder pays it
    rs = _dianpao(tmp_path, "discarder_for_all")
    doc = {"dealer": 0, "dealer_sits": True, "winner": 1, "hand": DISCARD_HAND,
           "discarder": 3}
    assert settle_document(doc, rs).payments == (0, 12, 0, -12)   # 3×2 + 3 + 3


def test_discarder_errors(tmp_path: Path) -> None:
    rs = _dianpao(tmp_path, "discarder")
    with pytest.raises(SettleError, match="^discarder: a win on a discard needs"):
        settle_document({"dealer": 0, "winner": 1, "hand": DISCARD_HAND}, rs)
    with pytest.raises(SettleError, match="^discarder: the winner cannot"):
        settle_document({"dealer": 0, "winner": 1, "hand": DISCARD_HAND, "discarder": 1}, rs)
    self_drawn = dict(DISCARD_HAND, win_by="self_draw")
    with pytest.raises(SettleError, match="^discarder: only a win on a discard"):
        settle_document({"dealer": 0, "winner": 1, "hand": self_drawn, "discarder": 2}, rs)
    with pytest.raises(SettleError, match="^discarder:"):
        settle_document({"dealer": 0, "winner": 1, "hand": DISCARD_HAND, "discarder": 7}, rs)


# --- issue 9: impossible settle documents, exact decimal stakes ---------------------------------

HEAVENLY = {"indicator": "1p", "hand": "11223456789p99s", "win_tile": "5m", "heavenly": True}
"""天和 雙混吊本混捉5龍: hand fan (3 + 4) × 2 × 2 × 4 = 112 (the fan table's row 1)."""


def test_heavenly_is_the_dealers(rs: Ruleset) -> None:
    # 000/Ⅲ 「天和：莊家第一輪牌摸到的14張牌」
    r = settle_document({"dealer": 2, "winner": 2, "hand": HEAVENLY}, rs)
    assert r.payments == (-112, -112, 336, -112)
    with pytest.raises(SettleError) as info:
        settle_document({"dealer": 0, "winner": 1, "hand": HEAVENLY}, rs)
    assert info.value.field == "hand.heavenly"
    assert "seat 1 won, seat 0 deals" in info.value.message


def test_earthly_is_never_the_dealers(rs: Ruleset) -> None:
    earthly = {**SU, "earthly": True}
    assert settle_document({"dealer": 0, "winner": 1, "hand": earthly}, rs).payments == \
        (-2, 6, -2, -2)                  # 地和 has no value by default: 素 2
    with pytest.raises(SettleError) as info:
        settle_document({"dealer": 1, "winner": 1, "hand": earthly}, rs)
    assert info.value.field == "hand.earthly"


def test_heavenly_on_a_discard_is_refused(tmp_path: Path) -> None:
    rs = _dianpao(tmp_path, "all")
    doc = {"dealer": 0, "winner": 0, "hand": {**HEAVENLY, "win_by": "discard"}, "discarder": 2}
    with pytest.raises(SettleError) as info:
        settle_document(doc, rs)
    assert info.value.field == "hand.heavenly"


@pytest.mark.parametrize("winner", [None])
def test_no_discarder_on_a_draw(rs: Ruleset, winner: None) -> None:
    with pytest.raises(SettleError) as info:
        settle_document({"dealer": 0, "winner": winner, "discarder": 2}, rs)
    assert info.value.field == "discarder"
    assert "draw" in info.value.message


def test_a_stake_of_one_tenth_is_exact(rs: Ruleset) -> None:
    # dealer sits, seat 1 pulls once, seat 2 twice; seat 1 wins 捉5 (3), then 鏟 (1 per seat)
    from decimal import Decimal
    doc = {"dealer": 0, "dealer_sits": True, "pulls": [0, 1, 2, 0], "winner": 1,
           "hand": ZHUO5, "stake": 0.1, "chan": True}
    r = settle_document(doc, rs)
    # dealer → 1: 3·0.1·2·2 = 1.2, 2 and 3 → 1: 0.3; 鏟: 0.1·(4, 8, 2) = 0.4, 0.8, 0.2
    assert r.payments == tuple(Decimal(x) for x in ("-2.6", "2.2", "0.5", "-0.1"))
    assert sum(r.payments) == 0
    assert [t.amount for t in r.transfers] == [Decimal(x) for x in
                                               ("1.2", "0.3", "0.3", "0.4", "0.8", "0.2")]
    assert r.to_dict()["payments"] == [-2.6, 2.2, 0.5, -0.1]


def test_stake_as_decimal_and_huge_stakes(rs: Ruleset) -> None:
    from decimal import Decimal
    assert settle_document({"dealer": 0, "winner": 0, "hand": SU, "stake": Decimal("0.05")},
                           rs).payments == (Decimal("0.3"), Decimal("-0.1"), Decimal("-0.1"),
                                            Decimal("-0.1"))
    big = settle_document({"dealer": 0, "winner": 0, "hand": SU, "stake": 10 ** 15}, rs)
    assert big.payments == (6 * 10 ** 15, -2 * 10 ** 15, -2 * 10 ** 15, -2 * 10 ** 15)
    # 6e300 would print as an integer no double reads exactly: bounded at 2**53 (issue 18)
    with pytest.raises(SettleError, match=r"over 2\*\*53"):
        settle_document({"dealer": 0, "winner": 0, "hand": SU, "stake": 1e300}, rs)


@pytest.mark.parametrize("stake, words", [
    (0.1234567890123456, "more than 15 significant digits"),
    (10 ** 40, "at most 30 digits"),
    ("1E+999999999", "outside 1e-300 .. 1e300"),
])
def test_stakes_that_cannot_be_exact_are_refused(rs: Ruleset, stake: Any, words: str) -> None:
    from decimal import Decimal
    value = Decimal(stake) if isinstance(stake, str) else stake
    with pytest.raises(SettleError) as info:
        settle_document({"dealer": 0, "winner": 1, "hand": ZHUO5, "stake": value}, rs)
    assert info.value.field == "stake"
    assert words in info.value.message


def _random_settle_doc(seed: int) -> dict[str, Any]:
    """A valid settle document drawn from `seed`, like `settle_docs` but from one drawn value
    (at 10,000 examples, hypothesis's cost per drawn value would dominate the test). The
    stake is a decimal of up to 8 digits as written in JSON ("0.0123") and read by json.loads,
    as a float."""
    import random
    rng = random.Random(seed)
    stake = float(f"{rng.randint(1, 10 ** rng.randint(1, 8))}e-{rng.randint(0, 7)}")
    dealer = rng.randrange(4)
    kongs = [[rng.choice(["exposed", "concealed", "golden"]) for _ in range(rng.randrange(5))]
             for _ in range(4)]
    doc: dict[str, Any] = {
        "dealer": dealer, "dealer_sits": rng.random() < 0.5,
        "pulls": [0 if s == dealer else rng.randrange(3) for s in range(4)],
        "chan": rng.random() < 0.5, "stake": stake}
    winner = rng.choice([None, 0, 1, 2, 3])
    if winner is not None:
        hand, hand_kongs = rng.choice(HANDS)
        kongs[winner] = list(hand_kongs)
        doc.update(winner=winner, hand=hand)
    doc["kongs"] = kongs
    return doc


@settings(max_examples=examples(10_000), derandomize=True, deadline=None)
@given(st.integers(0, 2 ** 64 - 1))
def test_decimal_stakes_pay_exactly_zero(seed: int) -> None:
    import json
    from decimal import Decimal
    r = settle_document(_random_settle_doc(seed), TIANJIN)
    assert sum(r.payments) == 0                          # exact: ints and Decimals
    printed = json.loads(json.dumps(r.to_dict()), parse_float=Decimal)
    assert sum(printed["payments"]) == 0                 # and as printed
    for seat, net in enumerate(printed["payments"]):    # each net is its transfers, exactly
        assert net == sum(t["amount"] for t in printed["transfers"] if t["to"] == seat) \
            - sum(t["amount"] for t in printed["transfers"] if t["from"] == seat)


@pytest.mark.parametrize("field, value", [("dealer", 10 ** 5000), ("pulls", [0, 10 ** 5000, 0, 0]),
                                          ("stake", -10 ** 5000), ("winner", -10 ** 5000)],
                         ids=["dealer", "pulls", "stake", "winner"])
def test_huge_integers_are_named_not_printed(rs: Ruleset, field: str, value: Any) -> None:
    # str() of an int over 4,300 digits raises ValueError: a message must not try
    with pytest.raises(SettleError) as info:
        settle_document({"dealer": 0, "winner": 1, "hand": ZHUO5, field: value}, rs)
    assert len(str(info.value)) < 200
