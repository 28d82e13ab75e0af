"""The wall's shuffle (`rulekit.game.wall.shuffle`): written out for the compiled wall, it
must give the order `random.Random.shuffle` gives, or every seed's deal would change."""
from __future__ import annotations

import random

from hypothesis import given, strategies as st

from rulekit.game.wall import shuffle, tile_set


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
