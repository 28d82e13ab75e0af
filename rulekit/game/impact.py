"""Which rules two rulesets differ in, and in how many simulated hands each difference fired
(docs/game.md, "Which rules differ"). A difference that never fired cannot have moved the
numbers, so `simulate --versus` warns about it instead of letting "no change" read as proof.

The structural diff walks the two merged rulesets: every differing key, down to one pattern,
one `forbid` / `instant_win` entry, one `add` / `multiply` value or one combination. What
"fired" means depends on the kind of key (`KINDS`); the predicates read only a hand's outcome
(`rulekit.game.simulate.outcome_of`) under both rulesets.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Mapping, Sequence

from rulekit.ruleset.model import Ruleset

Outcome = Mapping[str, Any]
META_KEYS = frozenset({"name", "description", "extends", "$schema"})
BY_ID = frozenset({"patterns", "forbid", "instant_win"})        # sections compared per entry
SCORING_BY_ID = frozenset({"add", "multiply", "combinations"})

# kind: what "fired" means, in words (the report and docs/game.md say the same)
KINDS = {
    "pattern": "the pattern was among the winner's patterns under either ruleset",
    "combination": "every pattern of the combination was among the winner's patterns "
                   "under either ruleset",
    "kong": "a kong of that kind was made (any seat) under either ruleset",
    "kong_multiplied": "a kong was made at a table where the dealer sat or a seat pulled",
    "dealer_sits": "the dealer sat (坐莊)",
    "pulls": "a seat pulled (拉莊)",
    "draw": "the hand was drawn (荒莊) under either ruleset",
    "discard": "a win on a discard under either ruleset",
    "chan": "a 鏟 happened under either ruleset",
    "heavenly": "a heavenly hand (天和) won under either ruleset",
    "play": "play changed: another winner, win type, kongs, 鏟 or hand length",
    "result": "the result changed: the winner's patterns, fan or the payments",
}


@dataclass(frozen=True, slots=True)
class RuleDiff:
    """One differing rule: `first` and `other` are its values (None: absent)."""

    key: str
    name: str                 # the rule's Chinese name
    first: Any
    other: Any
    kind: str                 # a key of KINDS
    patterns: tuple[str, ...] = ()      # the pattern ids a pattern/combination kind needs
    kong: tuple[str, ...] = ()          # kong shapes a kong kind needs

    def fired(self, x: Outcome, y: Outcome) -> bool:
        """Did this difference come into play in a hand (`x` under the first, `y` the other)?"""
        return _FIRED[self.kind](self, x, y)

    def to_dict(self, fired_hands: int) -> dict[str, Any]:
        return {"key": self.key, "name": self.name, "first": self.first, "other": self.other,
                "kind": self.kind, "fired_when": KINDS[self.kind],
                "fired_hands": fired_hands}


@lru_cache(maxsize=1)
def key_names() -> Mapping[str, str]:
    """Chinese names of ruleset keys (rulekit/data/rule_keys.json)."""
    from importlib import resources     # a --versus report's only: not every simulate's
    text = resources.files("rulekit.data").joinpath("rule_keys.json").read_text("utf-8")
    table: dict[str, str] = json.loads(text)
    table.pop("_about", None)
    return table


def plain(x: Any) -> Any:
    """Mappings and sequences as dicts and lists (JSON values)."""
    if isinstance(x, Mapping):
        return {str(k): plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [plain(v) for v in x]
    return x


def rule_diff(first: Ruleset, other: Ruleset) -> tuple[RuleDiff, ...]:
    """Every rule the two merged rulesets differ in, in key order."""
    out: list[RuleDiff] = []
    a_all, b_all = plain(first.data), plain(other.data)
    for section in sorted(set(a_all) | set(b_all)):
        a, b = a_all.get(section), b_all.get(section)
        if section in META_KEYS or a == b:
            continue
        if isinstance(a, dict) and isinstance(b, dict):
            for k in sorted(set(a) | set(b)):
                if a.get(k) == b.get(k):
                    continue
                if section == "scoring" and k in SCORING_BY_ID and \
                        isinstance(a.get(k, {}), dict) and isinstance(b.get(k, {}), dict):
                    sa, sb = a.get(k, {}), b.get(k, {})
                    out += [_one(f"scoring.{k}.{i}", sa.get(i), sb.get(i), first, other)
                            for i in sorted(set(sa) | set(sb)) if sa.get(i) != sb.get(i)]
                else:
                    out.append(_one(f"{section}.{k}", a.get(k), b.get(k), first, other))
        else:
            out.append(_one(section, a, b, first, other))
    return tuple(out)


def _one(key: str, a: Any, b: Any, first: Ruleset, other: Ruleset) -> RuleDiff:
    parts = key.split(".")
    section = parts[0]
    names = key_names()
    if section == "patterns" or parts[:2] in (["scoring", "add"], ["scoring", "multiply"]):
        pid = parts[-1]
        zh = first.names.get(pid) or other.names.get(pid) or pid
        label = zh if section == "patterns" else f"{names[f'scoring.{parts[1]}']} {zh}"
        return RuleDiff(key, label, a, b, "pattern", patterns=(pid,))
    if parts[:2] == ["scoring", "combinations"]:
        pats = tuple(str(p) for p in ((a or b or {}).get("patterns") or ()))
        return RuleDiff(key, f"組合番 {parts[2]}", a, b, "combination", patterns=pats)
    if section in ("forbid", "instant_win"):
        entry = a if isinstance(a, dict) else b if isinstance(b, dict) else {}
        return RuleDiff(key, f"{names[section]} {entry.get('name') or parts[-1]}", a, b, "play")
    return RuleDiff(key, names.get(key) or names.get(section) or key, a, b, *_kind(key))


def _kind(key: str) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """The kind of a plain key, with the kong shapes a `kong` kind needs."""
    if key.startswith("kong_points."):
        shape = key.split(".", 1)[1]
        return "kong", (), ((shape, "added") if shape == "exposed" else (shape,))
    simple = {"settlement.kong_points_multiplied": "kong_multiplied",
              "settlement.dealer_sits_multiplier": "dealer_sits",
              "settlement.pull_multiplier": "pulls", "settlement.max_pulls": "pulls",
              "settlement.dealer_on_draw": "draw", "settlement.discard_payer": "discard"}
    if key in simple:
        return simple[key], (), ()
    section = key.split(".", 1)[0]
    if section == "chan":
        return "chan", (), ()
    if section == "heavenly":
        return "heavenly", (), ()
    if section in ("hun", "win", "game", "players"):
        return "play", (), ()
    return "result", (), ()


def _either(pred: Callable[[Outcome], bool]) -> Callable[[RuleDiff, Outcome, Outcome], bool]:
    return lambda d, x, y: pred(x) or pred(y)


def _has_patterns(d: RuleDiff, x: Outcome, y: Outcome) -> bool:
    need = set(d.patterns)
    return bool(need) and (need <= set(x["patterns"]) or need <= set(y["patterns"]))


def _has_kong(d: RuleDiff, x: Outcome, y: Outcome) -> bool:
    return any(k in d.kong for o in (x, y) for seat in o["kongs"] for k in seat)


def _any_kong(o: Outcome) -> bool:
    return any(o["kongs"][s] for s in range(len(o["kongs"])))


def _sits_or_pulls(o: Outcome) -> bool:
    return bool(o.get("dealer_sits")) or any(o.get("pulls") or ())


def play_of(o: Outcome) -> tuple[Any, ...]:
    """What play decided, beyond scoring: a procedure option that changed play changes this."""
    return (o["winner"], o["win_by"], o["dealer"], tuple(map(tuple, o["kongs"])), o["chan"],
            o.get("turns"))


def _result(o: Outcome) -> tuple[Any, ...]:
    return (tuple(o["patterns"]), float(o["total_fan"]), tuple(map(float, o["payments"])))


_FIRED: dict[str, Callable[[RuleDiff, Outcome, Outcome], bool]] = {
    "pattern": _has_patterns,
    "combination": _has_patterns,
    "kong": _has_kong,
    "kong_multiplied": _either(lambda o: _any_kong(o) and _sits_or_pulls(o)),
    "dealer_sits": _either(lambda o: bool(o.get("dealer_sits"))),
    "pulls": _either(lambda o: any(o.get("pulls") or ())),
    "draw": _either(lambda o: o["winner"] is None),
    "discard": _either(lambda o: o["win_by"] == "discard"),
    "chan": _either(lambda o: bool(o["chan"])),
    "heavenly": _either(lambda o: bool(o.get("heavenly"))),
    "play": lambda d, x, y: play_of(x) != play_of(y),
    "result": lambda d, x, y: _result(x) != _result(y),
}


def fired_counts(diffs: Sequence[RuleDiff],
                 pairs: Sequence[tuple[Outcome, Outcome]]) -> list[int]:
    """For each difference, the number of hands where it fired."""
    return [sum(1 for x, y in pairs if d.fired(x, y)) for d in diffs]


_SUGGEST = {
    "pattern": "no winning hand made it: try more hands (--hands), other players "
               "(--players value,value,value,value), or a corpus that has it "
               "(`rulekit diff FIRST OTHER --corpus FILE`)",
    "combination": "no winning hand made all of its patterns: try more hands (--hands), "
                   "other players (--players value,value,value,value), or a corpus that has "
                   "it (`rulekit diff FIRST OTHER --corpus FILE`)",
    "kong": "no such kong was made: try more hands, or players who kong "
            "(--players value,greedy,value,greedy: value players take every 金杠)",
    "kong_multiplied": "the simulated table never sits or pulls (game.dealer_sits, "
                       "game.pulls): set them in an overlay of both rulesets, or check the "
                       "rule with `rulekit diff` over `rulekit corpus --settle`",
    "dealer_sits": "the simulated table never sits (game.dealer_sits: false): set it in an "
                   "overlay of both rulesets, or use `rulekit diff` over "
                   "`rulekit corpus --settle`",
    "pulls": "the simulated table never pulls (game.pulls: 0): set it in an overlay of "
             "both rulesets, or use `rulekit diff` over `rulekit corpus --settle`",
    "draw": "no hand was drawn: try more hands",
    "discard": "no hand was won on a discard (win.by must allow one): try more hands",
    "chan": "no 鏟 happened (it is rare): try many more hands, or `rulekit diff` over "
            "`rulekit corpus --settle`",
    "heavenly": "no 天和 happened (it is rare): try many more hands, or a corpus",
    "play": "play never changed: try more hands or other players (--players)",
    "result": "no result changed: try more hands or other players (--players)",
}


def never_fired_warning(d: RuleDiff, hands: int, players: Sequence[str]) -> str:
    """The warning for a difference that fired in none of the hands."""
    return (f"{d.key} ({d.name}) never fired in {hands} hands of "
            f"{', '.join(players)}, so the numbers say nothing about it; "
            f"{_SUGGEST[d.kind]}")


def value_text(v: Any) -> str:
    """A rule's value in one short line: `absent`, `8`, `{patterns: [...], value: 15}`."""
    if v is None:
        return "absent"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return " ".join(v.split())
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {value_text(x)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(value_text(x) for x in v) + "]"
    return str(v)
