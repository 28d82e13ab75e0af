from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulekit.errors import TileError
from rulekit.tiles import (DRAGONS, FLOWER, FLOWERS, HONOR, MAN, NUM_ALL_KINDS, NUM_KINDS, PIN,
                           RANK_OF, SOU, SUCCESSOR, SUIT_LETTERS, SUIT_OF, WINDS, counts,
                           format_tiles, hun_kinds, is_dragon, is_flower, is_honor, is_wind, kind,
                           parse_tiles, rank_of, successor, suit_of, tile_name, tile_zh)

ALL = range(NUM_ALL_KINDS)


def test_constants() -> None:
    assert (MAN, PIN, SOU, HONOR, FLOWER) == (0, 1, 2, 3, 4)
    assert SUIT_LETTERS == "mpszf"
    assert NUM_KINDS == 34 and NUM_ALL_KINDS == 42
    assert list(FLOWERS) == list(range(34, 42))
    assert len(SUIT_OF) == len(RANK_OF) == NUM_ALL_KINDS


@pytest.mark.parametrize(("t", "suit", "rank"), [
    (0, MAN, 1), (8, MAN, 9), (9, PIN, 1), (17, PIN, 9), (18, SOU, 1), (26, SOU, 9),
    (27, HONOR, 1), (33, HONOR, 7), (34, FLOWER, 1), (41, FLOWER, 8),
])
def test_suit_rank_kind(t: int, suit: int, rank: int) -> None:
    assert suit_of(t) == SUIT_OF[t] == suit
    assert rank_of(t) == RANK_OF[t] == rank
    assert kind(suit, rank) == t


def test_kind_inverts_suit_and_rank_for_every_tile() -> None:
    assert [kind(suit_of(t), rank_of(t)) for t in ALL] == list(ALL)


@pytest.mark.parametrize(("suit", "rank"), [(MAN, 0), (MAN, 10), (HONOR, 8), (FLOWER, 9), (5, 1),
                                            (-1, 1)])
def test_kind_rejects_bad_rank_or_suit(suit: int, rank: int) -> None:
    with pytest.raises(TileError):
        kind(suit, rank)


@pytest.mark.parametrize("t", [-1, 42, 100])
def test_non_kinds_are_rejected(t: int) -> None:
    for fn in (suit_of, rank_of, tile_name, tile_zh, successor):
        with pytest.raises(TileError):
            fn(t)
    with pytest.raises(TileError):
        format_tiles([0, t])


def test_categories() -> None:
    assert [t for t in ALL if is_honor(t)] == list(range(27, 34))
    assert [t for t in ALL if is_wind(t)] == list(WINDS) == [27, 28, 29, 30]
    assert [t for t in ALL if is_dragon(t)] == list(DRAGONS) == [31, 32, 33]
    assert [t for t in ALL if is_flower(t)] == list(range(34, 42))


@pytest.mark.parametrize(("t", "nxt"), [
    ("1m", "2m"), ("8m", "9m"), ("9m", "1m"), ("9p", "1p"), ("9s", "1s"), ("3p", "4p"),
    ("東", "南"), ("南", "西"), ("西", "北"), ("北", "東"),
    ("中", "發"), ("發", "白"), ("白", "中"),
])
def test_successor_wraps(t: str, nxt: str) -> None:
    (a,) = parse_tiles(t)
    (b,) = parse_tiles(nxt)
    assert successor(a) == SUCCESSOR[a] == b


def test_successor_stays_in_suit_and_cycles() -> None:
    for t in range(NUM_KINDS):
        assert SUIT_OF[successor(t)] == SUIT_OF[t]
        cycle = {t}
        u = successor(t)
        while u != t:
            cycle.add(u)
            u = successor(u)
        assert len(cycle) == (9 if t < 27 else 4 if is_wind(t) else 3)


def test_flowers_have_no_successor() -> None:
    for t in FLOWERS:
        with pytest.raises(TileError, match="flower"):
            successor(t)
        with pytest.raises(TileError):
            hun_kinds(t, 1)
        with pytest.raises(TileError):
            hun_kinds(t, 2)


def test_hun_kinds() -> None:
    assert hun_kinds(parse_tiles("7p")[0], 1) == parse_tiles("7p")
    assert hun_kinds(parse_tiles("7p")[0], 2) == parse_tiles("78p")
    assert hun_kinds(parse_tiles("9s")[0], 2) == parse_tiles("9s1s")
    assert hun_kinds(parse_tiles("北")[0], 2) == parse_tiles("北東")
    assert hun_kinds(parse_tiles("白")[0], 2) == parse_tiles("白中")
    for bad in (0, 3, -1):
        with pytest.raises(ValueError):
            hun_kinds(0, bad)


def test_parse_ascii() -> None:
    assert parse_tiles("") == ()
    assert parse_tiles("   ") == ()
    assert parse_tiles("5m") == (4,)
    assert parse_tiles("123m 456p 789s 1234567z 12f") == (
        0, 1, 2, 12, 13, 14, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35)
    assert parse_tiles("123m456p") == parse_tiles(" 123m  456p ")
    assert parse_tiles("9m1m") == (8, 0)  # input order, not sorted
    assert parse_tiles("8f") == (41,)


def test_parse_chinese_matches_ascii() -> None:
    assert parse_tiles("一萬五萬東中發白") == parse_tiles("15m1567z")
    assert parse_tiles("伍萬五万") == parse_tiles("55m")
    assert parse_tiles("三筒三餅三饼") == parse_tiles("333p")
    assert parse_tiles("九條九条九索九束") == parse_tiles("9999s")
    assert parse_tiles("東风東風东南風西北风") == parse_tiles("111234z")
    assert parse_tiles("紅中红中中") == parse_tiles("555z")
    assert parse_tiles("發財发财發发") == parse_tiles("6666z")
    assert parse_tiles("白板白") == parse_tiles("77z")
    assert parse_tiles("春夏秋冬梅蘭兰竹菊") == parse_tiles("123456678f")


def test_parse_mixed_and_chinese_numeral_groups() -> None:
    assert parse_tiles("一萬 5m 東 1z") == parse_tiles("15m11z")
    assert parse_tiles("一二三萬") == parse_tiles("123m")
    assert parse_tiles("東南123p白") == (27, 28, 9, 10, 11, 33)


def test_parse_sources_spelling() -> None:
    # Spellings as they appear in the seed documents.
    assert parse_tiles("四伍六萬") == parse_tiles("456m")
    assert parse_tiles("西風北風") == parse_tiles("34z")
    assert parse_tiles("一束") == parse_tiles("1s")


@pytest.mark.parametrize(("text", "message"), [
    ("1230m", "unknown tile '0m' at position 4 in \"1230m\""),
    ("45", "digits '45' at position 1 have no suit letter in \"45\""),
    ("12m45", "digits '45' at position 4 have no suit letter in \"12m45\""),
    ("8z", "unknown tile '8z' at position 1 in \"8z\""),
    ("9f", "unknown tile '9f' at position 1 in \"9f\""),
    ("11m m", "suit 'm' at position 5 has no digits before it in \"11m m\""),
    ("1x", "unknown tile text 'x' at position 2 in \"1x\""),
    ("東紅", "unknown tile text '紅' at position 2 in \"東紅\""),
    ("風", "unknown tile text '風' at position 1 in \"風\""),
    ("12 3m", "digits '12' at position 1 have no suit letter in \"12 3m\""),
    ("1東", "digits '1' at position 1 have no suit letter in \"1東\""),
    ("八z", "unknown tile '八z' at position 1 in \"八z\""),
    ("1M", "unknown tile text 'M' at position 2 in \"1M\""),
])
def test_parse_errors(text: str, message: str) -> None:
    with pytest.raises(TileError) as info:
        parse_tiles(text)
    assert str(info.value) == message


def test_parse_error_message_is_one_line() -> None:
    with pytest.raises(TileError) as info:
        parse_tiles("1m\n2x")
    assert "\n" not in str(info.value)
    assert "position 5" in str(info.value)


def test_format_and_names() -> None:
    assert format_tiles((4, 0, 27, 27)) == "15m11z"
    assert format_tiles(()) == ""
    assert format_tiles(parse_tiles("1f 白 9s 1p 1m")) == "1m1p9s7z1f"
    assert tile_name(4) == "5m"
    assert [tile_name(t) for t in (9, 26, 27, 33, 41)] == ["1p", "9s", "1z", "7z", "8f"]
    assert tile_zh(4) == "五萬"
    assert tile_zh(parse_tiles("3p")[0]) == "三筒"
    assert tile_zh(parse_tiles("9s")[0]) == "九條"
    assert [tile_zh(t) for t in range(27, 35)] == ["東", "南", "西", "北", "中", "發", "白", "春"]


def test_every_name_parses_back() -> None:
    for t in ALL:
        assert parse_tiles(tile_name(t)) == (t,)
        assert parse_tiles(tile_zh(t)) == (t,)


def test_counts() -> None:
    c = counts(parse_tiles("1123m 白白 1f"))
    assert len(c) == 42
    assert c[0] == 2 and c[1] == 1 and c[2] == 1 and c[33] == 2 and c[34] == 1
    assert sum(c) == 7
    assert counts(()) == [0] * 42
    assert counts(()) is not counts(())


tile_lists = st.lists(st.integers(0, NUM_ALL_KINDS - 1), max_size=20)


@given(tile_lists, st.randoms(use_true_random=False))
def test_format_is_order_independent(tiles: list[int], rnd: object) -> None:
    shuffled = list(tiles)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    text = format_tiles(tiles)
    assert format_tiles(shuffled) == text
    assert format_tiles(parse_tiles(text)) == text
    assert parse_tiles(text) == tuple(sorted(tiles))


@given(tile_lists, st.lists(st.sampled_from(["", " ", "  ", "\t"]), min_size=21, max_size=21),
       st.lists(st.booleans(), min_size=20, max_size=20))
def test_any_spelling_parses_to_the_same_tiles(tiles: list[int], gaps: list[str],
                                               zh: list[bool]) -> None:
    names = [tile_zh(t) if z else tile_name(t) for t, z in zip(tiles, zh)]
    text = gaps[0] + "".join(name + gap for name, gap in zip(names, gaps[1:]))
    assert parse_tiles(text) == tuple(tiles)
    assert format_tiles(parse_tiles(text)) == format_tiles(tiles)


@given(st.text(alphabet="123456789890mpszf \t\n萬東", max_size=24))
def test_plain_fast_path_agrees_with_the_parser(text: str) -> None:
    # parse_hand's fast path may only answer where the full parser gives the same tiles
    from rulekit.tiles import plain_tiles_sorted
    fast = plain_tiles_sorted(text)
    if fast is not None:
        assert fast == tuple(sorted(parse_tiles(text)))


@given(st.lists(st.integers(0, 33), max_size=14))
def test_plain_fast_path_takes_canonical_notation(kinds: list[int]) -> None:
    from rulekit.tiles import plain_tiles_sorted
    assert plain_tiles_sorted(format_tiles(kinds)) == tuple(sorted(kinds))


def test_plain_kind_names_exactly_the_34_kinds() -> None:
    # every pair of ASCII characters: a kind only for the 34 canonical names (no 0m, 8z, 1f)
    from rulekit.tiles import plain_kind
    from rulekit.tiles import TILE_NAMES
    names = {TILE_NAMES[t]: t for t in range(NUM_KINDS)}
    for d in range(128):
        for letter in range(128):
            assert plain_kind(d, letter) == names.get(chr(d) + chr(letter), -1)


@given(st.text(alphabet="123456789890mpszf \t\n萬東", max_size=24), st.integers(0, 33),
       st.integers(0, 4))
def test_plain_counted_agrees_with_the_parser(text: str, kind_: int, before: int) -> None:
    # the sorted tiles and their counts, or None where the parser refuses or a kind passes 4
    from rulekit.tiles import plain_tiles_counted
    counts = [0] * NUM_KINDS
    counts[kind_] = before
    fast = plain_tiles_counted(text, counts)
    if fast is None:
        return
    tiles = sorted(parse_tiles(text))
    assert fast == tiles
    expected = [0] * NUM_KINDS
    expected[kind_] = before
    for t in tiles:
        expected[t] += 1
    assert counts == expected and max(counts) <= 4
    if before == 4:
        assert kind_ not in tiles


def test_plain_counted_refuses_a_fifth_copy() -> None:
    from rulekit.tiles import plain_tiles_counted
    counts = [0] * NUM_KINDS
    counts[0] = 1
    assert plain_tiles_counted("1111m", counts) is None
    counts = [0] * NUM_KINDS
    assert plain_tiles_counted("9m 1111m", counts) == [0, 0, 0, 0, 8]
    assert counts[0] == 4 and counts[8] == 1
