"""Text for people: a score breakdown, a resolved ruleset. Formatting only."""
from __future__ import annotations

from typing import Any, Mapping

import yaml

from rulekit.ruleset.model import Ruleset
from rulekit.scoring import ScoreResult

_REASONS = {
    "not_a_winning_shape": "not a winning shape (four melds and a pair)",
    "below_minimum": "below the minimum fan",
}


def score_text(doc: Mapping[str, Any], result: ScoreResult, rs: Ruleset) -> str:
    lines = [f"hand: {doc.get('hand', '')} + {doc.get('win_tile', '')} "
             f"(indicator {doc.get('indicator', '')}, ruleset {rs.name})"]
    if result.arrangement:
        groups = []
        for g in result.arrangement:
            mark = "*" if g.has_win else ""
            hun = f"(混 as {g.hun_as})" if g.hun_as else ""
            kind = "" if not g.declared else (" 暗" if g.concealed and g.shape == "kong"
                                               else " 明" if g.shape != "set" else " 碰")
            groups.append(f"[{g.tiles}{mark}{hun}{kind}]")
        lines.append("arrangement: " + " ".join(groups)
                     + (f"  (winning tile {result.win_tile})" if doc.get("heavenly") else ""))
    if result.pattern_names:
        lines.append("patterns: " + ", ".join(result.pattern_names))
    lines += [f"  {step}" for step in result.explain]
    if result.win:
        lines.append(f"WIN: {result.total_fan} fan (hand {result.hand_fan}, "
                     f"kongs {result.kong_fan})")
    else:
        reason = result.reason or ""
        shown = _REASONS.get(reason) or next((f.name for f in rs.forbids if f.id == reason),
                                             reason)
        lines.append(f"NO WIN: {shown}")
    return "\n".join(lines) + "\n"


def ruleset_yaml(rs: Ruleset) -> str:
    header = f"# {rs.name}: resolved from " + " <- ".join(rs.chain) + "\n"
    body: str = yaml.safe_dump(_plain(rs.data), allow_unicode=True, sort_keys=False, width=100)
    return header + body


def _plain(x: Any) -> Any:
    if isinstance(x, Mapping):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    return x
