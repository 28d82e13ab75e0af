from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit.errors import HandError, RulekitError
from rulekit.hand import Hand, Meld, hand_doc, parse_hand
from rulekit.tiles import NUM_KINDS, format_tiles, hun_kinds, parse_tiles, tile_name
from conftest import examples

EXAMPLE: dict[str, Any] = {
    "indicator": "7p", "hand": "234p9m7p78s",
    "melds": [{"kind": "kong", "tiles": "2222z", "concealed": False},
              {"kind": "pung", "tiles": "555p"}],
    "win_tile": "9s", "win_by": "self_draw", "heavenly": False, "discarded_hun": False,
}
PLAIN: dict[str, Any] = {"indicator": "1m", "hand": "234m 345p 456s 789s 1z", "win_tile": "1z"}


def t(text: str) -> int:
    (tile,) = parse_tiles(text)
    return tile


def doc(base: dict[str, Any] = PLAIN, /, **changes: Any) -> dict[str, Any]:
    d = copy.deepcopy(base)
    for key, value in changes.items():
        if value is ...:
            del d[key]
        else:
            d[key] = value
    return d


def error(d: object, **kwargs: Any) -> HandError:
    with pytest.raises(HandError) as info:
        parse_hand(d, **kwargs)
    err = info.value
    assert isinstance(err, RulekitError)
    assert "\n" not in str(err)
    assert str(err) == f"{err.field}: {err.message}"
    return err


# --- valid documents ---------------------------------------------------------------------------

def test_example_document() -> None:
    h = parse_hand(EXAMPLE)
    assert h.indicator == t("7p")
    assert h.hun == (t("7p"), t("8p"))
    assert h.concealed == tuple(sorted(parse_tiles("234p9m7p78s")))
    assert h.melds == (Meld("kong", t("2z"), False, False), Meld("pung", t("5p"), False, False))
    assert [m.kong_type for m in h.melds] == ["exposed", None]
    assert h.win_tile == t("9s")
    assert (h.win_by, h.heavenly, h.discarded_hun, h.flowers) == ("self_draw", False, False, ())


def test_defaults_and_ignored_fields() -> None:
    h = parse_hand(doc(id="case-7", expected={"fan": 2}))
    assert h.melds == ()
    assert (h.win_by, h.heavenly, h.discarded_hun, h.flowers) == ("self_draw", False, False, ())
    assert len(h.concealed) == 13
    assert list(h.concealed) == sorted(h.concealed)


def test_one_hun_kind() -> None:
    assert parse_hand(PLAIN, hun_kind_count=1).hun == (t("1m"),)
    assert parse_hand(PLAIN, hun_kind_count=2).hun == (t("1m"), t("2m"))
    with pytest.raises(ValueError):
        parse_hand(PLAIN, hun_kind_count=3)


def test_golden_kong() -> None:
    d = doc(indicator="6p", hand="123m 456m 789m 1z",
            melds=[{"kind": "kong", "tiles": "7777p", "concealed": True}], win_by="kong_draw")
    h = parse_hand(d)
    assert h.hun == (t("6p"), t("7p"))
    (m,) = h.melds
    assert m == Meld("kong", t("7p"), concealed=True, golden=True)
    assert m.kong_type == "golden"
    assert parse_hand(hand_doc(h)) == h


def test_successor_kong_is_only_golden_with_two_hun_kinds() -> None:
    d = doc(indicator="6p", hand="123m 456m 789m 1z",
            melds=[{"kind": "kong", "tiles": "7777p", "concealed": True}])
    assert parse_hand(d, hun_kind_count=1).melds[0].kong_type == "concealed"
    # With one hun kind 7p is an ordinary kind, so it may be pung'd or konged openly too.
    d["melds"] = [{"kind": "pung", "tiles": "777p"}]
    d["hand"] = "123m 456m 789m 1z"
    assert parse_hand(d, hun_kind_count=1).melds[0].kong_type is None


def test_concealed_kong_of_plain_kind() -> None:
    h = parse_hand(doc(hand="123m 456m 789m 1z",
                       melds=[{"kind": "kong", "tiles": "南南南南", "concealed": True}]))
    assert h.melds[0].kong_type == "concealed"
    assert h.melds[0].golden is False


def test_chinese_document() -> None:
    zh = doc(indicator="七筒", hand="二三四筒九萬七筒七八條",
             melds=[{"kind": "kong", "tiles": "南南南南"}, {"kind": "pung", "tiles": "伍筒伍筒伍筒"}],
             win_tile="九條")
    assert parse_hand(zh) == parse_hand(EXAMPLE)


def test_flowers_field() -> None:
    h = parse_hand(doc(flowers="菊 春 3f"))
    assert h.flowers == tuple(sorted(parse_tiles("8f1f3f")))
    assert hand_doc(h)["flowers"] == "138f"


def test_heavenly_and_other_win_types() -> None:
    assert parse_hand(doc(heavenly=True)).heavenly is True
    assert parse_hand(doc(discarded_hun=True)).discarded_hun is True
    allowed = frozenset({"self_draw", "kong_draw", "discard", "last_draw"})
    for win_by in ("discard", "last_draw"):
        assert parse_hand(doc(win_by=win_by), win_by_allowed=allowed).win_by == win_by


def test_three_of_the_indicator_kind_is_fine() -> None:
    h = parse_hand(doc(indicator="1z", hand="234m 345p 456s 789s 1z", win_tile="1z"))
    assert h.concealed.count(t("1z")) == 1
    h = parse_hand(doc(indicator="5p", hand="55p 234m 678m 9s 1z", win_tile="5p",
                       melds=[{"kind": "pung", "tiles": "555z"}]))
    assert h.concealed.count(t("5p")) == 2 and h.win_tile == t("5p")
    # Four of the successor's kind is fine: only the indicator itself is on the wall.
    h = parse_hand(doc(indicator="4p", hand="5555p 234m 678m",
                       melds=[{"kind": "pung", "tiles": "555z"}]))
    assert h.concealed.count(t("5p")) == 4


def test_hand_doc_is_canonical() -> None:
    h = parse_hand(EXAMPLE)
    out = hand_doc(h)
    assert out == {
        "indicator": "7p", "hand": "9m2347p78s",
        "melds": [{"kind": "kong", "tiles": "2222z", "concealed": False},
                  {"kind": "pung", "tiles": "555p", "concealed": False}],
        "win_tile": "9s", "win_by": "self_draw", "heavenly": False, "discarded_hun": False,
        "flowers": "", "earthly": False, "ready_declared": False,
    }
    assert json.loads(json.dumps(out)) == out
    assert parse_hand(out) == h


def test_values_are_frozen() -> None:
    h = parse_hand(EXAMPLE)
    with pytest.raises(AttributeError):
        h.win_by = "discard"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        h.melds[0].tile = 0  # type: ignore[misc]
    assert hash(h) == hash(parse_hand(EXAMPLE))


# --- validation --------------------------------------------------------------------------------

@pytest.mark.parametrize("bad", [[], "hand", None, 7])
def test_document_must_be_a_mapping(bad: object) -> None:
    err = error(bad)
    assert err.field == "document"
    assert "object" in err.message


@pytest.mark.parametrize("field", ["indicator", "hand", "win_tile"])
def test_required_fields(field: str) -> None:
    err = error(doc(**{field: ...}))
    assert err.field == field
    assert "missing" in err.message


@pytest.mark.parametrize(("field", "value", "expected"), [
    ("indicator", 7, "string"),
    ("hand", ["1m"], "string"),
    ("hand", None, "string"),
    ("win_tile", 3, "string"),
    ("win_by", True, "string"),
    ("heavenly", "yes", "true or false"),
    ("heavenly", 1, "true or false"),
    ("discarded_hun", "false", "true or false"),
    ("flowers", ["1f"], "string"),
    ("melds", {"kind": "pung"}, "array"),
    ("melds", "555p", "array"),
])
def test_wrong_json_types(field: str, value: object, expected: str) -> None:
    err = error(doc(**{field: value}))
    assert err.field == field
    assert expected in err.message


def test_meld_must_be_an_object() -> None:
    err = error(doc(hand="234m 345p 456s 1z", melds=[{"kind": "pung", "tiles": "999s"}, "999m"]))
    assert err.field == "melds[1]"
    assert "object" in err.message


@pytest.mark.parametrize(("meld", "field", "fragment"), [
    ({"tiles": "999m"}, "melds[0].kind", "missing"),
    ({"kind": "pung"}, "melds[0].tiles", "missing"),
    ({"kind": 3, "tiles": "999m"}, "melds[0].kind", "string"),
    ({"kind": "chow", "tiles": "789m"}, "melds[0].kind", "'chow'"),
    ({"kind": "pung", "tiles": 999}, "melds[0].tiles", "string"),
    ({"kind": "pung", "tiles": "999m", "concealed": "no"}, "melds[0].concealed", "true or false"),
    ({"kind": "pung", "tiles": "99m"}, "melds[0].tiles", "3 identical"),
    ({"kind": "pung", "tiles": "9999m"}, "melds[0].tiles", "3 identical"),
    ({"kind": "pung", "tiles": "899m"}, "melds[0].tiles", "3 identical"),
    ({"kind": "kong", "tiles": "999m"}, "melds[0].tiles", "4 identical"),
    ({"kind": "kong", "tiles": "9999m9p"}, "melds[0].tiles", "4 identical"),
    ({"kind": "kong", "tiles": "9998m"}, "melds[0].tiles", "4 identical"),
    ({"kind": "pung", "tiles": "999m", "concealed": True}, "melds[0].concealed", "always exposed"),
    ({"kind": "pung", "tiles": "9x"}, "melds[0].tiles", "unknown tile text 'x'"),
    ({"kind": "pung", "tiles": "111f"}, "melds[0].tiles", "1f"),
])
def test_meld_errors(meld: dict[str, Any], field: str, fragment: str) -> None:
    err = error(doc(hand="234m 345p 456s 1z", melds=[meld]))
    assert err.field == field
    assert fragment in err.message


def test_meld_error_names_the_meld_index() -> None:
    err = error(doc(hand="234m 456s 1z",
                    melds=[{"kind": "pung", "tiles": "999s"}, {"kind": "pung", "tiles": "99m"}]))
    assert err.field == "melds[1].tiles"


@pytest.mark.parametrize(("field", "value", "fragment"), [
    ("hand", "1230m 45p 456s 789s 1z", "unknown tile '0m' at position 4"),
    ("hand", "234m 345p 456s 789s 1", "digits '1' at position"),
    ("indicator", "8z", "unknown tile '8z'"),
    ("win_tile", "白x", "unknown tile text 'x' at position 2"),
    ("flowers", "9f", "unknown tile '9f'"),
])
def test_unknown_tiles(field: str, value: str, fragment: str) -> None:
    err = error(doc(**{field: value}))
    assert err.field == field
    assert fragment in err.message
    assert value in err.message


@pytest.mark.parametrize(("field", "value"), [
    ("indicator", ""), ("indicator", "12m"), ("win_tile", ""), ("win_tile", "1z2z"),
])
def test_exactly_one_tile(field: str, value: str) -> None:
    err = error(doc(**{field: value}))
    assert err.field == field
    assert "exactly one tile" in err.message


@pytest.mark.parametrize(("field", "value"), [
    ("indicator", "1f"), ("win_tile", "春"), ("hand", "234m 345p 456s 789s 1f"),
])
def test_flowers_only_in_flowers(field: str, value: str) -> None:
    err = error(doc(**{field: value}))
    assert err.field == field
    assert "flower" in err.message


def test_non_flowers_in_flowers() -> None:
    err = error(doc(flowers="1f 5m"))
    assert err.field == "flowers"
    assert "5m" in err.message


@pytest.mark.parametrize(("hand", "melds", "got", "expected"), [
    ("234m 345p 456s 789s", [], 12, 13),
    ("234m 345p 456s 789s 11z", [], 14, 13),
    ("234m 345p 456s 789s 1z", [{"kind": "pung", "tiles": "999m"}], 13, 10),
    ("234m 1z", [{"kind": "pung", "tiles": "999m"}, {"kind": "kong", "tiles": "9999p"}], 4, 7),
])
def test_tile_count(hand: str, melds: list[dict[str, Any]], got: int, expected: int) -> None:
    err = error(doc(hand=hand, melds=melds))
    assert err.field == "hand"
    assert f"has {got} tiles, expected {expected}" in err.message


def test_at_most_four_melds() -> None:
    melds = [{"kind": "pung", "tiles": f"{r}{r}{r}m"} for r in range(1, 6)]
    err = error(doc(hand="", melds=melds))
    assert err.field == "melds"
    assert "5 melds" in err.message


@pytest.mark.parametrize(("changes", "field"), [
    ({"hand": "1111m 345p 456s 789s", "win_tile": "1m"}, "win_tile"),
    ({"hand": "11111m 45p 456s 789s"}, "hand"),
    ({"hand": "11m 345p 456s 77z", "melds": [{"kind": "pung", "tiles": "111m"}]},
     "melds[0].tiles"),
    ({"hand": "234m 345p 456s 7z", "win_tile": "9m",
      "melds": [{"kind": "kong", "tiles": "9999m"}]}, "win_tile"),
])
def test_more_than_four_of_a_kind(changes: dict[str, Any], field: str) -> None:
    d = doc(indicator="5z", **changes)
    err = error(d)
    assert err.field == field
    assert "5 copies" in err.message
    assert "only 4" in err.message


@pytest.mark.parametrize(("changes", "field"), [
    ({"indicator": "1z", "hand": "234m 345p 456s 8s 111z"}, "win_tile"),
    ({"indicator": "7p", "hand": "7777p 345p 456s 789s"}, "hand"),
    ({"indicator": "9s", "hand": "234m 345p 456s 9s", "win_tile": "1z",
      "melds": [{"kind": "kong", "tiles": "9999s", "concealed": True}]}, "melds[0].tiles"),
])
def test_more_than_three_of_the_indicator_kind(changes: dict[str, Any], field: str) -> None:
    err = error(doc(**changes))
    assert err.field == field
    assert "indicator" in err.message
    assert "at most 3" in err.message


def test_golden_kong_of_the_indicator_kind_is_impossible() -> None:
    d = doc(indicator="7p", hand="123m 456m 789m 1z",
            melds=[{"kind": "kong", "tiles": "7777p", "concealed": True}])
    err = error(d)
    assert err.field == "melds[0].tiles"
    assert "7p" in err.message


@pytest.mark.parametrize(("meld", "kind"), [
    ({"kind": "pung", "tiles": "777p"}, "pung"),
    ({"kind": "pung", "tiles": "888p"}, "pung"),
    ({"kind": "kong", "tiles": "8888p"}, "kong"),
    ({"kind": "kong", "tiles": "8888p", "concealed": False}, "kong"),
])
def test_hun_cannot_be_pung_or_exposed_kong(meld: dict[str, Any], kind: str) -> None:
    err = error(doc(indicator="7p", hand="123m 456m 789m 1z", melds=[meld]))
    assert err.field == "melds[0].tiles"
    assert f"exposed {kind} of hun" in err.message
    assert "金杠" in err.message


def test_unknown_win_by() -> None:
    err = error(doc(win_by="ron"))
    assert err.field == "win_by"
    assert "unknown" in err.message and "'ron'" in err.message


def test_win_by_not_allowed() -> None:
    err = error(doc(win_by="discard"))
    assert err.field == "win_by"
    assert err.message == ("'discard' is not allowed by this ruleset (allowed: self_draw, "
                           "kong_draw, last_draw)")
    err = error(doc(win_by="last_draw"), win_by_allowed=frozenset({"kong_draw"}))
    assert err.message == "'last_draw' is not allowed by this ruleset (allowed: kong_draw)"
    err = error(doc(win_by="kong_draw", hand="234m 345p 456s 1z",
                    melds=[{"kind": "kong", "tiles": "9999m"}]),
                win_by_allowed=frozenset({"self_draw"}))
    assert "not allowed by this ruleset" in err.message


@pytest.mark.parametrize("melds", [[], [{"kind": "pung", "tiles": "999m"}]])
def test_kong_draw_needs_a_kong(melds: list[dict[str, Any]]) -> None:
    hand = "234m 345p 456s 1z" if melds else PLAIN["hand"]
    err = error(doc(win_by="kong_draw", hand=hand, melds=melds))
    assert err.field == "win_by"
    assert "kong" in err.message


@pytest.mark.parametrize("meld", [{"kind": "pung", "tiles": "999m"},
                                  {"kind": "kong", "tiles": "9999m", "concealed": True}])
def test_heavenly_with_melds(meld: dict[str, Any]) -> None:
    err = error(doc(heavenly=True, hand="234m 345p 456s 1z", melds=[meld]))
    assert err.field == "heavenly"
    assert "melds" in err.message


def test_heavenly_with_kong_draw() -> None:
    for d in (doc(heavenly=True, win_by="kong_draw"),
              doc(heavenly=True, win_by="kong_draw", hand="234m 345p 456s 1z",
                  melds=[{"kind": "kong", "tiles": "9999m"}])):
        err = error(d)
        assert err.field == "heavenly"
        assert "kong_draw" in err.message


# --- round trip --------------------------------------------------------------------------------

@st.composite
def hand_docs(draw: st.DrawFn) -> tuple[dict[str, Any], int]:
    """A random possible hand (not necessarily a winning one) and its hun kind count."""
    hun_count = draw(st.sampled_from([1, 2]))
    indicator = draw(st.integers(0, NUM_KINDS - 1))
    hun = hun_kinds(indicator, hun_count)
    left = [4] * NUM_KINDS
    left[indicator] = 3
    melds: list[dict[str, Any]] = []
    for _ in range(draw(st.integers(0, 4))):
        tile = draw(st.integers(0, NUM_KINDS - 1))
        kong = tile in hun or draw(st.booleans())
        size = 4 if kong else 3
        if left[tile] < size:
            continue
        left[tile] -= size
        meld: dict[str, Any] = {"kind": "kong" if kong else "pung",
                                "tiles": tile_name(tile)[0] * size + tile_name(tile)[1]}
        if tile in hun or (kong and draw(st.booleans())):
            meld["concealed"] = True
        melds.append(meld)
    pool = [k for k in range(NUM_KINDS) for _ in range(left[k])]
    tiles = draw(st.permutations(pool))[:14 - 3 * len(melds)]
    has_kong = any(m["kind"] == "kong" for m in melds)
    d: dict[str, Any] = {
        "indicator": tile_name(indicator),
        "hand": " ".join(tile_name(x) for x in tiles[1:]),
        "melds": melds,
        "win_tile": tile_name(tiles[0]),
        "win_by": draw(st.sampled_from(["self_draw", "kong_draw"] if has_kong else ["self_draw"])),
        "heavenly": not melds and draw(st.booleans()),
        "discarded_hun": draw(st.booleans()),
        "flowers": format_tiles(draw(st.lists(st.integers(34, 41), unique=True))),
    }
    return d, hun_count


@given(hand_docs())
def test_hand_doc_round_trip(case: tuple[dict[str, Any], int]) -> None:
    d, hun_count = case
    h = parse_hand(d, hun_kind_count=hun_count)
    assert isinstance(h, Hand)
    out = hand_doc(h)
    assert parse_hand(out, hun_kind_count=hun_count) == h
    assert hand_doc(parse_hand(out, hun_kind_count=hun_count)) == out
    assert out["hand"] == format_tiles(parse_tiles(d["hand"]))
    assert all(m.golden == (m.concealed and m.tile in h.hun) for m in h.melds)


# Values a field may be given: valid ones, near misses and wrong types, so that the fast
# path (`_parse_plain`) meets every case where it must step aside.
_FIELD_VALUES: dict[str, list[Any]] = {
    "indicator": ["7p", "9m", "1z", "7z", "8z", "5M", "七筒", 7, None, "", "5m5m", "9z", "0p",
                  "5f", "p7"],
    "hand": ["234p9m7p78s", "123m 456p", "1111m", "七筒", "1234567z123456z", "12", 3, "1m\t2m",
             # unsorted, copies of a kind (2 melds: 7 tiles; 1 meld: 10)
             "9m432p7p87s", "2222p3p45s", "22222p45s", "777p2345s", "7777p234s",
             "234p9m7p78s123m", "1m 2m 3m 4m 5m 6m 7m", "555p5p123m"],
    "win_tile": ["9s", "7p", "8p", "1z", "東", "0m", None, ["9s"], "8z", "5f", "22p", "5p"],
    "win_by": ["self_draw", "kong_draw", "discard", "last_draw", "robbing", 1, None,
               "Self_draw", "self_draw "],
    "heavenly": [False, True, 0, 1, "true"],
    "discarded_hun": [False, True, 1],
    "earthly": [False, True, None],
    "ready_declared": [False, True, 0],
    "flowers": ["", "1f", "12f", "1m", 0, None, "11f", "123456781234f", "12345678f"],
    "melds": [[], (), "", {}, None, [{"kind": "pung", "tiles": "555p"}],
              [{"kind": "kong", "tiles": "8888p", "concealed": True}],
              [{"kind": "kong", "tiles": "7777p", "concealed": False}],
              [{"kind": "pung", "tiles": "555p", "concealed": 1}],
              [{"kind": "chow", "tiles": "123p"}], [{"tiles": "555p"}], ["555p"],
              [{"kind": "pung", "tiles": "55p"}], [{"kind": "pung", "tiles": ["5p"] * 3}],
              # hun (7p and 8p under 7p), canonical and not; near misses of `555p`
              [{"kind": "pung", "tiles": "888p"}], [{"kind": "kong", "tiles": "8888p"}],
              [{"kind": "kong", "tiles": "8p8p8p8p", "concealed": True}],
              [{"kind": "kong", "tiles": "7777p", "concealed": True}],
              [{"kind": "pung", "tiles": "5p5p5p"}], [{"kind": "pung", "tiles": "5555p"}],
              [{"kind": "kong", "tiles": "555p"}], [{"kind": "pung", "tiles": "888z"}],
              [{"kind": "pung", "tiles": "000p"}], [{"kind": "pung", "tiles": "556p"}],
              [{"kind": "pung", "tiles": "555p", "concealed": True}],
              [{"kind": "pung", "tiles": "555f"}], [{"kind": 1, "tiles": "555p"}],
              [{"kind": "Pung", "tiles": "555p"}], [{"kind": "pung", "tiles": 555}],
              [{"kind": "kong", "tiles": "2222z"}, {"kind": "pung", "tiles": "222z"}],
              [{"kind": "kong", "tiles": "2222z", "concealed": True},
               {"kind": "pung", "tiles": "555p"}]],
}


_CHANGES = [(k, v) for k, vs in _FIELD_VALUES.items() for v in vs]


@settings(max_examples=examples(800))
@given(st.lists(st.sampled_from(_CHANGES), max_size=3).map(dict),
       st.sampled_from([1, 2, 3]),
       st.sampled_from([frozenset({"self_draw", "kong_draw"}),
                        frozenset({"self_draw", "kong_draw", "discard", "last_draw"})]))
def test_fast_path_agrees_with_the_checked_parser(changes: dict[str, Any], kinds: int,
                                                  allowed: frozenset[str]) -> None:
    # the fast path may only answer where the field-by-field parser gives the same Hand
    from rulekit.hand import _parse_checked, _parse_plain
    d = {**EXAMPLE, **changes}
    try:
        fast = _parse_plain(d, kinds, allowed)
    except (KeyError, TypeError, RulekitError):
        fast = None
    try:
        checked: Hand | None = _parse_checked(d, kinds, allowed)
    except (HandError, ValueError):
        checked = None
    if fast is not None:
        assert fast == checked
        assert type(fast) is Hand and hash(fast) == hash(checked)


# --- issue 9: impossible hands ------------------------------------------------------------------

def test_last_draw_is_a_self_draw_wherever_self_draws_are_allowed() -> None:
    # 海底撈 is a self-draw on the last tile: the default allowed set (self_draw, kong_draw)
    # takes it without naming it
    assert parse_hand(doc(win_by="last_draw")).win_by == "last_draw"
    assert parse_hand(doc(win_by="last_draw"),
                      win_by_allowed=frozenset({"self_draw"})).win_by == "last_draw"


@pytest.mark.parametrize("win_by", ["discard", "last_draw", "kong_draw"])
def test_heavenly_is_a_self_draw_only(win_by: str) -> None:
    allowed = frozenset({"self_draw", "kong_draw", "discard", "last_draw"})
    d = doc(heavenly=True, win_by=win_by)
    err = error(d, win_by_allowed=allowed)
    assert err.field == "heavenly"
    assert win_by in err.message
    assert parse_hand(doc(heavenly=True), win_by_allowed=allowed).heavenly is True


@pytest.mark.parametrize("flowers, twice", [("123456781234f", "1f"), ("春春", "1f"),
                                            ("8f 菊", "8f"), ("13f 5f 3f", "3f")])
def test_each_flower_at_most_once(flowers: str, twice: str) -> None:
    err = error(doc(flowers=flowers))
    assert err.field == "flowers"
    assert err.message == f"{twice} appears more than once: there is one of each flower"


def test_all_eight_flowers_once_is_fine() -> None:
    assert parse_hand(doc(flowers="12345678f")).flowers == tuple(parse_tiles("12345678f"))


def test_error_messages_quote_at_most_200_characters() -> None:
    long = "5" * 60_000
    for d in (doc(win_tile=long + "m"), doc(hand=long + "x"), doc(win_by="x" * 60_000),
              doc(melds=[{"kind": "k" * 60_000, "tiles": "555p"}])):
        err = error(d)
        assert len(str(err)) < 400
