"""rulekit.shape: the tables against independent searches and hand-picked hands.

References: `arrange.is_winning_shape` (the scorer's suit-by-suit search), a plain recursive
checker written here (wildcards filled while decomposing), a plain recursion for deficiency
written here (the most real tiles partial groups can hold), and, for deficiency with hun,
"the fewest real tiles to turn into hun" (a hun is the best tile one can draw, so that is the
fewest exchanges). The riichi `mahjong` library is for benches only: bench/shape.py compares
deficiency with its shanten.
"""
from __future__ import annotations

import random
from functools import lru_cache
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit import shape, shape_build
from rulekit.arrange import is_winning_shape
from rulekit.errors import HandError
from rulekit.tiles import parse_tiles
from conftest import examples


def counts(text: str) -> list[int]:
    c = [0] * 34
    for t in parse_tiles(text):
        c[t] += 1
    return c


@lru_cache(maxsize=None)
def ref_win(c: tuple[int, ...], hun: int, melds: int, pair: int) -> bool:
    """Plain recursion: the lowest real tile sits in a pair, a set or a run, hun filling gaps
    (below it only hun can stand, since it is the lowest real tile)."""
    i = next((k for k, n in enumerate(c) if n), None)
    if i is None:
        return hun == 3 * melds + 2 * pair
    options: list[tuple[dict[int, int], int, int, int]] = []   # (real taken, hun, melds, pair)
    if pair:
        options += [({i: min(2, c[i])}, 2 - min(2, c[i]), 0, 1)]
        if c[i] >= 2:
            options += [({i: 1}, 1, 0, 1)]
    if melds:
        for take in range(1, min(3, c[i]) + 1):
            options.append(({i: take}, 3 - take, 1, 0))
        if i < 27:
            rank = i % 9
            for start in (rank - 2, rank - 1, rank):
                if start < 0 or start > 6:
                    continue
                below = rank - start                      # positions filled by hun
                for mask in range(4):                     # which tiles above i are real
                    taken = {i: 1}
                    fill = below
                    for bit, k in enumerate(range(i + 1, i + 3 - below)):
                        if mask >> bit & 1:
                            taken[k] = 1
                        else:
                            fill += 1
                    if mask >= 1 << (2 - below):
                        continue
                    options.append((taken, fill, 1, 0))
    for taken, fill, dm, dp in options:
        if fill > hun or any(c[k] < n for k, n in taken.items()):
            continue
        rest = list(c)
        for k, n in taken.items():
            rest[k] -= n
        if ref_win(tuple(rest), hun - fill, melds - dm, pair - dp):
            return True
    return False


def random_hand(rng: random.Random, tiles: int, winning: bool) -> list[int]:
    """`tiles` non-hun tiles: random from the wall, or taken from random groups."""
    if not winning:
        wall = [k for k in range(34) for _ in range(4)]
        return counts_from(rng.sample(wall, tiles))
    while True:
        c = [0] * 34
        groups = []
        for _ in range(4):
            k = rng.randrange(34)
            if k < 27 and k % 9 <= 6 and rng.random() < 0.6:
                groups += [k, k + 1, k + 2]
            else:
                groups += [k] * 3
        groups += [rng.randrange(34)] * 2
        rng.shuffle(groups)
        for k in groups[:tiles]:
            c[k] += 1
        if max(c) <= 4:
            return c


def counts_from(tiles: list[int]) -> list[int]:
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return c


def hands(seed: int, n: int, size: int = 14):
    """(counts, hun, melds) with 0..7 hun and 0..4 declared melds, half built from groups."""
    rng = random.Random(seed)
    for j in range(n):
        melds = rng.choice((0, 0, 0, 1, 2, 3, 4))
        hun = min(rng.choice((0, 1, 1, 2, 2, 3, 4, 5, 6, 7)), size - 3 * melds)
        tiles = size - 3 * melds - hun
        yield random_hand(rng, tiles, winning=j % 2 == 0), hun, melds


def test_tables_rebuild_byte_for_byte() -> None:
    """The shipped file is what the committed builder makes (a full rebuild, ~20 s)."""
    assert shape_build.build_bytes() == shape_build.TABLE_FILE.read_bytes()


def test_is_win_matches_the_arrange_search_and_plain_recursion() -> None:
    wins = 0
    for c, hun, melds in hands(1, 10000):
        got = shape.is_win(c, hun, melds)
        assert got == is_winning_shape(tuple(c), hun, 4 - melds), (c, hun, melds)
        assert got == ref_win(tuple(c), hun, 4 - melds, 1), (c, hun, melds)
        wins += got
    assert 2500 < wins < 7500          # both answers occur often


def _suit_vectors(size: int, most: int):
    """Every count vector of one suit with 1..`most` tiles."""
    def rec(prefix: list[int], left: int):
        if len(prefix) == size:
            if left < most:
                yield prefix
            return
        for k in range(min(4, left) + 1):
            yield from rec(prefix + [k], left - k)
    yield from rec([], most)


def test_is_win_on_every_small_one_suit_hand() -> None:
    """Every vector of at most 8 tiles in 萬 and in the honours, with the fewest melds that
    can hold it and hun making up the count (0..2 hun), and with one meld more (3..5)."""
    checked = 0
    for base, size in ((0, 9), (27, 7)):
        for vec in _suit_vectors(size, 8):
            c = [0] * 34
            c[base:base + size] = vec
            n = sum(vec)
            need = max(1, -(-(n - 2) // 3))
            for melds_needed in (need, need + 1):
                if melds_needed > 4:
                    continue
                hun = 3 * melds_needed + 2 - n
                got = shape.is_win(c, hun, 4 - melds_needed)
                assert got == ref_win(tuple(c), hun, melds_needed, 1), (vec, hun)
                checked += 1
    assert checked > 20000


def test_is_win_hand_picked() -> None:
    assert shape.is_win(counts("456m123456789s22z"), 0)
    assert not shape.is_win(counts("466m123456789s22z"), 0)
    assert shape.is_win(counts("11122233344455m"), 0)
    assert not shape.is_win(counts("11223344556677z"), 0)         # seven pairs: no
    assert not shape.is_win(counts("19m19p19s1234567z1m"), 0)     # thirteen orphans: no
    assert not shape.is_win(counts("123z456m789m111p22s"), 0)     # honours never run
    assert not shape.is_win(counts("891m234p567p111s22s"), 0)     # runs never wrap
    assert shape.is_win(counts("123m456p789s11z"), 3)             # 3 hun: a meld of hun alone
    assert shape.is_win([0] * 34, 14)                             # fourteen hun
    assert shape.is_win([0] * 34, 2, melds=4)                     # four melds down, a hun pair
    assert shape.is_win(counts("1111m"), 1, melds=3)              # 111m + 1m with a hun pair
    assert not shape.is_win(counts("456m123456789s22z"), 0, melds=1)   # tile count wrong
    assert shape.is_win(counts("456m22z"), 0, melds=3)


def test_is_win_takes_lists_tuples_and_bytes() -> None:
    c = counts("456m123456789s22z")
    assert shape.is_win(c, 0) and shape.is_win(tuple(c), 0) and shape.is_win(bytes(c), 0)


def test_waits_hand_picked() -> None:
    assert shape.waits(counts("46m123456789s22z"), 0) == (4,)             # 5m
    assert shape.waits(counts("1112345678999m"), 0) == tuple(range(9))   # nine gates
    assert shape.waits(counts("123m456p789s111z"), 1) == tuple(range(34))
    # only a fifth 1m would complete 1111m: no wait, though a hun (any tile) wins
    assert shape.waits(counts("1111m234p567p888s"), 0) == ()
    assert shape.is_win(counts("1111m234p567p888s"), 1)
    assert shape.waits(counts("11112m567p888s22z"), 0) == (2,)            # 111m 123m
    assert shape.waits(counts("456m123456789s22z"), 0) == ()               # 14 tiles
    assert shape.waits(counts("1m"), 0, melds=4) == (0,)                   # pair wait


def test_waits_match_is_win_and_the_search() -> None:
    for c, hun, melds in hands(2, 2000, size=13):
        expect = []
        for k in range(34):
            if c[k] == 4:
                continue
            c[k] += 1
            if is_winning_shape(tuple(c), hun, 4 - melds):
                expect.append(k)
            c[k] -= 1
        assert shape.waits(c, hun, melds) == tuple(expect), (c, hun, melds)


def ref_deficiency(c: list[int], hun: int, melds: int) -> int:
    """Fewest empty positions over every choice of 4 - melds melds and a pair holding some
    of the tiles (the rest discarded), less one per hun: the docstring's definition, by plain
    recursion on the lowest remaining kind (discard one copy, or start a partial group)."""
    groups = 4 - melds
    return max(0, 3 * groups + 2 - _most_held(tuple(c), groups, 1) - hun)


@lru_cache(maxsize=None)
def _most_held(c: tuple[int, ...], melds: int, pair: int) -> int:
    i = next((k for k, n in enumerate(c) if n), None)
    if i is None:
        return 0

    def take(kinds: tuple[int, ...], m: int, p: int) -> int:
        rest = list(c)
        for k in kinds:
            rest[k] -= 1
        return len(kinds) + _most_held(tuple(rest), m, p)

    best = take((i,), melds, pair) - 1                 # discard one copy of i
    if pair:
        best = max(best, take((i,) * min(2, c[i]), melds, 0))
    if melds:
        best = max(best, take((i,) * min(3, c[i]), melds - 1, pair))
        if i < 27:
            rank = i % 9
            for start in range(max(0, rank - 2), min(rank, 6) + 1):
                above = [k for k in range(i + 1, i - rank + start + 3) if c[k]]
                for n in range(len(above) + 1):
                    for real in combinations(above, n):
                        best = max(best, take((i, *real), melds - 1, pair))
    return best


def test_deficiency_matches_a_plain_recursion() -> None:
    """13- and 14-tile hands with 0-3 hun and 0-2 declared melds, dealt and built."""
    rng = random.Random(3)
    wall = [k for k in range(34) for _ in range(4)]
    for j in range(3000):
        melds = rng.choice((0, 0, 0, 1, 2))
        hun = rng.choice((0, 0, 1, 2, 3))
        size = rng.choice((13, 14)) - 3 * melds - hun
        c = counts_from(rng.sample(wall, size)) if j % 2 else random_hand(rng, size, True)
        assert shape.deficiency(c, hun, melds) == ref_deficiency(c, hun, melds), (c, hun, melds)
    _most_held.cache_clear()


def test_deficiency_counts_a_fifth_copy_as_reachable() -> None:
    """13 tiles, 8888m: only a fifth 8m completes it (the riichi library, which refuses a
    fifth copy, calls it 1-shanten); here ready (1), since a drawn hun wins; no real tile
    does."""
    c = counts("8888m234567s333z")
    assert shape.deficiency(c, 0) == 1 == ref_deficiency(c, 0, 0)
    assert shape.is_win(c, 1) and shape.waits(c, 0) == ()


def test_deficiency_hand_picked() -> None:
    assert shape.deficiency(counts("456m123456789s22z"), 0) == 0
    assert shape.deficiency(counts("46m123456789s22z"), 0) == 1           # ready: one draw
    # fourteen isolated tiles: four melds and the pair can each use one, 9 of 14 missing
    c = counts("147m258p369s12345z")
    assert shape.deficiency(c, 0) == 9                          # riichi: 8-shanten
    assert shape.deficiency(counts("147m258p369s123z"), 2) == 7         # hun fill two gaps
    assert shape.deficiency(counts("147m258p369s1z"), 4) == 5
    # three melds, a pair and three lone honours: two exchanges (riichi: 1-shanten)
    c = counts("123m456p789s11357z")
    assert shape.deficiency(c, 0) == 2                          # riichi: 1-shanten
    assert shape.deficiency([0] * 34, 14) == 0
    assert shape.deficiency([0] * 34, 13) == 1                           # any tile wins


def _fewest_to_hun(c: list[int], hun: int, melds: int) -> int:
    """Reference: fewest real tiles to turn into hun (plus, for 13 tiles, one hun added)."""
    real = [k for k in range(34) for _ in range(c[k])]
    short = 3 * (4 - melds) + 2 - len(real) - hun        # 1 for a 13-tile hand
    for d in range(len(real) + 1):
        swapped = d - short                                # tiles replaced, the rest drawn
        if swapped < 0:
            continue
        seen = set()
        for gone in combinations(real, swapped):
            if gone in seen:
                continue
            seen.add(gone)
            rest = list(c)
            for k in gone:
                rest[k] -= 1
            if is_winning_shape(tuple(rest), hun + d, 4 - melds):
                return d
    raise AssertionError("unreachable: all hun always wins")


def test_deficiency_with_hun_matches_turning_tiles_into_hun() -> None:
    rng = random.Random(4)
    for j in range(1000):
        melds = rng.choice((0, 1, 2))
        hun = rng.choice((1, 2, 3))
        size = rng.choice((13, 14)) - 3 * melds - hun
        c = random_hand(rng, size, winning=j % 2 == 0)
        assert shape.deficiency(c, hun, melds) == _fewest_to_hun(c, hun, melds), (c, hun, melds)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.integers(0, 33), min_size=14, max_size=14), st.integers(0, 7),
       st.integers(0, 4))
def test_deficiency_is_zero_exactly_on_wins(tiles: list[int], hun: int, melds: int) -> None:
    hun = min(hun, 14 - 3 * melds)
    c = counts_from(tiles[: 14 - 3 * melds - hun])
    if max(c) > 4:
        return
    assert (shape.deficiency(c, hun, melds) == 0) == shape.is_win(c, hun, melds)
    # one more hun never hurts, and a 13-tile hand is ready exactly when it has waits
    if hun:
        c13 = (c, hun - 1)
    else:
        k = next(k for k in range(34) if c[k])
        c13 = (c[:k] + [c[k] - 1] + c[k + 1:], 0)
    ready = shape.deficiency(c13[0], c13[1], melds) == 1
    assert ready == bool(shape.waits(c13[0], c13[1], melds))


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.integers(0, 33), min_size=1, max_size=14), st.integers(0, 7),
       st.integers(0, 4))
def test_discards_give_the_deficiency_of_each_hand_a_tile_fewer(tiles: list[int], hun: int,
                                                                  melds: int) -> None:
    """`shape.Discards(c, hun, need).less(k)` is `deficiency_of` of `c` less one `k`, for
    every kind held (greedy weighs its discards by it), `whole()` that of `c`,
    `less_hun()` that of `c` with a hun fewer."""
    melds = min(melds, (14 - len(tiles)) // 3)
    hun = min(hun, 14 - 3 * melds - len(tiles))
    c = counts_from(tiles)
    if max(c) > 4:
        return
    after = shape.Discards(c, hun, 4 - melds)
    assert after.whole() == shape.deficiency(c, hun, melds)
    assert after.whole() == shape.discards(c, hun, melds).whole()
    if hun:
        assert after.less_hun() == shape.deficiency(c, hun - 1, melds)
    for k in range(34):
        if c[k]:
            less = list(c)
            less[k] -= 1
            assert after.less(k) == shape.deficiency(less, hun, melds), (c, hun, melds, k)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.integers(0, 4), min_size=34, max_size=34))
def test_codes_tiles_are_the_codes_and_the_sum(c: list[int]) -> None:
    """The unrolled reading (`Held`'s) is `_codes` and the tiles' count, base-5 by suit."""
    want = tuple(sum(c[b + r] * 5 ** r for r in range(n)) for b, n in
                 ((0, 9), (9, 9), (18, 9), (27, 7)))
    assert shape._codes(c) == want
    assert shape._codes_tiles(c) == want + (sum(c),)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.integers(0, 33), min_size=1, max_size=14),
       st.lists(st.integers(0, 33), min_size=0, max_size=2, unique=True), st.integers(0, 4))
def test_held_reads_a_table_hand_as_split_counts(tiles: list[int], hun_kinds: list[int],
                                                 melds: int) -> None:
    """`shape.Held` of a table's counts (hun kinds' copies still in them) wins as `is_win`
    of the counts split into non-hun counts and hun, and a `Discards` given it answers as
    one worked out from the split counts (the procedure reads the seat on turn once)."""
    c = counts_from(tiles)
    if max(c) > 4:
        return
    hk = tuple(hun_kinds)
    split = list(c)
    hun = 0
    for k in hk:
        hun += split[k]
        split[k] = 0
    held = shape.Held(c, hk)
    assert (held.n, held.hun) == (len(tiles), hun)
    for m in range(5):
        fits = len(tiles) <= 14 - 3 * m
        assert held.wins(m) == (fits and shape.is_win(split, hun, m))
        assert held.wins(m) == shape.wins_holding(c, hk, m)
        if fits:
            plain = shape.Discards(split, hun, 4 - m)
            given_held = shape.Discards(split, hun, 4 - m, held)
            assert given_held.whole() == plain.whole()
            if hun:
                assert given_held.less_hun() == plain.less_hun()
            for k in range(34):
                if split[k]:
                    assert given_held.less(k) == plain.less(k), (c, hk, m, k)


@pytest.mark.parametrize("bad", [
    [0] * 33, [0] * 35, [5] + [0] * 33, [-1] + [0] * 33, [-1, 6] + [0] * 32,
    [4, 4, 4, 3] + [0] * 30, [1.0] + [0] * 33, ["1"] + [0] * 33, None, 7,
    [4, 4, 4, 4] + [0] * 23 + [-4, 0, 0, 0, 0, 0, 0], [-1, 1] + [0] * 32,
])
@pytest.mark.parametrize("loop_check", [False, True])
def test_bad_counts_raise_hand_error(bad: object, loop_check: bool,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Both ways of checking the counts (the loop runs compiled, the frozenset interpreted;
    interpreted, the loop is switched on here by hand)."""
    if shape.__file__.endswith(".py"):
        monkeypatch.setattr(shape, "_COMPILED", loop_check)
    assert shape.is_win(counts("456m123456789s22z"), 0)
    for call in (shape.is_win, shape.waits, shape.deficiency):
        with pytest.raises(HandError) as err:
            call(bad, 0)  # type: ignore[arg-type]
        assert err.value.field == "counts"


def test_bad_hun_and_melds_raise_hand_error() -> None:
    c = counts("456m123456789s22z")
    for call in (shape.is_win, shape.waits, shape.deficiency):
        with pytest.raises(HandError, match="hun"):
            call(c, -1)
        with pytest.raises(HandError, match="melds"):
            call(c, 0, 5)
        with pytest.raises(HandError, match="melds"):
            call(c, 0, -1)
    with pytest.raises(HandError, match="counts"):
        shape.deficiency(c, 1)                 # 15 tiles


def test_the_four_class_memo_is_bounded_and_exact() -> None:
    """`shape._fewest` remembers by the four classes and `need` in `BEST_SLOTS` slots (two
    lists made once: bounded whatever is asked); each answer, remembered or not, is
    `_least` of the two halves worked out afresh, also when keys share a slot."""
    t = shape._tables()
    rng = random.Random(7)
    size = len(t.best_keys)
    assert size == len(t.best_vals) == shape.BEST_SLOTS
    asked = []
    for _ in range(3 * shape.BEST_SLOTS):
        a, b, c = rng.randrange(4), rng.randrange(4), rng.randrange(40)   # few halves
        d = rng.randrange(t.n)
        need = rng.randrange(5)
        asked.append((a, b, c, d, need))
        got = shape._fewest(t, a, b, c, d, need)
        assert got == shape._fewest(t, a, b, c, d, need)             # now remembered
    for a, b, c, d, need in asked[::16]:                 # some replaced by others since
        assert shape._fewest(t, a, b, c, d, need) == shape._least(
            shape._paired(t, a, b), shape._paired(t, c, d), 0, need)
    assert len(t.best_keys) == size and len(t.best_vals) == size


def test_paired_halves_are_the_min_plus_of_the_classes() -> None:
    """`_paired` (its terms written out) against the min-plus of the two classes' ten
    values as loops, on fresh tables (nothing remembered from other tests)."""
    t = shape._Deficit()
    rng = random.Random(11)
    for _ in range(3000):
        a, b = rng.randrange(t.n), rng.randrange(t.n)
        x = t.flat[10 * a:10 * a + 10]
        y = t.flat[10 * b:10 * b + 10]
        got = shape._paired(t, a, b)
        for m in range(5):
            for p in range(2):
                want = min(x[2 * m1 + p1] + y[2 * (m - m1) + p - p1]
                           for m1 in range(m + 1) for p1 in range(p + 1))
                field = (got >> (shape._FIELD_BITS * (2 * m + p))) & shape._FIELD
                assert field == want, (a, b, m, p)