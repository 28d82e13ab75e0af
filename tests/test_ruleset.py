"""Ruleset loading: schema errors with lines, extends and merging, references."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulekit
from rulekit.errors import RulesetError
from rulekit.ruleset.resolve import merge


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
