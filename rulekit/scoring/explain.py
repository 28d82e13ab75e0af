"""The result's arithmetic in words: total rules, kong points, the minimum, the reason."""
from __future__ import annotations

from rulekit.algebra import Breakdown, num
from rulekit.ruleset.model import Ruleset, TotalRule
from rulekit.scoring.result import BELOW_MINIMUM

KONG_NAMES = {"exposed": "明杠", "concealed": "暗杠", "golden": "金杠"}

# total, reason, explain lines, pattern ids shown, their names
Totals = tuple[int | float, str | None, tuple[str, ...], tuple[str, ...], tuple[str, ...]]


def totals(rs: Ruleset, bd: Breakdown, kong_fan: float, kong_kinds: tuple[str, ...],
           forbidden: str | None, instant: bool, rules: tuple[TotalRule, ...]) -> Totals:
    """Total, reason and the itemised steps: the same for every hand with these inputs."""
    explain = [bd.text]
    kong_fan_counted = kong_fan
    multiplier = 1.0
    added = 0.0
    for rule in rules:
        if rule.kong_points_as and kong_kinds:
            kong_fan_counted += (rs.kong_points[rule.kong_points_as]
                                 - rs.kong_points[kong_kinds[-1]])
        multiplier *= rule.multiply_total
        added += rule.add_total
        if rule.multiply_total != 1:
            explain.append(f"{rule.name}: total × {num(rule.multiply_total)}")
        if rule.add_total:
            explain.append(f"{rule.name}: total + {num(rule.add_total)}")
    for k in kong_kinds:
        explain.append(f"+ {KONG_NAMES[k]} {num(rs.kong_points[k])}")
    total = (bd.fan + kong_fan_counted) * multiplier + added
    if kong_kinds or multiplier != 1 or added:
        explain.append(f"total {num(total)}")
    reach = total if rs.minimum_counts_kong_points else bd.fan
    reason = forbidden
    if reason is None and not instant and reach < rs.minimum:
        reason = BELOW_MINIMUM
        explain.append(f"below the minimum of {num(rs.minimum)}")
    elif forbidden is not None:
        name = next((f.name for f in rs.forbids if f.id == forbidden), forbidden)
        explain.append(f"cannot win: {name}")
    shown = tuple(t.id for t in bd.terms if t.role != "combination")
    return (num(total), reason, tuple(explain), shown,
            tuple(rs.pattern_name(p) for p in shown))
