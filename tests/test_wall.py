"""The wall's shuffle and dice (`rulekit.game.wall.shuffle`, `roll`): written out for the
compiled wall, they must give the order `random.Random.shuffle` gives and the dice
`randint(1, 6)` gives, or every seed's deal would change."""
from __future__ import annotations

import random

from hypothesis import given, strategies as st

from rulekit.game.wall import roll, shuffle, tile_set


@given(st.integers(min_value=0, max_value=2**64 - 1), st.sampled_from([False, True]))
def test_the_shuffle_is_random_shuffle(seed: int, flowers: bool) -> None:
    ours, theirs = tile_set(flowers), tile_set(flowers)
    mine, ref = random.Random(seed), random.Random(seed)
    shuffle(mine, ours)
    ref.shuffle(theirs)
    assert ours == theirs and ours != tile_set(flowers)
    assert mine.getrandbits(32) == ref.getrandbits(32)          # the same draws consumed


def test_a_subclass_draws_its_own_way() -> None:
    class Reversing(random.Random):
        def shuffle(self, x: list[int]) -> None:  # type: ignore[override]
            x.reverse()

    tiles = tile_set()
    shuffle(Reversing(1), tiles)
    assert tiles == tile_set()[::-1]


@given(st.integers(min_value=0, max_value=2**64 - 1), st.integers(min_value=0, max_value=6))
def test_the_dice_are_randint(seed: int, n: int) -> None:
    mine, ref = random.Random(seed), random.Random(seed)
    assert roll(mine, n) == tuple(ref.randint(1, 6) for _ in range(n))
    assert mine.getrandbits(32) == ref.getrandbits(32)          # the same draws consumed


def test_a_subclass_rolls_its_own_way() -> None:
    class Sixes(random.Random):
        def randint(self, a: int, b: int) -> int:
            return b

    assert roll(Sixes(1), 4) == (6, 6, 6, 6)


@given(st.integers(min_value=0, max_value=2**64 - 1), st.integers(min_value=0, max_value=300))
def test_the_shuffle_of_any_length_is_random_shuffle(seed: int, n: int) -> None:
    """Lengths across powers of two change the bits a place draws."""
    ours, theirs = list(range(n)), list(range(n))
    mine, ref = random.Random(seed), random.Random(seed)
    shuffle(mine, ours)
    ref.shuffle(theirs)
    assert ours == theirs
    assert mine.getrandbits(32) == ref.getrandbits(32)          # the same draws consumed
