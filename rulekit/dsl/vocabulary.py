"""The line between Python and the DSL: every name, attribute and function a pattern may use.

Each entry says its type and what it depends on (`dep`): 0 the hand and its context; 1 the
arrangement's skeleton (which groups, by shape and kind); 2 the arrangement in full (which
group's tiles are hun); 3 the reading (where the winning tile sits). A pattern is evaluated
once per hand, skeleton, arrangement or reading accordingly: most of the scorer's speed.
Adding a fact means adding it to `facts.py` and one line here; no rule goes here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

# the levels are named in codes.py and re-exported here, where the vocabulary uses them
from rulekit.codes import ARRANGEMENT, DRAGON_START, HAND, HONOR_START, NUM_KINDS, READING, SKELETON
from rulekit.facts import Facts, rank, suit_name


@dataclass(frozen=True, slots=True)
class Entry:
    type: str
    dep: int
    doc: str
    size: int = 0       # for a list: the most items it can hold (the DSL's cost bound)


# Top-level names: read straight off the Facts object.
NAMES: dict[str, Entry] = {
    "groups": Entry("list:group", SKELETON, "the four melds and the pair of this arrangement", 5),
    "melds": Entry("list:group", SKELETON, "the four melds (declared ones included), no pair", 4),
    "win": Entry("win", HAND, "the winning tile"),
    "hand": Entry("hand", HAND, "the whole hand"),
    "hun": Entry("hun", HAND, "the hun (混) of this hand"),
    "context": Entry("context", HAND, "how and when the hand won"),
}

CONSTANTS: dict[str, tuple[str, Any]] = {
    "suits": ("list:suit", ("wan", "tong", "tiao")),
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
        "shape": Entry("shape", HAND, "run, set, kong or pair (a declared pung is a set)"),
        "suit": Entry("suit", HAND, "wan, tong, tiao or zi"),
        "rank": Entry("int", HAND, "rank of the lowest tile (1-9; honours 1-7)"),
        "first": Entry("tile", HAND, "the lowest tile"),
        "kind": Entry("tile", HAND, "same as first: the set's or pair's tile"),
        "tiles": Entry("list:tile", HAND, "the tiles it stands for, hun as what they fill", 4),
        "hun": Entry("int", ARRANGEMENT, "how many hun stand in it"),
        "other_hun": Entry("int", READING, "hun in it besides the winning tile"),
        "fills": Entry("list:tile", ARRANGEMENT, "what its hun stand for", 4),
        "declared": Entry("bool", HAND, "laid down (pung or kong)"),
        "concealed": Entry("bool", HAND, "formed in hand, or a concealed kong"),
        "golden": Entry("bool", HAND, "a concealed kong of a hun kind (金杠)"),
        "has_win": Entry("bool", READING, "holds the winning tile"),
    },
    "win": {
        "tile": Entry("tile", HAND, "the tile drawn"),
        "is_hun": Entry("bool", HAND, "the tile drawn is a hun"),
        "stands_for": Entry("tile", READING, "what it stands for in this arrangement"),
        "group": Entry("group", READING, "the group that holds it"),
    },
    "hand": {
        "hun": Entry("int", HAND, "hun among the concealed tiles and the winning tile"),
        "tiles": Entry("list:tile", HAND, "every tile: concealed, winning, melds (kongs x4)", 18),
        "concealed": Entry("list:tile", HAND, "the concealed tiles and the winning tile", 14),
        "melds": Entry("list:group", HAND, "the declared melds", 4),
        "kongs": Entry("int", HAND, "how many kongs are declared"),
        "flowers": Entry("list:tile", HAND, "flower tiles shown", 8),
    },
    "hun": {
        "kinds": Entry("list:tile", HAND, "the hun kinds (indicator first)", 2),
        "suit": Entry("suit", HAND, "the hun's suit"),
        "held": Entry("list:tile", HAND, "hun tiles among the concealed and winning tiles", 14),
        "fills": Entry("list:tile", SKELETON, "what those hun stand for in this arrangement", 14),
    },
    "context": {
        "win_by": Entry("win_by", HAND, "self_draw, kong_draw, discard or last_draw"),
        "self_draw": Entry("bool", HAND, "won on an ordinary draw"),
        "kong_draw": Entry("bool", HAND, "won on a kong's replacement tile"),
        "discard": Entry("bool", HAND, "won on a discard"),
        "last_draw": Entry("bool", HAND, "won on the last tile of the wall"),
        "heavenly": Entry("bool", HAND, "the dealer's first fourteen tiles"),
        "discarded_hun": Entry("bool", HAND, "this player discarded a hun (小相公)"),
        "last_kong": Entry("kong_type", HAND, "exposed, concealed, golden or no_kong"),
        "flowers": Entry("int", HAND, "how many flower tiles are shown"),
        "earthly": Entry("bool", HAND, "地和: a non-dealer won on the first draw"),
        "ready_declared": Entry("bool", HAND, "天聽: declared ready at the first go-round"),
    },
}


@dataclass(frozen=True, slots=True)
class Function:
    params: tuple[str, ...]     # types; "list:*" takes any list
    result: str                 # "same" = the argument's type
    dep: int
    impl: Callable[..., Any] | None     # None: the compiler makes it an index lookup
    doc: str


def _distinct(xs: Any) -> tuple[Any, ...]:
    return tuple(dict.fromkeys(xs))


FUNCTIONS: dict[str, Function] = {
    "run": Function(("suit", "int"), "bool", SKELETON, None,
                    "the arrangement has a run of that suit starting at that rank"),
    "set": Function(("tile",), "bool", SKELETON, None,
                    "the arrangement has a set (or kong) of that tile"),
    "pair": Function(("tile",), "bool", SKELETON, None,
                     "the arrangement's pair is that tile"),
    "suit": Function(("tile",), "suit", HAND, lambda f, t: suit_name(t), "a tile's suit"),
    "rank": Function(("tile",), "int", HAND, lambda f, t: rank(t), "a tile's rank"),
    "is_honor": Function(("tile",), "bool", HAND, lambda f, t: HONOR_START <= t < NUM_KINDS,
                         "a wind or a dragon"),
    "is_wind": Function(("tile",), "bool", HAND, lambda f, t: HONOR_START <= t < DRAGON_START, "東南西北"),
    "is_dragon": Function(("tile",), "bool", HAND, lambda f, t: DRAGON_START <= t < NUM_KINDS, "中發白"),
    "is_hun": Function(("tile",), "bool", HAND, lambda f, t: t in f.hun.kinds,
                       "the tile is a hun kind"),
    "len": Function(("list:*",), "int", HAND, lambda f, xs: len(xs), "how many items"),
    "distinct": Function(("list:*",), "same", HAND, lambda f, xs: _distinct(xs),
                         "the items without repeats"),
}

def path_dep(path: str) -> int:
    """The dependence level of a fact path such as `win.group.shape` (see the levels above)."""
    root, *attrs = path.split(".")
    entry = NAMES[root]
    dep, type_ = entry.dep, entry.type
    for attr in attrs:
        entry = ATTRIBUTES[type_][attr]
        dep, type_ = max(dep, entry.dep), entry.type
    return dep


__all__ = ["ARRANGEMENT", "ATTRIBUTES", "CONSTANTS", "FUNCTIONS", "HAND", "NAMES", "READING",
           "SKELETON", "Entry", "Facts", "Function", "path_dep"]
