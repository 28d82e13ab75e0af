"""`Scorer.group_allows` reads the win-gated needs from the plan's checks; it must say
exactly what `plan.possible` says on the same facts, and its memo key may leave out only
what no need reads."""
from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import rulekit
from rulekit import arrange
from rulekit import resources
from rulekit.facts import group_fact
from rulekit.ruleset.model import load_text
from rulekit.scoring.holding import groups_holding
from rulekit.scoring.plan import WIN_GROUP_ATTRS, possible
from rulekit.scoring.scorer import Scorer
from conftest import examples

BUILTINS = ("tianjin", "tianjin-3p", "tianjin-dianpao", "tianjin-flowers", "tianjin-gold8",
            "tianjin-laizi", "tianjin-street")


def by_possible(sc: Scorer, g: arrange.RawGroup, win_tile: int, stands_for: int,
                win_is_hun: bool) -> int:
    """What `group_allows` said before its checks were compiled: `possible` on a dict."""
    held = group_fact(g, True, win_is_hun)
    known: dict[str, Any] = {"win.tile": win_tile, "win.is_hun": win_is_hun,
                             "win.stands_for": stands_for}
    for attr in WIN_GROUP_ATTRS:
        known["win.group." + attr] = getattr(held, attr)
    out = 0
    for p in sc.plan.win_gated:
        if possible(p, known, {}):
            out |= p.bit
    return out


def test_the_builtins_have_win_gated_patterns() -> None:
    # 混吊, 雙混吊 and 捉5 need something of the winning tile's group (tianjin.yaml)
    sc = Scorer(rulekit.load_ruleset("tianjin"))
    assert {p.id for p in sc.plan.win_gated} == {"hun_diao", "shuang_hun_diao", "zhuo_wu"}
    assert len(sc.plan.gate_checks) == 3


@settings(max_examples=examples(200), deadline=None)
@given(st.sampled_from(BUILTINS), st.lists(st.integers(0, 33), min_size=14, max_size=14),
       st.integers(0, 4), st.integers(0, 13), st.booleans(), st.integers(0, 33))
def test_group_allows_equals_possible(name: str, tiles: list[int], hun: int, at: int,
                                      win_is_hun: bool, stands_for: int) -> None:
    rs = rulekit.load_ruleset(name)
    sc = Scorer(rs)
    real = tiles[: 14 - hun]
    counts = [0] * 34
    for t in real:
        counts[t] += 1
    if max(counts) > 4:
        return
    win_tile = real[at % len(real)]
    for g in groups_holding(counts, hun, win_tile):
        for tile, stands in ((win_tile, win_tile), (win_tile, stands_for)):
            want = by_possible(sc, g, tile, stands, win_is_hun)
            assert sc.group_allows(g, tile, stands, win_is_hun) == want
            # and again, from the memo, after other tiles filled it
            assert sc.group_allows(g, tile, stands, win_is_hun) == want


def test_a_need_on_the_winning_tile_keeps_it_in_the_key() -> None:
    # a variant whose 混吊 also needs the winning tile to be 5萬: group_allows must then
    # tell winning tiles apart, though the group is the same
    text = """
name: gate-test
extends: tianjin
patterns:
  hun_diao:
    when: win.group.shape == pair and win.group.other_hun == 1 and win.tile == 5m
"""
    rs = load_text(text, resources.rulesets_dir() / "gate-test.yaml", "gate-test.yaml")
    sc = Scorer(rs)
    pair = arrange.RawGroup(arrange.PAIR, 4, (4,))
    five, six = 4, 5
    bit = sc.plan.bit["hun_diao"]
    assert sc.group_allows(pair, five, five, False) & bit
    pair6 = arrange.RawGroup(arrange.PAIR, 5, (5,))
    assert not sc.group_allows(pair6, six, six, False) & bit
    # the same group under another winning tile: the memo must not answer for 5萬
    assert not sc.group_allows(pair, six, five, False) & bit


def test_held_value_reads_what_the_facts_hold() -> None:
    """`held_value` (what the gate checks read, most off the raw group) gives each attribute
    of `group_fact(g, True, win_is_hun)`, for every group there is, either kind of winning
    tile."""
    from rulekit.facts import GroupFact, declared_group, held_value
    names = list(GroupFact.__annotations__)
    assert {"shape", "first", "kind", "hun", "other_hun", "suit", "rank"} <= set(names)
    groups = [g for g in arrange.ALL_GROUPS if g.shape >= 0]     # the table's gaps are not groups
    groups += [declared_group("kong", 31, True, False),
               declared_group("set", 4, False, True)]
    assert len(groups) > 400
    for g in groups:
        for win_is_hun in (False, True):
            fact = group_fact(g, True, win_is_hun)
            for name in names:
                assert held_value(g, name, win_is_hun) == getattr(fact, name), (g, name)


def by_held_value(checks: Any, g: arrange.RawGroup, win_is_hun: bool) -> int:
    """What `gate_group_allows` said before its checks read the raw group as ints: each
    check through `held_value`, the shape as its name."""
    from rulekit.facts import held_value
    from rulekit.scoring.plan import _FROM_GROUP
    out = 0
    for bit, cs in checks:
        if all((held_value(g, name, win_is_hun) == value) == equal
               for source, name, value, equal in cs if source == _FROM_GROUP):
            out |= bit
    return out


def test_group_checks_answer_as_the_facts_do() -> None:
    """`gate_group_allows` on `group_checks` says what the checks said through `held_value`,
    for every group there is and either kind of winning tile: the built-ins' checks, and
    checks on every fact a gate may name, with values no group has (a shape never named,
    a number for a shape), equal or not."""
    from rulekit.facts import declared_group
    from rulekit.scoring.plan import _FROM_GROUP, _FROM_TILE, gate_group_allows, group_checks
    made = [(1 << i, ((_FROM_GROUP, name, value, equal), (_FROM_TILE, "", 4, True)))
            for i, (name, value, equal) in enumerate([
                ("shape", "run", True), ("shape", "pair", False), ("shape", "kong", True),
                ("shape", "seven", False), ("shape", 0, True), ("first", 3, True),
                ("kind", 27, False), ("hun", 2, True), ("other_hun", 1, True),
                ("other_hun", 0, False), ("suit", "wan", True), ("rank", 4, False),
                ("declared", True, True), ("concealed", False, False),
                ("golden", True, False), ("has_win", True, True), ("tiles", (3, 4, 5), True)])]
    both = tuple(made) + ((1 << 20, tuple(made[0][1][:1] + made[7][1][:1])),)
    sets = [both] + [Scorer(rulekit.load_ruleset(n)).plan.gate_checks for n in BUILTINS]
    groups = [g for g in arrange.ALL_GROUPS if g.shape >= 0]
    groups += [declared_group("kong", 31, True, False), declared_group("set", 4, False, True)]
    seen = set()
    for checks in sets:
        compiled = group_checks(checks)
        for g in groups:
            for win_is_hun in (False, True):
                got = gate_group_allows(compiled, g, win_is_hun)
                assert got == by_held_value(checks, g, win_is_hun), (g, win_is_hun)
                seen.add(got)
    assert len(seen) > 20
