"""The bot protocol `rulekit-bot/1` as data: the messages the referee writes, and the one
answer it reads (docs/bots.md). No pipes, sockets or processes here: the subprocess bots of
`rulekit match` (rulekit.game.bots) and the web tables' WebSocket carry the same lines.

One JSON object per line, UTF-8. Four kinds go to a bot: `start` (once per match), `event`
(what its seat may see), `request` (the only one that wants an answer) and `end` (a hand's
result). An answer is one line holding exactly one element of the request's `legal` list.
Everything a bot sends is bounded before it is parsed: the line's length and nesting.
"""
from __future__ import annotations

import json
from dataclasses import asdict
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from rulekit.errors import RulekitError

if TYPE_CHECKING:
    from rulekit.game.rules import GameRules
    from rulekit.ruleset.model import Ruleset

PROTOCOL = "rulekit-bot/1"
MAX_ANSWER_BYTES = 4096          # an action is a few dozen bytes
MAX_ANSWER_DEPTH = 4             # an action is one flat object
Action = dict[str, Any]


class ProtocolError(RulekitError):
    """An answer that is not one legal action. `kind` is `garbage` (not one small JSON
    object), `too_long` or `illegal` (JSON, but no element of `legal`)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def encode(message: Mapping[str, Any]) -> str:
    """One line, no trailing newline; non-ASCII kept (rule names are Chinese)."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


def start(seat: int, ruleset: Mapping[str, Any], *, players: int, hands: int | None,
          think_time: float | None) -> dict[str, Any]:
    """The first message of a match: who the bot is and under which rules it plays."""
    return {"type": "start", "protocol": PROTOCOL, "seat": seat, "players": players,
            "ruleset": dict(ruleset), "hands": hands, "think_time": think_time}


def rule_summary(rs: "Ruleset", rules: "GameRules") -> dict[str, Any]:
    """What a bot is told about the rules in `start`: the name, the procedure switches
    (the ruleset's `game:` section), how a hand may win, and the patterns' names."""
    minimum = rs.minimum
    return {"name": rs.name, "description": rs.description, "game": asdict(rules),
            "win_by": sorted(rs.win_by),
            "minimum": minimum if isinstance(minimum, (int, float, type(None))) else str(minimum),
            "patterns": {p.id: p.name for p in rs.patterns}}


def event(seat: int, hand: int, index: int, ev: Mapping[str, Any]) -> dict[str, Any]:
    """One event of hand `hand` as `seat` may see it (`index`: its place among them)."""
    return {"type": "event", "seat": seat, "hand": hand, "index": index, "event": dict(ev)}


def request(seat: int, observation: Mapping[str, Any], legal: Sequence[Action]
            ) -> dict[str, Any]:
    """The question: answer with one line that is one element of `legal`."""
    return {"type": "request", "seat": seat, "observation": dict(observation),
            "legal": list(legal)}


def end(seat: int, hand: int, result: Mapping[str, Any]) -> dict[str, Any]:
    """A hand is over: its result (winner, patterns, fan, payments for every seat)."""
    return {"type": "end", "seat": seat, "hand": hand, "result": dict(result)}


def canonical(action: Any) -> str:
    """An action's one spelling: `{"count": true}` and `{"count": 1}` are different
    actions, though Python finds them equal."""
    return json.dumps(action, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _depth_ok(text: str, limit: int) -> bool:
    depth = 0
    quoted = escaped = False
    for ch in text:
        if quoted:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return False
        elif ch in "]}":
            depth -= 1
    return True


def excerpt(data: bytes | str, limit: int = 120) -> str:
    """What a bot sent, short and printable, for a report."""
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    shown = repr(text[:limit])
    return shown + (f" ... ({len(text)} characters)" if len(text) > limit else "")


def parse_answer(line: bytes | str, legal: Sequence[Action]) -> Action:
    """The element of `legal` that `line` spells, or ProtocolError saying why none is."""
    raw = line.encode("utf-8", "surrogatepass") if isinstance(line, str) else line
    if len(raw) > MAX_ANSWER_BYTES:
        raise ProtocolError("too_long", f"an answer of {len(raw)} bytes (at most "
                                        f"{MAX_ANSWER_BYTES})")
    try:
        text = raw.decode("utf-8").strip()
    except UnicodeDecodeError:
        raise ProtocolError("garbage", f"not UTF-8: {excerpt(raw)}") from None
    if not _depth_ok(text, MAX_ANSWER_DEPTH):
        raise ProtocolError("garbage", f"nested deeper than {MAX_ANSWER_DEPTH}: "
                                       f"{excerpt(text)}")
    try:
        got = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("garbage", f"not JSON: {excerpt(text)}") from None
    if not isinstance(got, dict):
        raise ProtocolError("garbage", f"not a JSON object: {excerpt(text)}")
    key = canonical(got)
    for a in legal:
        if canonical(a) == key:
            return a
    shown = ", ".join(canonical(a) for a in legal[:12])
    more = f" and {len(legal) - 12} more" if len(legal) > 12 else ""
    raise ProtocolError("illegal", f"{excerpt(text)} is not legal; legal: {shown}{more}")
