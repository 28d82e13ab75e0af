"""What a simulation shows: rates, pattern frequencies, the fan distribution, money per seat
and the dealer's edge, each with its 95% interval; with `--versus`, the differences."""
from __future__ import annotations

from collections import Counter
from typing import Any, Sequence

from rulekit.game.stats import mean, rate, shown
from rulekit.ruleset.model import Ruleset


def _f(x: Any) -> float:
    return float(x)


def summarise(outs: Sequence[dict[str, Any]], rs: Ruleset, players: Sequence[str]
              ) -> dict[str, Any]:
    n = len(outs)
    wins = [o for o in outs if o["winner"] is not None]
    pats: Counter[str] = Counter(p for o in wins for p in o["patterns"])
    fans: Counter[str] = Counter(_fan_key(o["total_fan"]) for o in wins)
    seats = len(players)
    golden = sum(1 for o in outs if any("golden" in k for k in o["kongs"]))
    return {
        "ruleset": rs.name, "hands": n, "players": list(players),
        "win_rate": rate(len(wins), n),
        "draw_rate": rate(n - len(wins), n),
        "dealer_win_rate": rate(sum(1 for o in wins if o["winner"] == o["dealer"]), n),
        "chan_rate": rate(sum(1 for o in outs if o["chan"]), n),
        "golden_kong_rate": rate(golden, n),
        "xiao_xiang_gong_rate": rate(sum(1 for o in outs if o["xiao_xiang_gong"]), n),
        "win_by": dict(sorted(Counter(o["win_by"] for o in wins).items())),
        "wins_by_seat": [rate(sum(1 for o in wins if o["winner"] == s), n)
                         for s in range(seats)],
        "patterns": {p: dict(rate(pats[p], n), name=rs.pattern_name(p))
                     for p in sorted(pats)},
        "fan": {"mean": mean([_f(o["total_fan"]) for o in wins]),
                "distribution": dict(sorted(fans.items(), key=lambda kv: float(kv[0])))},
        "money": [mean([_f(o["payments"][s]) for o in outs]) for s in range(seats)],
        "dealer_edge": mean([_f(o["payments"][o["dealer"]]) for o in outs]),
        "by_player": _by_player(outs, players),
    }


def _by_player(outs: Sequence[dict[str, Any]], players: Sequence[str]) -> dict[str, Any]:
    """Per kind of player, its seats' mean money per hand; with two kinds, the per-hand
    difference between them (the first named minus the other), paired within each hand."""
    kinds = list(dict.fromkeys(players))
    if len(kinds) < 2:
        return {}
    seats = {k: [s for s, p in enumerate(players) if p == k] for k in kinds}

    def avg(o: dict[str, Any], k: str) -> float:
        return sum(_f(o["payments"][s]) for s in seats[k]) / len(seats[k])

    out: dict[str, Any] = {k: mean([avg(o, k) for o in outs]) for k in kinds}
    if len(kinds) == 2:
        a, b = kinds
        out[f"{a} - {b}"] = mean([avg(o, a) - avg(o, b) for o in outs])
    return out


def _fan_key(x: Any) -> str:
    f = float(x)
    return str(int(f)) if f.is_integer() else str(f)


def versus(outs: Sequence[dict[str, Any]], a: Ruleset, b: Ruleset,
           players: Sequence[str]) -> dict[str, Any]:
    """Paired differences (the same deals under both rulesets): `b` minus `a` per hand."""
    n = len(outs)
    seats = len(players)
    pairs = [(o, o["versus"]) for o in outs]
    changed = [(x, y) for x, y in pairs if x["payments"] != y["payments"]]
    ids = sorted({p for x, y in pairs for p in x["patterns"] + y["patterns"]})

    def gold_or_chan(o: dict[str, Any]) -> bool:
        return o["chan"] or any("golden" in k for k in o["kongs"])

    return {
        "a": a.name, "b": b.name, "hands": n, "players": list(players),
        "same_play": sum(1 for x, y in pairs if _play(x) == _play(y)),
        "money_changed": rate(len(changed), n),
        "changed_without_golden_kong_or_chan": sum(
            1 for x, y in changed if not (gold_or_chan(x) or gold_or_chan(y))),
        "money_difference": [mean([_f(y["payments"][s]) - _f(x["payments"][s])
                                   for x, y in pairs]) for s in range(seats)],
        "dealer_edge_difference": mean([_f(y["payments"][y["dealer"]])
                                        - _f(x["payments"][x["dealer"]]) for x, y in pairs]),
        "win_rate_difference": mean([float(y["winner"] is not None)
                                     - float(x["winner"] is not None) for x, y in pairs]),
        "patterns": {p: dict(mean([float(p in y["patterns"]) - float(p in x["patterns"])
                                   for x, y in pairs]), name=b.pattern_name(p)) for p in ids},
        "a_summary": summarise([x for x, _ in pairs], a, players),
        "b_summary": summarise([y for _, y in pairs], b, players),
    }


def _play(o: dict[str, Any]) -> tuple[Any, ...]:
    return (o["winner"], o["win_by"], o["dealer"], tuple(map(tuple, o["kongs"])), o["chan"])


def text(s: dict[str, Any]) -> str:
    """The summary for people."""
    lines = [f"{s['ruleset']}: {s['hands']} hands, players {', '.join(s['players'])} "
             "(95% intervals)"]
    for key in ("win_rate", "draw_rate", "dealer_win_rate", "chan_rate", "golden_kong_rate",
                "xiao_xiang_gong_rate"):
        lines.append(f"  {key.replace('_', ' '):22} {shown(s[key], pct=True)}")
    lines.append("  patterns (share of hands):")
    for pid, r in s["patterns"].items():
        lines.append(f"    {r['name']:8} {pid:16} {shown(r, pct=True)}")
    lines.append(f"  mean fan of a win       {shown(s['fan']['mean'])}")
    lines.append("  fan distribution        " + ", ".join(
        f"{k}: {v}" for k, v in s["fan"]["distribution"].items()))
    for seat, m in enumerate(s["money"]):
        lines.append(f"  seat {seat} ({s['players'][seat]}) per hand  {shown(m)}")
    lines.append(f"  dealer's edge per hand  {shown(s['dealer_edge'])}")
    for k, m in s["by_player"].items():
        lines.append(f"  {k} per seat per hand  {shown(m)}")
    return "\n".join(lines) + "\n"


def versus_text(v: dict[str, Any]) -> str:
    lines = [f"{v['b']} against {v['a']}: {v['hands']} hands, the same deals (95% intervals)",
             f"  same play (winner, kongs, 鏟) in {v['same_play']} hands",
             f"  money changed in          {shown(v['money_changed'], pct=True)} of hands",
             f"  changed without 金杠 or 鏟 {v['changed_without_golden_kong_or_chan']} hands",
             f"  win rate difference       {shown(v['win_rate_difference'])}",
             f"  dealer's edge difference  {shown(v['dealer_edge_difference'])}"]
    for seat, m in enumerate(v["money_difference"]):
        lines.append(f"  seat {seat} ({v['players'][seat]}) per hand  {shown(m)}")
    lines.append("  pattern share differences:")
    for pid, r in v["patterns"].items():
        if r["value"] or r["low"] or r["high"]:
            lines.append(f"    {r['name']:8} {pid:16} {shown(r)}")
    return "\n".join(lines) + "\n" + text(v["a_summary"]) + text(v["b_summary"])
