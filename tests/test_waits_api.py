"""`rulekit.waits` on the shape tables, `scored_waits`, `score_many`, and calls by name."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rulekit
from rulekit import api, resources
from rulekit.arrange import is_winning_shape
from rulekit.corpus import DEALT, random_hand
from rulekit.errors import HandError
from rulekit.hand import parse_hand
from rulekit.ruleset.model import load_text
from rulekit.tiles import TILE_NAMES
from conftest import examples

RS = rulekit.load_ruleset("tianjin")
RS1 = load_text("extends: tianjin\nname: one-hun\nhun: {kinds: 1}\n",
                Path.cwd() / "one-hun.yaml", "one-hun")        # the indicator's kind only
HAND = {"indicator": "7p", "hand": "46m 123456789s 22z"}


def brute_waits(doc: dict[str, Any], rs: rulekit.Ruleset) -> tuple[str, ...]:
    """The definition: each kind that parses as the winning tile (no fifth copy) and makes a
    winning shape, found by the arrangement search (the implementation before the tables)."""
    out = []
    for k in range(34):
        try:
            hand = parse_hand({**doc, "win_tile": TILE_NAMES[k], "win_by": "self_draw"},
                              hun_kind_count=rs.hun_kinds)
        except HandError as err:
            if err.field != "win_tile":
                raise                        # the document's own error, whatever the tile
            continue
        counts = [0] * 34
        hun = 0
        for t in hand.concealed + (k,):
            if t in hand.hun:
                hun += 1
            else:
                counts[t] += 1
        if is_winning_shape(tuple(counts), hun, 4 - len(hand.melds)):
            out.append(TILE_NAMES[k])
    return tuple(out)


def test_waits_and_scored_waits_of_a_real_hand() -> None:
    # 46m 123456789s 22z, indicator 7p (hun 7p 8p): 5m is (捉5 3 + 龍 4) × 素 2 = 14;
    # a drawn hun as 5m is 捉5 3 + 龍 4 = 7 (a hun in the hand: no 素)
    assert rulekit.waits(HAND) == ("5m", "7p", "8p")
    assert rulekit.scored_waits(HAND, RS) == (
        rulekit.Wait("5m", 14, True), rulekit.Wait("7p", 7, True), rulekit.Wait("8p", 7, True))
    assert rulekit.score({**HAND, "win_tile": "5m"}, RS).total_fan == 14


def test_a_wait_below_the_minimum_keeps_its_reason() -> None:
    # hun 9p and 1p: a drawn hun pairs the 2z, 1 fan < the minimum 2; the 2z itself: 素 ×2
    waits = rulekit.scored_waits({"indicator": "9p", "hand": "123m 456p 789s 1112z"}, RS)
    assert [w.to_dict() for w in waits] == [
        {"tile": "1p", "fan": 1, "win": False, "reason": "below_minimum"},
        {"tile": "9p", "fan": 1, "win": False, "reason": "below_minimum"},
        {"tile": "2z", "fan": 2, "win": True}]


def test_waits_never_offer_a_fifth_copy_but_a_hun_completes_a_fifth_copy_wait() -> None:
    # 5555m 123456789s: only a fifth 5m would pair; the hun (1z, 2z) stand in for it
    assert rulekit.waits({"indicator": "1z", "hand": "5555m 123456789s"}) == ("1z", "2z")
    # 1111m 123p 456p 789p, hun 1z 2z: the shape tables list no wait (1m is held four
    # times), yet a drawn hun makes 111m + 1m·hun
    assert rulekit.waits({"indicator": "1z", "hand": "1111m 123p 456p 789p"}) == ("1z", "2z")
    # the indicator's kind: three in hand and the face-up one are all four
    assert "5m" not in rulekit.waits({"indicator": "5m", "hand": "555m 123456789s 1z"})


def test_waits_ignore_win_by_but_scored_waits_check_it() -> None:
    doc = {**HAND, "win_by": "discard", "win_tile": "1z"}
    assert rulekit.waits(doc, RS) == ("5m", "7p", "8p")
    with pytest.raises(HandError, match="'discard' is not allowed by this ruleset"):
        rulekit.scored_waits(doc, RS)
    assert [w.fan for w in rulekit.scored_waits(doc, "tianjin-dianpao")] == [14, 7, 7]


def test_waits_refuse_a_document_with_the_field_named() -> None:
    with pytest.raises(HandError) as err:
        rulekit.waits({"indicator": "7p", "hand": "46m 123456789s 22z 3z"})
    assert err.value.field == "hand"
    with pytest.raises(HandError) as err:
        rulekit.waits(["46m"])               # type: ignore[arg-type]
    assert err.value.field == "document"


@settings(max_examples=examples(300), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), hun_kinds=st.sampled_from([1, 2]))
def test_waits_agree_with_the_arrangement_search(seed: int, hun_kinds: int) -> None:
    rng = random.Random(seed)
    doc = random_hand(rng, hun_kinds_count=hun_kinds, mix=DEALT, heavenly_rate=0.0)
    del doc["win_tile"]
    if rng.random() < 0.5:                   # and a hand that rarely waits: a random swap
        tiles = list(doc["hand"].replace(" ", ""))
        doc["hand"] = doc["hand"].replace(tiles[0], str(rng.randrange(1, 8)), 1)
    rs = RS if hun_kinds == 2 else RS1
    try:
        expected: Any = brute_waits(doc, rs)
    except HandError as err:
        expected = err.field
    try:
        got: Any = rulekit.waits(doc, rs)
    except HandError as err:
        got = err.field
    assert got == expected


def test_score_many_equals_a_loop_of_score() -> None:
    rng = random.Random(7)
    docs = [random_hand(rng, mix=DEALT) for _ in range(60)]
    hands = [parse_hand(d, hun_kind_count=2, win_by_allowed=RS.win_by) for d in docs[:5]]
    both: list[Mapping[str, Any] | rulekit.Hand] = [*docs, *hands]
    many = rulekit.score_many(both, "tianjin")
    assert many == [rulekit.score(d, RS) for d in both]
    assert [r.to_dict() for r in many] == [rulekit.score(d).to_dict() for d in both]
    with pytest.raises(HandError, match="win_tile: required field is missing"):
        rulekit.score_many([docs[0], {"indicator": "1m", "hand": "1m"}], RS)


def test_a_builtin_name_is_resolved_once_and_an_edit_is_seen_after_the_recheck_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    mine = tmp_path / "mine.yaml"
    text = (Path(resources.rulesets_dir()) / "tianjin.yaml").read_text(encoding="utf-8")
    mine.write_text(text.replace("name: tianjin", "name: mine", 1), encoding="utf-8")
    monkeypatch.setattr(resources, "rulesets_dir", lambda: tmp_path)
    monkeypatch.setattr(api, "NAME_RECHECK_NS", 10**15)      # never within this test
    golden = {"indicator": "1m", "hand": "345p678s999p1z", "win_tile": "1z",
              "melds": [{"kind": "kong", "tiles": "2222m", "concealed": True}]}
    first = api.load_ruleset("mine")
    assert "mine" in api._NAMED and api.load_ruleset("mine") is first
    assert rulekit.score(golden, "mine").kong_fan == 4
    mine.write_text(text.replace("golden: 4 ", "golden: 8 ", 1), encoding="utf-8")
    assert rulekit.score(golden, "mine").kong_fan == 4       # within the recheck time
    assert rulekit.score(golden, str(mine)).kong_fan == 8     # by path: checked every call
    api._NAMED["mine"] = (api._NAMED["mine"][0], 0)           # the recheck time has passed
    assert rulekit.score(golden, "mine").kong_fan == 8
    api._NAMED.pop("mine")
