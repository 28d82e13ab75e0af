"""The all-hun options as codes (`arrange.wild_meld_codes`, `wild_pair_codes`): the groups
`wild_meld_options` / `wild_pair_options` list, in their order, read from per-kind masks
instead of sorting groups per hand; and `arrangement_codes` lists them only when needed."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from conftest import examples
from rulekit import arrange
from rulekit.arrange import (ALL_GROUPS, Layout, arrangement_codes, wild_codes,
                             wild_meld_codes, wild_meld_options, wild_pair_codes,
                             wild_pair_options)

KIND_SETS = st.sets(st.integers(0, 33)).map(lambda s: tuple(sorted(s)))


@settings(max_examples=examples(300), deadline=None)
@given(KIND_SETS)
def test_meld_codes_are_the_sorted_options(kinds: tuple[int, ...]) -> None:
    codes = wild_meld_codes(kinds)
    assert tuple([ALL_GROUPS[c] for c in codes]) == wild_meld_options(kinds)
    assert len(set(codes)) == len(codes)


@settings(max_examples=examples(300), deadline=None)
@given(KIND_SETS)
def test_pair_codes_are_the_options(kinds: tuple[int, ...]) -> None:
    assert tuple([ALL_GROUPS[c] for c in wild_pair_codes(kinds)]) == wild_pair_options(kinds)


def test_every_kind_has_its_set_and_runs() -> None:
    # 5m (kind 4) starts or joins the runs 3-5m, 4-6m, 5-7m and is the set 555m
    got = [ALL_GROUPS[c] for c in wild_meld_codes((4,))]
    assert [(g.shape, g.first) for g in got] == sorted(
        [(arrange.SET, 4), (arrange.RUN, 2), (arrange.RUN, 3), (arrange.RUN, 4)])
    # an honour only makes its set; a flower (34+) never stands in a group
    assert [(g.shape, g.first) for g in (ALL_GROUPS[c] for c in wild_meld_codes((27,)))] \
        == [(arrange.SET, 27)]
    assert wild_codes(lambda: (27, 35)) == (wild_meld_codes((27,)), wild_pair_codes((27,)))


def _plain_listing(layout: Layout, kinds: tuple[int, ...]) -> list[tuple[int, ...]]:
    """`arrangement_codes` as it was: both option lists worked out up front."""
    from itertools import combinations_with_replacement
    metas = tuple([arrange._WILD_CODE[g] for g in wild_meld_options(kinds)])
    pairs = tuple([arrange._WILD_CODE[p] for p in wild_pair_options(kinds)])
    out = []
    for codes, wm, wp in arrange.anchored(layout):
        if wm == 0 and wp == 0:
            out.append(codes)
            continue
        for melds in combinations_with_replacement(metas, wm):
            for pair in (pairs if wp else (-1,)):
                out.append(codes + (melds if pair < 0 else melds + (pair,)))
    return out


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(st.integers(0, 33), min_size=0, max_size=14), st.integers(0, 8),
       KIND_SETS)
def test_listing_unchanged(real: list[int], hun: int, kinds: tuple[int, ...]) -> None:
    real = real[:max(0, 14 - hun)]
    hun = 14 - len(real)
    counts = [0] * 34
    for k in real:
        counts[k] += 1
    if max(counts) > 4:
        return
    layout = Layout(tuple(counts), hun, 4)
    calls: list[int] = []

    def domain() -> tuple[int, ...]:
        calls.append(1)
        return kinds

    assert list(arrangement_codes(layout, domain)) == _plain_listing(layout, kinds)
    assert len(calls) <= 1          # the domain is worked out once at most
