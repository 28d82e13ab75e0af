"""`places._keep` orders a place's spots best bound first, exact before cheap among equals,
each group of equals in the order it came: the order one stable sort on (-bound, not exact)
gives, which decides which equal reading a tie shows."""
from __future__ import annotations

from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit.arrange import ALL_GROUPS
from rulekit.scoring.places import Spot, _keep


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([-1.0, 2.0, 4.0, 8.0, 32.0]), st.booleans()),
                max_size=40))
def test_keep_orders_as_one_sort_on_bound_then_exactness(marks: list[tuple[float, bool]]
                                                         ) -> None:
    spots = []
    for i, (bound, exact) in enumerate(marks):
        sp = Spot(bound, ALL_GROUPS[i], i, 0)
        sp.exact = exact
        spots.append(sp)
    want = sorted(spots, key=lambda sp: (-sp.bound, not sp.exact))
    place = SimpleNamespace(spots=[], bound=None, exact=None)
    assert _keep(place, list(spots)) is bool(spots)       # type: ignore[arg-type]
    if spots:
        assert [sp.stands_for for sp in place.spots] == [sp.stands_for for sp in want]
        assert (place.bound, place.exact) == (want[0].bound, want[0].exact)
