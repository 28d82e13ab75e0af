"""Every row of the seed's 番數演算法 table that can occur, and RULES.md's readings."""
from __future__ import annotations

from typing import Any

import pytest

import rulekit
from conftest import check_expect, fan_table_cases, reading_cases

FAN_TABLE = fan_table_cases()           # rulesets/cases/tianjin.yaml, the cases named `row N`
READINGS = reading_cases()


@pytest.mark.parametrize("case", FAN_TABLE, ids=[c["name"] for c in FAN_TABLE])
def test_fan_table_row(case: dict[str, Any], tianjin: rulekit.Ruleset) -> None:
    result = rulekit.score(case["hand"], tianjin).to_dict()
    assert check_expect(result, case["expect"]) == [], result["explain"]


@pytest.mark.parametrize("case", READINGS, ids=[c["name"] for c in READINGS])
def test_rules_reading(case: dict[str, Any], tianjin: rulekit.Ruleset) -> None:
    result = rulekit.score(case["hand"], tianjin).to_dict()
    assert check_expect(result, case["expect"]) == [], result["explain"]


def test_every_row_that_can_occur_is_covered() -> None:
    # rows 1-31 occur; row 32 cannot (docs/fan-table.md)
    rows = {c["row"] for c in FAN_TABLE}
    assert rows == set(range(1, 32)) and len(FAN_TABLE) == 46 and len(READINGS) == 30


@pytest.mark.parametrize("row", [3, 4, 7, 8, 10, 12, 14, 20, 21, 22, 23, 27, 28, 30])
def test_kong_rows_have_both_kong_kinds(row: int) -> None:
    kinds = set()
    for c in FAN_TABLE:
        if c["row"] == row:
            kinds |= {m.get("concealed", False) for m in c["hand"].get("melds", [])
                      if m["kind"] == "kong"}
    assert kinds == {True, False}


def test_zhuo_wu_long_su_explains_itself(tianjin: rulekit.Ruleset) -> None:
    r = rulekit.score({"indicator": "7p", "hand": "46m 123456789s 22z", "win_tile": "5m"},
                      tianjin)
    assert r.win and r.total_fan == 14
    assert r.explain == ("(捉5 3 + 龍 4) × 素 2 = 14",)
    assert [g.tiles for g in r.arrangement if g.has_win] == ["456m"]
