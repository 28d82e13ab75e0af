"""What a simulation shows: rates, pattern frequencies, the fan distribution, money per seat,
hand length and the dealer's edge, each with its 95% interval; with `--versus`, which rules
differ, whether they fired, and the paired differences (docs/game.md, "Simulation").

Rates carry Wilson intervals; money and every paired difference the bootstrap over sessions
(`rulekit.game.stats.Sessions`). A difference reads FIRST − OTHER: what the first ruleset named
(the one the author is considering) changes against the other."""
from __future__ import annotations

import unicodedata
from collections import Counter
from typing import Any, Sequence

from rulekit.game import impact
from rulekit.game.state import GOLDEN
from rulekit.game.stats import Sessions, rate, shown, signed, spread
from rulekit.ruleset.model import Ruleset


def _f(x: Any) -> float:
    return float(x)


def _sessions(n: int, session_hands: int, seed: object) -> Sessions:
    return Sessions([i // max(1, session_hands) for i in range(n)], seed)


def summarise(outs: Sequence[dict[str, Any]], rs: Ruleset, players: Sequence[str],
              session_hands: int = 16, seed: object = 0,
              boot: Sessions | None = None) -> dict[str, Any]:
    n = len(outs)
    boot = boot or _sessions(n, session_hands, seed)
    wins = [o for o in outs if o["winner"] is not None]
    pats: Counter[str] = Counter(p for o in wins for p in o["patterns"])
    fans: Counter[str] = Counter(_fan_key(o["total_fan"]) for o in wins)
    seats = len(players)
    golden = sum(1 for o in outs if any(GOLDEN in seat for seat in o["kongs"]))
    paid = [[float(o["payments"][s]) for o in outs] for s in range(seats)]
    return {
        "ruleset": rs.name, "hands": n, "sessions": boot.count,
        "session_hands": session_hands, "players": list(players),
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
        "fan": {"mean": boot.ratio([_f(o["total_fan"]) for o in outs],
                                   [float(o["winner"] is not None) for o in outs]),
                "distribution": dict(sorted(fans.items(), key=lambda kv: float(kv[0])))},
        "hand_length": boot.ratio([_f(o.get("turns", 0)) for o in outs]),
        "money": [boot.ratio(p) for p in paid],
        "money_per_session": [spread(boot.sums(p)) for p in paid],
        "dealer_edge": boot.ratio([_f(o["payments"][o["dealer"]]) for o in outs]),
        "by_player": _by_player(outs, players, boot),
    }


def _by_player(outs: Sequence[dict[str, Any]], players: Sequence[str],
               boot: Sessions) -> dict[str, Any]:
    """Per kind of player, its seats' mean money per hand; with two kinds, the per-hand
    difference between them (the first named minus the other), paired within each hand."""
    kinds = list(dict.fromkeys(players))
    if len(kinds) < 2:
        return {}
    seats = {k: [s for s, p in enumerate(players) if p == k] for k in kinds}

    def avg(o: dict[str, Any], k: str) -> float:
        return sum(_f(o["payments"][s]) for s in seats[k]) / len(seats[k])

    out: dict[str, Any] = {k: boot.ratio([avg(o, k) for o in outs]) for k in kinds}
    if len(kinds) == 2:
        a, b = kinds
        out[f"{a} - {b}"] = boot.ratio([avg(o, a) - avg(o, b) for o in outs])
    return out


def _fan_key(x: Any) -> str:
    f = float(x)
    return str(int(f)) if f.is_integer() else str(f)


def reading(first: str, other: str) -> str:
    """How every difference of a versus report reads, in words."""
    return (f"differences read FIRST − OTHER: {first} minus {other}, i.e. what {first} "
            f"changes against {other}; + means more under {first}")


def versus(outs: Sequence[dict[str, Any]], first: Ruleset, other: Ruleset,
           players: Sequence[str], session_hands: int = 16,
           seed: object = 0) -> dict[str, Any]:
    """Paired differences over the same deals: `first` minus `other`, per hand. Each outcome
    is the hand under `first`, with the hand under `other` at its "versus" key."""
    n = len(outs)
    seats = len(players)
    boot = _sessions(n, session_hands, seed)
    pairs = [(o, o["versus"]) for o in outs]
    diffs = impact.rule_diff(first, other)
    fired = impact.fired_counts(diffs, pairs)
    changed = [float(_result(x) != _result(y) or impact.play_of(x) != impact.play_of(y))
               for x, y in pairs]
    paid = [float(x["payments"] != y["payments"]) for x, y in pairs]
    money = [[_f(x["payments"][s]) - _f(y["payments"][s]) for x, y in pairs]
             for s in range(seats)]
    ids = sorted({p for x, y in pairs for p in x["patterns"] + y["patterns"]})

    def diff(key: Any) -> dict[str, Any]:
        return boot.ratio([_f(key(x)) - _f(key(y)) for x, y in pairs])

    warnings = [impact.never_fired_warning(d, n, players)
                for d, k in zip(diffs, fired) if k == 0]
    few = int(sum(paid))
    if 0 < few < 10:
        warnings.append(f"money changed in only {few} hand{'s' if few > 1 else ''}: the "
                        "per-changed-hand numbers describe those hands, and their intervals "
                        "(resampling so few) are no guide to other hands")
    if not diffs:
        warnings.append(f"{first.name} and {other.name} differ in no rule: every difference "
                        "below is zero by construction")
    return {
        "first": first.name, "other": other.name, "difference": "first - other",
        "reading": reading(first.name, other.name),
        "hands": n, "sessions": boot.count, "session_hands": session_hands,
        "players": list(players),
        "rules_differ": [d.to_dict(k) for d, k in zip(diffs, fired)],
        "warnings": warnings,
        "same_play": sum(1 for x, y in pairs if impact.play_of(x) == impact.play_of(y)),
        "changed_hands": rate(int(sum(changed)), n),
        "money_changed": rate(int(sum(paid)), n),
        "changed_without_golden_kong_or_chan": sum(
            1 for (x, y), c in zip(pairs, paid) if c and not (_gold_or_chan(x)
                                                               or _gold_or_chan(y))),
        "money_difference": [boot.ratio(m) for m in money],
        "money_difference_per_changed_hand": [boot.ratio(m, paid) for m in money],
        "money_difference_per_session": [spread(boot.sums(m)) for m in money],
        "dealer_edge_difference": diff(lambda o: o["payments"][o["dealer"]]),
        "win_rate_difference": diff(lambda o: o["winner"] is not None),
        "draw_rate_difference": diff(lambda o: o["winner"] is None),
        "hand_length_difference": diff(lambda o: o.get("turns", 0)),
        "patterns": {p: dict(diff(lambda o, p=p: p in o["patterns"]),
                             name=first.names.get(p) or other.pattern_name(p))
                     for p in ids},
        "first_summary": summarise([x for x, _ in pairs], first, players, session_hands,
                                   boot=boot),
        "other_summary": summarise([y for _, y in pairs], other, players, session_hands,
                                   boot=boot),
    }


def _gold_or_chan(o: dict[str, Any]) -> bool:
    return bool(o["chan"]) or any(GOLDEN in seat for seat in o["kongs"])


def _result(o: dict[str, Any]) -> tuple[Any, ...]:
    return (tuple(o["patterns"]), _f(o["total_fan"]), tuple(map(_f, o["payments"])))


def pad(text: str, width: int) -> str:
    """`text` padded to `width` columns as a terminal shows it (a CJK character takes two)."""
    cols = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)
    return text + " " * max(0, width - cols)


def pattern_label(name: str, pid: str) -> str:
    """A pattern for people: its Chinese name, then its id (`素 su`)."""
    return f"{name} {pid}" if name != pid else pid


def text(s: dict[str, Any]) -> str:
    """The summary for people."""
    lines = [f"{s['ruleset']}: {s['hands']} hands in {s['sessions']} sessions of "
             f"{s['session_hands']}, players {', '.join(s['players'])} (95% intervals; "
             "money: bootstrap over sessions)"]
    for key, label in (("win_rate", "win rate"), ("draw_rate", "荒莊 (draw) rate"),
                       ("dealer_win_rate", "dealer win rate"), ("chan_rate", "鏟 rate"),
                       ("golden_kong_rate", "金杠 rate"),
                       ("xiao_xiang_gong_rate", "小相公 rate")):
        lines.append(f"  {pad(label, 24)} {shown(s[key], pct=True)}")
    if s["patterns"]:
        lines.append("  patterns (share of hands):")
        for pid, r in s["patterns"].items():
            lines.append(f"    {pad(pattern_label(r['name'], pid), 24)} {shown(r, pct=True)}")
    lines.append(f"  {'mean fan of a win':24} {shown(s['fan']['mean'])}")
    if s["fan"]["distribution"]:
        lines.append(f"  {'fan distribution':24} " + ", ".join(
            f"{k}: {v}" for k, v in s["fan"]["distribution"].items()))
    lines.append(f"  {'hand length (discards)':24} {shown(s['hand_length'])}")
    for seat, m in enumerate(s["money"]):
        label = f"seat {seat} ({s['players'][seat]}) per hand"
        lines.append(f"  {pad(label, 24)} {shown(m, sign=True)}")
    lines.append(f"  {'dealer edge per hand':24} {shown(s['dealer_edge'], sign=True)}")
    for k, m in s["by_player"].items():
        lines.append(f"  {k} per seat per hand  {shown(m, sign=True)}")
    lines.append("  money per seat per session (worst, 5% 25% 50% 75% 95%, best):")
    for seat, sp in enumerate(s["money_per_session"]):
        lines.append(f"    seat {seat}  {_spread(sp)}")
    return "\n".join(lines) + "\n"


def _spread(sp: dict[str, Any]) -> str:
    qs = " ".join(signed(v, 1) for v in sp["quantiles"].values())
    return f"{signed(sp['worst'], 1)}, {qs}, {signed(sp['best'], 1)}"


def versus_text(v: dict[str, Any]) -> str:
    first, other = v["first"], v["other"]
    lines = [f"{first} against {other}: {v['hands']} hands in {v['sessions']} sessions of "
             f"{v['session_hands']}, the same deals under both; players "
             f"{', '.join(v['players'])}",
             f"{v['reading'][0].upper()}{v['reading'][1:]}.",
             "95% intervals: Wilson's for rates, the bootstrap over sessions for differences."]
    lines += _rules_text(v)
    lines.append(f"effect of {first} against {other}:")
    lines += [f"  hands changed (result or play)  {v['changed_hands']['count']} of "
              f"{v['hands']}: {shown(v['changed_hands'], pct=True)}",
              f"  money changed in                {v['money_changed']['count']} hands: "
              f"{shown(v['money_changed'], pct=True)}",
              f"  same play (winner, kongs, 鏟, length) in {v['same_play']} hands",
              f"  money changed without 金杠 or 鏟 in "
              f"{v['changed_without_golden_kong_or_chan']} hands"]
    for key, label in (("win_rate_difference", "win rate"),
                       ("draw_rate_difference", "荒莊 rate"),
                       ("hand_length_difference", "hand length (discards)"),
                       ("dealer_edge_difference", "dealer edge per hand")):
        lines.append(f"  {pad(label, 30)}  {shown(v[key], sign=True)}")
    lines.append("  money per seat: per hand, and per hand whose money changed")
    for seat, (m, c) in enumerate(zip(v["money_difference"],
                                      v["money_difference_per_changed_hand"])):
        lines.append(f"    seat {seat} ({v['players'][seat]})  {shown(m, sign=True)}   "
                     f"per changed hand {shown(c, sign=True)}")
    lines.append("  money difference per seat per session (worst, 5% 25% 50% 75% 95%, best):")
    for seat, sp in enumerate(v["money_difference_per_session"]):
        lines.append(f"    seat {seat}  {_spread(sp)}")
    moved = [(pid, r) for pid, r in v["patterns"].items() if r["value"] or r["low"] or r["high"]]
    if moved:
        lines.append("  pattern share differences:")
        for pid, r in moved:
            lines.append(f"    {pad(pattern_label(r['name'], pid), 24)} {shown(r, sign=True)}")
    return ("\n".join(lines) + "\n\n" + text(v["first_summary"]) + "\n"
            + text(v["other_summary"]))


def _short(text: str, most: int = 60) -> str:
    """A value in a line of text: long ones (a whole pattern) cut, `--format json` has all."""
    return text if len(text) <= most else text[:most - 1] + "…"


def _rules_text(v: dict[str, Any]) -> list[str]:
    if not v["rules_differ"]:
        return ["rules that differ: none"] + [f"warning: {w}" for w in v["warnings"]]
    lines = [f"rules that differ ({v['first']} → {v['other']}) and the hands where each fired:"]
    for r in v["rules_differ"]:
        lines.append(f"  {r['key']} ({r['name']}): {_short(impact.value_text(r['first']))} → "
                     f"{_short(impact.value_text(r['other']))}; fired in {r['fired_hands']} "
                     f"hands ({r['fired_when']})")
    lines += [f"warning: {w}" for w in v["warnings"]]
    return lines
