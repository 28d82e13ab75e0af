"""The ruleset cache: an edit to any file of the `extends` chain reaches `rulekit.score`."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

import rulekit
from rulekit.api import load_ruleset
from rulekit.errors import RulesetError

# 提溜 素 (2 fan) with a 金杠: total = 2 + the ruleset's kong_points.golden
GOLDEN = {"indicator": "1m", "hand": "345p678s999p1z",
          "melds": [{"kind": "kong", "tiles": "2222m", "concealed": True}], "win_tile": "1z"}


def parent_text(golden: int) -> str:
    return f"extends: tianjin\nname: parent\nkong_points: {{golden: {golden}}}\n"


@pytest.fixture
def child(tmp_path: Path) -> Path:
    (tmp_path / "parent.yaml").write_text(parent_text(6), encoding="utf-8")
    path = tmp_path / "child.yaml"
    path.write_text("extends: parent.yaml\nname: child\n", encoding="utf-8")
    return path


def test_a_parent_edit_reaches_the_child(child: Path) -> None:
    first = rulekit.score(GOLDEN, str(child))
    assert (first.kong_fan, first.total_fan) == (6, 8)
    (child.parent / "parent.yaml").write_text(parent_text(9), encoding="utf-8")
    again = rulekit.score(GOLDEN, str(child))                     # within the same second
    assert (again.kong_fan, again.total_fan) == (9, 11)


def test_an_edit_that_keeps_size_and_mtime_is_still_seen(child: Path) -> None:
    parent = child.parent / "parent.yaml"
    assert rulekit.score(GOLDEN, child).kong_fan == 6
    st = os.stat(parent)
    parent.write_text(parent_text(9), encoding="utf-8")           # same size
    os.utime(parent, ns=(st.st_atime_ns, st.st_mtime_ns))         # same mtime_ns
    assert os.stat(parent).st_size == st.st_size
    assert rulekit.score(GOLDEN, child).kong_fan == 9


def test_an_unchanged_chain_is_served_from_the_cache(child: Path) -> None:
    old = 1_000_000_000 * 10**9                                  # 2001: long past any tick
    for p in (child, child.parent / "parent.yaml"):
        os.utime(p, ns=(old, old))
    first = load_ruleset(child)
    assert load_ruleset(str(child)) is first
    assert load_ruleset(child.parent / "." / "child.yaml") is first   # one key per file
    (child.parent / "parent.yaml").write_text(parent_text(8), encoding="utf-8")
    second = load_ruleset(child)
    assert second is not first and second.kong_points["golden"] == 8


def test_a_new_parent_and_a_removed_parent(child: Path) -> None:
    assert load_ruleset(child).kong_points["golden"] == 6
    (child.parent / "other.yaml").write_text(parent_text(8).replace("parent", "other"),
                                             encoding="utf-8")
    child.write_text("extends: other.yaml\nname: child\n", encoding="utf-8")
    assert load_ruleset(child).kong_points["golden"] == 8
    (child.parent / "other.yaml").unlink()
    with pytest.raises(RulesetError) as err:
        load_ruleset(child)
    assert "other.yaml: no such file" in err.value.problems[0]
