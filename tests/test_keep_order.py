"""`places.best_first` orders a place's spots best bound first, exact before cheap among
equals, each group of equals in the order it came: the order one stable sort on
(-bound, not exact) gives, which decides which equal reading a tie shows."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit.arrange import ALL_GROUPS
from rulekit.scoring.places import Spot, best_first
from conftest import examples


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.tuples(st.sampled_from([-1.0, 2.0, 4.0, 8.0, 32.0]), st.booleans()),
                max_size=40))
def test_spots_order_as_one_sort_on_bound_then_exactness(marks: list[tuple[float, bool]]
                                                         ) -> None:
    spots = []
    for i, (bound, exact) in enumerate(marks):
        sp = Spot(bound, ALL_GROUPS[i], i, 0)
        sp.exact = exact
        spots.append(sp)
    want = sorted(spots, key=lambda sp: (-sp.bound, not sp.exact))
    got = best_first(list(spots))
    assert [sp.stands_for for sp in got] == [sp.stands_for for sp in want]
    assert sorted(sp.stands_for for sp in got) == list(range(len(marks)))
