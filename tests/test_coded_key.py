"""`scan.coded_key`: an arrangement's skeleton key read from its groups' codes is the sorted
key `skeleton_key` makes from the groups themselves (the scan groups a 天和's arrangements
by it, so the order they are read in depends on it)."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit.arrange import ALL_GROUPS
from rulekit.scoring.scan import coded_key, skeleton_key
from conftest import examples


# the codes of real groups (`ALL_GROUPS` numbers a few empty slots, shape -1)
CODES = [c for c, g in enumerate(ALL_GROUPS) if g.shape >= 0]


@settings(max_examples=examples(400), deadline=None)
@given(st.lists(st.sampled_from(CODES), max_size=7))
def test_coded_key_is_the_groups_skeleton_key(codes: list[int]) -> None:
    raw = tuple([ALL_GROUPS[c] for c in codes])
    got = coded_key(tuple(codes))
    assert got == skeleton_key(raw)
    assert list(got) == sorted(got)


def test_a_known_arrangement() -> None:
    codes = (CODES[40], CODES[0], CODES[7], CODES[0])
    keys = sorted(coded_key((c,))[0] for c in codes)
    assert coded_key(codes) == tuple(keys)
    assert coded_key(()) == ()


def test_five_groups_every_order_of_four_keys() -> None:
    # the five-group network on every sequence of five keys drawn from four: sorted
    from itertools import product
    from rulekit.arrange import ALL_KEYS
    code_of: dict[int, int] = {}
    for c in CODES:
        code_of.setdefault(ALL_KEYS[c], c)
    keys = sorted(code_of)[:4]
    for combo in product(keys, repeat=5):
        assert coded_key(tuple(code_of[k] for k in combo)) == tuple(sorted(combo)), combo
