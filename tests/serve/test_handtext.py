"""The typed hand (`POST /v1/parse`, rulekit/serve/handtext.py): whatever a document holds,
written out in ASCII or Chinese with any of the section words, reads back as that document."""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit.serve.errors import ApiError
from rulekit.serve.handtext import parse
from rulekit.tiles import TILE_NAMES, format_tiles, parse_tiles, tile_zh
from conftest import examples

KINDS = list(range(34))
WORDS = {"win": ["win", "和", "+", "--win", "胡", "WIN"], "indicator": ["ind", "混", "--indicator"],
         "pung": ["pung", "碰", "--pung"], "kong": ["kong", "杠", "明槓"],
         "ckong": ["ckong", "暗杠", "--concealed-kong"], "flowers": ["flowers", "花"]}


@st.composite
def typed_hands(draw: Any) -> tuple[str, dict[str, Any]]:
    melds = draw(st.lists(st.tuples(st.sampled_from(["pung", "kong", "ckong"]),
                                    st.sampled_from(KINDS)), max_size=3))
    room = 13 - 3 * len(melds)
    concealed = draw(st.lists(st.sampled_from(KINDS), max_size=room + 1))
    win = draw(st.none() | st.sampled_from(KINDS))
    indicator = draw(st.none() | st.sampled_from(KINDS))
    flowers = draw(st.lists(st.sampled_from(range(34, 42)), max_size=8, unique=True))
    chinese = draw(st.booleans())

    def spell(t: int) -> str:
        return tile_zh(t) if chinese else TILE_NAMES[t]

    def word(key: str) -> str:
        w: str = draw(st.sampled_from(WORDS[key]))
        gap: str = draw(st.sampled_from(["", " "]))
        return " " + w + gap

    text = " ".join(spell(t) for t in concealed)
    want: dict[str, Any] = {"hand": format_tiles(concealed)}
    if win is not None:
        text += word("win") + spell(win)
        want["win_tile"] = TILE_NAMES[win]
    elif len(concealed) == room + 1:                 # fourteen: the last one is the win
        want["win_tile"] = TILE_NAMES[concealed[-1]]
        want["hand"] = format_tiles(concealed[:-1])
    if indicator is not None:
        text += word("indicator") + spell(indicator)
        want["indicator"] = TILE_NAMES[indicator]
    for key, t in melds:
        size = 3 if key == "pung" else 4
        text += word(key) + (spell(t) if draw(st.booleans()) else "".join([spell(t)] * size))
        m: dict[str, Any] = {"kind": "pung" if size == 3 else "kong",
                             "tiles": TILE_NAMES[t][0] * size + TILE_NAMES[t][1]}
        if size == 4:
            m["concealed"] = key == "ckong"
        want.setdefault("melds", []).append(m)
    if flowers:
        text += word("flowers") + "".join(spell(t) for t in flowers)
        want["flowers"] = format_tiles(flowers)
    return text, want


@settings(max_examples=examples(300), deadline=None)
@given(typed_hands())
def test_a_typed_hand_reads_back_as_its_document(case: tuple[str, dict[str, Any]]) -> None:
    text, want = case
    assert parse(text) == {"hand": want}, text


def test_the_readme_hand_in_every_spelling() -> None:
    want = {"hand": {"hand": "46m123456789s22z", "win_tile": "5m", "indicator": "7p"}}
    for text in ("46m 123456789s 22z win 5m ind 7p", "46m123456789s22z+5m 混7p",
                 "四六萬 一二三四五六七八九條 南南 和五萬 混七筒",
                 "4萬6万 123456789索 南風南風 胡伍萬 混7筒", "46m 123456789s 22z 5m 混7p",
                 "46m 123456789s 22z --win 5m --indicator 7p"):
        assert parse(text) == want, text
    assert parse_tiles("四六萬") == parse_tiles("46m")


@pytest.mark.parametrize("text, words", [
    ("46m 8z", "hand: unknown tile '8z'"), ("和5m 和6m", "named twice"),
    ("碰55p", "2 × 5p is not a whole pung"), ("暗杠 55555p", "5 × 5p is not a whole kong"),
    ("混 5m 7m", "indicator: one tile, got 2"), ("和", "win: one tile, got 0"),
    ("花 5m", "only flower tiles"), ("46m 123 win 5m", "hand:")])
def test_what_it_cannot_read_is_one_message(text: str, words: str) -> None:
    with pytest.raises(ApiError) as err:
        parse(text)
    assert err.value.status == 422 and words in err.value.message, err.value.message


def test_only_a_bounded_string_is_read() -> None:
    with pytest.raises(ApiError) as err:
        parse("1m" * 201)
    assert err.value.status == 413
    with pytest.raises(ApiError) as err:
        parse(["46m"])
    assert err.value.status == 400
