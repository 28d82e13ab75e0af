"""Ruleset loading: schema errors with lines, extends and merging, references."""
from __future__ import annotations

import re
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rulekit
from rulekit.errors import RulesetError
from rulekit.ruleset.resolve import merge
from conftest import examples


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def problems(path: Path) -> list[str]:
    with pytest.raises(RulesetError) as info:
        rulekit.load_ruleset(path)
    return info.value.problems


def test_merge_rules() -> None:
    base = {"a": {"x": 1, "y": 2}, "l": [1, 2], "k": 3}
    assert merge(base, {"a": {"y": 5}, "l": [9], "k": None}) == {"a": {"x": 1, "y": 5},
                                                                 "l": [9]}


def test_three_line_overlay(tmp_path: Path) -> None:
    p = write(tmp_path, "gold.yaml", "extends: tianjin\nname: gold\nkong_points: {golden: 8}\n")
    rs = rulekit.load_ruleset(p)
    assert rs.kong_points["golden"] == 8 and rs.kong_points["exposed"] == 1
    assert rs.chain[-1] == "rulesets/tianjin.yaml"


def test_extends_chain_and_relative_paths(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULEKIT_ALLOW_EXTENDS_OUTSIDE", "1")     # ../a.yaml leaves sub/
    write(tmp_path, "a.yaml", "extends: tianjin\nname: a\nheavenly: {multiplier: 8}\n")
    sub = tmp_path / "sub"
    sub.mkdir()
    p = write(sub, "b.yaml", "extends: ../a.yaml\nname: b\nwin: {minimum: 3}\n")
    rs = rulekit.load_ruleset(p)
    assert (rs.name, rs.minimum, rs.algebra.multiply[-1]) == ("b", 3, ("tian_he", 8.0))


def test_cycle_and_unknown_parent(tmp_path: Path) -> None:
    write(tmp_path, "x.yaml", "extends: y.yaml\nname: x\n")
    y = write(tmp_path, "y.yaml", "extends: x.yaml\nname: y\n")
    assert "cycle" in problems(y)[0]
    z = write(tmp_path, "z.yaml", "name: z\nextends: no-such-ruleset\n")
    msg = problems(z)[0]
    assert msg.startswith(f"{z}:2: extends:") and "tianjin" in msg


def test_schema_errors_name_file_line_and_key(tmp_path: Path) -> None:
    p = write(tmp_path, "bad.yaml", "extends: tianjin\nname: bad\n"
              "hun: {kinds: 3}\n"
              "kong_points:\n  golden: lots\n"
              "scoring:\n  multipy: {su: 2}\n")
    got = problems(p)
    assert f"{p}:3: hun.kinds: must be one of 1, 2" in got
    assert any(g.startswith(f"{p}:5: kong_points.golden:") for g in got)
    assert f"{p}:7: scoring.multipy: unknown key; did you mean 'multiply'?" in got


def test_dsl_errors_point_into_the_yaml(tmp_path: Path) -> None:
    p = write(tmp_path, "dsl.yaml", "extends: tianjin\nname: d\npatterns:\n"
              "  su:\n    name: 素\n    when: hand.hunn == 0\n")
    got = problems(p)
    assert len(got) == 1
    assert got[0].startswith(f"{p}:6:16: patterns.su.when: a hand has no attribute 'hunn'")
    assert got[0].splitlines()[-1].index("^") == 4 + len("hand.")


def test_algebra_names_an_undefined_pattern(tmp_path: Path) -> None:
    p = write(tmp_path, "alg.yaml", "extends: tianjin\nname: a\nscoring:\n"
              "  add: {zhuo_wu: 3, lung: 4}\n")
    got = problems(p)
    assert got == [f"{p}:4: scoring.add.lung: pattern 'lung' is used here but never defined "
                   f"in patterns; did you mean 'long'?"]


def test_yaml_syntax_error(tmp_path: Path) -> None:
    p = write(tmp_path, "y.yaml", "name: [unclosed\n")
    assert problems(p)[0].startswith(f"{p}:")


def test_null_removes_a_pattern_and_its_uses_must_go_too(tmp_path: Path) -> None:
    p = write(tmp_path, "n.yaml", "extends: tianjin\nname: n\npatterns: {zhuo_wu: null}\n")
    assert any("zhuo_wu" in m and "never defined" in m for m in problems(p))


def test_adjust_total_can_add_points(tmp_path: Path) -> None:
    # 000/Ⅳ 特殊規則: 天和 「在原來的基礎上擴大4～8分」, read as points added to the total
    p = write(tmp_path, "pts.yaml", "extends: tianjin\nname: pts\nscoring:\n"
              "  multiply: {tian_he: null}\n  adjust_total:\n"
              "    - {name: 天和 +4, when: context.heavenly, add_total: 4}\n")
    r = rulekit.score({"indicator": "7z", "hand": "123m456p789s11z23s", "win_tile": "4s",
                       "heavenly": True}, rulekit.load_ruleset(p))
    assert (r.hand_fan, r.total_fan) == (2, 6)
    assert r.explain == ("提溜 1 × 素 2 = 2", "天和 +4: total + 4", "total 6")


def test_patterns_at_every_level_may_read_the_winning_tile(tmp_path: Path) -> None:
    # a skeleton-level pattern (龍 on a 5萬 draw) and an arrangement-level one both read
    # win.tile; the facts they see must carry it (they once had no win object at all)
    p = write(tmp_path, "w.yaml", "extends: tianjin\nname: w\npatterns:\n"
              "  long_on_five: {name: 五龍, when: 'long and win.tile == 5m'}\n"
              "  hun_free_five: {name: 淨五, when: "
              "'win.tile == 5m and (every g in groups: g.hun == 0)'}\n"
              "scoring:\n  multiply: {long_on_five: 2, hun_free_five: 3}\n")
    rs = rulekit.load_ruleset(p)
    r = rulekit.score({"indicator": "7p", "hand": "46m 123456789s 22z", "win_tile": "5m"}, rs)
    assert r.hand_fan == 14 * 2 * 3
    assert {"long_on_five", "hun_free_five"} <= set(r.patterns)


def test_validate_reports_every_independent_problem_in_file_order(tmp_path: Path) -> None:
    # a schema error, a reference cycle, an unrelated DSL error and an unknown scoring id: no
    # stage hides another's problems
    p = write(tmp_path, "multi.yaml", "extends: tianjin\nname: multi\n"
              "hun: {kinds: 3}\n"
              "patterns:\n"
              "  aa: {name: A, when: bb}\n"
              "  bb: {name: B, when: aa}\n"
              "  typo: {name: T, when: hand.hunn == 0}\n"
              "scoring:\n"
              "  add: {nosuch: 2}\n")
    got = problems(p)
    assert [g.splitlines()[0] for g in got] == [
        f"{p}:3: hun.kinds: must be one of 1, 2",
        f"{p}:5:23: patterns.aa.when: patterns refer to each other in a circle: aa -> bb -> aa",
        f"{p}:7:30: patterns.typo.when: a hand has no attribute 'hunn'; did you mean 'hun'?",
        f"{p}:9: scoring.add.nosuch: pattern 'nosuch' is used here but never defined in "
        f"patterns",
    ]


def test_two_cycles_are_each_reported_and_the_rest_still_compiles(tmp_path: Path) -> None:
    p = write(tmp_path, "cyc.yaml", "extends: tianjin\nname: c\npatterns:\n"
              "  a1: {name: A1, when: a2}\n  a2: {name: A2, when: a1}\n"
              "  b1: {name: B1, when: b2 and su}\n  b2: {name: B2, when: b1}\n"
              "  user: {name: U, when: a1 and hand.hunn == 1}\n")
    got = [g.splitlines()[0] for g in problems(p)]
    assert sum("in a circle" in g for g in got) == 2
    # `user` reads a pattern on a cycle: only its own mistake is reported
    assert got[-1].startswith(f"{p}:8:") and "'hunn'" in got[-1]
    assert len(got) == 3


def test_a_self_reference_says_so_without_suggesting_the_same_name(tmp_path: Path) -> None:
    p = write(tmp_path, "self.yaml", "extends: tianjin\nname: s\npatterns:\n"
              "  selfref: {name: S, when: selfref or su}\n")
    assert [g.splitlines()[0] for g in problems(p)] == [
        f"{p}:4:28: patterns.selfref.when: pattern 'selfref' refers to itself"]


def test_a_pattern_with_its_own_error_is_not_unknown_to_its_readers(tmp_path: Path) -> None:
    # `broken` fails to parse and `gone` has no `when` (a schema error): patterns reading them
    # are not told "unknown name 'broken'; did you mean 'broken'?"
    p = write(tmp_path, "b.yaml", "extends: tianjin\nname: b\npatterns:\n"
              "  broken: {name: B, when: 'su and (('}\n"
              "  gone: {name: G}\n"
              "  reader: {name: R, when: broken or gone}\n")
    got = problems(p)
    assert len(got) == 2, got
    assert got[0].startswith(f"{p}:4:") and "patterns.broken.when" in got[0]
    assert got[1] == f"{p}:5: patterns.gone: missing required key 'when'"
    assert not any("did you mean" in g for g in got)


def test_schema_errors_do_not_hide_unknown_ids_or_bad_references(tmp_path: Path) -> None:
    p = write(tmp_path, "r.yaml", "extends: tianjin\nname: r\n"
              "players: 5\n"
              "scoring:\n"
              "  multiply: {su: heavenly.multiplyer}\n"
              "  combinations:\n"
              "    x: {patterns: [long, lung], value: 9}\n")
    got = problems(p)
    assert got == [
        f"{p}:3: players: must be one of 3, 4",
        f"{p}:5: scoring.multiply.su: 'heavenly.multiplyer' does not name a number in this "
        f"ruleset",
        f"{p}:7: scoring.combinations.x.patterns: pattern 'lung' is never defined in patterns; "
        f"did you mean 'long'?",
    ]


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.sets(st.integers(0, 4), max_size=3), min_size=5, max_size=5))
def test_any_reference_graph_gives_exactly_its_own_problems(
        tmp_path_factory: pytest.TempPathFactory, uses: list[set[int]]) -> None:
    # pattern p{i} (on line 4 + i) reads the patterns in uses[i]: every self-reference is
    # named, a cycle is reported when there is one, and nothing else (no "unknown name")
    lines = "".join(
        f"  p{i}: {{name: P{i}, when: '{' and '.join(f'p{j}' for j in sorted(u)) or 'true'}'}}\n"
        for i, u in enumerate(uses))
    p = write(tmp_path_factory.mktemp("g"), "g.yaml",
              f"extends: tianjin\nname: g\npatterns:\n{lines}")
    graph = {i: {j for j in u if j != i} for i, u in enumerate(uses)}
    try:
        list(TopologicalSorter(graph).static_order())
        cyclic = False
    except CycleError:
        cyclic = True
    selfrefs = {i for i, u in enumerate(uses) if i in u}
    if not cyclic and not selfrefs:
        assert len(rulekit.load_ruleset(p).patterns) == 14 + 5
        return
    got = [g.splitlines()[0] for g in problems(p)]
    assert {int(g.split(":")[1]) - 4 for g in got if "refers to itself" in g} == selfrefs
    assert any("in a circle" in g for g in got) == cyclic
    assert all("in a circle" in g or "refers to itself" in g for g in got), got


KEYS = st.sampled_from(["name", "when", "fan", "description", "add", "multiply", "base",
                        "combinations", "adjust_total", "patterns", "value", "su", "long",
                        "tiliu", "x", "kong_points_as", "multiply_total"])
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10**40, 10**40) | st.floats()
    | st.sampled_from(["true", "su and long", "hand.hun ==", "x", "heavenly.multiplier", "su"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS, inner, max_size=3),
    max_leaves=12)


@settings(max_examples=examples(150), deadline=None)
@given(st.sampled_from(["patterns", "forbid", "instant_win", "scoring"]), VALUES)
def test_any_malformed_section_is_reported_never_crashes(section: str, value: object) -> None:
    # the checks beyond the schema look only at well-formed parts: whatever a section holds,
    # loading ends in a ruleset or a RulesetError whose every problem names a file line
    from rulekit.ruleset import model, resolve
    data, origins, chain = resolve.resolve(resolve.locate("tianjin"))
    data = dict(data, **{section: value})
    try:
        model._checked(data, origins, "x.yaml", ("x.yaml",))
    except RulesetError as err:
        assert err.problems and all(re.match(r"\S+:\d+(:\d+)?: ", p) for p in err.problems)
