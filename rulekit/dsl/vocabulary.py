"""The line between Python and the DSL: every name, attribute and function a pattern may use.

Each entry says its type and whether it depends on the arrangement (`dep`): patterns that read
nothing arrangement-dependent are evaluated once per hand, not once per arrangement.
Adding a fact means adding it to `facts.py` and one line here; no rule goes here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from rulekit.facts import Facts, rank, suit_name


@dataclass(frozen=True, slots=True)
class Entry:
    type: str
    dep: bool
    doc: str


# Top-level names: read straight off the Facts object.
NAMES: dict[str, Entry] = {
    "groups": Entry("list:group", True, "the four melds and the pair of this arrangement"),
    "melds": Entry("list:group", True, "the four melds (declared ones included), no pair"),
    "win": Entry("win", False, "the winning tile"),
    "hand": Entry("hand", False, "the whole hand"),
    "hun": Entry("hun", False, "the hun (混) of this hand"),
    "context": Entry("context", False, "how and when the hand won"),
    "suits": Entry("list:suit", False, "the three numbered suits: wan, tong, tiao"),
}

CONSTANTS: dict[str, tuple[str, Any]] = {
    "run": ("shape", "run"), "set": ("shape", "set"), "pair": ("shape", "pair"),
    "kong": ("shape", "kong"),
    "wan": ("suit", "wan"), "tong": ("suit", "tong"), "tiao": ("suit", "tiao"),
    "zi": ("suit", "zi"), "hua": ("suit", "hua"),
    "exposed": ("kong_type", "exposed"), "concealed": ("kong_type", "concealed"),
    "golden": ("kong_type", "golden"), "no_kong": ("kong_type", "none"),
    "self_draw": ("win_by", "self_draw"), "kong_draw": ("win_by", "kong_draw"),
    "discard": ("win_by", "discard"), "last_draw": ("win_by", "last_draw"),
}

ATTRIBUTES: dict[str, dict[str, Entry]] = {
    "group": {
        "shape": Entry("shape", False, "run, set, kong or pair (a declared pung is a set)"),
        "suit": Entry("suit", False, "wan, tong, tiao or zi"),
        "rank": Entry("int", False, "rank of the lowest tile (1-9; honours 1-7)"),
        "first": Entry("tile", False, "the lowest tile"),
        "kind": Entry("tile", False, "same as first: the set's or pair's tile"),
        "tiles": Entry("list:tile", False, "the tiles it stands for, hun as what they fill"),
        "hun": Entry("int", False, "how many hun stand in it"),
        "other_hun": Entry("int", False, "hun in it besides the winning tile"),
        "fills": Entry("list:tile", False, "what its hun stand for"),
        "declared": Entry("bool", False, "laid down (pung or kong)"),
        "concealed": Entry("bool", False, "formed in hand, or a concealed kong"),
        "golden": Entry("bool", False, "a concealed kong of a hun kind (金杠)"),
        "has_win": Entry("bool", False, "holds the winning tile"),
    },
    "win": {
        "tile": Entry("tile", False, "the tile drawn"),
        "is_hun": Entry("bool", False, "the tile drawn is a hun"),
        "stands_for": Entry("tile", True, "what it stands for in this arrangement"),
        "group": Entry("group", True, "the group that holds it"),
    },
    "hand": {
        "hun": Entry("int", False, "hun among the concealed tiles and the winning tile"),
        "tiles": Entry("list:tile", False, "every tile: concealed, winning, melds (kongs x4)"),
        "concealed": Entry("list:tile", False, "the concealed tiles and the winning tile"),
        "melds": Entry("list:group", False, "the declared melds"),
        "kongs": Entry("int", False, "how many kongs are declared"),
        "flowers": Entry("list:tile", False, "flower tiles shown"),
    },
    "hun": {
        "kinds": Entry("list:tile", False, "the hun kinds (indicator first)"),
        "suit": Entry("suit", False, "the hun's suit"),
        "held": Entry("list:tile", False, "hun tiles among the concealed and winning tiles"),
        "fills": Entry("list:tile", True, "what those hun stand for in this arrangement"),
    },
    "context": {
        "win_by": Entry("win_by", False, "self_draw, kong_draw, discard or last_draw"),
        "self_draw": Entry("bool", False, "won on an ordinary draw"),
        "kong_draw": Entry("bool", False, "won on a kong's replacement tile"),
        "discard": Entry("bool", False, "won on a discard"),
        "last_draw": Entry("bool", False, "won on the last tile of the wall"),
        "heavenly": Entry("bool", False, "the dealer's first fourteen tiles"),
        "discarded_hun": Entry("bool", False, "this player discarded a hun (小相公)"),
        "last_kong": Entry("kong_type", False, "exposed, concealed, golden or no_kong"),
        "flowers": Entry("int", False, "how many flower tiles are shown"),
        "earthly": Entry("bool", False, "地和: a non-dealer won on the first draw"),
        "ready_declared": Entry("bool", False, "天聽: declared ready at the first go-round"),
    },
}


@dataclass(frozen=True, slots=True)
class Function:
    params: tuple[str, ...]     # types; "list:*" takes any list
    result: str                 # "same" = the argument's type
    dep: bool
    impl: Callable[..., Any]
    doc: str


def _distinct(xs: Any) -> tuple[Any, ...]:
    return tuple(dict.fromkeys(xs))


FUNCTIONS: dict[str, Function] = {
    "run": Function(("suit", "int"), "bool", True, lambda f, s, r: f.has_run(s, r),
                    "the arrangement has a run of that suit starting at that rank"),
    "set": Function(("tile",), "bool", True, lambda f, t: f.has_set(t),
                    "the arrangement has a set (or kong) of that tile"),
    "pair": Function(("tile",), "bool", True, lambda f, t: f.has_pair(t),
                     "the arrangement's pair is that tile"),
    "suit": Function(("tile",), "suit", False, lambda f, t: suit_name(t), "a tile's suit"),
    "rank": Function(("tile",), "int", False, lambda f, t: rank(t), "a tile's rank"),
    "is_honor": Function(("tile",), "bool", False, lambda f, t: 27 <= t < 34,
                         "a wind or a dragon"),
    "is_wind": Function(("tile",), "bool", False, lambda f, t: 27 <= t < 31, "東南西北"),
    "is_dragon": Function(("tile",), "bool", False, lambda f, t: 31 <= t < 34, "中發白"),
    "is_hun": Function(("tile",), "bool", False, lambda f, t: t in f.hun.kinds,
                       "the tile is a hun kind"),
    "len": Function(("list:*",), "int", False, lambda f, xs: len(xs), "how many items"),
    "distinct": Function(("list:*",), "same", False, lambda f, xs: _distinct(xs),
                         "the items without repeats"),
}

__all__ = ["ATTRIBUTES", "CONSTANTS", "FUNCTIONS", "NAMES", "Entry", "Facts", "Function"]
