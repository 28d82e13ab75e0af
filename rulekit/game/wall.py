"""The wall: the tile set, the shuffle, the dice, where dealing starts, the indicator, and the
two ends that tiles are drawn from (000/Ⅲ 拿牌, 開混, 杠後補牌; 000/Ⅳ 荒莊).

Tiles are dealt from the head of a sequence of stacks of two ("dealing order"); kong
replacements come from its tail. The indicator is the top tile of the `hun_dice`-th stack
from the tail, turned up and left in place; a replacement draw that reaches its stack takes
the stack's other tile (000/Ⅲ 「遇到混所在的墩，不跳過，把剩下的那張補掉」).
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from rulekit.tiles import FLOWERS, NUM_KINDS


def tile_set(flowers: bool = False) -> list[int]:
    """The 136 tiles, four of each kind, in kind order; then the eight flowers if asked."""
    return list(_WITH_FLOWERS if flowers else _TILES)


_TILES: tuple[int, ...] = tuple([k for k in range(NUM_KINDS) for _ in range(4)])
_WITH_FLOWERS: tuple[int, ...] = _TILES + tuple(FLOWERS)


def roll(rng: random.Random, n: int) -> tuple[int, ...]:
    """`n` dice, each `rng.randint(1, 6)`, written out as CPython's `randint` draws it (1
    plus a `getrandbits(3)` below 6, a draw past it drawn again, as `shuffle` below), so
    the compiled wall makes no interpreted call per die: the same dice from the same
    generator (tests/test_wall.py compares them). A subclass is asked itself."""
    if type(rng) is not random.Random:
        return tuple(rng.randint(1, 6) for _ in range(n))
    bits = rng.getrandbits
    out: list[int] = []
    for _ in range(n):
        j = bits(3)
        while j >= 6:
            j = bits(3)
        out.append(1 + j)
    return tuple(out)


def break_stack(dealer: int, players: int, stacks: int, dice: tuple[int, ...]) -> int:
    """The stack (physical index, seat-major) where dealing starts.

    000/Ⅲ: the dealer counts `sum + 1` stacks from the right of his own wall; 000/Ⅷ: the
    dealer rolls, the seat counted rolls again, dealing starts in that seat's wall after the
    four dice's sum. Either way the count runs along the walls, wrapping round the table.
    """
    per_seat = stacks // players
    if len(dice) == 2:
        return (dealer * per_seat + sum(dice)) % stacks
    counted = (dealer + sum(dice[:2]) - 1) % players       # 本人 1, 下家 2, ... (000/Ⅷ)
    return (counted * per_seat + sum(dice)) % stacks


@dataclass(slots=True)
class Wall:
    """The tiles in dealing order and what has been taken from each end."""

    tiles: list[int]
    indicator_at: int          # index of the face-up indicator tile
    tail_order: list[int]      # indices in tail-draw order (the indicator skipped; a stack's
                               # top the head took is dropped when the tail reaches it)
    head: int = 0              # next index the head draws
    taken_tail: int = 0        # how many of tail_order have been drawn

    @property
    def indicator(self) -> int:
        return self.tiles[self.indicator_at]

    def head_limit(self, draw_game_at: str) -> int:
        """One past the last index the head may draw: the start of the stack the tail has
        reached, and under 000/Ⅳ (荒莊) the start of the indicator's stack."""
        limit = len(self.tiles)
        if self.taken_tail:
            limit = (self.tail_order[self.taken_tail - 1] // 2) * 2
        if draw_game_at == "before_indicator_stack":
            limit = min(limit, (self.indicator_at // 2) * 2)
        return limit

    def live(self, draw_game_at: str) -> int:
        """Tiles the head can still draw."""
        limit = self.head_limit(draw_game_at)
        n = limit - self.head
        if self.head <= self.indicator_at < limit:
            n -= 1
        return max(n, 0)

    def draw_head(self, draw_game_at: str) -> int | None:
        """The next index from the head, or None: the wall is 荒 (drawn out)."""
        if self.head == self.indicator_at:
            self.head += 1
        if self.head >= self.head_limit(draw_game_at):
            return None
        self.head += 1
        return self.head - 1

    def tail_left(self) -> bool:
        """The tail has a tile to give (a kong may be declared: its replacement exists)."""
        return self._tail_next() is not None

    def _tail_next(self) -> int | None:
        """The position in `tail_order` of the next replacement, or None when the head has
        taken every tile the tail could give. The head may have taken the top of the stack
        the tail has come to; its other tile is still there and is the replacement (issue
        18: a kong never ends the hand in 荒莊 while its stack has a live tile)."""
        order, at = self.tail_order, self.taken_tail
        while at < len(order):
            i = order[at]
            if i >= self.head:
                return at
            if at + 1 < len(order) and order[at + 1] // 2 == i // 2:
                at += 1                        # the head took this stack's top: its other
                continue
            return None
        return None

    def draw_tail(self) -> int | None:
        """The next index from the tail (杠後補牌), or None (see `_tail_next`). A top the
        head took leaves `tail_order`, which lists the tail's draws first."""
        at = self._tail_next()
        if at is None:
            return None
        del self.tail_order[self.taken_tail:at]
        self.taken_tail += 1
        return self.tail_order[self.taken_tail - 1]


def build(rng: random.Random, dealer: int, players: int, break_dice: str,
          flowers: bool = False) -> tuple[Wall, tuple[int, ...], tuple[int, ...]]:
    """Shuffle, roll for the break and for the hun: the wall in dealing order and both rolls."""
    physical = tile_set(flowers)
    shuffle(rng, physical)
    stacks = len(physical) // 2
    dice = roll(rng, 2 if break_dice == "dealer" else 4)
    start = break_stack(dealer, players, stacks, dice)
    order = physical[2 * start:] + physical[:2 * start]
    hun_dice = roll(rng, 2)
    return from_order(order, hun_dice), dice, hun_dice


def shuffle(rng: random.Random, x: list[int]) -> None:
    """`rng.shuffle(x)`, written out as CPython's `random.Random.shuffle` does it (from the
    end, each place swapped with one below it drawn by `getrandbits`, a draw past the range
    drawn again), so the compiled wall makes no Python call per tile but `getrandbits`: the
    same order from the same generator (tests/test_wall.py compares them). A subclass of
    `random.Random` is asked itself (it may draw otherwise)."""
    if type(rng) is not random.Random:
        rng.shuffle(x)
        return
    bits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = bits(k)
        while j >= n:
            j = bits(k)
        x[i], x[j] = x[j], x[i]


def from_order(order: list[int], hun_dice: tuple[int, ...]) -> Wall:
    """The wall of tiles already in dealing order, the indicator `sum(hun_dice)` stacks from
    the tail (000/Ⅲ: 「從尾墩數3墩，翻開上邊的牌」); a flower there cannot make hun, so the
    count goes on one stack toward the head until a tile that can (this project's choice)."""
    stacks = len(order) // 2
    at = 2 * (stacks - sum(hun_dice))
    while order[at] >= NUM_KINDS and at >= 2:
        at -= 2
    tail = list(_tail_order(stacks))
    if 0 <= at < len(tail):
        tail.remove(at)
    return Wall(list(order), at, tail)


_TAILS: dict[int, tuple[int, ...]] = {}


def _tail_order(stacks: int) -> tuple[int, ...]:
    """Every index in tail-draw order: the last stack first, each stack's top (even index)
    before its bottom; made once per wall size (68 or 72 stacks, a few at most)."""
    got = _TAILS.get(stacks)
    if got is None:
        got = tuple([i for s in range(stacks - 1, -1, -1) for i in (2 * s, 2 * s + 1)])
        if len(_TAILS) < 16:
            _TAILS[stacks] = got
    return got
