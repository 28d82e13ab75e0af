"""Every memo key of the scorer, laid out once: each is one int (ints hash fast, and the
garbage collector never walks them), packed here and nowhere else.

- `bound_key` (`Scorer.bounds`): the held valued bits, the free ones above `width`;
- `limits_key` (`Scorer.limit_memo`): the hand-level mask, winning tile (8 bits), hun held
  (8 bits), whether the winning tile is a hun (1 bit);
- `tagged` (shared skeleton-level results): the hand's tag above the queried keys' bits;
- `spot_kind` (the place search's spot kinds and whole-hand bounds): a spot's own key bit
  above `width`, its free patterns below;
- `group_code` (`Scorer.allows`): what a need can tell of a group;
- `allows_group_key`, `allows_key` (`Scorer.allows`): a group's code and whether the winning
  tile is a hun; the winning tile, what it stands for and whether it is a hun;
- `rest_code` (places by rest): the real kinds, hun and shape class a group takes out.

The memos whose keys are tuples have their key types named here too, none `Any`:
`ProjKey`, `TagKey`, `SpotSig`, `BoundKey`, `TotalsKey`, `PieceKey`.
"""
from __future__ import annotations

from typing import Hashable

from rulekit.algebra import Breakdown
from rulekit.arrange import RawGroup, real_kinds
from rulekit.codes import NUM_KINDS, PAIR
from rulekit.facts import GroupFact

ProjKey = int | tuple[int, ...]
"""A skeleton-level result's key (`search.Projections`): the bits of the queried keys a
skeleton holds (`tagged` when shared between hands), or its whole skeleton key when the
patterns read more than shape queries."""

TagKey = tuple[int, int, tuple[Hashable, ...]]
"""What a hand's tag stands for (`Scorer.skeleton_tag`): its hand-level mask, the patterns
still possible, the hand-level facts the skeleton-level patterns read."""

SpotSig = tuple[int, tuple[int, ...], int] | tuple[int, int, bool, bool, bool, int]
"""What a spot's abstractly read patterns can read of it (`places.spot_sig`): its group's
`group_code`, fills and what the winning tile stands for (-1 if unread); or its shape, hun,
flags and that."""

BoundKey = tuple[int, int, SpotSig | None, bool]
"""What decides a spot's exact bound in its place (`places.bound_key`): its own key bit, its
free patterns, what those read of it (`SpotSig`, None when none reads it), sharpened or not."""

TotalsKey = tuple[int | Breakdown, tuple[str, ...], str | None, bool, tuple[int, ...]]
"""What decides a result's totals (`Scorer.finish`): the valued patterns held (or the
breakdown), the kongs, a forbidding reason, instant or not, the total rules that apply."""

PieceKey = str | tuple[str, ...] | tuple[GroupFact, ...] | GroupFact
"""A JSON piece's key (`result._JSON_PIECES`): a text, a tuple of names, an arrangement's
shared groups, or one group."""


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


def allows_key(tile: int, stands_for: int, win_is_hun: bool) -> int:
    """`Scorer.group_allows`'s key for what the winning tile allows: the tile and what it
    stands for (each 0 when no need reads it), whether it is a hun: never negative, apart
    from `allows_group_key`'s."""
    return (tile * NUM_KINDS + stands_for) * 2 + int(win_is_hun)


def allows_group_key(code: int, win_is_hun: bool) -> int:
    """The key under which `Scorer.group_allows` keeps what a group's own facts allow (its
    `group_code`, whether the winning tile is a hun): negative, apart from `allows_key`'s."""
    return -1 - (code * 2 + int(win_is_hun))


def rest_code(g: RawGroup) -> int:
    """The rest that taking `g` out of the hand leaves, as one int: the hand less `g`'s
    real tiles, its hun less `g`'s, and one pair or one meld fewer to form
    (`holding.rest_layout`)."""
    code = 0
    for k in real_kinds(g):                    # ascending; digits from 1, so lengths differ
        code = code * (NUM_KINDS + 1) + k + 1
    return (code * 8 + len(g.fills)) * 2 + int(g.shape == PAIR)
