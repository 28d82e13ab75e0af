"""The bootstrap's bulk draws and sums (`rulekit.game.stats`) give exactly the numbers of
drawing with `randrange` and summing one session at a time, as the reports always did."""
from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings, strategies as st

from rulekit.game import stats
from rulekit.game.stats import Sessions, draws
from conftest import examples


def one_at_a_time(seed: int | str, n: int, count: int) -> list[int]:
    rng = random.Random(seed)
    return [rng.randrange(n) for _ in range(count)]


def test_bulk_draws_are_randrange_s_for_every_width_of_a_try() -> None:
    for n in [1, 2, 3, 7, 8, 9, 250, 255, 256, 257, 1000, 2**16 + 1, 2**31, 2**31 + 1,
              2**32 - 1, 2**32, 2**40 + 3]:
        want = one_at_a_time(f"s{n}", n, 3000)
        assert draws(random.Random(f"s{n}"), n, 3000) == want, n


def test_bulk_draws_of_nothing_and_of_one() -> None:
    assert draws(random.Random(1), 5, 0) == []
    assert draws(random.Random(1), 5, 1) == one_at_a_time(1, 5, 1)


def reference_ratio(session_of: list[int], seed: object, xs: list[float],
                    per: list[float] | None) -> dict[str, float]:
    """The bootstrap as it was written before the bulk draws: a draw at a time, a
    generator summed per resample."""
    ids = sorted(set(session_of))
    index = {s: i for i, s in enumerate(ids)}
    of = [index[s] for s in session_of]
    count = len(ids)
    reps = min(stats.RESAMPLES, max(200, stats.RESAMPLE_WORK // max(1, count)))
    rng = random.Random(f"rulekit.bootstrap:{seed}")
    resamples = [[rng.randrange(count) for _ in range(count)]
                 for _ in range(reps if count > 1 else 0)]

    def sums(vs: list[float]) -> list[float]:
        out = [0.0] * count
        for s, x in zip(of, vs):
            out[s] += x
        return out

    num = sums(xs)
    den = sums(per) if per is not None else sums([1.0] * len(of))
    total = math.fsum(den)
    value = math.fsum(num) / total if total else 0.0
    got = []
    for draw in resamples:
        d = math.fsum(den[i] for i in draw)
        if d:
            got.append(math.fsum(num[i] for i in draw) / d)
    if not got:
        return {"value": stats._r(value), "low": stats._r(value), "high": stats._r(value)}
    got.sort()
    return {"value": stats._r(value), "low": stats._r(stats.quantile(got, 0.025)),
            "high": stats._r(stats.quantile(got, 0.975))}


values = st.lists(st.one_of(st.integers(-64, 64).map(float),
                            st.floats(-1e6, 1e6, allow_nan=False)), min_size=1, max_size=90)


@settings(max_examples=examples(40), deadline=None)
@given(values, st.integers(1, 20), st.integers(0, 5), st.booleans())
def test_the_bootstrap_gives_the_numbers_of_one_draw_at_a_time(
        xs: list[float], session: int, seed: int, weighted: bool) -> None:
    of = [i // session for i in range(len(xs))]
    per = [float(i % 3 != 0) for i in range(len(xs))] if weighted else None
    boot = Sessions(of, seed)
    assert boot.ratio(xs, per) == reference_ratio(of, seed, xs, per)
    assert boot.ratio(xs) == reference_ratio(of, seed, xs, None)     # the kept hand counts


def test_a_report_sized_bootstrap_matches_too() -> None:
    """250 sessions of 16 (4,000 hands): 1,000 resamples, as `simulate` reports them."""
    rng = random.Random(9)
    xs = [float(rng.choice([-6, -2, -1, 0, 0, 1, 2, 3, 6, 12])) for _ in range(4000)]
    of = [i // 16 for i in range(4000)]
    per = [float(x != 0) for x in xs]
    boot = Sessions(of, 1)
    assert boot.ratio(xs) == reference_ratio(of, 1, xs, None)
    assert boot.ratio(xs, per) == reference_ratio(of, 1, xs, per)


@pytest.mark.parametrize("big", [2.0 ** 44, 2.0 ** 47, 2.0 ** 52, 3.0 ** 33, 1e300, 0.5])
def test_whole_sums_near_and_past_the_exact_range_match_too(big: float) -> None:
    """Large and small, whole and not: the exact sums agree wherever rounding could bite."""
    rng = random.Random(int(big) % 1000)
    xs = [rng.choice([-big, big, 1.0, 0.0, -3.0]) for _ in range(160)]
    of = [i // 4 for i in range(160)]
    assert Sessions(of, 2).ratio(xs) == reference_ratio(of, 2, xs, None)
    per = [float(x != 0) for x in xs]
    assert Sessions(of, 2).ratio(xs, per) == reference_ratio(of, 2, xs, per)
