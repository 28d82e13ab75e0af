"""Every memo key of the scorer, laid out once: each is one int (ints hash fast, and the
garbage collector never walks them), packed here and nowhere else.

- `bound_key` (`Scorer.bounds`): the held valued bits, the free ones above `width`;
- `limits_key` (`Scorer.limit_memo`): the hand-level mask, winning tile (8 bits), hun held
  (8 bits), whether the winning tile is a hun (1 bit);
- `tagged` (shared skeleton-level results): the hand's tag above the queried keys' bits;
- `spot_kind` (the place search's spot kinds and whole-hand bounds): a spot's own key bit
  above `width`, its free patterns below;
- `group_code` (`Scorer.allows`): what a need can tell of a group;
- `rest_code` (places by rest): the real kinds, hun and shape class a group takes out.
"""
from __future__ import annotations

from rulekit.arrange import RawGroup, real_kinds
from rulekit.codes import NUM_KINDS, PAIR


def bound_key(held: int, free: int, width: int) -> int:
    """`Scorer.bound`'s key: valued bits held, and those still free above them."""
    return held | free << width


def limits_key(fixed: int, win_tile: int, held_hun: int, win_is_hun: bool) -> int:
    """`Scorer.limits`'s key: the hand-level mask, the winning tile, the hun held."""
    return ((fixed << 8 | win_tile) << 8 | held_hun) << 1 | int(win_is_hun)


def tagged(tag: int, bits: int, width: int) -> int:
    """A shared skeleton-level result's key: the hand's tag above the `width` query bits."""
    return tag << width | bits


def spot_kind(own: int, free: int, width: int) -> int:
    """What decides a spot's skeleton-level result and bound: its own key bit, its free
    patterns (a mask `width` bits wide)."""
    return own << width | free


def group_code(g: RawGroup) -> int:
    """A group as one int, as far as `Scorer.group_allows` can tell groups apart: its shape,
    first kind, how many hun it holds and its flags. Every fact of the winning tile's group
    a need may name (`WIN_GROUP_ATTRS`) is made of these; what the hun stand for is not one,
    and leaving it out keeps that memo's keys few (with it, hands kept meeting new keys)."""
    code = (len(g.fills) * 8 + g.shape) * NUM_KINDS + g.first
    return ((code * 2 + int(g.declared)) * 2 + int(g.concealed)) * 2 + int(g.golden)


def rest_code(g: RawGroup) -> int:
    """The rest that taking `g` out of the hand leaves, as one int: the hand less `g`'s
    real tiles, its hun less `g`'s, and one pair or one meld fewer to form
    (`holding.rest_layout`)."""
    code = 0
    for k in real_kinds(g):                    # ascending; digits from 1, so lengths differ
        code = code * (NUM_KINDS + 1) + k + 1
    return (code * 8 + len(g.fills)) * 2 + int(g.shape == PAIR)
