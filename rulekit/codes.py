"""The integer encodings every stage shares: tile classes, group shapes and group keys.

Tiles are kind indices (rulekit/tiles.py): 0-8 萬, 9-17 筒, 18-26 條, 27-30 winds, 31-33
dragons, 34-41 flowers. A group (a meld or the pair) is identified by its shape and lowest
kind; the skeleton index, the DSL's shape queries and the scorer's memo keys all hold it as
one int, `group_key(shape, first)`. Spelling these numbers anywhere else is a bug waiting:
import them from here.
"""
from __future__ import annotations

from typing import Final

# tile classes
SUIT_SIZE: Final = 9
WAN_START: Final = 0             # first 萬
TONG_START: Final = 9            # first 筒
TIAO_START: Final = 18           # first 條
HONOR_START: Final = 27          # first wind (東); also the count of numbered kinds
DRAGON_START: Final = 31         # first dragon (中)
NUM_KINDS: Final = 34            # kinds that form groups; flowers start here
FLOWER_START: Final = 34
FLOWER_END: Final = 42           # one past the last flower (菊)
SUIT_BASES: Final = (WAN_START, TONG_START, TIAO_START, HONOR_START)   # 萬, 筒, 條, honours
HONOR_SIZE: Final = NUM_KINDS - HONOR_START     # kinds of the honour class (7)
LAST_RUN_RANK: Final = SUIT_SIZE - 3            # the highest rank a run starts at (0-based: 7-8-9)

# the levels a pattern depends on (the compiler finds them; the scorer judges each level once
# per distinct value of what it reads): the hand, its skeleton (which groups exist), the
# arrangement (which group's tiles are hun), the reading (where the winning tile sits)
HAND: Final = 0
SKELETON: Final = 1
ARRANGEMENT: Final = 2
READING: Final = 3

# group shapes
RUN: Final = 0
SET: Final = 1
PAIR: Final = 2
KONG: Final = 3

# group keys: shape * KEY_STRIDE + first kind (first < KEY_STRIDE for every kind, flowers too)
KEY_STRIDE: Final = 64
KEY_LIMIT: Final = (KONG + 1) * KEY_STRIDE     # one past the largest group key


def group_key(shape: int, first: int) -> int:
    """The one int that names a group by its shape and lowest kind."""
    return shape * KEY_STRIDE + first


def key_shape(key: int) -> int:
    """The shape of a group key."""
    return key // KEY_STRIDE


def key_first(key: int) -> int:
    """The lowest kind of a group key."""
    return key % KEY_STRIDE
