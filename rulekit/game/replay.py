"""Re-playing a logged hand from its record: the wall in dealing order, the hun dice, the
dealer and each recorded move (docs/game.md, "Replay"). Under the record's own ruleset the
replay must give the same events and result; under another it shows what changes."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from rulekit.errors import RulekitError
from rulekit.game.players import ReplayMismatch, Script, ScriptedPlayer
from rulekit.game.procedure import Event, IllegalMove, event_dict
from rulekit.game.rules import game_rules
from rulekit.game.table import play_hand
from rulekit.ruleset.model import Ruleset
from rulekit.game.wall import tile_set
from rulekit.tiles import NUM_ALL_KINDS, TILE_NAMES

_KIND = {TILE_NAMES[k]: k for k in range(NUM_ALL_KINDS)}


class RecordError(RulekitError):
    """A log record that is not one this program wrote."""


def parse_wall(text: object) -> list[int]:
    if not isinstance(text, str) or len(text) % 2:
        raise RecordError("wall: expected a tile string like 1m5p7z...")
    out = []
    for i in range(0, len(text), 2):
        k = _KIND.get(text[i:i + 2])
        if k is None:
            raise RecordError(f"wall: {text[i:i + 2]!r} at position {i} is not a tile")
        out.append(k)
    return out


def _events(rec: Mapping[str, Any]) -> list[Event]:
    out: list[Event] = []
    for i, e in enumerate(rec.get("events") or []):
        try:
            tile = -1 if e["tile"] is None else _KIND[e["tile"]]
            out.append((int(e["seat"]), str(e["action"]), tile, str(e.get("rule", ""))))
        except (KeyError, TypeError, ValueError):
            raise RecordError(f"events[{i}]: not a recorded event: {str(e)[:80]}") from None
    return out


def replay(rec: Mapping[str, Any], rs: Ruleset) -> dict[str, Any]:
    """Re-play one record under `rs`: {"same", "mismatch", "result", "events"}."""
    try:
        order = parse_wall(rec["wall"])
        hun_dice = tuple(int(x) for x in rec["hun_dice"])
        dealer = int(rec["dealer"])
    except (KeyError, TypeError, ValueError) as err:
        raise RecordError(f"a record needs wall, hun_dice and dealer ({err})") from None
    rules = game_rules(rs)
    if sorted(order) != tile_set(rules.flowers):
        raise RecordError(f"wall: not a permutation of the {len(tile_set(rules.flowers))} "
                          "tiles of this ruleset")
    if len(hun_dice) != 2 or not all(1 <= d <= 6 for d in hun_dice):
        raise RecordError(f"hun_dice: two dice from 1 to 6, not {list(hun_dice)}")
    if not 0 <= dealer < rs.players:
        raise RecordError(f"dealer: a seat from 0 to {rs.players - 1}, not {dealer}")
    seed = rec.get("seed")
    if seed is not None and not isinstance(seed, int):
        raise RecordError("seed: a whole number or null")
    if not isinstance(rec.get("events"), list):
        raise RecordError("events: a list of {seat, action, tile}")
    script = Script(_events(rec))
    pulls = rec.get("pulls") or [0]
    if not isinstance(pulls, list) or not all(isinstance(p, int) and 0 <= p <= 4 for p in pulls):
        raise RecordError("pulls: a list of whole numbers from 0 to 4")
    rules = replace(rules, dealer_sits=rec.get("dealer_sits") is True,   # if not asked
                    pulls=max(pulls, default=0))
    sits = rec.get("dealer_sits") is True
    players = [ScriptedPlayer(script, sits, pulls) for _ in range(rules.players)]
    try:
        got = play_hand(rs, players, seed=seed, dealer=dealer, rules=rules,
                        order=order, hun_dice=hun_dice, observer=script.observe)
    except (ReplayMismatch, IllegalMove) as err:
        return {"same": False, "mismatch": str(err), "result": None}
    events = [event_dict(e) for e in got.events]
    same = events == rec.get("events") and got.result == rec.get("result")
    mismatch = None
    if not same:
        mismatch = _first_difference(events, list(rec.get("events") or []))
    return {"same": same, "mismatch": mismatch, "result": got.result}


def _first_difference(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> str:
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"event {i}: replayed {x}, recorded {y}"
    if len(a) != len(b):
        return f"{len(a)} events replayed, {len(b)} recorded"
    return "the result differs"
