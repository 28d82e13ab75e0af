"""`simulate --versus OTHER --across-players`: the same comparison under a few standard mixes
of players, and which conclusions depend on who plays (docs/game.md, "Across players").

A bot is part of the measurement: greedy players never kong four hun, value players chase
the wait worth most. A conclusion an author can take to the table is one whose sign holds
under every mix; the report says which do not."""
from __future__ import annotations

from typing import Any, Sequence

from rulekit.game.stats import shown
from rulekit.game.summary import pad

# (measure key of a versus report, label for people)
MEASURES = (("win_rate_difference", "win rate"), ("draw_rate_difference", "荒莊 rate"),
            ("hand_length_difference", "hand length (discards)"),
            ("dealer_edge_difference", "dealer edge per hand"))


def mixes(seats: int) -> list[tuple[str, ...]]:
    """All greedy, all value, and value and greedy alternating."""
    return [("greedy",) * seats, ("value",) * seats,
            tuple("value" if s % 2 == 0 else "greedy" for s in range(seats))]


def verdict(ci: dict[str, Any]) -> str:
    """`+` (more under the first), `-` (less), or `0` (the interval holds zero)."""
    if ci["low"] > 0:
        return "+"
    if ci["high"] < 0:
        return "-"
    return "0"


_WORDS = {"+": "more under {first}", "-": "less under {first}", "0": "no clear difference"}


def combine(reports: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """One report over the mixes: each mix's versus report, and the conclusions that change."""
    head = reports[0]
    first, other = head["first"], head["other"]
    depends: list[str] = []
    holds: list[str] = []
    for key, label in MEASURES:
        signs = [verdict(r[key]) for r in reports]
        said = "; ".join(f"{_mix(r['players'])}: {_WORDS[s].format(first=first)} "
                         f"({shown(r[key], sign=True)})" for r, s in zip(reports, signs))
        (depends if len(set(signs)) > 1 else holds).append(f"{label}: {said}")
    for i, rule in enumerate(head["rules_differ"]):
        fired = [r["rules_differ"][i]["fired_hands"] for r in reports]
        if any(fired) and not all(fired):
            depends.append(f"{rule['key']} ({rule['name']}) fired in "
                           + ", ".join(f"{k} hands with {_mix(r['players'])}"
                                       for k, r in zip(fired, reports)))
    never = [f"{rule['key']} ({rule['name']}) never fired under any mix "
             f"({head['hands']} hands each), so the comparison says nothing about it"
             for i, rule in enumerate(head["rules_differ"])
             if not any(r["rules_differ"][i]["fired_hands"] for r in reports)]
    changed = [r["money_changed"]["count"] for r in reports]
    if any(changed) and not all(changed):
        depends.append("money changed in " + ", ".join(
            f"{k} hands with {_mix(r['players'])}" for k, r in zip(changed, reports)))
    return {"first": first, "other": other, "difference": "first - other",
            "reading": head["reading"], "hands": head["hands"],
            "session_hands": head["session_hands"],
            "mixes": [r["players"] for r in reports],
            "depends_on_players": depends, "holds_across_players": holds,
            "warnings": never,
            "across_players": list(reports)}


def _mix(players: Sequence[str]) -> str:
    kinds = list(dict.fromkeys(players))
    return f"all {kinds[0]}" if len(kinds) == 1 else ",".join(players)


def text(rep: dict[str, Any]) -> str:
    lines = [f"{rep['first']} against {rep['other']} under {len(rep['mixes'])} mixes of "
             f"players, {rep['hands']} hands each, the same deals",
             f"{rep['reading'][0].upper()}{rep['reading'][1:]}.",
             "95% intervals (bootstrap over sessions)."]
    for r in rep["across_players"]:
        fired = ", ".join(f"{d['key']} {d['fired_hands']}" for d in r["rules_differ"])
        lines.append(f"  {_mix(r['players'])}: money changed in "
                     f"{r['money_changed']['count']} hands; rules fired: {fired or 'none'}")
        for key, label in MEASURES:
            lines.append(f"    {pad(label, 24)} {shown(r[key], sign=True)}")
    if rep["depends_on_players"]:
        lines.append("depends on the players:")
        lines += [f"  {d}" for d in rep["depends_on_players"]]
    if rep["holds_across_players"]:
        lines.append("holds under every mix:")
        lines += [f"  {d}" for d in rep["holds_across_players"]]
    lines += [f"warning: {w}" for w in rep["warnings"]]
    return "\n".join(lines) + "\n"
