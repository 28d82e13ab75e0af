"""`places.best_first` orders a place's spots best bound first, exact before cheap among
equals, each group of equals in the order it came: the order one stable sort on
(-bound, not exact) gives, which decides which equal reading a tie shows."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit.arrange import ALL_GROUPS
from rulekit.scoring.places import Spot, best_first, in_line
from conftest import examples


def assert_one_sort_order(marks: list[tuple[float, bool]]) -> list[Spot]:
    """Spots of these (bound, exact) marks, each standing for its index: `best_first`
    orders them as one stable sort on (-bound, not exact) does; its order is returned."""
    spots = []
    for i, (bound, exact) in enumerate(marks):
        sp = Spot(bound, ALL_GROUPS[i], i, 0)
        sp.exact = exact
        spots.append(sp)
    want = sorted(spots, key=lambda sp: (-sp.bound, not sp.exact))
    got = best_first(list(spots))
    assert [sp.stands_for for sp in got] == [sp.stands_for for sp in want]
    return got


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.tuples(st.sampled_from([-1.0, 2.0, 4.0, 8.0, 32.0]), st.booleans()),
                max_size=40))
def test_spots_order_as_one_sort_on_bound_then_exactness(marks: list[tuple[float, bool]]
                                                         ) -> None:
    got = assert_one_sort_order(marks)
    assert sorted(sp.stands_for for sp in got) == list(range(len(marks)))


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.sampled_from([-1.0, 2.0, 4.0, 8.0, 32.0]), max_size=20),
       st.lists(st.sampled_from([-1.0, 2.0, 4.0, 8.0, 32.0]), max_size=30),
       st.randoms(use_true_random=False), st.booleans())
def test_two_sorted_runs_merge_as_one_sort(exact_bounds: list[float], cheap_bounds: list[float],
                                           rnd: object, shuffle_exact: bool) -> None:
    """What `refine` and `sharpen` hand it: cheap spots already in order and a few exact
    ones (in order or not), interleaved: the merge gives the one sort's order."""
    import random
    assert isinstance(rnd, random.Random)
    exact_bounds = sorted(exact_bounds, reverse=True)
    if shuffle_exact:
        rnd.shuffle(exact_bounds)
    cheap_bounds = sorted(cheap_bounds, reverse=True)
    marks = [(b, True) for b in exact_bounds] + [(b, False) for b in cheap_bounds]
    order = list(range(len(marks)))
    rnd.shuffle(order)
    # keep each run's own order while interleaving them
    ex = iter([m for m in marks if m[1]])
    ch = iter([m for m in marks if not m[1]])
    mixed = [next(ex) if marks[i][1] else next(ch) for i in order]
    assert_one_sort_order(mixed)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 400), st.integers(0, 1 << 31)),
                min_size=2, max_size=20))
def test_in_line_orders_as_the_tuple(ties: list[tuple[bool, int, int]]) -> None:
    """The queue's tie order as one int is the order of (not exact, spots, seq)."""
    want = sorted(ties, key=lambda t: (not t[0], t[1], t[2]))
    got = sorted(ties, key=lambda t: in_line(*t))
    assert [(not e, n, q) for e, n, q in got] == [(not e, n, q) for e, n, q in want]
