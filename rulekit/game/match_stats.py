"""What a match shows about each bot: its mean money and fan per hand, with 95% intervals.

A plain match treats hands as independent draws (the normal interval, as `simulate` does).
A duplicate match plays every deal four times with the seats rotated, so the unit is the
deal: each bot's value for a deal is its mean over the rotations (and over the seats it
held), and the interval is Student's t over deals with deals - 1 degrees of freedom. The
luck of the wall, which a bot shares with every other seat over the four rotations, drops
out of these per-deal means; what varies between deals is mostly skill and play.
"""
from __future__ import annotations

import math
from typing import Any, Sequence

from rulekit.game.stats import Z95, mean as normal_mean

# Student's t, 0.975 quantile, for 1..30 degrees of freedom
_T975 = (12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004,
         2.262157, 2.228139, 2.200985, 2.178813, 2.160369, 2.144787, 2.131450, 2.119905,
         2.109816, 2.100922, 2.093024, 2.085963, 2.079614, 2.073873, 2.068658, 2.063899,
         2.059539, 2.055529, 2.051831, 2.048407, 2.045230, 2.042272)


def t975(df: int) -> float:
    """The two-sided 95% quantile of Student's t: the table to 30, then the Cornish-Fisher
    expansion in 1/df (off by under 1e-5 from 31 on)."""
    if df < 1:
        raise ValueError("t975: at least one degree of freedom")
    if df <= len(_T975):
        return _T975[df - 1]
    z = Z95
    return (z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)
            + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * df ** 3))


def t_mean(xs: Sequence[float]) -> dict[str, Any]:
    """A mean with its Student-t 95% interval (`n`: how many values)."""
    n = len(xs)
    if n == 0:
        return {"value": 0.0, "low": 0.0, "high": 0.0, "n": 0}
    m = math.fsum(xs) / n
    if n == 1:
        return {"value": _r(m), "low": _r(m), "high": _r(m), "n": 1}
    var = math.fsum((x - m) ** 2 for x in xs) / (n - 1)
    half = t975(n - 1) * math.sqrt(var / n)
    return {"value": _r(m), "low": _r(m - half), "high": _r(m + half), "n": n}


def _r(x: float) -> float:
    return round(x, 6)


def seat_values(outcome: dict[str, Any], seat: int) -> tuple[float, float, bool]:
    """(money, fan, won) of one seat in one hand: fan counts only the seat's own wins."""
    won = outcome["winner"] == seat
    return float(outcome["payments"][seat]), float(outcome["total_fan"]) if won else 0.0, won


def per_bot(hands: Sequence[dict[str, Any]], specs: Sequence[str], duplicate: bool
            ) -> dict[str, Any]:
    """Each distinct seat spec: hands played, mean money and fan per hand, win share.
    `hands`: outcomes with `players` (the spec at each seat) and `deal` (the deal index;
    every hand its own deal unless duplicate)."""
    out: dict[str, Any] = {}
    for spec in dict.fromkeys(specs):
        money: dict[int, list[float]] = {}
        fan: dict[int, list[float]] = {}
        wins = seats = 0
        for h in hands:
            for s, p in enumerate(h["players"]):
                if p != spec:
                    continue
                m, f, w = seat_values(h, s)
                money.setdefault(h["deal"], []).append(m)
                fan.setdefault(h["deal"], []).append(f)
                wins += w
                seats += 1
        by_deal_money = [sum(v) / len(v) for v in money.values()]
        by_deal_fan = [sum(v) / len(v) for v in fan.values()]
        pick = t_mean if duplicate else normal_mean
        out[spec] = {"seat_hands": seats, "wins": wins,
                     "money": pick(by_deal_money), "fan": pick(by_deal_fan)}
    return out


def difference(hands: Sequence[dict[str, Any]], a: str, b: str, duplicate: bool
               ) -> dict[str, Any]:
    """`a` minus `b` in money per hand, paired within each deal (hand, or deal of four)."""
    diffs: dict[int, tuple[list[float], list[float]]] = {}
    for h in hands:
        xa, xb = diffs.setdefault(h["deal"], ([], []))
        for s, p in enumerate(h["players"]):
            if p == a:
                xa.append(float(h["payments"][s]))
            elif p == b:
                xb.append(float(h["payments"][s]))
    d = [sum(xa) / len(xa) - sum(xb) / len(xb) for xa, xb in diffs.values() if xa and xb]
    return t_mean(d) if duplicate else normal_mean(d)
